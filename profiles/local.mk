# profiles: the built-in workload profiles of the emulator, one file each,
# in the format of hpmstat-emu-profile(5). src/kmh/emu/local.mk embeds
# them into Kunminghu's emulator (src/kmh/emu/profiles-gen.c), so the binary
# is self-contained; the same files are installed under $(pkgdatadir)/profiles
# as starting points for profiles of one's own, which are given by path.
EMU_PROFILES = \
	profiles/balanced.profile \
	profiles/branch-mispredict.profile \
	profiles/core-bound.profile \
	profiles/dram-bound.profile \
	profiles/fetch-bandwidth.profile \
	profiles/fetch-latency.profile \
	profiles/hotspots.profile \
	profiles/l1-bound.profile \
	profiles/l2-bound.profile \
	profiles/l3-bound.profile \
	profiles/machine-clears.profile \
	profiles/phased.profile \
	profiles/retiring.profile \
	profiles/store-bound.profile \
	profiles/tasks-mixed.profile
emuprofilesdir = $(pkgdatadir)/profiles
dist_emuprofiles_DATA = $(EMU_PROFILES)
dist_man_MANS += man/hpmstat-emu-profile.5

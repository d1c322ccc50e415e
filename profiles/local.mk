# profiles: the built-in workload profiles of the emulator, one file each,
# in the format of hpmstat-emu-profile(5). src/gen/profiles2c.awk embeds
# them into libemu (src/emu/profiles-gen.c), so the binary is
# self-contained; the same files are installed under $(pkgdatadir)/profiles
# as starting points for profiles of one's own, which are given by path.
EMU_PROFILES = \
	profiles/balanced.profile \
	profiles/branch-mispredict.profile \
	profiles/core-bound.profile \
	profiles/dram-bound.profile \
	profiles/fetch-bandwidth.profile \
	profiles/fetch-latency.profile \
	profiles/l1-bound.profile \
	profiles/l2-bound.profile \
	profiles/l3-bound.profile \
	profiles/machine-clears.profile \
	profiles/phased.profile \
	profiles/retiring.profile \
	profiles/store-bound.profile
emuprofilesdir = $(pkgdatadir)/profiles
dist_emuprofiles_DATA = $(EMU_PROFILES)
EXTRA_DIST += src/gen/profiles2c.awk

# The workload sources themselves are listed in src/emu/local.mk.
nodist_src_emu_libemu_a_SOURCES = src/emu/profiles-gen.c
BUILT_SOURCES += src/emu/profiles-gen.c
CLEANFILES += src/emu/profiles-gen.c src/emu/profiles-gen.c.tmp

src/emu/profiles-gen.c: $(EMU_PROFILES) src/gen/profiles2c.awk
	$(AM_V_GEN)$(MKDIR_P) src/emu && \
	files=; for f in $(EMU_PROFILES); do files="$$files $(top_srcdir)/$$f"; done; \
	$(AWK) -f $(top_srcdir)/src/gen/profiles2c.awk $$files > $@.tmp && mv $@.tmp $@

dist_man_MANS += man/hpmstat-emu-profile.5

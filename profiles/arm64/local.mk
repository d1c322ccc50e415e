# profiles/arm64: the built-in workload profiles of the Arm emulator, in the
# format of hpmstat-emu-profile(5), "ARM PROFILES". src/arm64/emu/sources.mk
# embeds them (src/arm64/emu/profiles-gen.c); they are also installed under
# $(pkgdatadir)/profiles/arm64 as starting points.
ARM_EMU_PROFILES = \
	profiles/arm64/arm-backend-memory.profile \
	profiles/arm64/arm-badspec.profile \
	profiles/arm64/arm-balanced.profile \
	profiles/arm64/arm-frontend.profile \
	profiles/arm64/arm-n2-balanced.profile \
	profiles/arm64/arm-n2-r0p0-balanced.profile \
	profiles/arm64/arm-system.profile
armemuprofilesdir = $(pkgdatadir)/profiles/arm64
dist_armemuprofiles_DATA = $(ARM_EMU_PROFILES)

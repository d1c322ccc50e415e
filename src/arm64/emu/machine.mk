# src/arm64/emu/machine.mk: the Arm emulator put to use (issue 14, item 5):
# the Arm models' emulated machines behind arch/machine.h (machine.c,
# which the registry (registry/models.c) pairs with the Arm models) and the
# script interpreter of `hpmstat emu --arch arm64` (script.c), and what
# that command runs on the machine (commands.c: profiles, bench, scripts). They join
# the machine (libarm64emu.a) and the sources (libarm64src.a), so this
# library comes before both in a link: ARM64_EMU_LIBS is the three.
noinst_LIBRARIES += src/arm64/emu/libarm64mach.a
src_arm64_emu_libarm64mach_a_SOURCES = \
	src/arm64/emu/machine.h src/arm64/emu/machine.c \
	src/arm64/emu/script.h src/arm64/emu/script.c \
	src/arm64/emu/commands.c
# commands.c lists the profiles as JSON too
src_arm64_emu_libarm64mach_a_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
ARM64_EMU_LIBS = src/arm64/emu/libarm64mach.a src/arm64/emu/libarm64emu.a src/arm64/emu/libarm64src.a

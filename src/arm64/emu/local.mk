# src/arm64/emu: the Arm PMUv3 emulator library (see src/arm64/emu/pmu.h).
#   source.h     the run contract between event sources and the machine
#   pmu.c        machine, PEs, decoding the rules, counting fast path
#   pmu-access.c registers: access rules, reads and writes, external block
#   pmu-state.h  the machine's state, shared by those two
#   reference.c  the per-cycle reference the fast path is checked against
#   regs.c       register names for scripts
#   bench.c      the bench engine: fast path against reference
#   doc-notes    the readings of the Arm ARM made here, for hpmstat-emu(1)
# It uses only src/arm64, src/emukit and src/util.
noinst_LIBRARIES += src/arm64/emu/libarm64emu.a
src_arm64_emu_libarm64emu_a_SOURCES = \
	src/arm64/emu/source.h \
	src/arm64/emu/pmu.h src/arm64/emu/pmu-int.h src/arm64/emu/pmu.c \
	src/arm64/emu/pmu-state.h src/arm64/emu/pmu-access.c \
	src/arm64/emu/reference.c src/arm64/emu/regs.c \
	src/arm64/emu/bench.h src/arm64/emu/bench.c
EXTRA_DIST += src/arm64/emu/doc-notes

# src/kmh/emu: the Kunminghu HPM emulator library (see src/kmh/emu/emu.h),
# and Kunminghu's emulated machine for the emulator back end (machine.c).
#   hart.c       machine, harts, CSR file and access rules, counting fast path
#   reference.c  the per-cycle reference the fast path is checked against
#   csr.c        CSR names and numbers, modes, exceptions, number syntax
#   stimulus.c   the stimulus source (exact per-cycle values) and event names
#   trace.c      the trace source: the text format, writing and replay
#   script.c     the interpreter of the hpmstat-emu(1) script language
#   bench.c      the engine of `hpmstat emu bench`: fast path against reference
#   workload*.c, profile*.c: the workload models (see src/kmh/emu/workload.h)
#   machine.c    hpm_machine_kunminghu (arch/machine.h): harts and sources
#                behind the emulated-machine interface
#   commands.c   what `hpmstat emu` runs on it: profiles, bench, scripts
# It uses only src/kmh, src/emukit (the shared trace and script cores, rng, alias,
# bench, phase getters), src/arch and src/util.
noinst_LIBRARIES += src/kmh/emu/libemu.a
src_kmh_emu_libemu_a_SOURCES = \
	src/kmh/emu/source.h src/kmh/emu/emu.h \
	src/kmh/emu/hart.c src/kmh/emu/reference.c src/kmh/emu/csr.c \
	src/kmh/emu/stimulus.c src/kmh/emu/trace.c src/kmh/emu/script.c \
	src/kmh/emu/bench.h src/kmh/emu/bench.c \
	src/kmh/emu/workload.h src/kmh/emu/workload-int.h src/kmh/emu/workload.c \
	src/kmh/emu/workload-model.c src/kmh/emu/workload-params.c \
	src/kmh/emu/profile.c src/kmh/emu/profile-registry.c \
	src/kmh/emu/machine.c src/kmh/emu/machine.h \
	src/kmh/emu/commands.c
# commands.c lists the profiles as JSON too
src_kmh_emu_libemu_a_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)

# The built-in profiles (profiles/local.mk lists them as EMU_PROFILES),
# embedded by profiles2c.awk so that the binary is self-contained.
EXTRA_DIST += src/gen/profiles2c.awk
nodist_src_kmh_emu_libemu_a_SOURCES = src/kmh/emu/profiles-gen.c
BUILT_SOURCES += src/kmh/emu/profiles-gen.c
CLEANFILES += src/kmh/emu/profiles-gen.c src/kmh/emu/profiles-gen.c.tmp

src/kmh/emu/profiles-gen.c: $(EMU_PROFILES) src/gen/profiles2c.awk
	$(AM_V_GEN)$(MKDIR_P) src/kmh/emu && \
	(cd $(top_srcdir) && $(AWK) -f src/gen/profiles2c.awk $(EMU_PROFILES)) > $@.tmp && \
	mv $@.tmp $@

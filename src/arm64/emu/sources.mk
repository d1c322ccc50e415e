# src/arm64/emu/sources.mk: the Arm emulator's event sources (issue 14,
# item 4), a library of their own so that they depend on nothing of the
# machine: the run contract (source.h), exact per-cycle values and event
# names (stimulus.c), workload profiles and their streams (profile*.c),
# traces (trace.c, on src/emukit's trace core). Uses src/arm64 (the event
# tables), src/emukit and src/util.
noinst_LIBRARIES += src/arm64/emu/libarm64src.a
src_arm64_emu_libarm64src_a_SOURCES = \
	src/arm64/emu/source.h \
	src/arm64/emu/stimulus.h src/arm64/emu/stimulus.c \
	src/arm64/emu/profile.h src/arm64/emu/profile-int.h src/arm64/emu/profile.c \
	src/arm64/emu/profile-stream.c src/arm64/emu/profiles-gen.h \
	src/arm64/emu/trace.h src/arm64/emu/trace.c

# The built-in Arm profiles (profiles/arm64/local.mk lists them as
# ARM_EMU_PROFILES), embedded by the shared src/gen/profiles2c.awk.
nodist_src_arm64_emu_libarm64src_a_SOURCES = src/arm64/emu/profiles-gen.c
BUILT_SOURCES += src/arm64/emu/profiles-gen.c
CLEANFILES += src/arm64/emu/profiles-gen.c src/arm64/emu/profiles-gen.c.tmp

src/arm64/emu/profiles-gen.c: $(ARM_EMU_PROFILES) src/gen/profiles2c.awk
	$(AM_V_GEN)$(MKDIR_P) src/arm64/emu && \
	(cd $(top_srcdir) && $(AWK) -v header=arm64/emu/profiles-gen.h -v prefix=arm_src_builtin \
		-v dir=profiles/arm64 -f src/gen/profiles2c.awk $(ARM_EMU_PROFILES)) > $@.tmp && \
	mv $@.tmp $@

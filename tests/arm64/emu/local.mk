# tests/arm64/emu: the Arm PMUv3 emulator library (src/arm64/emu). Every
# expectation is worked out by hand in the test (SPEC §5, the Arm ARM's
# readings in src/arm64/emu/doc-notes) and checked on both the fast path
# and the per-cycle reference; fastpath compares the two on random
# programs and streams.
ARM_EMU_C_TESTS = \
	tests/arm64/emu/count \
	tests/arm64/emu/overflow \
	tests/arm64/emu/access \
	tests/arm64/emu/features \
	tests/arm64/emu/fastpath
check_PROGRAMS += $(ARM_EMU_C_TESTS)
TESTS += $(ARM_EMU_C_TESTS)
ARM_EMU_TEST_LIBS = tests/libtap.a src/arm64/emu/libarm64emu.a src/arm64/libarm64.a src/emukit/libhpmemukit.a \
	src/util/libutil.a $(JANSSON_LIBS)
ARM_EMU_TEST_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
EXTRA_DIST += tests/arm64/emu/arm-emu-test.h

tests_arm64_emu_count_SOURCES = tests/arm64/emu/count.c tests/arm64/emu/arm-emu-test.h
tests_arm64_emu_count_CPPFLAGS = $(ARM_EMU_TEST_CPPFLAGS)
tests_arm64_emu_count_LDADD = $(ARM_EMU_TEST_LIBS)
tests_arm64_emu_overflow_SOURCES = tests/arm64/emu/overflow.c tests/arm64/emu/arm-emu-test.h
tests_arm64_emu_overflow_CPPFLAGS = $(ARM_EMU_TEST_CPPFLAGS)
tests_arm64_emu_overflow_LDADD = $(ARM_EMU_TEST_LIBS)
tests_arm64_emu_access_SOURCES = tests/arm64/emu/access.c tests/arm64/emu/arm-emu-test.h
tests_arm64_emu_access_CPPFLAGS = $(ARM_EMU_TEST_CPPFLAGS)
tests_arm64_emu_access_LDADD = $(ARM_EMU_TEST_LIBS)
tests_arm64_emu_features_SOURCES = tests/arm64/emu/features.c tests/arm64/emu/arm-emu-test.h
tests_arm64_emu_features_CPPFLAGS = $(ARM_EMU_TEST_CPPFLAGS)
tests_arm64_emu_features_LDADD = $(ARM_EMU_TEST_LIBS)
tests_arm64_emu_fastpath_SOURCES = tests/arm64/emu/fastpath.c tests/arm64/emu/arm-emu-test.h
tests_arm64_emu_fastpath_CPPFLAGS = $(ARM_EMU_TEST_CPPFLAGS)
tests_arm64_emu_fastpath_LDADD = $(ARM_EMU_TEST_LIBS)

# hpmstat emu --arch arm64: scripts with hand-worked expectations, and bad
# scripts (FILE:LINE errors)
ARM_EMU_SH_TESTS = tests/arm64/emu/script.sh tests/arm64/emu/script-errors.sh \
	tests/arm64/emu/cli.sh
TESTS += $(ARM_EMU_SH_TESTS)
EXTRA_DIST += $(ARM_EMU_SH_TESTS)

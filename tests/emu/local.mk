# tests/emu: the emulator. C tests check the library against SPEC §1/§2
# (expected values written by hand); the .sh tests drive `hpmstat emu`.
EMU_C_TESTS = \
	tests/emu/csr-access \
	tests/emu/timer \
	tests/emu/count \
	tests/emu/fastpath \
	tests/emu/trace \
	tests/emu/trace-golden \
	tests/emu/script-core
EMU_SH_TESTS = \
	tests/emu/script.sh \
	tests/emu/script-errors.sh \
	tests/emu/trace-cli.sh \
	tests/emu/profiles-cli.sh \
	tests/emu/bench-cli.sh \
	tests/emu/topdown-v3.sh \
	tests/emu/pmu-table.sh \
	tests/emu/recovery-bubble.sh

check_PROGRAMS += $(EMU_C_TESTS)
TESTS += $(EMU_C_TESTS) $(EMU_SH_TESTS)
EXTRA_DIST += $(EMU_SH_TESTS) tests/emu/emu-test.sh

tests_emu_csr_access_SOURCES = tests/emu/csr-access.c tests/emu/emu-test.h
tests_emu_csr_access_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
tests_emu_csr_access_LDADD = $(HPM_TEST_LIBS)
tests_emu_timer_SOURCES = tests/emu/timer.c tests/emu/emu-test.h
tests_emu_timer_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
tests_emu_timer_LDADD = $(HPM_TEST_LIBS)
tests_emu_count_SOURCES = tests/emu/count.c tests/emu/emu-test.h
tests_emu_count_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
tests_emu_count_LDADD = $(HPM_TEST_LIBS)
tests_emu_fastpath_SOURCES = tests/emu/fastpath.c tests/emu/emu-test.h
tests_emu_fastpath_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
tests_emu_fastpath_LDADD = $(HPM_TEST_LIBS)
tests_emu_trace_SOURCES = tests/emu/trace.c tests/emu/emu-test.h
tests_emu_trace_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
tests_emu_trace_LDADD = $(HPM_TEST_LIBS)
# each machine's trace format through the shared core against hand-written
# golden files
tests_emu_trace_golden_SOURCES = tests/emu/trace-golden.c
tests_emu_trace_golden_LDADD = $(HPM_TEST_LIBS)
# the shared script interpreter core on a toy language, without a machine
tests_emu_script_core_SOURCES = tests/emu/script-core.c
tests_emu_script_core_LDADD = tests/libtap.a src/emukit/libhpmemukit.a src/util/libutil.a
EXTRA_DIST += tests/emu/data/kmh-input.trace.txt tests/emu/data/kmh-golden.trace.txt \
	tests/emu/data/arm-input.trace.txt tests/emu/data/arm-golden.trace.txt

# The workload tests (tests/emu/workload.c); it reads the profile files
# through $top_srcdir, which tests/local.mk exports.
check_PROGRAMS += tests/emu/workload
TESTS += tests/emu/workload
tests_emu_workload_SOURCES = tests/emu/workload.c
tests_emu_workload_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
tests_emu_workload_LDADD = $(HPM_TEST_LIBS)


# Every profile's Topdown through programmed counters (SPEC §3 formulas).
check_PROGRAMS += tests/emu/topdown-counters
TESTS += tests/emu/topdown-counters
tests_emu_topdown_counters_SOURCES = tests/emu/topdown-counters.c
tests_emu_topdown_counters_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_emu_topdown_counters_LDADD = $(HPM_TEST_LIBS)

# the shared emulator toolkit (src/emukit) on its own
check_PROGRAMS += tests/emu/toolkit
TESTS += tests/emu/toolkit
tests_emu_toolkit_SOURCES = tests/emu/toolkit.c
tests_emu_toolkit_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_emu_toolkit_LDADD = tests/libtap.a src/emukit/libhpmemukit.a src/util/libutil.a -lm

# The profile kit (src/emukit/profile.c) through a toy model's tables.
check_PROGRAMS += tests/emu/profile-kit
TESTS += tests/emu/profile-kit
tests_emu_profile_kit_SOURCES = tests/emu/profile-kit.c
tests_emu_profile_kit_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_emu_profile_kit_LDADD = tests/libtap.a src/emukit/libhpmemukit.a src/util/libutil.a

# The profile kit's records, required keys and sections, unknown-key lists
# and NAME:SHARE lists through a toy model's tables.
check_PROGRAMS += tests/emu/profile-kit-records
TESTS += tests/emu/profile-kit-records
tests_emu_profile_kit_records_SOURCES = tests/emu/profile-kit-records.c
tests_emu_profile_kit_records_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_emu_profile_kit_records_LDADD = tests/libtap.a src/emukit/libhpmemukit.a src/util/libutil.a

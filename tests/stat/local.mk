# tests/stat: hpmstat stat end to end, on the real kernel and on the emulator.
check_PROGRAMS += tests/stat/touch-pages
tests_stat_touch_pages_SOURCES = tests/stat/touch-pages.c
STAT_TESTS = tests/stat/stat-perf.sh tests/stat/stat-emu.sh tests/stat/signals.sh
STAT_TESTS += tests/stat/record-bytes.sh tests/stat/record-stream.sh tests/stat/provenance.sh
STAT_TESTS += tests/stat/evspec.sh
# toplev's options: -l, --nodes, -v descriptions, --no-multiplex
STAT_TESTS += tests/stat/topdown-options.sh
# perf's tool events: duration_time, user_time, system_time against perf's
STAT_TESTS += tests/stat/tool-events.sh
TESTS += $(STAT_TESTS)
EXTRA_DIST += $(STAT_TESTS)

# Exact counts, wrapped counts, zero within rounding, range flags (C), and
# the same seen from the command line in every format (shell).
check_PROGRAMS += tests/stat/test-numbers
tests_stat_test_numbers_SOURCES = tests/stat/test-numbers.c
tests_stat_test_numbers_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_stat_test_numbers_LDADD = tests/libtap.a src/stat/libstat.a src/metric/libmetric.a \
	src/kmh/libkmh.a src/util/libutil.a -lm
TESTS += tests/stat/test-numbers tests/stat/numbers.sh
EXTRA_DIST += tests/stat/numbers.sh

# perf's numbers and output shapes: rates per second of task-clock, -I and
# -r figures, perf 6.1's JSON linter, CSV fields, -B, --summary, --table,
# the -I header; against perf stat on the same program where it counts.
STAT_SHAPE_TESTS = tests/stat/perf-rates.sh tests/stat/output-shapes.sh
TESTS += $(STAT_SHAPE_TESTS)
EXTRA_DIST += $(STAT_SHAPE_TESTS)
# The -e splitter: blanks, group modifiers, -G and --all-user/--all-kernel.
check_PROGRAMS += tests/stat/test-evspec
tests_stat_test_evspec_SOURCES = tests/stat/test-evspec.c
tests_stat_test_evspec_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_stat_test_evspec_LDADD = tests/libtap.a src/stat/libstat.a src/kmh/libkmh.a \
	src/util/libutil.a -lm
TESTS += tests/stat/test-evspec

# tests/stat: hpmstat stat end to end, on the real kernel and on the emulator.
check_PROGRAMS += tests/stat/touch-pages
tests_stat_touch_pages_SOURCES = tests/stat/touch-pages.c
STAT_TESTS = tests/stat/stat-perf.sh tests/stat/stat-emu.sh tests/stat/signals.sh
STAT_TESTS += tests/stat/record-bytes.sh tests/stat/record-stream.sh tests/stat/provenance.sh
STAT_TESTS += tests/stat/evspec.sh
# the command's start: its signal state, exec counted, exit codes (workload.c)
STAT_TESTS += tests/stat/child-start.sh
# what stat reads before it counts: /proc/cpuinfo once (strace)
STAT_TESTS += tests/stat/startup-io.sh
# Arm hosts on fake sysfs trees: the arm_pmuv3 attrs, 6.1 and 6.8, big.LITTLE
STAT_TESTS += tests/stat/arm-perf.sh
# toplev's options: -l, --nodes, -v descriptions, --no-multiplex
STAT_TESTS += tests/stat/topdown-options.sh
# --topdown-variant: Kunminghu's slots formulas against the raw counts of the
# same run and each profile's declaration, run files, report, top, refusals
STAT_TESTS += tests/stat/topdown-variant.sh
# toplev's sampling hint: the record command for the bottleneck node, run
STAT_TESTS += tests/stat/sample-hint.sh
# perf's tool events: duration_time, user_time, system_time against perf's
STAT_TESTS += tests/stat/tool-events.sh
# Arm Topdown on the Neoverse cores: the events --topdown and -M choose,
# multiplexing, the refusals (no Arm back end here yet) and mixed models
STAT_TESTS += tests/stat/arm-topdown.sh
STAT_TESTS += tests/stat/arm-emu.sh
# Arm's own level 1 of each core (and N2's two revisions) against the raw
# counts of the same run, Arm's stage-2 tree, MIDR revisions on fake sysfs
STAT_TESTS += tests/stat/arm-topdown-arm.sh
# -M's metrics in perf's '#' column beside their first event (std, CSV, JSON)
STAT_TESTS += tests/stat/metric-column.sh
TESTS += $(STAT_TESTS)
EXTRA_DIST += $(STAT_TESTS) tests/stat/profiles-lib.sh

# Exact counts, wrapped counts, zero within rounding, range flags (C), and
# the same seen from the command line in every format (shell).
check_PROGRAMS += tests/stat/test-numbers
tests_stat_test_numbers_SOURCES = tests/stat/test-numbers.c
tests_stat_test_numbers_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_stat_test_numbers_LDADD = tests/libtap.a src/stat/libstat.a src/core/libcore.a src/registry/libregistry.a src/metric/libmetric.a \
	src/kmh/emu/libemu.a src/kmh/libkmh.a $(ARM64_EMU_LIBS) src/emukit/libhpmemukit.a src/arm64/libarm64.a src/arch/libarch.a src/util/libutil.a $(JANSSON_LIBS) -lm
TESTS += tests/stat/test-numbers tests/stat/numbers.sh
EXTRA_DIST += tests/stat/numbers.sh tests/stat/locale.sh

# perf's numbers and output shapes: rates per second of task-clock, -I and
# -r figures, perf 6.1's JSON linter, CSV fields, -B, --summary, --table,
# the -I header; against perf stat on the same program where it counts.
STAT_SHAPE_TESTS = tests/stat/perf-rates.sh tests/stat/output-shapes.sh
STAT_SHAPE_TESTS += tests/stat/stat-record.sh tests/stat/cgroup-field.sh
TESTS += $(STAT_SHAPE_TESTS)
EXTRA_DIST += $(STAT_SHAPE_TESTS) tests/stat/stat-file.py
# The -e splitter: blanks, group modifiers, -G and --all-user/--all-kernel.
check_PROGRAMS += tests/stat/test-evspec
tests_stat_test_evspec_SOURCES = tests/stat/test-evspec.c
tests_stat_test_evspec_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_stat_test_evspec_LDADD = tests/libtap.a src/stat/libstat.a src/core/libcore.a src/registry/libregistry.a src/kmh/emu/libemu.a src/kmh/libkmh.a $(ARM64_EMU_LIBS) src/emukit/libhpmemukit.a src/arm64/libarm64.a \
	src/arch/libarch.a src/util/libutil.a $(JANSSON_LIBS) -lm
TESTS += tests/stat/test-evspec
# Aggregation modes (--per-socket/die/core/node/thread, -t) against perf's
# own output on this machine, a fake sysfs topology and the emulated harts.
check_PROGRAMS += tests/stat/spin-threads
tests_stat_spin_threads_SOURCES = tests/stat/spin-threads.c
tests_stat_spin_threads_LDADD = -lpthread
TESTS += tests/stat/aggr.sh tests/stat/aggr-metrics.sh
EXTRA_DIST += tests/stat/aggr.sh tests/stat/aggr-metrics.sh
check_PROGRAMS += tests/stat/test-aggr
tests_stat_test_aggr_SOURCES = tests/stat/test-aggr.c
tests_stat_test_aggr_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_stat_test_aggr_LDADD = tests/libtap.a src/stat/libstat.a src/core/libcore.a src/registry/libregistry.a src/metric/libmetric.a \
	src/kmh/emu/libemu.a src/kmh/libkmh.a $(ARM64_EMU_LIBS) src/emukit/libhpmemukit.a src/arm64/libarm64.a src/arch/libarch.a src/util/libutil.a $(JANSSON_LIBS) -lm
TESTS += tests/stat/test-aggr
# perf's shadow values and their printf formats on hand-made counts
check_PROGRAMS += tests/stat/test-shadow
tests_stat_test_shadow_SOURCES = tests/stat/test-shadow.c
tests_stat_test_shadow_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_stat_test_shadow_LDADD = $(tests_stat_test_aggr_LDADD)
TESTS += tests/stat/test-shadow
# perf 6.1's own stat shell tests run with hpmstat in perf's place, beside
# the real perf (skipped without Debian's linux-source-6.1); perf's JSON
# linter rules, checked against perf's own output first, then hpmstat's.
PERF_PARITY_TESTS = tests/stat/perf-shell.sh tests/stat/json-rows.sh
# perf 6.12's stat+std/csv/json_output.sh and stat.sh with hpmstat as perf
# (skipped without Debian's linux-source-6.12), and its spellings one by one
PERF_PARITY_TESTS += tests/stat/perf-shell-6.12.sh tests/stat/perf612-spellings.sh
# --metric-only per aggregate against perf 6.1 and the emulator's -A rows
PERF_PARITY_TESTS += tests/stat/metric-only-aggr.sh
# perf 6.12's JSON linter on the Topdown and emulated -j rows; --json-extra
# holds hpmstat's own keys
PERF_PARITY_TESTS += tests/stat/json-lint.sh
TESTS += $(PERF_PARITY_TESTS)
EXTRA_DIST += $(PERF_PARITY_TESTS) tests/stat/perf-json-rows.py tests/stat/perf-shell-lib.sh

# perf stat's run-control options (--interval-count, --timeout, -D, --null,
# --append, -q) against perf on the same commands and on the emulator.
TESTS += tests/stat/run-control.sh
EXTRA_DIST += tests/stat/run-control.sh

# stat printing 40000 rows within a CPU-time limit (issue 27)
TESTS += tests/stat/print-scale.sh
EXTRA_DIST += tests/stat/print-scale.sh

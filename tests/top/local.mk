# tests/top: hpmstat top end to end: batch and JSON frames, the config file,
# processes on the perf back end, and the ncurses view driven through tmux
# (skipped when tmux is not installed), and how it ends on a signal.
TOP_TESTS = tests/top/top-batch.sh tests/top/top-tui.sh tests/top/top-default.sh \
	tests/top/top-signals.sh tests/top/top-keys.sh tests/top/top-colors.sh
TESTS += $(TOP_TESTS)
EXTRA_DIST += $(TOP_TESTS)
# what the tests that drive the view through tmux share
EXTRA_DIST += tests/top/tmux.sh
# task rows from BPF, the per-task group fallback, the emulator's tasks
# (tests/bpf/duty: a loop of a known CPU share)
TESTS += tests/top/top-bpf.sh tests/top/top-fdlimit.sh tests/top/top-bottleneck.sh
# htop's process table: every process, state, VIRT RES NI USER, -u, sorting
# by any column, flagged values (against /proc and a fake <proc>)
TESTS += tests/top/top-htop.sh
EXTRA_DIST += tests/top/top-htop.sh
# what the tables say in both views: headers, sort mark, whole column
# names, the emulator's disclaimer on a narrow terminal, flagged shares
TESTS += tests/top/top-tables.sh
EXTRA_DIST += tests/top/top-tables.sh
EXTRA_DIST += tests/top/top-bpf.sh tests/top/top-fdlimit.sh tests/top/top-bottleneck.sh
# a multi-threaded sleeper for the tree view test (top-keys.sh)
check_PROGRAMS += tests/top/mt-sleeper
tests_top_mt_sleeper_SOURCES = tests/top/mt-sleeper.c
tests_top_mt_sleeper_LDADD = -lpthread
# a task row's tree from its counts (top_model_task_metrics)
check_PROGRAMS += tests/top/test-taskmetrics
TESTS += tests/top/test-taskmetrics
tests_top_test_taskmetrics_SOURCES = tests/top/test-taskmetrics.c
tests_top_test_taskmetrics_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_top_test_taskmetrics_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
tests_top_test_taskmetrics_LDADD = tests/libtap.a src/top/libtop.a src/stat/libstat.a \
	src/backend/libbackend.a src/core/libcore.a src/registry/libregistry.a src/metric/libmetric.a src/bpf/libhpmbpf.a \
	$(HPM_TEST_LIBS) src/perfdata/libperfdata.a src/sym/libsym.a $(LIBELF_LIBS) $(CXXDEMANGLE_LIBS) $(LIBPFM4_LIBS) \
	$(NCURSES_LIBS) $(LIBBPF_LIBS)
# top.conf's warnings: each bad line at its line, a bad value at its column
check_PROGRAMS += tests/top/test-config
TESTS += tests/top/test-config
tests_top_test_config_SOURCES = tests/top/test-config.c
tests_top_test_config_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_top_test_config_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
tests_top_test_config_LDADD = $(tests_top_test_taskmetrics_LDADD)

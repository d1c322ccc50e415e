# tests/top: hpmstat top end to end: batch and JSON frames, the config file,
# processes on the perf back end, and the ncurses view driven through tmux
# (skipped when tmux is not installed), and how it ends on a signal.
TOP_TESTS = tests/top/top-batch.sh tests/top/top-tui.sh tests/top/top-default.sh \
	tests/top/top-signals.sh
TESTS += $(TOP_TESTS)
EXTRA_DIST += $(TOP_TESTS)

# tests/emu-tasks: per-task attribution at the emulator's context switches
# against its ground truth (issue 16): the back end end to end (compiled in,
# as tests/backend/emu.mk does), and the CLI (stat --emu-tasks).
EMU_TASKS_TESTS = tests/emu-tasks/emu-tasks
EMU_TASKS_SH_TESTS = tests/emu-tasks/stat-cli.sh tests/emu-tasks/idle-harts.sh
check_PROGRAMS += $(EMU_TASKS_TESTS)
TESTS += $(EMU_TASKS_TESTS) $(EMU_TASKS_SH_TESTS)
EXTRA_DIST += $(EMU_TASKS_SH_TESTS)
tests_emu_tasks_emu_tasks_SOURCES = tests/emu-tasks/emu-tasks.c \
	tests/backend/emu-run.c tests/backend/emu-run.h \
	src/backend/emu.c src/backend/emu.h \
	src/core/evlist.c src/core/evlist.h \
	src/core/sched.c src/core/sched.h \
	src/registry/models.c src/registry/models.h
tests_emu_tasks_emu_tasks_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests -I$(top_srcdir)/tests/backend
tests_emu_tasks_emu_tasks_LDADD = $(HPM_TEST_LIBS)

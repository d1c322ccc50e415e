# tests/toy: a throwaway PMU model and machine (toy.c), never installed,
# registered at run time: by the emulator back end's test
# (tests/backend/emu-toy) and by toy-hpmstat, hpmstat's own command line
# with the toy added, which cli.sh runs through stat, run files and report.
check_PROGRAMS += tests/toy/toy-hpmstat
tests_toy_toy_hpmstat_SOURCES = tests/toy/toy-hpmstat.c tests/toy/toy.c tests/toy/toy.h
tests_toy_toy_hpmstat_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_toy_toy_hpmstat_LDADD = $(HPMSTAT_LIBS)
TESTS += tests/toy/cli.sh
EXTRA_DIST += tests/toy/cli.sh

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

# arm-steady: hpmstat with a fixed-rate test machine under a copy of the
# Neoverse V2 model, so that stat, top and report run an Arm core's events
# and Topdown here (arm-cli.sh)
check_PROGRAMS += tests/toy/arm-steady
tests_toy_arm_steady_SOURCES = tests/toy/arm-steady.c
tests_toy_arm_steady_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_toy_arm_steady_LDADD = $(HPMSTAT_LIBS)
TESTS += tests/toy/arm-cli.sh
EXTRA_DIST += tests/toy/arm-cli.sh

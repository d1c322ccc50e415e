# tests/stat: hpmstat stat end to end, on the real kernel and on the emulator.
check_PROGRAMS += tests/stat/touch-pages
tests_stat_touch_pages_SOURCES = tests/stat/touch-pages.c
STAT_TESTS = tests/stat/stat-perf.sh tests/stat/stat-emu.sh
STAT_TESTS += tests/stat/record-bytes.sh tests/stat/record-stream.sh tests/stat/provenance.sh
TESTS += $(STAT_TESTS)
EXTRA_DIST += $(STAT_TESTS)

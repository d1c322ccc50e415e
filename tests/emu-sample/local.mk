# tests/emu-sample: sampling on the Kunminghu emulator (overflow interrupt,
# declared functions as ground truth): tests/emu-sample/sample.c.
check_PROGRAMS += tests/emu-sample/sample
TESTS += tests/emu-sample/sample
tests_emu_sample_sample_SOURCES = tests/emu-sample/sample.c
tests_emu_sample_sample_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_emu_sample_sample_LDADD = $(HPM_TEST_LIBS)
TESTS += tests/emu-sample/record.sh
EXTRA_DIST += tests/emu-sample/record.sh
# the declared functions as a symbol table (links as hpmstat does)
check_PROGRAMS += tests/emu-sample/symbols
TESTS += tests/emu-sample/symbols
tests_emu_sample_symbols_SOURCES = tests/emu-sample/symbols.c
tests_emu_sample_symbols_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_emu_sample_symbols_LDADD = tests/libtap.a $(HPMSTAT_LIBS)

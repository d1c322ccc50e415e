# tests/kmh: the event library: tables, encoder, decoder, generator.
KMH_TESTS = tests/kmh/test-encode tests/kmh/test-decode tests/kmh/test-tables
check_PROGRAMS += $(KMH_TESTS)
TESTS += $(KMH_TESTS) tests/kmh/jevents-reject.sh
EXTRA_DIST += tests/kmh/jevents-reject.sh tests/data/kunminghu-events.tsv \
	tests/data/kunminghu-v2-0f639b5a-events.tsv tests/data/kunminghu-v3-afe3818-events.tsv

tests_kmh_test_encode_SOURCES = tests/kmh/test-encode.c
tests_kmh_test_encode_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_kmh_test_encode_LDADD = $(HPM_TEST_LIBS)
tests_kmh_test_decode_SOURCES = tests/kmh/test-decode.c
tests_kmh_test_decode_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_kmh_test_decode_LDADD = $(HPM_TEST_LIBS)
tests_kmh_test_tables_SOURCES = tests/kmh/test-tables.c
tests_kmh_test_tables_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_kmh_test_tables_LDADD = $(HPM_TEST_LIBS)

# tests/arm64: the Arm PMUv3 register library: PMEVTYPER<n>_EL0 encoding,
# decoding and reserved combinations; PMDEVID.
ARM64_TESTS = tests/arm64/test-pmevtyper tests/arm64/test-pmdevid
check_PROGRAMS += $(ARM64_TESTS)
TESTS += $(ARM64_TESTS)
ARM64_TEST_LIBS = tests/libtap.a src/arm64/libarm64.a src/util/libutil.a $(JANSSON_LIBS)

tests_arm64_test_pmevtyper_SOURCES = tests/arm64/test-pmevtyper.c
tests_arm64_test_pmevtyper_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_arm64_test_pmevtyper_LDADD = $(ARM64_TEST_LIBS)
tests_arm64_test_pmdevid_SOURCES = tests/arm64/test-pmdevid.c
tests_arm64_test_pmdevid_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_arm64_test_pmdevid_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
tests_arm64_test_pmdevid_LDADD = $(ARM64_TEST_LIBS)

# Arm Topdown on counts worked out by hand (the cores' metric tables).
check_PROGRAMS += tests/arm64/test-topdown
TESTS += tests/arm64/test-topdown
tests_arm64_test_topdown_SOURCES = tests/arm64/test-topdown.c
tests_arm64_test_topdown_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_arm64_test_topdown_LDADD = tests/libtap.a src/metric/libmetric.a src/arm64/libarm64.a \
	src/arch/libarch.a src/util/libutil.a $(JANSSON_LIBS) -lm

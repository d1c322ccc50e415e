# tests/util: the neutral helpers of src/util. test-hash checks the keyed
# hash against SipHash-1-3's published outputs and the 64-bit map with keys
# that all collide under a fixed hash (growth, deletion, reinsertion).
check_PROGRAMS += tests/util/test-hash
tests_util_test_hash_SOURCES = tests/util/test-hash.c
tests_util_test_hash_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_util_test_hash_LDADD = tests/libtap.a src/util/libutil.a
TESTS += tests/util/test-hash
# dlopen.sh: the optional libraries mapped only by the commands that use
# them (the loader's LD_DEBUG=files account), and the one-line message
# naming the file and the Debian package when one is missing.
TESTS += tests/util/dlopen.sh
EXTRA_DIST += tests/util/dlopen.sh
# static-front.sh: the static hpmstat maps no shared object, runs every
# command but serve, report and top itself, and those in hpmstat-full.
TESTS += tests/util/static-front.sh
EXTRA_DIST += tests/util/static-front.sh
# test-lex: the line-input kit (util/lex.c) and the one diagnostic
# (util/diag.c) against hand-worked lines, numbers and messages.
check_PROGRAMS += tests/util/test-lex
tests_util_test_lex_SOURCES = tests/util/test-lex.c
tests_util_test_lex_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_util_test_lex_LDADD = tests/libtap.a src/util/libutil.a
TESTS += tests/util/test-lex
# test-readall: the one whole-input reader (util/readall.c) against files
# of known bytes, its bound, /dev/zero stopped by the caller, and errors.
check_PROGRAMS += tests/util/test-readall
tests_util_test_readall_SOURCES = tests/util/test-readall.c
tests_util_test_readall_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_util_test_readall_LDADD = tests/libtap.a src/util/libutil.a
TESTS += tests/util/test-readall

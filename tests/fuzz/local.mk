# tests/fuzz: fuzz targets. make check runs each for a short smoke run with
# the portable driver; ./configure --enable-fuzzing (clang) also builds them
# as libFuzzer binaries for long runs (make fuzz-long).
check_PROGRAMS += tests/fuzz/fuzz-expr
tests_fuzz_fuzz_expr_SOURCES = tests/fuzz/fuzz-expr.c tests/fuzz/dict-expr.c tests/fuzz/driver.c
tests_fuzz_fuzz_expr_LDADD = $(HPM_TEST_LIBS)
TESTS += tests/fuzz/expr-smoke.sh
EXTRA_DIST += tests/fuzz/expr-smoke.sh tests/fuzz/corpus-expr

if ENABLE_FUZZING
noinst_PROGRAMS += tests/fuzz/libfuzzer-expr
tests_fuzz_libfuzzer_expr_SOURCES = tests/fuzz/fuzz-expr.c
tests_fuzz_libfuzzer_expr_CFLAGS = $(AM_CFLAGS) -fsanitize=fuzzer,address,undefined
tests_fuzz_libfuzzer_expr_LDFLAGS = -fsanitize=fuzzer,address,undefined
tests_fuzz_libfuzzer_expr_LDADD = src/kmh/libkmh.a src/util/libutil.a
fuzz-long: tests/fuzz/libfuzzer-expr$(EXEEXT)
	mkdir -p fuzz-corpus-expr && cp $(top_srcdir)/tests/fuzz/corpus-expr/* fuzz-corpus-expr/
	tests/fuzz/libfuzzer-expr$(EXEEXT) -max_total_time=$${FUZZ_SECONDS:-300} fuzz-corpus-expr
endif

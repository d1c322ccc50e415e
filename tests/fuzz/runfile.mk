# tests/fuzz/runfile.mk: the fuzz target of the run-file reader of hpmstat
# report (src/report), in the pattern of tests/fuzz/local.mk: a smoke run
# with the portable driver in make check, and with --enable-fuzzing a
# libFuzzer binary for long runs (make fuzz-long-runfile).
HPM_RUNFILE_FUZZ_LIBS = src/report/libreport.a src/metric/libmetric.a src/kmh/libkmh.a \
	src/util/libutil.a $(JANSSON_LIBS) -lm
check_PROGRAMS += tests/fuzz/fuzz-runfile
tests_fuzz_fuzz_runfile_SOURCES = tests/fuzz/fuzz-runfile.c tests/fuzz/dict-runfile.c \
	tests/fuzz/driver.c
tests_fuzz_fuzz_runfile_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
tests_fuzz_fuzz_runfile_LDADD = $(HPM_RUNFILE_FUZZ_LIBS)
TESTS += tests/fuzz/runfile-smoke.sh
EXTRA_DIST += tests/fuzz/runfile-smoke.sh tests/fuzz/corpus-runfile

if ENABLE_FUZZING
noinst_PROGRAMS += tests/fuzz/libfuzzer-runfile
# the reader is compiled into the target, so libFuzzer sees its coverage
tests_fuzz_libfuzzer_runfile_SOURCES = tests/fuzz/fuzz-runfile.c $(src_report_libreport_a_SOURCES)
tests_fuzz_libfuzzer_runfile_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS) -fsanitize=fuzzer,address,undefined
tests_fuzz_libfuzzer_runfile_LDFLAGS = -fsanitize=fuzzer,address,undefined
tests_fuzz_libfuzzer_runfile_LDADD = src/metric/libmetric.a src/kmh/libkmh.a src/util/libutil.a \
	$(JANSSON_LIBS) -lm
fuzz-long-runfile: tests/fuzz/libfuzzer-runfile$(EXEEXT)
	mkdir -p fuzz-corpus-runfile && cp $(top_srcdir)/tests/fuzz/corpus-runfile/* fuzz-corpus-runfile/
	tests/fuzz/libfuzzer-runfile$(EXEEXT) -max_len=20000 \
		-max_total_time=$${FUZZ_SECONDS:-300} fuzz-corpus-runfile $(top_srcdir)/tests/report
endif

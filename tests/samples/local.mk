# tests/samples: hpmstat report on perf.data files. perf.sh records test
# programs with a known split (with and without PIE, with and without
# symbols, a call tree with -g) with Debian's perf and compares hpmstat's
# report with perf report's on the same file, and checks every format;
# bad.sh and topdown.sh read files written byte by byte by gen-perfdata.c
# (from perf's format document, not src/perfdata), the Topdown per function
# worked by hand; sizes.sh reads its files that cross where the report's
# buffers and tables grow (deep stacks of unnamed frames, many threads, many
# events). perf.sh skips without perf or gcc.
check_PROGRAMS += tests/samples/gen-perfdata
tests_samples_gen_perfdata_SOURCES = tests/samples/gen-perfdata.c
TESTS += tests/samples/perf.sh tests/samples/bad.sh tests/samples/topdown.sh tests/samples/sizes.sh
EXTRA_DIST += tests/samples/perf.sh tests/samples/bad.sh tests/samples/topdown.sh \
	tests/samples/sizes.sh

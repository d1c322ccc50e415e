#!/bin/sh
# Short fuzz smoke run of the perf.data target with many threads, strings and
# deep call chains (fuzz-perfdata-deep.c). Its corpus holds two of its
# libFuzzer findings, each a crash under ASan before issue 27's fixes:
# folded-unknown-frames.bin (the folded stacks' buffer, item 1) and
# hist-many-names.bin (hist_of reading a moved string table, item 2).
exec "$top_builddir/tests/fuzz/fuzz-perfdata-deep" -n 2000 -s 1 "$top_srcdir/tests/fuzz/corpus-perfdata-deep"

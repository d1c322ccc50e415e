#!/bin/sh
# Short fuzz smoke run of the perf.data target with many threads, strings and
# deep call chains (fuzz-perfdata-deep.c): its corpus only for now. Mutations
# of it reach report's open crashes of issue 27 (items 1-2: the folded
# buffer overflows on unresolved frames, hist_of's use after free) within
# 100 inputs; once those are fixed this runs -n 2000 as the others do.
exec "$top_builddir/tests/fuzz/fuzz-perfdata-deep" -n 0 -s 1 "$top_srcdir/tests/fuzz/corpus-perfdata-deep"

#!/bin/sh
# Short fuzz smoke run of the trace target (fuzz-trace.c; HPM_FUZZ_ITERATIONS overrides).
exec "$top_builddir/tests/fuzz/fuzz-trace" -n 50000 -s 1 "$top_srcdir/tests/fuzz/corpus-trace"

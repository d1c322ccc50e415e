#!/bin/sh
# Short fuzz smoke run of the weights target (fuzz-weights.c; HPM_FUZZ_ITERATIONS overrides).
exec "$top_builddir/tests/fuzz/fuzz-weights" -n 30000 -s 1 "$top_srcdir/tests/fuzz/corpus-weights"

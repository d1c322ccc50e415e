#!/bin/sh
# Short fuzz smoke run of the expression encoder/decoder (HPM_FUZZ_ITERATIONS overrides).
exec "$top_builddir/tests/fuzz/fuzz-expr" -n 20000 -s 1 "$top_srcdir/tests/fuzz/corpus-expr"

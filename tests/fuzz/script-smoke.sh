#!/bin/sh
# Short fuzz smoke run of the script target (fuzz-script.c; HPM_FUZZ_ITERATIONS overrides).
exec "$top_builddir/tests/fuzz/fuzz-script" -n 100000 -s 1 "$top_srcdir/tests/fuzz/corpus-script"

#!/bin/sh
# Short fuzz smoke run of the run-file reader (HPM_FUZZ_ITERATIONS overrides).
exec "$top_builddir/tests/fuzz/fuzz-runfile" -n 100000 -s 1 "$top_srcdir/tests/fuzz/corpus-runfile"

#!/bin/sh
# Short fuzz smoke run of the topconf target (fuzz-topconf.c; HPM_FUZZ_ITERATIONS overrides).
exec "$top_builddir/tests/fuzz/fuzz-topconf" -n 2000 -s 1 "$top_srcdir/tests/fuzz/corpus-topconf"

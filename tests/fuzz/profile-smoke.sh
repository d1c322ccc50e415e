#!/bin/sh
# Short fuzz smoke run of the profile target (fuzz-profile.c; HPM_FUZZ_ITERATIONS overrides).
exec "$top_builddir/tests/fuzz/fuzz-profile" -n 10000 -s 1 "$top_srcdir/tests/fuzz/corpus-profile" "$top_srcdir/profiles"

#!/bin/sh
# Short fuzz smoke run of the Arm profile target (fuzz-arm-profile.c; HPM_FUZZ_ITERATIONS overrides).
exec "$top_builddir/tests/fuzz/fuzz-arm-profile" -n 10000 -s 1 "$top_srcdir/tests/fuzz/corpus-arm-profile" "$top_srcdir/profiles/arm64"

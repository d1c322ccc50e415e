#!/bin/sh
# Short fuzz smoke run of the perf.data reader and samples report.
exec "$top_builddir/tests/fuzz/fuzz-perfdata" -n 20000 -s 1 "$top_srcdir/tests/fuzz/corpus-perfdata"

# src/stat: hpmstat stat's session (routing events to back ends, metrics),
# the printers (print.c: one walk over the rows, whose leaves are the
# std/CSV/JSON formats; values.c: the fields they share; shadow.c: perf's
# derived value beside a count), the run file, and the statistics of
# repeated runs (noise.c).
noinst_LIBRARIES += src/stat/libstat.a
src_stat_libstat_a_SOURCES = \
	src/stat/stat.h src/stat/print.c src/stat/print-format.h \
	src/stat/print-std.c src/stat/print-csv.c src/stat/print-json.c \
	src/stat/values.c src/stat/values.h src/stat/shadow.c src/stat/shadow.h \
	src/stat/session.c src/stat/session.h \
	src/stat/runfile-write.c src/stat/runfile-write.h \
	src/stat/perf-stat.c src/stat/perf-stat.h \
	src/stat/nodes.c src/stat/nodes.h \
	src/stat/nomux.c src/stat/nomux.h \
	src/stat/uncounted.c src/stat/uncounted.h \
	src/stat/aggr.c src/stat/aggr.h \
	src/stat/noise.c src/stat/noise.h \
	src/stat/emu-tasks.c src/stat/emu-tasks.h
src_stat_libstat_a_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)

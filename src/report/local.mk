# src/report: hpmstat report's library: the run-file reader and validator
# (runfile.c), the report itself: slices, per-hart metrics from the metric
# engine, summary, weights and diff (report.c), and one renderer per format
# (render-*.c) behind report_render (render.c), writing with the cells of
# cells.c; unwind-libdw.c, the one user of libdw, unwinds the user stack
# copies of --call-graph dwarf samples; header.c prints perf report's
# header listing of a perf.data (--header-only, -I);
# tasks.c its --stats, --tasks and --mmaps listings. It never prints or exits; src/builtin/cmd-report.c is the CLI.
noinst_LIBRARIES += src/report/libreport.a
src_report_libreport_a_SOURCES = \
	src/report/runfile.c src/report/runfile.h src/report/replay.c src/report/replay.h \
	src/report/perf-run.c src/report/perf-run.h \
	src/report/report.h src/report/report-int.h \
	src/report/report.c src/report/render.c src/report/cells.c src/report/cells.h \
	src/report/render-text.c src/report/render-csv.c src/report/render-json.c \
	src/report/render-md.c src/report/render-html.c \
	src/report/samples.c src/report/samples.h src/report/samples-td.c src/report/samples-td.h \
	src/report/samples-filter.c src/report/samples-filter.h \
	src/report/samples-render.c src/report/samples-graph.c src/report/samples-graph.h \
	src/report/samples-opts.c \
	src/report/header.c src/report/header.h src/report/tasks.c src/report/tasks.h \
	src/report/unwind.h src/report/unwind-libdw.c
src_report_libreport_a_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS) $(LIBDW_CFLAGS)

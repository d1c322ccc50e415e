# src/builtin: the subcommands (one file each) and their dispatch table
# (commands.c), as a library so that a test program can run the whole
# command line with a PMU model of its own registered first.
noinst_LIBRARIES += src/builtin/libbuiltin.a
src_builtin_libbuiltin_a_SOURCES = \
	src/builtin/builtin.h src/builtin/commands.c \
	src/builtin/cli.c src/builtin/cli.h \
	src/builtin/cli-opts.c src/builtin/cli-opts.h \
	src/builtin/backend-opts.c src/builtin/backend-opts.h \
	src/builtin/fields.c src/builtin/fields.h \
	src/builtin/cmd-list.c \
	src/builtin/cmd-encode.c \
	src/builtin/cmd-decode.c \
	src/builtin/cmd-emu.c \
	src/builtin/cmd-stat.c src/builtin/cmd-stat-record.c src/builtin/cmd-stat-record.h \
	src/builtin/stat-cmd.h src/builtin/stat-opts.c src/builtin/stat-plan.c \
	src/builtin/stat-run.c src/builtin/stat-output.c \
	src/builtin/stat-sample.c src/builtin/stat-sample.h \
	src/builtin/cmd-report.c src/builtin/report-input.c src/builtin/report-input.h \
	src/builtin/report-listing.c src/builtin/report-listing.h \
	src/builtin/cmd-top.c \
	src/builtin/cmd-record.c \
	src/builtin/cmd-serve.c src/builtin/stat-sink.h
src_builtin_libbuiltin_a_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS) $(NCURSES_CFLAGS) $(LIBMICROHTTPD_CFLAGS)

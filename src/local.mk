# src: the hpmstat program: dispatch (hpmstat.c) and one file per subcommand.
bin_PROGRAMS += src/hpmstat
src_hpmstat_SOURCES = \
	src/hpmstat.c \
	src/builtin/builtin.h \
	src/builtin/fields.c src/builtin/fields.h \
	src/builtin/list.c \
	src/builtin/encode.c \
	src/builtin/decode.c \
	src/builtin/emu.c
src_hpmstat_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
src_hpmstat_LDADD = src/emu/libemu.a src/kmh/libkmh.a src/util/libutil.a $(JANSSON_LIBS) -lm

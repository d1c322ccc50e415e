# src: the hpmstat program: dispatch (hpmstat.c) and one file per subcommand.
bin_PROGRAMS += src/hpmstat
src_hpmstat_SOURCES = \
	src/hpmstat.c \
	src/builtin/builtin.h \
	src/builtin/cli.c src/builtin/cli.h \
	src/builtin/backend-opts.c src/builtin/backend-opts.h \
	src/builtin/fields.c src/builtin/fields.h \
	src/builtin/list.c \
	src/builtin/encode.c \
	src/builtin/decode.c \
	src/builtin/emu.c \
	src/builtin/stat.c src/builtin/stat-record.c src/builtin/stat-record.h \
	src/builtin/report.c \
	src/builtin/top.c
src_hpmstat_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS) $(NCURSES_CFLAGS)
# each library only uses the ones after it (the layers, top down)
src_hpmstat_LDADD = src/top/libtop.a src/report/libreport.a src/stat/libstat.a src/backend/libbackend.a \
	src/core/libcore.a src/metric/libmetric.a src/kmh/emu/libemu.a src/kmh/libkmh.a src/arch/libarch.a src/util/libutil.a \
	$(JANSSON_LIBS) $(LIBPFM4_LIBS) $(NCURSES_LIBS) -lm

# hpmtop is hpmstat top, by the name it is started with
install-exec-hook:
	ln -sf hpmstat$(EXEEXT) $(DESTDIR)$(bindir)/hpmtop$(EXEEXT)
uninstall-hook:
	rm -f $(DESTDIR)$(bindir)/hpmtop$(EXEEXT)

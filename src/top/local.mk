# src/top: hpmstat top's view state (view-state.c: sampling, sorting), config file, text and
# JSON frames and, with ncurses, its full-screen view.
noinst_LIBRARIES += src/top/libtop.a
src_top_libtop_a_SOURCES = \
	src/top/top.h src/top/view-state.c src/top/config.c src/top/format.c \
	src/top/procs.c src/top/procs.h src/top/tasks.c src/top/tasks.h
if HAVE_NCURSES
src_top_libtop_a_SOURCES += src/top/view.c src/top/view.h
endif
src_top_libtop_a_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS) $(NCURSES_CFLAGS)

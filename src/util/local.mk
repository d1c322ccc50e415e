# src/util: neutral helpers shared by the libraries and the CLI.
noinst_LIBRARIES += src/util/libutil.a
src_util_libutil_a_SOURCES = \
	src/util/xalloc.c src/util/xalloc.h \
	src/util/edit-distance.c src/util/edit-distance.h \
	src/util/str.c src/util/str.h src/util/run-schema.h \
	src/util/line.c src/util/line.h \
	src/util/readall.c src/util/readall.h \
	src/util/lex.c src/util/lex.h \
	src/util/diag.c src/util/diag.h \
	src/util/suggest.c src/util/suggest.h \
	src/util/outfile.c src/util/outfile.h \
	src/util/count.c src/util/count.h \
	src/util/cpulist.c src/util/cpulist.h \
	src/util/provenance.c src/util/provenance.h \
	src/util/count-json.c src/util/count-json.h \
	src/util/pager.c src/util/pager.h \
	src/util/clock.c src/util/clock.h \
	src/util/child.c src/util/child.h \
	src/util/hash.c src/util/hash.h
# count-json.c writes counts into jansson documents
src_util_libutil_a_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS) $(LIBELF_CFLAGS) $(LIBDW_CFLAGS) $(LIBBPF_CFLAGS) $(LIBPFM4_CFLAGS) \
	$(NCURSES_CFLAGS) $(LIBMICROHTTPD_CFLAGS)
# The optional libraries' shims (util/dlib.h): with --enable-dlopen (the
# default) configure sets LIBELF_LIBS, LIBDW_LIBS, LIBBPF_LIBS, LIBPFM4_LIBS,
# NCURSES_LIBS, LIBMICROHTTPD_LIBS and CXXDEMANGLE_LIBS to HPM_DLOPEN_LIBS, so every program
# that linked a library links its shim here instead (libutil.a again,
# after the libraries that call the shims).
HPM_DLOPEN_LIBS = src/util/libutil.a
if HPM_DLOPEN
src_util_libutil_a_SOURCES += src/util/dlib.c src/util/dlib.h
if HAVE_LIBELF
src_util_libutil_a_SOURCES += src/util/dl-elf.c
endif
if HAVE_LIBDW
src_util_libutil_a_SOURCES += src/util/dl-dw.c
endif
if HAVE_LIBBPF
src_util_libutil_a_SOURCES += src/util/dl-bpf.c
endif
if HAVE_LIBPFM4
src_util_libutil_a_SOURCES += src/util/dl-pfm.c
endif
if HAVE_NCURSES
src_util_libutil_a_SOURCES += src/util/dl-curses.c
endif
if HAVE_LIBMICROHTTPD
src_util_libutil_a_SOURCES += src/util/dl-mhd.c
endif
if HAVE_DEMANGLE
src_util_libutil_a_SOURCES += src/util/dl-cxx.c
endif
endif
# HPM_SYSTEM_LIBS: jansson and libm for hpmstat (HPMSTAT_LIBS); with
# dlopen, their shims (util/dl-jansson.c, util/dl-m.c), which open them at
# the first call, and libutil.a again for util/dlib.c
if HPM_DLOPEN
noinst_LIBRARIES += src/util/libdlsys.a
src_util_libdlsys_a_SOURCES = src/util/dl-jansson.c src/util/dl-m.c
src_util_libdlsys_a_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
HPM_SYSTEM_LIBS = src/util/libdlsys.a src/util/libutil.a
else
HPM_SYSTEM_LIBS = $(JANSSON_LIBS) -lm
endif
EXTRA_DIST += src/util/dl-jansson.c src/util/dl-m.c
EXTRA_DIST += src/util/dlib.c src/util/dlib.h src/util/dl-elf.c src/util/dl-dw.c src/util/dl-bpf.c src/util/dl-pfm.c \
	src/util/dl-curses.c src/util/dl-mhd.c

# src/util: neutral helpers shared by the libraries and the CLI.
noinst_LIBRARIES += src/util/libutil.a
src_util_libutil_a_SOURCES = \
	src/util/xalloc.c src/util/xalloc.h \
	src/util/edit-distance.c src/util/edit-distance.h \
	src/util/str.c src/util/str.h src/util/run-schema.h \
	src/util/line.c src/util/line.h \
	src/util/suggest.c src/util/suggest.h \
	src/util/outfile.c src/util/outfile.h \
	src/util/count.c src/util/count.h \
	src/util/provenance.c src/util/provenance.h \
	src/util/count-json.c src/util/count-json.h \
	src/util/pager.c src/util/pager.h \
	src/util/clock.c src/util/clock.h \
	src/util/hash.c src/util/hash.h
# count-json.c writes counts into jansson documents
src_util_libutil_a_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)

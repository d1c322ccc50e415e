# src/kmh: the Kunminghu event library (tables, encoder, decoder).
# The tables are generated from events/ at build time by src/gen/jevents.c.
noinst_PROGRAMS += src/gen/kmh-jevents
src_gen_kmh_jevents_SOURCES = src/gen/jevents.c
src_gen_kmh_jevents_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
src_gen_kmh_jevents_LDADD = $(JANSSON_LIBS)

src/kmh/events-gen.c: src/gen/kmh-jevents$(EXEEXT) $(KMH_EVENT_JSON) events/riscv/mapfile.csv
	$(AM_V_GEN)$(MKDIR_P) src/kmh && \
	files=; for f in $(KMH_EVENT_JSON); do files="$$files $(top_srcdir)/$$f"; done; \
	src/gen/kmh-jevents$(EXEEXT) --mapfile $(top_srcdir)/events/riscv/mapfile.csv $$files \
		> $@.tmp && mv $@.tmp $@

noinst_LIBRARIES += src/kmh/libkmh.a
src_kmh_libkmh_a_SOURCES = \
	src/kmh/kmh.h src/kmh/mhpmevent.h src/kmh/internal.h \
	src/kmh/tables.c src/kmh/modifiers.c src/kmh/encode.c src/kmh/decode.c \
	src/kmh/merge.c src/kmh/merge.h \
	src/kmh/model.c src/kmh/model.h src/kmh/describe.c
src_kmh_libkmh_a_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
nodist_src_kmh_libkmh_a_SOURCES = src/kmh/events-gen.c
BUILT_SOURCES += src/kmh/events-gen.c
CLEANFILES += src/kmh/events-gen.c src/kmh/events-gen.c.tmp

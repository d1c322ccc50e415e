# src/kmh: the Kunminghu PMU model: the event library (tables, encoder,
# decoder, scheduler), its struct hpm_pmu_model, its perf_event_attr
# mapping for Linux's RISC-V PMU driver, and its metric table.
# The event tables are generated from events/ at build time by
# src/kmh/gen/jevents.c; the metric table from metrics.json by the generic
# src/gen/metrics2c.c (built in src/metric/local.mk), which checks every
# event name against the same event files.
noinst_PROGRAMS += src/kmh/gen/kmh-jevents
src_kmh_gen_kmh_jevents_SOURCES = src/kmh/gen/jevents.c src/gen/gen-die.c src/gen/gen-die.h \
	src/gen/gen-pool.c src/gen/gen-pool.h
src_kmh_gen_kmh_jevents_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
src_kmh_gen_kmh_jevents_LDADD = $(JANSSON_LIBS)

src/kmh/events-gen.c: src/kmh/gen/kmh-jevents$(EXEEXT) $(KMH_EVENT_JSON) events/riscv/mapfile.csv
	$(AM_V_GEN)$(MKDIR_P) src/kmh && \
	files=; for f in $(KMH_EVENT_JSON); do files="$$files $(top_srcdir)/$$f"; done; \
	src/kmh/gen/kmh-jevents$(EXEEXT) --table kmh_table_v2 kunminghu-v2 0f639b5a \
		--mapfile $(top_srcdir)/events/riscv/mapfile.csv $$files \
		> $@.tmp && mv $@.tmp $@

src/kmh/events-v3-gen.c: src/kmh/gen/kmh-jevents$(EXEEXT) $(KMH_V3_EVENT_JSON) events/riscv/mapfile.csv
	$(AM_V_GEN)$(MKDIR_P) src/kmh && \
	files=; for f in $(KMH_V3_EVENT_JSON); do files="$$files $(top_srcdir)/$$f"; done; \
	src/kmh/gen/kmh-jevents$(EXEEXT) --table kmh_table_v3 kunminghu-v3 afe3818 \
		--mapfile $(top_srcdir)/events/riscv/mapfile.csv $$files \
		> $@.tmp && mv $@.tmp $@

# rob_commitInstr is Kunminghu's INST_RETIRED: --topdown-retired=minstret
# reads it as instructions
src/kmh/metrics-gen.c: src/gen/metrics2c$(EXEEXT) $(KMH_METRIC_JSON) $(KMH_EVENT_JSON)
	$(AM_V_GEN)$(MKDIR_P) src/kmh && \
	ev=; for f in $(KMH_EVENT_JSON); do ev="$$ev --events $(top_srcdir)/$$f"; done; \
	src/gen/metrics2c$(EXEEXT) --table kmh_metrics --retired rob_commitInstr $$ev \
		$(top_srcdir)/$(KMH_METRIC_JSON) > $@.tmp && mv $@.tmp $@

src/kmh/metrics-v3-gen.c: src/gen/metrics2c$(EXEEXT) $(KMH_V3_METRIC_JSON) $(KMH_V3_EVENT_JSON)
	$(AM_V_GEN)$(MKDIR_P) src/kmh && \
	ev=; for f in $(KMH_V3_EVENT_JSON); do ev="$$ev --events $(top_srcdir)/$$f"; done; \
	src/gen/metrics2c$(EXEEXT) --table kmh_v3_metrics --retired rob_commitInstr $$ev \
		$(top_srcdir)/$(KMH_V3_METRIC_JSON) > $@.tmp && mv $@.tmp $@

noinst_LIBRARIES += src/kmh/libkmh.a
src_kmh_libkmh_a_SOURCES = \
	src/kmh/kmh.h src/kmh/mhpmevent.h src/kmh/internal.h \
	src/kmh/tables.c src/kmh/modifiers.c src/kmh/encode.c src/kmh/decode.c src/kmh/roundtrip.c \
	src/kmh/merge.c src/kmh/merge.h \
	src/kmh/model.c src/kmh/model.h src/kmh/describe.c \
	src/kmh/perf-attr.c src/kmh/perf-attr.h
src_kmh_libkmh_a_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
nodist_src_kmh_libkmh_a_SOURCES = src/kmh/events-gen.c src/kmh/metrics-gen.c \
	src/kmh/events-v3-gen.c src/kmh/metrics-v3-gen.c
BUILT_SOURCES += src/kmh/events-gen.c src/kmh/metrics-gen.c \
	src/kmh/events-v3-gen.c src/kmh/metrics-v3-gen.c
CLEANFILES += src/kmh/events-gen.c src/kmh/events-gen.c.tmp \
	src/kmh/metrics-gen.c src/kmh/metrics-gen.c.tmp \
	src/kmh/events-v3-gen.c src/kmh/events-v3-gen.c.tmp \
	src/kmh/metrics-v3-gen.c src/kmh/metrics-v3-gen.c.tmp

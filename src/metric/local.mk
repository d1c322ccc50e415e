# src/metric: metrics as data: the expression engine (expr.c), the built-in
# metric table generated from metrics.json at build time by
# src/gen/metrics2c.c (which validates it with the same engine and the
# Kunminghu event tables), and the selections, evaluation, thresholds and
# Topdown bottleneck marker built on them (metrics.c), and metrics on the
# events a run counted, as stat and report read them (counted.c).
METRIC_JSON = events/riscv/openxiangshan/kunminghu/metrics.json
nobase_dist_pkgdata_DATA += events/riscv/openxiangshan/kunminghu/metrics.json

noinst_PROGRAMS += src/gen/metrics2c
src_gen_metrics2c_SOURCES = src/gen/metrics2c.c src/metric/expr.c src/metric/metric.h
src_gen_metrics2c_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
src_gen_metrics2c_LDADD = src/kmh/libkmh.a src/util/libutil.a $(JANSSON_LIBS) -lm

src/metric/metrics-gen.c: src/gen/metrics2c$(EXEEXT) $(METRIC_JSON)
	$(AM_V_GEN)$(MKDIR_P) src/metric && \
	src/gen/metrics2c$(EXEEXT) $(top_srcdir)/$(METRIC_JSON) > $@.tmp && mv $@.tmp $@

noinst_LIBRARIES += src/metric/libmetric.a
src_metric_libmetric_a_SOURCES = src/metric/metric.h src/metric/expr.c src/metric/metrics.c \
	src/metric/counted.c
nodist_src_metric_libmetric_a_SOURCES = src/metric/metrics-gen.c
BUILT_SOURCES += src/metric/metrics-gen.c
CLEANFILES += src/metric/metrics-gen.c src/metric/metrics-gen.c.tmp

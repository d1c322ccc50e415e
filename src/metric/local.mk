# src/metric: metrics as data: the expression engine (expr.c), the metric
# tables put to use (metrics.c: lookups, selections, evaluation,
# thresholds and the Topdown bottleneck marker) and metrics on the events
# a run counted, as stat and report read them (counted.c). It knows no PMU
# model: each model's folder builds its own table with src/gen/metrics2c.c,
# the generic generator built here (it validates a table with the same
# engine; each model folder's local.mk has the rule for its table).
noinst_PROGRAMS += src/gen/metrics2c
src_gen_metrics2c_SOURCES = src/gen/metrics2c.c src/gen/gen-die.c src/gen/gen-die.h \
	src/gen/gen-pool.c src/gen/gen-pool.h \
	src/metric/expr.c src/metric/metric.h
src_gen_metrics2c_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
src_gen_metrics2c_LDADD = src/util/libutil.a $(JANSSON_LIBS) -lm

noinst_LIBRARIES += src/metric/libmetric.a
src_metric_libmetric_a_SOURCES = src/metric/metric.h src/metric/expr.c src/metric/metrics.c \
	src/metric/counted.c src/metric/names.c src/metric/tdcolor.h src/metric/tdcolor.c

# tests/metric: the expression engine, the built-in metrics and their
# Topdown formulas, thresholds and bottleneck marker, and the generator.
METRIC_TESTS = tests/metric/test-expr tests/metric/test-metrics tests/metric/test-nodes
METRIC_TEST_LIBS = tests/libtap.a src/metric/libmetric.a src/kmh/libkmh.a src/arm64/libarm64.a src/arch/libarch.a src/util/libutil.a \
	$(JANSSON_LIBS) -lm
check_PROGRAMS += $(METRIC_TESTS)
TESTS += $(METRIC_TESTS) tests/metric/metrics2c-reject.sh
EXTRA_DIST += tests/metric/metrics2c-reject.sh

tests_metric_test_expr_SOURCES = tests/metric/test-expr.c
tests_metric_test_expr_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_metric_test_expr_LDADD = $(METRIC_TEST_LIBS)
tests_metric_test_metrics_SOURCES = tests/metric/test-metrics.c
tests_metric_test_metrics_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_metric_test_metrics_LDADD = $(METRIC_TEST_LIBS)
tests_metric_test_nodes_SOURCES = tests/metric/test-nodes.c
tests_metric_test_nodes_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_metric_test_nodes_LDADD = $(METRIC_TEST_LIBS)

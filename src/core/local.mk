# src/core: the types every layer above shares: the event list and its
# counts, what to count on (struct hpm_target) and the back-end operations
# (struct hpm_backend); and the workload child a measurement counts
# (workload.c); the registry of PMU models (models.c). Below the back ends, the session and the printers; above
# util, the Kunminghu model and the metric engine.
noinst_LIBRARIES += src/core/libcore.a
src_core_libcore_a_SOURCES = src/core/evlist.c src/core/evlist.h \
	src/core/models.c src/core/models.h \
	src/core/workload.c src/core/workload.h

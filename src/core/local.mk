# src/core: the types every layer above shares: the event list and its
# counts, what to count on (struct hpm_target) and the back-end operations
# (struct hpm_backend); the counter scheduler over any model's counters
# (sched.c). Below the back ends, the session and the printers; above util
# and the model interface (src/arch).
noinst_LIBRARIES += src/core/libcore.a
src_core_libcore_a_SOURCES = src/core/evlist.c src/core/evlist.h \
	src/core/sched.c src/core/sched.h

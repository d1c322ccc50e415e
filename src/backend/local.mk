# src/backend: the back ends behind struct hpm_backend (core/evlist.h).
# perf.c counts through perf_event_open (perf-target.c: the places of a
# target, perf-strerror.c: advice on a failed open, perf-bpf.c: BPF task
# attribution); tool.c counts perf's tool events
# (duration_time, user_time, system_time); host-events.c resolves host event
# names (perf's generic ones, libpfm4's when built with it); host-pmu.c finds the
# PMU of a registered model under HPMSTAT_SYSFS / HPMSTAT_PROCFS (the model
# maps its events to attrs: its perf_attr). The stat command links
# libbackend.a with $(LIBPFM4_LIBS).
noinst_LIBRARIES += src/backend/libbackend.a
src_backend_libbackend_a_SOURCES = \
	src/backend/perf.c src/backend/perf.h src/backend/perf-int.h \
	src/backend/perf-target.c src/backend/perf-strerror.c src/backend/perf-bpf.c \
	src/backend/tool.c src/backend/tool.h \
	src/backend/host-events.c src/backend/host-events.h \
	src/backend/host-pmu.c src/backend/host-pmu.h \
	src/backend/topology.c src/backend/topology.h
src_backend_libbackend_a_CFLAGS = $(AM_CFLAGS) $(LIBPFM4_CFLAGS)
include src/backend/emu.mk

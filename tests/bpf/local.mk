# tests/bpf: per-task counts from per-CPU counters (src/bpf) against the
# real kernel; they skip when hpmstat is built without libbpf or the user
# may not load BPF.
check_PROGRAMS += tests/bpf/test-taskcount
tests_bpf_test_taskcount_SOURCES = tests/bpf/test-taskcount.c
tests_bpf_test_taskcount_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_bpf_test_taskcount_LDADD = tests/libtap.a src/bpf/libhpmbpf.a src/util/libutil.a $(LIBBPF_LIBS)
TESTS += tests/bpf/test-taskcount

# duty: a pinned busy loop of a known CPU share (tests and bench/bpf-bench.sh)
check_PROGRAMS += tests/bpf/duty
tests_bpf_duty_SOURCES = tests/bpf/duty.c
# never instrumented (not by --enable-sanitizers either): its CPU time is
# the truth, and a sanitizer's start and exit would run outside its reading
tests_bpf_duty_CFLAGS = -O2 -Wall
tests_bpf_duty_LDFLAGS =
BPF_TESTS = tests/bpf/stat-bpf.sh tests/bpf/hotplug.sh
TESTS += $(BPF_TESTS)
EXTRA_DIST += $(BPF_TESTS)

# tests/backend: host event names, PMU discovery on fake sysfs/procfs trees,
# the attrs of Kunminghu raw events and of the Arm cores (test-arm-perf), and
# the perf back end on the real kernel.
BACKEND_TESTS = tests/backend/test-host-events tests/backend/test-pmu \
	tests/backend/test-perf-attr tests/backend/test-perf-kernel \
	tests/backend/test-pmu-events tests/backend/test-arm-perf
check_PROGRAMS += $(BACKEND_TESTS)
TESTS += $(BACKEND_TESTS)
check_LIBRARIES += tests/backend/libfake.a
tests_backend_libfake_a_SOURCES = tests/backend/fake.c tests/backend/fake.h
tests_backend_libfake_a_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
BACKEND_TEST_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
BACKEND_TEST_LIBS = tests/backend/libfake.a tests/libtap.a src/backend/libbackend.a src/core/libcore.a src/registry/libregistry.a \
	src/bpf/libhpmbpf.a $(HPM_TEST_LIBS) $(LIBPFM4_LIBS) $(LIBBPF_LIBS)

tests_backend_test_host_events_SOURCES = tests/backend/test-host-events.c
tests_backend_test_host_events_CPPFLAGS = $(BACKEND_TEST_CPPFLAGS)
tests_backend_test_host_events_LDADD = $(BACKEND_TEST_LIBS)
tests_backend_test_pmu_SOURCES = tests/backend/test-pmu.c
tests_backend_test_pmu_CPPFLAGS = $(BACKEND_TEST_CPPFLAGS)
tests_backend_test_pmu_LDADD = $(BACKEND_TEST_LIBS)
tests_backend_test_perf_attr_SOURCES = tests/backend/test-perf-attr.c
tests_backend_test_perf_attr_CPPFLAGS = $(BACKEND_TEST_CPPFLAGS)
tests_backend_test_perf_attr_LDADD = $(BACKEND_TEST_LIBS)
tests_backend_test_perf_kernel_SOURCES = tests/backend/test-perf-kernel.c
tests_backend_test_perf_kernel_CPPFLAGS = $(BACKEND_TEST_CPPFLAGS)
tests_backend_test_perf_kernel_LDADD = $(BACKEND_TEST_LIBS)
tests_backend_test_pmu_events_SOURCES = tests/backend/test-pmu-events.c
tests_backend_test_pmu_events_CPPFLAGS = $(BACKEND_TEST_CPPFLAGS)
tests_backend_test_pmu_events_LDADD = $(BACKEND_TEST_LIBS)
tests_backend_test_arm_perf_SOURCES = tests/backend/test-arm-perf.c
tests_backend_test_arm_perf_CPPFLAGS = $(BACKEND_TEST_CPPFLAGS)
tests_backend_test_arm_perf_LDADD = $(BACKEND_TEST_LIBS)
include tests/backend/emu.mk

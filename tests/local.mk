# tests: TAP producers run by automake's tap-driver; every test point counts.
LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
TEST_EXTENSIONS = .sh
SH_LOG_DRIVER = $(LOG_DRIVER)
SH_LOG_COMPILER = $(SHELL)
AM_TESTS_ENVIRONMENT = \
	HPMSTAT='$(abs_top_builddir)/src/hpmstat'; export HPMSTAT; \
	top_srcdir='$(abs_top_srcdir)'; export top_srcdir; \
	top_builddir='$(abs_top_builddir)'; export top_builddir; \
	HPM_SEEDS='$(abs_top_srcdir)/../shared/seeds'; export HPM_SEEDS;
# the dynamically linked program: hpmstat-full beside the static front
if HPM_STATIC_FRONT
AM_TESTS_ENVIRONMENT += HPMSTAT_FULL='$(abs_top_builddir)/src/hpmstat-full'; export HPMSTAT_FULL;
else
AM_TESTS_ENVIRONMENT += HPMSTAT_FULL='$(abs_top_builddir)/src/hpmstat'; export HPMSTAT_FULL;
endif

check_LIBRARIES += tests/libtap.a
tests_libtap_a_SOURCES = tests/tap.c tests/tap.h
HPM_TEST_LIBS = tests/libtap.a src/kmh/emu/libemu.a src/kmh/libkmh.a $(ARM64_EMU_LIBS) src/emukit/libhpmemukit.a src/arm64/libarm64.a src/arch/libarch.a src/util/libutil.a $(JANSSON_LIBS) -lm
EXTRA_DIST += tests/lib.sh tests/lsan.supp

include tests/arch/local.mk
include tests/kmh/local.mk
include tests/arm64/local.mk
include tests/arm64/emu/local.mk
include tests/emu/local.mk
include tests/emu-sample/local.mk
include tests/emu-tasks/local.mk
include tests/arm64-src/local.mk
include tests/cli/local.mk
include tests/fuzz/local.mk

# A JSON reader for the shell tests (exported to them as $JSONCHECK).
check_PROGRAMS += tests/jsoncheck
tests_jsoncheck_SOURCES = tests/jsoncheck.c
tests_jsoncheck_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
tests_jsoncheck_LDADD = $(JANSSON_LIBS)
AM_TESTS_ENVIRONMENT += JSONCHECK='$(abs_top_builddir)/tests/jsoncheck'; export JSONCHECK;
include tests/metric/local.mk
include tests/backend/local.mk
include tests/stat/local.mk
include tests/top/local.mk
include tests/serve/local.mk
include tests/toy/local.mk
include tests/riscv/local.mk
include tests/events/local.mk
include tests/man/local.mk
include tests/sym/local.mk
include tests/samples/local.mk
include tests/record/local.mk
include tests/bpf/local.mk
include tests/util/local.mk

# perf 6.12 built from Debian's linux-source-6.12 into the test cache
# (tests/perf612-peer.sh, several minutes on 2 cores, not in CI): the tests
# of perf 6.12's behaviour take it as their peer when it is there, and
# perf 6.1 with the reason when not (perf612_peer in tests/lib.sh); PERF612
# in the environment names another perf 6.12
PERF612_CACHE = $(abs_top_builddir)/tests/cache/perf-6.12
AM_TESTS_ENVIRONMENT += PERF612=$${PERF612:-'$(PERF612_CACHE)/perf'}; export PERF612;
EXTRA_DIST += tests/perf612-peer.sh
perf612-peer:
	HPMSTAT_PERF612_CACHE='$(PERF612_CACHE)' $(SHELL) $(top_srcdir)/tests/perf612-peer.sh
.PHONY: perf612-peer
clean-local: clean-perf612-peer
clean-perf612-peer:
	rm -rf tests/cache/perf-6.12
.PHONY: clean-perf612-peer

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

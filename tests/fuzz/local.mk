# tests/fuzz: fuzz targets, one per parser: the event expression encoder and
# decoder (expr), the run-file reader of hpmstat report (runfile), its
# --weights file (weights), the emulator's trace reader (trace), workload
# profile parser (profile) and script interpreter (script), and top.conf
# (topconf), the perf.data reader with the samples report (perfdata, and
# perfdata-deep: files built from the input with many threads, comms, DSO
# names and events and deep call chains), and the Arm emulator's profile
# parser and stream (arm-profile).
# Each is a LLVMFuzzerTestOneInput in fuzz-NAME.c with a seed
# corpus in corpus-NAME/ and tokens for the mutator in dict-NAME.c.
#
# make check runs each for a short, deterministic smoke run with the
# portable driver (driver.c), with gcc as with clang. ./configure
# --enable-fuzzing CC=clang also builds each as a libFuzzer binary,
# libfuzzer-NAME, linked against copies of the libraries it uses that are
# built with coverage instrumentation and ASan/UBSan (without them
# libFuzzer sees only the harness's own edges), and `make fuzz` runs each
# for FUZZ_SECONDS (default 60) and prints execs, coverage and crashes
# (each target's figures: doc/development.md, "Fuzzing").
FUZZ_TARGETS = expr runfile weights trace profile script topconf perfdata perfdata-deep \
	arm-profile

# The libraries each target links, in link order; the libFuzzer binaries
# link the instrumented copy of each (FUZZ_LIB_*, below).
FUZZ_EMU_LIBS = src/kmh/emu/libemu.a src/kmh/libkmh.a $(ARM64_EMU_LIBS) src/emukit/libhpmemukit.a src/arch/libarch.a src/util/libutil.a \
	$(JANSSON_LIBS) -lm
# (a run file may be a perf.data of stat counts: src/perfdata reads it)
FUZZ_REPORT_LIBS = src/report/libreport.a src/core/libcore.a src/registry/libregistry.a src/metric/libmetric.a \
	src/kmh/emu/libemu.a src/kmh/libkmh.a $(ARM64_EMU_LIBS) src/emukit/libhpmemukit.a src/arm64/libarm64.a \
	src/perfdata/libperfdata.a src/arch/libarch.a src/util/libutil.a $(JANSSON_LIBS) $(LIBDW_LIBS) -lm
# the samples report reads perf.data (src/perfdata) and symbolizes (src/sym)
FUZZ_SAMPLES_LIBS = src/report/libreport.a src/core/libcore.a src/registry/libregistry.a src/metric/libmetric.a \
	src/kmh/emu/libemu.a src/kmh/libkmh.a $(ARM64_EMU_LIBS) src/emukit/libhpmemukit.a src/arm64/libarm64.a \
	src/perfdata/libperfdata.a src/sym/libsym.a src/arch/libarch.a src/util/libutil.a \
	$(JANSSON_LIBS) $(LIBDW_LIBS) $(LIBELF_LIBS) $(CXXDEMANGLE_LIBS) -lm
# top's config.c uses the back-end choice (stat/session) and the emulator's
# settings (backend/emu), which pull in the stat layer
FUZZ_TOP_LIBS = src/top/libtop.a src/stat/libstat.a src/backend/libbackend.a \
	src/core/libcore.a src/registry/libregistry.a src/metric/libmetric.a src/kmh/emu/libemu.a src/kmh/libkmh.a $(ARM64_EMU_LIBS) src/emukit/libhpmemukit.a src/arm64/libarm64.a \
	src/bpf/libhpmbpf.a src/arch/libarch.a src/util/libutil.a $(JANSSON_LIBS) $(LIBPFM4_LIBS) $(NCURSES_LIBS) \
	$(LIBBPF_LIBS) -lm

check_PROGRAMS += tests/fuzz/fuzz-expr tests/fuzz/fuzz-runfile tests/fuzz/fuzz-weights \
	tests/fuzz/fuzz-trace tests/fuzz/fuzz-profile tests/fuzz/fuzz-script \
	tests/fuzz/fuzz-topconf tests/fuzz/fuzz-perfdata tests/fuzz/fuzz-perfdata-deep \
	tests/fuzz/fuzz-arm-profile
tests_fuzz_fuzz_perfdata_SOURCES = tests/fuzz/fuzz-perfdata.c tests/fuzz/fuzz-perfdata.h \
	tests/fuzz/dict-perfdata.c tests/fuzz/driver.c
tests_fuzz_fuzz_perfdata_LDADD = $(FUZZ_SAMPLES_LIBS)
tests_fuzz_fuzz_perfdata_deep_SOURCES = tests/fuzz/fuzz-perfdata-deep.c tests/fuzz/fuzz-perfdata.h \
	tests/fuzz/dict-perfdata-deep.c tests/fuzz/driver.c
tests_fuzz_fuzz_perfdata_deep_LDADD = $(FUZZ_SAMPLES_LIBS)
tests_fuzz_fuzz_arm_profile_SOURCES = tests/fuzz/fuzz-arm-profile.c tests/fuzz/fuzz-text.h tests/fuzz/dict-arm-profile.c \
	tests/fuzz/driver.c
tests_fuzz_fuzz_arm_profile_LDADD = src/arm64/emu/libarm64src.a src/arm64/libarm64.a \
	src/emukit/libhpmemukit.a src/util/libutil.a $(JANSSON_LIBS) -lm
tests_fuzz_fuzz_expr_SOURCES = tests/fuzz/fuzz-expr.c tests/fuzz/dict-expr.c tests/fuzz/driver.c
tests_fuzz_fuzz_expr_LDADD = src/kmh/libkmh.a src/arch/libarch.a src/util/libutil.a
tests_fuzz_fuzz_runfile_SOURCES = tests/fuzz/fuzz-runfile.c tests/fuzz/dict-runfile.c \
	tests/fuzz/driver.c
tests_fuzz_fuzz_runfile_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
tests_fuzz_fuzz_runfile_LDADD = $(FUZZ_REPORT_LIBS)
tests_fuzz_fuzz_weights_SOURCES = tests/fuzz/fuzz-weights.c tests/fuzz/dict-weights.c \
	tests/fuzz/driver.c
tests_fuzz_fuzz_weights_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
tests_fuzz_fuzz_weights_LDADD = $(FUZZ_REPORT_LIBS)
tests_fuzz_fuzz_trace_SOURCES = tests/fuzz/fuzz-trace.c tests/fuzz/fuzz-tmp.h \
	tests/fuzz/dict-trace.c tests/fuzz/driver.c
tests_fuzz_fuzz_trace_LDADD = $(FUZZ_EMU_LIBS)
tests_fuzz_fuzz_profile_SOURCES = tests/fuzz/fuzz-profile.c tests/fuzz/fuzz-text.h tests/fuzz/dict-profile.c \
	tests/fuzz/driver.c
tests_fuzz_fuzz_profile_LDADD = $(FUZZ_EMU_LIBS)
tests_fuzz_fuzz_script_SOURCES = tests/fuzz/fuzz-script.c tests/fuzz/dict-script.c \
	tests/fuzz/driver.c
tests_fuzz_fuzz_script_LDADD = $(FUZZ_EMU_LIBS)
tests_fuzz_fuzz_topconf_SOURCES = tests/fuzz/fuzz-topconf.c tests/fuzz/fuzz-tmp.h \
	tests/fuzz/dict-topconf.c tests/fuzz/driver.c
tests_fuzz_fuzz_topconf_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
tests_fuzz_fuzz_topconf_LDADD = $(FUZZ_TOP_LIBS)

FUZZ_SMOKE = tests/fuzz/expr-smoke.sh tests/fuzz/runfile-smoke.sh tests/fuzz/weights-smoke.sh \
	tests/fuzz/trace-smoke.sh tests/fuzz/profile-smoke.sh tests/fuzz/script-smoke.sh \
	tests/fuzz/topconf-smoke.sh tests/fuzz/perfdata-smoke.sh tests/fuzz/perfdata-deep-smoke.sh \
	tests/fuzz/arm-profile-smoke.sh
TESTS += $(FUZZ_SMOKE)
EXTRA_DIST += $(FUZZ_SMOKE) tests/fuzz/run-libfuzzer.sh \
	tests/fuzz/corpus-expr tests/fuzz/corpus-runfile tests/fuzz/corpus-weights \
	tests/fuzz/corpus-trace tests/fuzz/corpus-profile tests/fuzz/corpus-script \
	tests/fuzz/corpus-topconf tests/fuzz/corpus-perfdata tests/fuzz/corpus-perfdata-deep \
	tests/fuzz/corpus-arm-profile

FUZZ_SECONDS = 60

if ENABLE_FUZZING
# Instrumented copies of the libraries: the same sources, compiled with
# $(FUZZ_CFLAGS) (coverage for libFuzzer, ASan, UBSan) into other objects.
noinst_LIBRARIES += tests/fuzz/libkmh-fuzz.a tests/fuzz/libarm64-fuzz.a tests/fuzz/libarch-fuzz.a tests/fuzz/libutil-fuzz.a tests/fuzz/libemu-fuzz.a \
	tests/fuzz/libmetric-fuzz.a tests/fuzz/libreport-fuzz.a tests/fuzz/libtop-fuzz.a \
	tests/fuzz/libbackend-fuzz.a tests/fuzz/libstat-fuzz.a tests/fuzz/libcore-fuzz.a tests/fuzz/libregistry-fuzz.a \
	tests/fuzz/libperfdata-fuzz.a tests/fuzz/libsym-fuzz.a \
	tests/fuzz/libarm64mach-fuzz.a tests/fuzz/libarm64emu-fuzz.a tests/fuzz/libarm64src-fuzz.a \
	tests/fuzz/libhpmemukit-fuzz.a
tests_fuzz_libperfdata_fuzz_a_SOURCES = $(src_perfdata_libperfdata_a_SOURCES)
tests_fuzz_libperfdata_fuzz_a_CFLAGS = $(AM_CFLAGS) $(FUZZ_CFLAGS)
tests_fuzz_libsym_fuzz_a_SOURCES = $(src_sym_libsym_a_SOURCES)
tests_fuzz_libsym_fuzz_a_CFLAGS = $(src_sym_libsym_a_CFLAGS) $(FUZZ_CFLAGS)
tests_fuzz_libkmh_fuzz_a_SOURCES = $(src_kmh_libkmh_a_SOURCES)
nodist_tests_fuzz_libkmh_fuzz_a_SOURCES = $(nodist_src_kmh_libkmh_a_SOURCES)
tests_fuzz_libkmh_fuzz_a_CFLAGS = $(AM_CFLAGS) $(FUZZ_CFLAGS)
tests_fuzz_libarm64_fuzz_a_SOURCES = $(src_arm64_libarm64_a_SOURCES)
nodist_tests_fuzz_libarm64_fuzz_a_SOURCES = $(nodist_src_arm64_libarm64_a_SOURCES)
tests_fuzz_libarm64_fuzz_a_CFLAGS = $(src_arm64_libarm64_a_CFLAGS) $(FUZZ_CFLAGS)
# the Arm emulator (ARM64_EMU_LIBS): the machines registry/models.c pairs with
# the Arm models, the PMU, and the event sources with the Arm profile parser
tests_fuzz_libarm64mach_fuzz_a_SOURCES = $(src_arm64_emu_libarm64mach_a_SOURCES)
tests_fuzz_libarm64mach_fuzz_a_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS) $(FUZZ_CFLAGS)
tests_fuzz_libarm64emu_fuzz_a_SOURCES = $(src_arm64_emu_libarm64emu_a_SOURCES)
tests_fuzz_libarm64emu_fuzz_a_CFLAGS = $(AM_CFLAGS) $(FUZZ_CFLAGS)
tests_fuzz_libarm64src_fuzz_a_SOURCES = $(src_arm64_emu_libarm64src_a_SOURCES)
nodist_tests_fuzz_libarm64src_fuzz_a_SOURCES = $(nodist_src_arm64_emu_libarm64src_a_SOURCES)
tests_fuzz_libarm64src_fuzz_a_CFLAGS = $(AM_CFLAGS) $(FUZZ_CFLAGS)
tests_fuzz_libhpmemukit_fuzz_a_SOURCES = $(src_emukit_libhpmemukit_a_SOURCES)
tests_fuzz_libhpmemukit_fuzz_a_CFLAGS = $(AM_CFLAGS) $(FUZZ_CFLAGS)
tests_fuzz_libarch_fuzz_a_SOURCES = $(src_arch_libarch_a_SOURCES)
tests_fuzz_libarch_fuzz_a_CFLAGS = $(AM_CFLAGS) $(FUZZ_CFLAGS)
tests_fuzz_libutil_fuzz_a_SOURCES = $(src_util_libutil_a_SOURCES)
tests_fuzz_libutil_fuzz_a_CFLAGS = $(AM_CFLAGS) $(FUZZ_CFLAGS)
tests_fuzz_libemu_fuzz_a_SOURCES = $(src_kmh_emu_libemu_a_SOURCES)
nodist_tests_fuzz_libemu_fuzz_a_SOURCES = $(nodist_src_kmh_emu_libemu_a_SOURCES)
tests_fuzz_libemu_fuzz_a_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS) $(FUZZ_CFLAGS)
tests_fuzz_libmetric_fuzz_a_SOURCES = $(src_metric_libmetric_a_SOURCES)
tests_fuzz_libmetric_fuzz_a_CFLAGS = $(AM_CFLAGS) $(FUZZ_CFLAGS)
tests_fuzz_libreport_fuzz_a_SOURCES = $(src_report_libreport_a_SOURCES)
tests_fuzz_libreport_fuzz_a_CFLAGS = $(src_report_libreport_a_CFLAGS) $(FUZZ_CFLAGS)
tests_fuzz_libtop_fuzz_a_SOURCES = $(src_top_libtop_a_SOURCES)
tests_fuzz_libtop_fuzz_a_CFLAGS = $(src_top_libtop_a_CFLAGS) $(FUZZ_CFLAGS)
tests_fuzz_libbackend_fuzz_a_SOURCES = $(src_backend_libbackend_a_SOURCES)
tests_fuzz_libbackend_fuzz_a_CFLAGS = $(src_backend_libbackend_a_CFLAGS) $(FUZZ_CFLAGS)
tests_fuzz_libstat_fuzz_a_SOURCES = $(src_stat_libstat_a_SOURCES)
tests_fuzz_libstat_fuzz_a_CFLAGS = $(src_stat_libstat_a_CFLAGS) $(FUZZ_CFLAGS)
tests_fuzz_libcore_fuzz_a_SOURCES = $(src_core_libcore_a_SOURCES)
tests_fuzz_libcore_fuzz_a_CFLAGS = $(AM_CFLAGS) $(FUZZ_CFLAGS)
tests_fuzz_libregistry_fuzz_a_SOURCES = $(src_registry_libregistry_a_SOURCES)
tests_fuzz_libregistry_fuzz_a_CFLAGS = $(AM_CFLAGS) $(FUZZ_CFLAGS)

FUZZ_LIB_ARM64_EMU = tests/fuzz/libarm64mach-fuzz.a tests/fuzz/libarm64emu-fuzz.a tests/fuzz/libarm64src-fuzz.a \
	tests/fuzz/libhpmemukit-fuzz.a
FUZZ_LIB_EMU = tests/fuzz/libemu-fuzz.a tests/fuzz/libkmh-fuzz.a tests/fuzz/libhpmemukit-fuzz.a tests/fuzz/libarch-fuzz.a tests/fuzz/libutil-fuzz.a \
	$(JANSSON_LIBS) -lm
FUZZ_LIB_REPORT = tests/fuzz/libreport-fuzz.a tests/fuzz/libcore-fuzz.a tests/fuzz/libregistry-fuzz.a tests/fuzz/libmetric-fuzz.a \
	tests/fuzz/libemu-fuzz.a tests/fuzz/libkmh-fuzz.a $(FUZZ_LIB_ARM64_EMU) tests/fuzz/libarm64-fuzz.a \
	tests/fuzz/libperfdata-fuzz.a tests/fuzz/libarch-fuzz.a tests/fuzz/libutil-fuzz.a $(JANSSON_LIBS) -lm
FUZZ_LIB_SAMPLES = tests/fuzz/libreport-fuzz.a tests/fuzz/libcore-fuzz.a tests/fuzz/libregistry-fuzz.a tests/fuzz/libmetric-fuzz.a \
	tests/fuzz/libemu-fuzz.a tests/fuzz/libkmh-fuzz.a $(FUZZ_LIB_ARM64_EMU) tests/fuzz/libarm64-fuzz.a \
	tests/fuzz/libperfdata-fuzz.a tests/fuzz/libsym-fuzz.a tests/fuzz/libarch-fuzz.a \
	tests/fuzz/libutil-fuzz.a $(JANSSON_LIBS) $(LIBELF_LIBS) $(CXXDEMANGLE_LIBS) -lm
FUZZ_LIB_TOP = tests/fuzz/libtop-fuzz.a tests/fuzz/libstat-fuzz.a tests/fuzz/libbackend-fuzz.a \
	tests/fuzz/libcore-fuzz.a tests/fuzz/libregistry-fuzz.a tests/fuzz/libmetric-fuzz.a tests/fuzz/libemu-fuzz.a \
	tests/fuzz/libkmh-fuzz.a $(FUZZ_LIB_ARM64_EMU) tests/fuzz/libarm64-fuzz.a src/bpf/libhpmbpf.a tests/fuzz/libarch-fuzz.a tests/fuzz/libutil-fuzz.a $(JANSSON_LIBS) $(LIBPFM4_LIBS) \
	$(NCURSES_LIBS) $(LIBBPF_LIBS) -lm

FUZZ_BINARIES = tests/fuzz/libfuzzer-expr tests/fuzz/libfuzzer-runfile \
	tests/fuzz/libfuzzer-weights tests/fuzz/libfuzzer-trace tests/fuzz/libfuzzer-profile \
	tests/fuzz/libfuzzer-script tests/fuzz/libfuzzer-topconf tests/fuzz/libfuzzer-perfdata \
	tests/fuzz/libfuzzer-perfdata-deep tests/fuzz/libfuzzer-arm-profile
noinst_PROGRAMS += $(FUZZ_BINARIES)
tests_fuzz_libfuzzer_expr_SOURCES = tests/fuzz/fuzz-expr.c
tests_fuzz_libfuzzer_expr_CFLAGS = $(AM_CFLAGS) $(FUZZ_CFLAGS)
tests_fuzz_libfuzzer_expr_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_libfuzzer_expr_LDADD = tests/fuzz/libkmh-fuzz.a tests/fuzz/libarch-fuzz.a tests/fuzz/libutil-fuzz.a
tests_fuzz_libfuzzer_runfile_SOURCES = tests/fuzz/fuzz-runfile.c
tests_fuzz_libfuzzer_runfile_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS) $(FUZZ_CFLAGS)
tests_fuzz_libfuzzer_runfile_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_libfuzzer_runfile_LDADD = $(FUZZ_LIB_REPORT)
tests_fuzz_libfuzzer_weights_SOURCES = tests/fuzz/fuzz-weights.c
tests_fuzz_libfuzzer_weights_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS) $(FUZZ_CFLAGS)
tests_fuzz_libfuzzer_weights_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_libfuzzer_weights_LDADD = $(FUZZ_LIB_REPORT)
tests_fuzz_libfuzzer_trace_SOURCES = tests/fuzz/fuzz-trace.c
tests_fuzz_libfuzzer_trace_CFLAGS = $(AM_CFLAGS) $(FUZZ_CFLAGS)
tests_fuzz_libfuzzer_trace_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_libfuzzer_trace_LDADD = $(FUZZ_LIB_EMU)
tests_fuzz_libfuzzer_profile_SOURCES = tests/fuzz/fuzz-profile.c tests/fuzz/fuzz-text.h
tests_fuzz_libfuzzer_profile_CFLAGS = $(AM_CFLAGS) $(FUZZ_CFLAGS)
tests_fuzz_libfuzzer_profile_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_libfuzzer_profile_LDADD = $(FUZZ_LIB_EMU)
tests_fuzz_libfuzzer_script_SOURCES = tests/fuzz/fuzz-script.c
tests_fuzz_libfuzzer_script_CFLAGS = $(AM_CFLAGS) $(FUZZ_CFLAGS)
tests_fuzz_libfuzzer_script_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_libfuzzer_script_LDADD = $(FUZZ_LIB_EMU)
tests_fuzz_libfuzzer_topconf_SOURCES = tests/fuzz/fuzz-topconf.c
tests_fuzz_libfuzzer_topconf_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS) $(FUZZ_CFLAGS)
tests_fuzz_libfuzzer_topconf_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_libfuzzer_topconf_LDADD = $(FUZZ_LIB_TOP)

tests_fuzz_libfuzzer_perfdata_SOURCES = tests/fuzz/fuzz-perfdata.c
tests_fuzz_libfuzzer_perfdata_CFLAGS = $(AM_CFLAGS) $(FUZZ_CFLAGS)
tests_fuzz_libfuzzer_perfdata_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_libfuzzer_perfdata_LDADD = $(FUZZ_LIB_SAMPLES)
tests_fuzz_libfuzzer_perfdata_deep_SOURCES = tests/fuzz/fuzz-perfdata-deep.c
tests_fuzz_libfuzzer_perfdata_deep_CFLAGS = $(AM_CFLAGS) $(FUZZ_CFLAGS)
tests_fuzz_libfuzzer_perfdata_deep_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_libfuzzer_perfdata_deep_LDADD = $(FUZZ_LIB_SAMPLES)
tests_fuzz_libfuzzer_arm_profile_SOURCES = tests/fuzz/fuzz-arm-profile.c tests/fuzz/fuzz-text.h
tests_fuzz_libfuzzer_arm_profile_CFLAGS = $(AM_CFLAGS) $(FUZZ_CFLAGS)
tests_fuzz_libfuzzer_arm_profile_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_libfuzzer_arm_profile_LDADD = tests/fuzz/libarm64src-fuzz.a tests/fuzz/libarm64-fuzz.a \
	tests/fuzz/libhpmemukit-fuzz.a tests/fuzz/libutil-fuzz.a $(JANSSON_LIBS) -lm

# make fuzz [FUZZ_SECONDS=N] [FUZZ_TARGETS='trace script']: each target in
# turn; corpora, logs and crash inputs go to fuzz-out/NAME/. Exits non-zero
# when any target found a crash.
fuzz: $(FUZZ_BINARIES)
	@status=0; for t in $(FUZZ_TARGETS); do \
		extra=; test $$t = profile && extra=$(top_srcdir)/profiles; \
		test $$t = arm-profile && extra=$(top_srcdir)/profiles/arm64; \
		test $$t = runfile && extra=$(top_srcdir)/tests/report; \
		$(SHELL) $(top_srcdir)/tests/fuzz/run-libfuzzer.sh tests/fuzz/libfuzzer-$$t$(EXEEXT) \
			fuzz-out/$$t $(FUZZ_SECONDS) $(top_srcdir)/tests/fuzz/corpus-$$t $$extra \
			|| status=1; \
	done; exit $$status
else
fuzz:
	@echo "make fuzz needs the libFuzzer targets: ./configure --enable-fuzzing CC=clang" >&2; exit 1
endif

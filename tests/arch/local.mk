# tests/arch: the PMU-model registry and interface, every model's data
# through the validator.
check_PROGRAMS += tests/arch/test-models
tests_arch_test_models_SOURCES = tests/arch/test-models.c
tests_arch_test_models_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_arch_test_models_LDADD = tests/libtap.a src/core/libcore.a src/registry/libregistry.a src/kmh/emu/libemu.a src/kmh/libkmh.a $(ARM64_EMU_LIBS) src/emukit/libhpmemukit.a src/arm64/libarm64.a \
	src/arch/libarch.a src/util/libutil.a $(JANSSON_LIBS)
TESTS += tests/arch/test-models

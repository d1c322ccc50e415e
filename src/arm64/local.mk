# src/arm64: the Arm PMUv3 register library: PMEVTYPER<n>_EL0 fields, their
# reserved combinations and counting rule (pmevtyper.c), the event
# expression encoder and decoder (expr.c; event names come from the
# caller), and PMDEVID (pmdevid.c). Depends on src/util only; the model,
# its event tables and its perf mapping build on it.
noinst_LIBRARIES += src/arm64/libarm64.a
src_arm64_libarm64_a_SOURCES = \
	src/arm64/arm64.h src/arm64/pmevtyper.h src/arm64/pmdevid.h \
	src/arm64/pmevtyper.c src/arm64/expr.c src/arm64/pmdevid.c
src_arm64_libarm64_a_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)

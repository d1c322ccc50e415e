# src/arm64/gen: the build-time generator of the Arm event tables
# (events/arm64 in perf's pmu-events layout -> src/arm64/events-gen.c), which
# is also their validator (tests/arm64/jevents-reject.sh).
noinst_PROGRAMS += src/arm64/gen/arm64-jevents
src_arm64_gen_arm64_jevents_SOURCES = src/arm64/gen/jevents.c src/gen/gen-die.c src/gen/gen-die.h \
	src/gen/gen-pool.c src/gen/gen-pool.h
src_arm64_gen_arm64_jevents_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
src_arm64_gen_arm64_jevents_LDADD = $(JANSSON_LIBS)
TESTS += tests/arm64/jevents-reject.sh
EXTRA_DIST += tests/arm64/jevents-reject.sh

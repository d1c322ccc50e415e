# tests/arm64-src: the Arm emulator's event sources (src/arm64/emu/sources.mk):
# feed, profiles and their streams, traces. Expected values come from the
# profiles' own declarations put through Arm's formulas here, independently.
check_PROGRAMS += tests/arm64-src/sources
TESTS += tests/arm64-src/sources
tests_arm64_src_sources_SOURCES = tests/arm64-src/sources.c
tests_arm64_src_sources_LDADD = tests/libtap.a src/arm64/emu/libarm64src.a src/arm64/libarm64.a \
	src/emukit/libhpmemukit.a src/util/libutil.a $(JANSSON_LIBS) -lm

# src/emukit: what the bundled PMU emulators (src/kmh/emu, src/arm64/emu) share,
# behind tables of callbacks each machine hands in: it includes no kmh/ or
# arm64/ header and knows no ISA's types. The machines' libraries use it, so
# it comes after them in a link (HPMSTAT_LIBS). It uses only src/util (and
# jansson).
#   rng.h        the random numbers of the streams (xoshiro256**, splitmix64)
#   alias.[ch]   Walker's alias table: weighted choice in O(1)
#   bench.[ch]   the bench harness: fast path against reference, timed
#   lines*.[ch]  output a line at a time to a caller's callback, or as JSON
#                (hpmstat emu)
#   phase.h      a profile's phases: the getters every model exports
#   profile.[ch] the profile kit: [KIND NAME] / key = value, key tables, errors, registry
#   script.[ch]  the script interpreter core: words, dispatch over a
#                machine's command table, expect, trace, the stoppable loop
#   trace.[ch]   the trace reader and writer core: lines, limits, interning,
#                and a hart's place in a trace replayed over and over
# One module (its source and header) per line, sorted.
noinst_LIBRARIES += src/emukit/libhpmemukit.a
src_emukit_libhpmemukit_a_SOURCES = \
	src/emukit/alias.c src/emukit/alias.h \
	src/emukit/bench.c src/emukit/bench.h \
	src/emukit/lines.c src/emukit/lines-json.c src/emukit/lines.h \
	src/emukit/phase.h \
	src/emukit/profile.c src/emukit/profile.h \
	src/emukit/rng.h \
	src/emukit/script.c src/emukit/script.h \
	src/emukit/trace.c src/emukit/trace.h
# lines-json.c formats the listings' JSON
src_emukit_libhpmemukit_a_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)

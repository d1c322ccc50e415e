# src/emu: what the bundled PMU emulators (src/kmh/emu, src/arm64/emu) share,
# behind tables of callbacks each machine hands in: it includes no kmh/ or
# arm64/ header and knows no ISA's types. The machines' libraries use it, so
# it comes after them in a link (HPMSTAT_LIBS). It uses only src/util.
#   rng.h        the random numbers of the streams (xoshiro256**, splitmix64)
#   alias.[ch]   Walker's alias table: weighted choice in O(1)
#   bench.[ch]   the bench harness: fast path against reference, timed
#   lines.[ch]   output a line at a time to a caller's callback (hpmstat emu)
# One source per line, sorted.
noinst_LIBRARIES += src/emu/libhpmemu.a
src_emu_libhpmemu_a_SOURCES = \
	src/emu/alias.c \
	src/emu/alias.h \
	src/emu/bench.c \
	src/emu/bench.h \
	src/emu/lines.c \
	src/emu/lines.h \
	src/emu/rng.h

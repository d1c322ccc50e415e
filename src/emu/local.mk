# src/emu: the emulator toolkit both machines share (issue 31): what
# src/kmh/emu and src/arm64/emu each had a copy of, behind tables of
# callbacks, so that it knows no ISA's types and includes no machine's
# header (the machines include it, never the reverse).
#   rng.h        the random numbers of the streams (xoshiro256**, splitmix64)
#   alias.[ch]   Walker's alias table: weighted choice in O(1)
#   bench.[ch]   the bench harness: fast path against reference, timed
#   lines.[ch]   output a line at a time to a caller's callback (hpmstat emu)
# It uses only src/util. Every link names it after both machines' libraries.
noinst_LIBRARIES += src/emu/libhpmemu.a
src_emu_libhpmemu_a_SOURCES = \
	src/emu/alias.c \
	src/emu/alias.h \
	src/emu/bench.c \
	src/emu/bench.h \
	src/emu/lines.c \
	src/emu/lines.h \
	src/emu/rng.h

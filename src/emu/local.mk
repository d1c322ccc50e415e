# src/emu: what the bundled PMU emulators (src/kmh/emu, src/arm64/emu) share,
# behind tables of callbacks each machine hands in: it includes no kmh/ or
# arm64/ header and knows no ISA's types. The machines' libraries use it, so
# it comes after them in a link (HPMSTAT_LIBS). It uses only src/util.
# One source per line, sorted.
noinst_LIBRARIES += src/emu/libhpmemu.a
src_emu_libhpmemu_a_SOURCES = \
	src/emu/script.c \
	src/emu/script.h \
	src/emu/trace.c \
	src/emu/trace.h

# src/emu: the Kunminghu HPM emulator library (see src/emu/emu.h).
noinst_LIBRARIES += src/emu/libemu.a
src_emu_libemu_a_SOURCES = \
	src/emu/source.h

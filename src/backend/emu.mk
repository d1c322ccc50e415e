# src/backend/emu.mk (included from src/backend/local.mk): the emulator back
# end (backend/emu.h), part of libbackend.a; it runs the emulated machine of
# the rows' model (arch/machine.h, found through registry/models.h) and programs
# what the counter scheduler (core/sched.h, in libcore.a) places. The stat
# command links libcore.a and the model folders' libraries (Kunminghu's
# machine: src/kmh/emu/libemu.a) after libbackend.a.
src_backend_libbackend_a_SOURCES += \
	src/backend/emu.c src/backend/emu.h

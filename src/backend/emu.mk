# src/backend/emu.mk (included from src/backend/local.mk): the emulator back
# end (backend/emu.h), part of libbackend.a; it programs what the Kunminghu
# counter scheduler (kmh/sched.h, in libkmh.a) places. The stat command links
# src/emu/libemu.a and src/kmh/libkmh.a after libbackend.a.
src_backend_libbackend_a_SOURCES += \
	src/backend/emu.c src/backend/emu.h

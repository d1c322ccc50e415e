# src/backend/emu.mk (included from src/backend/local.mk): the emulator back
# end (backend/emu.h) and the Kunminghu counter scheduler it programs
# (stat/sched.h), both part of libbackend.a. The stat command links
# src/emu/libemu.a and src/kmh/libkmh.a after libbackend.a.
src_backend_libbackend_a_SOURCES += \
	src/backend/emu.c src/backend/emu.h \
	src/stat/sched.c src/stat/sched.h

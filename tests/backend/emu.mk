# tests/backend/emu.mk (included from tests/backend/local.mk): the counter
# scheduler on hand-built requests, the emulator back end end to end on the
# real emulator, and on a throwaway model and machine registered at run time
# (emu-toy: the back end knows no model). They compile their sources in, so
# they do not depend on the state of libbackend.a.
EMU_BACKEND_TESTS = tests/backend/emu-sched tests/backend/emu-backend tests/backend/emu-toy
check_PROGRAMS += $(EMU_BACKEND_TESTS)
TESTS += $(EMU_BACKEND_TESTS)
tests_backend_emu_sched_SOURCES = tests/backend/emu-sched.c \
	src/core/sched.c src/core/sched.h
tests_backend_emu_sched_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_backend_emu_sched_LDADD = $(HPM_TEST_LIBS)
tests_backend_emu_backend_SOURCES = tests/backend/emu-backend.c tests/backend/emu-run.c tests/backend/emu-run.h \
	src/backend/emu.c src/backend/emu.h \
	src/core/evlist.c src/core/evlist.h \
	src/core/sched.c src/core/sched.h \
	src/registry/models.c src/registry/models.h
tests_backend_emu_backend_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_backend_emu_backend_LDADD = $(HPM_TEST_LIBS)
tests_backend_emu_toy_SOURCES = tests/backend/emu-toy.c tests/backend/emu-run.c tests/backend/emu-run.h tests/toy/toy.c tests/toy/toy.h \
	src/backend/emu.c src/backend/emu.h \
	src/core/evlist.c src/core/evlist.h \
	src/core/sched.c src/core/sched.h \
	src/registry/models.c src/registry/models.h
tests_backend_emu_toy_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_backend_emu_toy_LDADD = $(HPM_TEST_LIBS)

# src/emu: the Kunminghu HPM emulator library (see src/emu/emu.h).
#   hart.c       machine, harts, CSR file and access rules, counting fast path
#   reference.c  the per-cycle reference the fast path is checked against
#   csr.c        CSR names and numbers, modes, exceptions, number syntax
#   stimulus.c   the stimulus source (exact per-cycle values) and event names
#   trace.c      the trace source: the text format, writing and replay
#   script.c     the interpreter of the hpmstat-emu(1) script language
#   bench.c      the engine of `hpmstat emu bench`: fast path against reference
#   workload*.c, profile.c: the workload models (see src/emu/workload.h)
noinst_LIBRARIES += src/emu/libemu.a
src_emu_libemu_a_SOURCES = \
	src/emu/source.h \
	src/emu/emu.h \
	src/emu/hart.c \
	src/emu/reference.c \
	src/emu/csr.c \
	src/emu/stimulus.c \
	src/emu/trace.c \
	src/emu/script.c \
	src/emu/bench.h \
	src/emu/bench.c \
	src/emu/workload.h \
	src/emu/workload-int.h \
	src/emu/workload.c \
	src/emu/workload-model.c \
	src/emu/profile.c

# src/bpf: per-task counts from per-CPU counters (taskcount.h). Uses only
# src/util. The BPF program taskcount.bpf.c is compiled with clang -target
# bpf and embedded by bpftool gen skeleton in a header of the build
# directory; without libbpf the library is built too and says so
# (-HPM_TC_ENOTBUILT).
noinst_LIBRARIES += src/bpf/libhpmbpf.a
src_bpf_libhpmbpf_a_SOURCES = src/bpf/taskcount.c src/bpf/taskcount.h src/bpf/taskcount-maps.h
src_bpf_libhpmbpf_a_CFLAGS = $(AM_CFLAGS) $(LIBBPF_CFLAGS)
EXTRA_DIST += src/bpf/taskcount.bpf.c
if HAVE_LIBBPF
BPF_CLANG_FLAGS = -g -O2 -target bpf -D__TARGET_ARCH_$(BPF_ARCH) $(BPF_CPPFLAGS) $(LIBBPF_CFLAGS) \
	-I$(top_srcdir)/src -Wall
src/bpf/taskcount.bpf.o: src/bpf/taskcount.bpf.c src/bpf/taskcount-maps.h
	@$(MKDIR_P) src/bpf
	$(AM_V_GEN)$(CLANG) $(BPF_CLANG_FLAGS) -c $(top_srcdir)/src/bpf/taskcount.bpf.c -o $@
src/bpf/taskcount.skel.h: src/bpf/taskcount.bpf.o
	$(AM_V_GEN)$(BPFTOOL) gen skeleton src/bpf/taskcount.bpf.o name taskcount_bpf > $@.tmp && mv $@.tmp $@
BUILT_SOURCES += src/bpf/taskcount.skel.h
CLEANFILES += src/bpf/taskcount.bpf.o src/bpf/taskcount.skel.h src/bpf/taskcount.skel.h.tmp
src/bpf/libhpmbpf_a-taskcount.$(OBJEXT): src/bpf/taskcount.skel.h
endif

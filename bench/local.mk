# bench: benchmarks (not tests; not run by `make check`).
#   make bench    the emulator's fast path against its per-cycle reference
#                 (bench/emu-bench.sh; figures in bench/README.md)
EXTRA_DIST += bench/emu-bench.sh bench/README.md
BENCH_CYCLES = 20000000
bench: src/hpmstat$(EXEEXT)
	$(SHELL) $(top_srcdir)/bench/emu-bench.sh ./src/hpmstat$(EXEEXT) $(BENCH_CYCLES)
.PHONY: bench

#   make bench-stat   hpmstat stat's targets (bench/stat-bench.sh)
# bench-runtime is built by `make`, so doc/performance.md's
# `sh bench/stat-bench.sh src/hpmstat bench/bench-runtime` works as written
# (it is not installed)
noinst_PROGRAMS += bench/bench-runtime
bench_bench_runtime_SOURCES = bench/runtime.c
EXTRA_DIST += bench/stat-bench.sh
bench-stat: src/hpmstat$(EXEEXT) bench/bench-runtime$(EXEEXT)
	$(SHELL) $(top_srcdir)/bench/stat-bench.sh ./src/hpmstat$(EXEEXT) ./bench/bench-runtime$(EXEEXT)
.PHONY: bench-stat

#   make bench-top    hpmstat top's targets (bench/top-bench.sh)
EXTRA_DIST += bench/top-bench.sh
bench-top: src/hpmstat$(EXEEXT)
	$(SHELL) $(top_srcdir)/bench/top-bench.sh ./src/hpmstat$(EXEEXT)
.PHONY: bench-top

#   make bench-top-bpf  hpmstat top's task rows from BPF against the per-task
#                       groups with 200 busy processes: counters and
#                       hpmstat's CPU (bench/top-bpf.sh; needs root)
noinst_PROGRAMS += bench/bench-busy-load
bench_bench_busy_load_SOURCES = bench/busy-load.c
EXTRA_DIST += bench/top-bpf.sh
bench-top-bpf: src/hpmstat$(EXEEXT) bench/bench-busy-load$(EXEEXT)
	$(SHELL) $(top_srcdir)/bench/top-bpf.sh ./src/hpmstat$(EXEEXT) ./bench/bench-busy-load$(EXEEXT)
.PHONY: bench-top-bpf

#   make bench-arm    the Arm emulator's fast path against its reference
#                     (bench/arm-emu-bench.c; figures in bench/README.md)
noinst_PROGRAMS += bench/arm-emu-bench
bench_arm_emu_bench_SOURCES = bench/arm-emu-bench.c
bench_arm_emu_bench_LDADD = src/arm64/emu/libarm64emu.a src/arm64/libarm64.a src/emukit/libhpmemukit.a src/util/libutil.a \
	$(JANSSON_LIBS)
bench-arm: bench/arm-emu-bench$(EXEEXT)
	./bench/arm-emu-bench$(EXEEXT) $(BENCH_CYCLES)
.PHONY: bench-arm

#   make bench-sym    the symbolizer resolving 1e6 addresses
#                     (bench/sym-bench.c; figures in bench/README.md)
noinst_PROGRAMS += bench/sym-bench
bench_sym_bench_SOURCES = bench/sym-bench.c
bench_sym_bench_LDADD = src/sym/libsym.a src/util/libutil.a $(LIBELF_LIBS) $(CXXDEMANGLE_LIBS)
bench-sym: bench/sym-bench$(EXEEXT)
	./bench/sym-bench$(EXEEXT) 1000000
.PHONY: bench-sym

#   make bench-report-samples   hpmstat report and perf report --stdio on
#                 the same 1e6-sample perf.data (bench/report-samples-bench.sh)
EXTRA_DIST += bench/report-samples-bench.sh bench/perfdata-repeat.py
bench-report-samples: src/hpmstat$(EXEEXT)
	$(SHELL) $(top_srcdir)/bench/report-samples-bench.sh ./src/hpmstat$(EXEEXT)
.PHONY: bench-report-samples

#   make bench-report-scale   hpmstat report and perf report --stdio on
#                 1e6-record perf.data files crafted against quadratic paths
#                 (colliding sample ids, 80000 maps, 160000 pids, 20000
#                 events): wall time and peak RSS (bench/report-scale-bench.sh)
EXTRA_DIST += bench/report-scale-bench.sh bench/perfdata-craft.py
bench-report-scale: src/hpmstat$(EXEEXT)
	$(SHELL) $(top_srcdir)/bench/report-scale-bench.sh ./src/hpmstat$(EXEEXT)
.PHONY: bench-report-scale

#   make bench-record  hpmstat record's own CPU against perf record's at 4 kHz
#                      on the same busy process, and lost samples
#                      (bench/record-bench.sh)
EXTRA_DIST += bench/record-bench.sh
bench-record: src/hpmstat$(EXEEXT)
	bash $(top_srcdir)/bench/record-bench.sh ./src/hpmstat$(EXEEXT)
.PHONY: bench-record

#   make bench-serve  hpmstat serve's scrape latency at 50 clients
#                     (bench/serve-bench.sh; figures in bench/README.md)
EXTRA_DIST += bench/serve-bench.sh
bench-serve: src/hpmstat$(EXEEXT)
	$(SHELL) $(top_srcdir)/bench/serve-bench.sh ./src/hpmstat$(EXEEXT) 50 10
.PHONY: bench-serve
#   make bench-bpf    the BPF per-task program's cost per context switch and
#                     hpmstat stat -a --per-thread through BPF against per-thread
#                     counters (bench/bpf-bench.c, bench/bpf-bench.sh; root)
noinst_PROGRAMS += bench/bpf-bench
bench_bpf_bench_SOURCES = bench/bpf-bench.c
bench_bpf_bench_LDADD = src/bpf/libhpmbpf.a src/util/libutil.a $(LIBBPF_LIBS)
EXTRA_DIST += bench/bpf-bench.sh
bench-bpf: src/hpmstat$(EXEEXT) bench/bpf-bench$(EXEEXT)
	./bench/bpf-bench$(EXEEXT) 1
	$(SHELL) $(top_srcdir)/bench/bpf-bench.sh ./src/hpmstat$(EXEEXT)
.PHONY: bench-bpf
#   make bench-bpf-riscv  bench/bpf-bench inside the riscv64 VM of tests/riscv
#                     (its BPF kernel; the tools of tests/riscv; bench/bpf-riscv.sh)
EXTRA_DIST += bench/bpf-riscv.sh
bench-bpf-riscv: src/hpmstat$(EXEEXT) src/kmh/gen/kmh-jevents src/arm64/gen/arm64-jevents src/gen/metrics2c
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' bash $(top_srcdir)/bench/bpf-riscv.sh 2
.PHONY: bench-bpf-riscv
#   make bench-startup  hpmstat's start-up against perf's, in paired runs:
#                     wall time, libraries mapped, page faults, peak RSS
#                     (bench/startup-bench.py over bench/bench-runtime;
#                     STARTUP_RUNS pairs; figures in doc/performance.md),
#                     and the floor: bench/startup-floor.c, the least a
#                     `stat -e task-clock -- true` does, against the same perf
EXTRA_DIST += bench/startup-bench.py
STARTUP_RUNS = 30
noinst_PROGRAMS += bench/bench-startup-floor
bench_bench_startup_floor_SOURCES = bench/startup-floor.c
# linked as hpmstat is: statically beside the static front
if HPM_STATIC_FRONT
bench_bench_startup_floor_LDFLAGS = -static
else
bench_bench_startup_floor_LDFLAGS = $(AM_LDFLAGS)
endif
bench-startup: src/hpmstat$(EXEEXT) bench/bench-runtime$(EXEEXT) bench/bench-startup-floor$(EXEEXT)
	python3 $(top_srcdir)/bench/startup-bench.py ./src/hpmstat$(EXEEXT) ./bench/bench-runtime$(EXEEXT) perf $(STARTUP_RUNS) ./bench/bench-startup-floor$(EXEEXT)
.PHONY: bench-startup
#   make startup-order  remakes src/hpmstat-front.ld, the static front's
#                     start-up paths laid out together, from the code a few
#                     commands run (bench/startup-order.py over
#                     bench/startup-trace.c, which single-steps hpmstat) and
#                     the data they touch (valgrind's lackey over
#                     bench/bench-startup-traced, hpmstat whose child is a
#                     copy, as valgrind follows no CLONE_VM child; relinked
#                     and run again until a round adds nothing)
noinst_PROGRAMS += bench/bench-startup-trace
bench_bench_startup_trace_SOURCES = bench/startup-trace.c
bench_bench_startup_trace_LDADD = src/util/libutil.a
EXTRA_DIST += bench/startup-order.py
if HPM_STATIC_FRONT
EXTRA_PROGRAMS += bench/bench-startup-traced
bench_bench_startup_traced_SOURCES = src/util/child.c
bench_bench_startup_traced_CPPFLAGS = $(AM_CPPFLAGS) -DHPM_CHILD_COPY
bench_bench_startup_traced_LDFLAGS = -static -Wl,-T,$(top_srcdir)/src/hpmstat-front.ld -Wl,-Map=bench/bench-startup-traced.map
bench_bench_startup_traced_LDADD = src/hpmstat-hpmstat-front.$(OBJEXT) src/util/hpmstat-dlib-static.$(OBJEXT) $(src_hpmstat_LDADD)
EXTRA_bench_bench_startup_traced_DEPENDENCIES = $(top_srcdir)/src/hpmstat-front.ld
CLEANFILES += bench/bench-startup-traced$(EXEEXT) bench/bench-startup-traced.map
startup-order: src/hpmstat$(EXEEXT) bench/bench-startup-trace$(EXEEXT)
	@test -f src/hpmstat.map || { echo "make startup-order: no src/hpmstat.map: the linker refused src/hpmstat-front.ld (configure's summary)" >&2; exit 1; }
	python3 $(top_srcdir)/bench/startup-order.py text ./src/hpmstat$(EXEEXT) ./bench/bench-startup-trace$(EXEEXT) src/hpmstat.map $(top_srcdir)/src/hpmstat-front.ld
	@round=1; while :; do \
	  rm -f bench/bench-startup-traced$(EXEEXT); \
	  $(MAKE) $(AM_MAKEFLAGS) bench/bench-startup-traced$(EXEEXT) >/dev/null || exit 1; \
	  echo "data, round $$round:"; \
	  python3 $(top_srcdir)/bench/startup-order.py data ./bench/bench-startup-traced$(EXEEXT) bench/bench-startup-traced.map $(top_srcdir)/src/hpmstat-front.ld 'src/util/bench_bench_startup_traced-child.$(OBJEXT)=*libutil.a:libutil_a-child.o'; \
	  rc=$$?; [ $$rc = 3 ] && break; [ $$rc = 0 ] || exit 1; \
	  [ $$round -lt 12 ] || { echo "make startup-order: the data did not settle in 12 rounds: the script keeps what they found" >&2; break; }; \
	  round=$$((round + 1)); \
	done
	$(MAKE) $(AM_MAKEFLAGS) src/hpmstat$(EXEEXT)
else
startup-order:
	@echo "make startup-order: configured without the static front (configure --enable-static-front)" >&2; exit 1
endif
.PHONY: startup-order

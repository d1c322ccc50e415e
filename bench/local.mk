# bench: benchmarks (not tests; not run by `make check`).
#   make bench    the emulator's fast path against its per-cycle reference
#                 (bench/emu-bench.sh; figures in bench/README.md)
EXTRA_DIST += bench/emu-bench.sh bench/README.md
BENCH_CYCLES = 20000000
bench: src/hpmstat$(EXEEXT)
	$(SHELL) $(top_srcdir)/bench/emu-bench.sh ./src/hpmstat$(EXEEXT) $(BENCH_CYCLES)
.PHONY: bench

# tests/riscv: hpmstat inside a real riscv64 Linux 6.1 kernel under QEMU
# (Debian's OpenSBI, -cpu with sscofpmf and Kunminghu's marchid). Skipped
# with the reason when the tools or the kernel are missing; see README.
RISCV_TESTS = \
	tests/riscv/smoke.sh \
	tests/riscv/kernel.sh \
	tests/riscv/count-exact.sh \
	tests/riscv/count-facts.sh \
	tests/riscv/count-kmh.sh \
	tests/riscv/count-mux.sh \
	tests/riscv/record.sh \
	tests/riscv/bpf.sh
TESTS += $(RISCV_TESTS)
EXTRA_DIST += $(RISCV_TESTS) tests/riscv/vm-lib.sh tests/riscv/count-lib.sh tests/riscv/init.c tests/riscv/busy.c \
	tests/riscv/kernel.config tests/riscv/kernel-bpf.config tests/riscv/build-assets.sh \
	tests/riscv/assets/Image-6.1.192-bpf-riscv64.xz tests/riscv/assets/README.md
# the VM tests build a riscv64 hpmstat from the host build's generators
$(RISCV_TESTS:.sh=.log): src/kmh/gen/kmh-jevents src/arm64/gen/arm64-jevents src/gen/metrics2c src/hpmstat

# what no prebuilt asset gives: the kernels and jansson (about 10 minutes
# on 2 cores each kernel) and, always, the static riscv64 libbpf, libelf
# and zlib of the BPF tests (about 2 minutes)
riscv-assets:
	HPMSTAT_RISCV_CACHE='$(abs_top_builddir)/tests/riscv/cache' \
	    bash $(top_srcdir)/tests/riscv/build-assets.sh
.PHONY: riscv-assets

clean-local: clean-riscv-cache
clean-riscv-cache:
	rm -rf tests/riscv/cache
.PHONY: clean-riscv-cache

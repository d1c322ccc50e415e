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
	tests/riscv/record.sh
TESTS += $(RISCV_TESTS)
EXTRA_DIST += $(RISCV_TESTS) tests/riscv/vm-lib.sh tests/riscv/count-lib.sh tests/riscv/init.c tests/riscv/busy.c \
	tests/riscv/kernel.config tests/riscv/build-assets.sh
# the VM tests build a riscv64 hpmstat from the host build's generators
$(RISCV_TESTS:.sh=.log): src/kmh/gen/kmh-jevents src/arm64/gen/arm64-jevents src/gen/metrics2c src/hpmstat

# the kernel and jansson when no prebuilt assets sit beside the project
# (about 10 minutes on 2 cores)
riscv-assets:
	HPMSTAT_RISCV_CACHE='$(abs_top_builddir)/tests/riscv/cache' \
	    $(SHELL) $(top_srcdir)/tests/riscv/build-assets.sh
.PHONY: riscv-assets

clean-local: clean-riscv-cache
clean-riscv-cache:
	rm -rf tests/riscv/cache
.PHONY: clean-riscv-cache

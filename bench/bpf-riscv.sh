#!/bin/bash
# bpf-riscv.sh: the per-task program's cost per context switch on riscv64:
# bench/bpf-bench (cross-built) inside the riscv64 VM of tests/riscv, on
# its BPF kernel (Linux 6.1, the BPF interpreter: 6.1's riscv JIT needs
# modules, which that kernel leaves out), two harts, software events.
# The figures are QEMU's emulated time on this machine, not silicon: they
# compare the program with itself (1, 4, 8 counters) and with the
# ping-pong it slows down, in the same boot.
# Usage: bash bench/bpf-riscv.sh [SECONDS]  (or make bench-bpf-riscv)
set -u
top_srcdir=$(cd "${top_srcdir:-$(dirname "$0")/..}" && pwd)
top_builddir=$(cd "${top_builddir:-$top_srcdir}" && pwd)
secs=${1:-2}
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/riscv/vm-lib.sh"
# vm_require's skip is TAP; here it is one line and status 77
vm_skip() {
	echo "bpf-riscv: $*" >&2
	exit 77
}
vm_require
vm_require_bpf
vm_run bench --kernel bpf --timeout 300 <<CMDS
@timeout 250
bpf-bench $secs
CMDS
rc=$?
cat "$VM_OUT/bench/2.out" "$VM_OUT/bench/2.err" 2>/dev/null
echo "(riscv64 guest: QEMU $(qemu-system-riscv64 --version | awk 'NR == 1 { print $4 }'), 2 harts, boot and run ${VM_SECONDS}s)"
[ $rc = 0 ] && [ "$(cat "$VM_OUT/bench/2.rc")" = 0 ]

#!/bin/sh
# The riscv64 VM harness itself: a boot runs commands and hands back their
# output, status and files exactly; the guest is the Kunminghu-marchid QEMU.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/riscv/vm-lib.sh"
vm_require

vm_run smoke --raw-dtb <<'CMDS'
@cat /proc/cpuinfo
busy -x 3
busy 1000
@write /tmp/f hello
@export /tmp/f
@uid 1000
hpmstat stat -e cycles -- busy 1000
@uid 0
hpmstat stat -x, -e cycles,instructions -- busy 100000
nosuchprogram
CMDS
ok $? "the guest ran every command and powered off (${VM_SECONDS}s)"
d=$VM_OUT/smoke
grep -q '^marchid[[:space:]]*: 0x19$' $d/1.out; ok $? "cpuinfo in the guest says marchid 0x19 (QEMU -cpu ...,marchid=0x19)"
[ "$(cat $d/2.rc)" = 3 ]; ok $? "an exit status comes back (busy -x 3: $(cat $d/2.rc))"
[ "$(cat $d/3.rc)" = 0 ] && [ ! -s $d/3.out ]; ok $? "busy 1000 exits 0, silent"
[ "$(cat $d/files/f)" = hello ]; ok $? "@export copies a guest file out exactly"
[ "$(cat $d/7.rc)" != 0 ] && grep -q 'perf_event_paranoid' $d/7.err; ok $? "@uid 1000: unprivileged, cycles with kernel counting is refused (paranoid 2)"
n=$(grep -cE '^[0-9]+,,(cycles|instructions),' $d/9.err)
[ "$(cat $d/9.rc)" = 0 ] && [ "$n" = 2 ]; ok $? "hpmstat stat -x, on the riscv64 kernel: two count rows (rc $(cat $d/9.rc))"
[ "$n" = 2 ] || diag "$(cat $d/9.err)"
[ "$(cat $d/10.rc)" = 127 ] && grep -q 'nosuchprogram' $d/10.err; ok $? "a missing program: 127 and its name on stderr"
done_testing

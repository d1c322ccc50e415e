#!/bin/bash
# Per-task counting through BPF (src/bpf) on a real riscv64 Linux 6.1 kernel
# under QEMU: the kernel of kernel-bpf.config (bpf(), raw tracepoints, no
# BPF trampoline, no JIT, no BTF), the riscv64 hpmstat linked with a static
# libbpf, the SBI PMU's counters read by bpf_perf_event_read_value at each
# sched_switch.
#
# Independent truth:
# - instructions: one hart under -icount shift=0, where QEMU's instret is
#   the number of instructions executed; busy -f forks children of N
#   iterations each, all at once on the one hart, so the scheduler switches
#   between them, and each child's row must be N x busy_loop's instructions
#   per iteration (objdump). The kernel's own instructions on the child's
#   behalf (fork's return, exit, the timer ticks that fall in its run: QEMU
#   does not filter by privilege; about 100k with an exec) are in its count
#   too: 1 % of 20M instructions and more. Kunminghu events by name too:
#   ifu_req and frontendFlush encode to raw 0x2 and 0x1, which QEMU counts
#   as instret and cycles (the only raw codes it knows).
# - cpu-clock: tests/bpf's duty loops (20 %, 50 %, 100 %), each held to its
#   task-clock from its fork to its exit (busy -C opens the counter on it
#   before its exec); tests/bpf/test-taskcount, cross-built,
#   holds the library to task-clock per task and to the per-CPU totals.
# - the fallbacks: an unprivileged user, and the kernel without bpf() (the
#   plain Image of the other riscv tests), each with its one-line reason;
#   a CPU taken offline (HOTPLUG_CPU): top falls back, stat stops.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/riscv/vm-lib.sh"
vm_require
vm_require_bpf
. "$top_srcdir/tests/riscv/count-lib.sh"

per=$(busy_loop_insns)
num "$per" && [ "$per" -ge 2 ]
ok $? "objdump: busy_loop's loop is $per instructions"

# row FILE TASK EVENT [FIELD]: a field of TASK's -x, row for EVENT ("busy-PID";
# default 2, the count; for cpu-clock, which field 2 gives in msec, 5: the
# time it ran in ns, which is its count)
row() { awk -F, -v t="$2" -v e="$3" -v f="${4:-2}" '$1 == t && $4 == e { print $f; exit }' "$1"; }
# check_children OUT ERR EVENT WHAT: each "PID N" child of busy -f has its
# row in ERR, N x per instructions within 1 %
check_children() {
	local out=$1 err=$2 ev=$3 what=$4 pid n got want k=0
	while read -r pid n; do
		k=$((k + 1))
		got=$(row "$err" "busy-$pid" "$ev")
		want=$((n * per))
		within "$got" "$want" 10000
		ok $? "$what: busy-$pid's $ev ${got:-none} = $n x $per = $want (objdump) within 1%"
	done <"$out"
	[ $k -eq 3 ]; ok $? "$what: busy -f forked 3 children ($k)"
}

# same_count OUT ERR EV1 EV2 WHY: the third child's EV1 row = its EV2 row
# (0.5 %)
same_count() {
	local pid a b
	pid=$(awk 'NR == 3 { print $1 }' "$1")
	a=$(row "$2" "busy-$pid" "$3")
	b=$(row "$2" "busy-$pid" "$4")
	within "$a" "$b" 5000
	ok $? "-a --per-task: busy-$pid's $3 ${a:-none} = its $4 ${b:-none} ($5) within 0.5%"
}

# 1. one hart, exact instruction counts
F=10000000,20000000,40000000
vm_run icount --kernel bpf --icount --raw-dtb --timeout 300 <<CMDS
busy 1000
hpmstat stat -a --per-task -x, -e instructions,cycles -- busy -f $F
hpmstat stat -a --per-thread -x, -e instructions -- busy -f $F
hpmstat stat --bpf-counters -x, -e instructions -- busy 40000000
hpmstat stat -a --per-task -x, -e ifu_req,frontendFlush -- busy -f $F
@bg w busy -f 150000000,300000000
hpmstat top -b -n 3 -d 0.2
@wait w
@write /proc/sys/kernel/pid_max 310
hpmstat stat -a --per-thread -x, -e instructions -- busy -q 300 1000000
CMDS
ok $? "boot (BPF kernel, one hart, -icount shift=0, raw-event device tree): every command ran (${VM_SECONDS}s)"
d=$VM_OUT/icount
for i in 2 3 5; do
	[ "$(cat $d/$i.rc)" = 0 ] && ! grep -q 'without BPF\|map full\|error' $d/$i.err
	ok $? "command $i exits 0, counting through BPF, nothing missed"
	[ $? = 0 ] || diag "$(head -5 $d/$i.err)"
done
check_children $d/2.out $d/2.err instructions "-a --per-task"
check_children $d/3.out $d/3.err instructions "-a --per-thread"
# under -icount QEMU's cycle counter is the instruction clock too: the
# second counter of the same switch-time reads
same_count $d/2.out $d/2.err cycles instructions "QEMU -icount"

got=$(awk -F, '$3 == "instructions" { print $1; exit }' $d/4.err)
[ "$(cat $d/4.rc)" = 0 ] && within "$got" $((40000000 * per)) 10000
ok $? "--bpf-counters -- busy 40000000: instructions ${got:-none} = 40000000 x $per within 1%"
[ $? = 0 ] || diag "$(cat $d/4.err)"

# Kunminghu events by name, per task (the bank-placement warning of a
# kernel without counterid_mask is expected)
check_children $d/5.out $d/5.err ifu_req "-a --per-task -e ifu_req (Kunminghu, raw 0x2: QEMU's instret)"
same_count $d/5.out $d/5.err frontendFlush ifu_req "raw 0x1, QEMU's cycles, against raw 0x2"

grep -Eq '^tasks: BPF sched_switch, [0-9]+ events x 1 CPUs = [0-9]+ counters' $d/7.out
ok $? "top -b: per-task rows through BPF ($(grep -m1 '^tasks:' $d/7.out))"
[ $? = 0 ] || diag "$(head -12 $d/7.out)"
# the busy children's rows: cycles and instructions (the columns the
# header names) counted, and equal (QEMU -icount)
nz=$(awk '$1 == "PID" && $2 == "COMMAND" { for (k = 1; k <= NF; k++) { if ($k == "cycles") c = k; if ($k ~ /^instructio/) i = k } next }
	c && i && $2 == "busy" && $c ~ /^[1-9]/ && $c == $i { n++ } END { print n + 0 }' $d/7.out)
[ "$nz" -ge 2 ]; ok $? "top -b: the busy children's rows count cycles = instructions ($nz rows)"
[ $? = 0 ] || diag "$(cat $d/7.out | head -40)"

# pids reused (pid_max 310: the children cycle through pids 300-309): a row
# per child, none holding two children's counts
[ "$(cat $d/10.rc)" = 0 ] && ! grep -q 'without BPF\|map full' $d/10.err
ok $? "300 children with pid_max 310: exits 0, through BPF"
awk -F, '$4 == "instructions" && $1 ~ /^busy-/ { print $1, $2 }' $d/10.err | sort -k2,2n >$d/reuse
# the parent, busy -q itself (300 forks and waits: the most instructions),
# has the smallest pid: every child was forked after it
parent=$(sed 's/^busy-//; s/ .*//' $d/reuse | grep -v '#' | sort -n | head -1)
grep -v "^busy-$parent " $d/reuse >$d/children
rows=$(wc -l <$d/reuse)
pids=$(cut -d' ' -f1 $d/reuse | sed 's/^busy-//; s/#.*//' | sort -u | wc -l)
again=$(grep -c '^busy-[0-9]*#[1-9]' $d/reuse)
[ "$rows" -ge 300 ] && [ "$pids" -lt "$rows" ] && [ "$again" -gt 0 ]
ok $? "pid reuse: a row per child, $rows rows for $pids pids ($again named busy-PID#N: a later owner)"
n=$(wc -l <$d/children)
med=$(awk 'NR == 150 { print $2 }' $d/children)
lo=$(head -1 $d/children | cut -d' ' -f2)
hi=$(tail -1 $d/children | cut -d' ' -f2)
[ "$n" = 300 ] && within "$hi" "$med" 20000 && within "$lo" "$med" 20000
ok $? "pid reuse: each of the $n children's instructions within 2% of the median ($lo..$hi, median $med: 1000000 x $per + fork and exit)"
[ $? = 0 ] || diag "$(tail -3 $d/children)"

# 2. two harts: cpu-clock against each task's own clock; test-taskcount;
# CPU hotplug (1.5 s after hpmstat starts: loading the program through the
# verifier under QEMU on a loaded host takes a good part of a second); an
# unprivileged user
vm_run smp --kernel bpf --raw-dtb --timeout 400 <<'CMDS'
@timeout 200
test-taskcount
hpmstat stat -a --per-task -x, -e cpu-clock -- busy -C 'duty 20 0 1.2 /tmp/duty.out' 'duty 50 0 1.2 /tmp/duty.out' 'duty 100 1 1.2 /tmp/duty.out'
@cat /tmp/duty.out
@bg h busy -o 1 1.5 0.3
hpmstat top -b -n 10 -d 0.3 -N 5
@wait h
@bg h2 busy -o 1 1.5 0.3
hpmstat stat -a --per-task -e cpu-clock -- busy -S 2.5
@wait h2
@cat /sys/devices/system/cpu/online
@write /proc/sys/kernel/perf_event_paranoid -1
@uid 1000
hpmstat stat --bpf-counters -e cpu-clock -- busy -S 0.3
hpmstat top -b -n 1 -d 0.2 -N 3
@export /proc/config.gz
CMDS
ok $? "boot (BPF kernel, two harts): every command ran (${VM_SECONDS}s)"
d=$VM_OUT/smp
# the kernel booted is the one the fragments describe (the asset is prebuilt)
gzip -dc $d/files/config.gz >$d/config 2>/dev/null
awk '/^CONFIG_[A-Za-z0-9_]*=/ { s = $0; sub(/=.*/, "", s); want[s] = $0; next }
     /^# CONFIG_[A-Za-z0-9_]* is not set$/ { want[$2] = "off"; next }
     END { for (s in want) print s, want[s] }' $VM_SRC/kernel.config $VM_SRC/kernel-bpf.config |
	while read -r sym want; do
		if [ "$want" = off ]; then grep -q "^$sym=" $d/config && echo "$sym set"
		else grep -qx "$want" $d/config || echo "$want missing"; fi
	done >$d/config.diff
[ -s $d/config ] && [ ! -s $d/config.diff ]
ok $? "the BPF kernel's /proc/config.gz has every line of kernel.config and kernel-bpf.config"
[ $? = 0 ] || diag "$(head -5 $d/config.diff)"
# test-taskcount's own points, one by one
n=0
while IFS= read -r line; do
	case $line in
	"ok "*"# SKIP "*) skip "test-taskcount on riscv64: ${line#*# SKIP }" ;;
	"ok "*) ok 0 "test-taskcount on riscv64: ${line#ok [0-9]* - }" ;;
	"not ok "*) ok 1 "test-taskcount on riscv64: ${line#not ok [0-9]* - }" ;;
	*) continue ;;
	esac
	n=$((n + 1))
done <$d/2.out
[ "$(cat $d/2.rc)" = 0 ] && [ $n -ge 8 ]
ok $? "test-taskcount exits 0 after its $n points"
[ $? = 0 ] || diag "$(cat $d/2.out $d/2.err | head -20)"

[ "$(cat $d/3.rc)" = 0 ] && ! grep -q 'without BPF\|warning' $d/3.err
ok $? "-a --per-task with 3 duty loops (the command's children: counted from their start): exits 0, through BPF"
# the truth: each loop's task-clock from its fork to its exit, a counter
# busy -C opens on it before its exec (duty's own counter, /tmp/duty.out,
# starts after the exec, which under TCG on a loaded host is most of a
# second of its time, measured apart with another clock)
k=0
while read -r pid ns; do
	k=$((k + 1))
	got=$(row $d/3.err "duty-$pid" cpu-clock 5)
	within "$got" "$ns" 50000
	ok $? "-a --per-task: duty-$pid's cpu-clock $got ns = its task-clock from its fork $ns ns (5 %)"
done <$d/3.out
[ $k -eq 3 ]; ok $? "the 3 duty loops reported their own clocks ($k)"

grep -q '^tasks: BPF sched_switch' $d/6.out; ok $? "top across a hotplug: BPF task rows before it"
grep -q '^tasks: per-task groups (BPF: the CPUs online changed during the run (hotplug)' $d/6.out
ok $? "top across a hotplug: per-task groups after it, with the reason in the header"
[ $? = 0 ] || diag "$(grep '^tasks:' $d/6.out)"
[ "$(cat $d/6.rc)" = 0 ] && [ "$(cat $d/7.rc)" = 0 ]; ok $? "top exits 0 across the hotplug; the CPU went and came back"
[ "$(cat $d/9.rc)" != 0 ] && grep -q hotplug $d/9.err && ! grep -q cpu-clock $d/9.err
ok $? "stat -a --per-task across a hotplug: non-zero exit ($(cat $d/9.rc)), the reason, no per-task counts"
[ $? = 0 ] || diag "$(cat $d/9.err)"
[ "$(cat $d/11.out)" = 0-1 ]; ok $? "both harts online at the end ($(cat $d/11.out))"

[ "$(cat $d/14.rc)" = 1 ] &&
	grep -qx 'hpmstat stat: --bpf-counters: cannot use BPF: loading BPF needs root or CAP_BPF and CAP_PERFMON' $d/14.err
ok $? "unprivileged --bpf-counters: exit 1 with the reason, as perf"
[ $? = 0 ] || diag "$(head -5 $d/14.err)"
grep -q '^tasks: per-task groups (BPF: loading BPF needs root or CAP_BPF and CAP_PERFMON)' $d/15.out
ok $? "unprivileged top: per-task groups with the reason in the header"
[ $? = 0 ] || diag "$(grep '^tasks' $d/15.out) $(head -3 $d/15.err)"

# 3. the kernel without bpf() (the plain Image of the other riscv tests);
# as with perf, the per-task rows of the fallback name the command by the
# comm it had when the threads were listed (hpmstat-PID, before its exec)
vm_run plain --raw-dtb <<'CMDS'
hpmstat stat -a --per-task -x, -e cycles -- busy -S 0.3
hpmstat top -b -n 1 -d 0.2 -N 3
CMDS
ok $? "boot (kernel without BPF): every command ran (${VM_SECONDS}s)"
d=$VM_OUT/plain
grep -q '^hpmstat stat: note: counting per process without BPF: the kernel has no BPF (bpf() not implemented)$' $d/1.err &&
	grep -q '^[^,]*-[0-9]*,[0-9]*,,cycles,' $d/1.err && [ "$(cat $d/1.rc)" = 0 ]
ok $? "no bpf(): one note with the reason ($(grep -m1 note $d/1.err)), then per-task rows"
grep -q '^tasks: per-task groups (BPF: ' $d/2.out
ok $? "no bpf(): top counts per-task groups, the reason in its header ($(grep -m1 '^tasks' $d/2.out))"
done_testing

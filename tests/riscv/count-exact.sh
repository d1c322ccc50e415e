#!/bin/bash
# stat -e cycles,instructions on the real riscv64 kernel against QEMU's exact
# instruction count: one hart under -icount shift=0, where QEMU's instret
# (and its cycle counter too: both are the icount clock) is the number of
# instructions executed, 1 ns of virtual time each.
#
# Independent truth: busy_loop's instructions per iteration from objdump of
# the guest's busy binary, so count(busy N_LONG) - count(busy N) =
# (N_LONG - N) x that; kattr's counts of the same attrs (no hpmstat code).
#
# QEMU counts every privilege mode (it does not filter), so each count has
# the kernel's own instructions in it too: exec, page faults, exit, and a
# timer tick (HZ 250: one per 4M instructions) when one falls inside the
# run. Hence short runs (no tick in most), the smallest of 5 runs of each
# (the kernel only ever adds instructions), and 0.5% (a tick is 1-2%). The
# first command after boot counts ~75k instructions more (the boot's
# leftover work), so two warm-up commands come first.
#
# The smallest of 5 is clean only if the tick does not hit the same command
# in every repetition, and under -icount it can: a repetition is a fixed
# number of instructions, and when that is close to a multiple of 4M the
# tick falls at the same place each time (a change of hpmstat's size moves
# it there or away). A spacer that grows by the same step each repetition
# only adds to that period, so it can alias too (it did: all three runs of
# one command hit). So each repetition starts with a spacer of an irregular
# length (SPACERS: 0 to ~1.8M instructions, no two steps alike), which
# shifts the repetitions against the tick by amounts that are no
# progression: a tick cannot land in the same ~0.6M-instruction run of
# every repetition whatever the period.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/riscv/vm-lib.sh"
vm_require
. "$top_srcdir/tests/riscv/count-lib.sh"
count_kattr || { echo "1..1"; echo "not ok 1 - kattr builds"; exit 1; }

# N keeps the short command (about 0.4 ms with hpmstat's start) short of
# ~0.6 ms; N_LONG (about 2 ms) runs well past it. Every run past that point
# carries ~6.5k instructions more than the iterations account for: one
# context switch of the kernel's own (kattr's command has it too:
# context-switches 1 in a long run, 0 in a short one), hence 1% on the
# difference below. Until December 2026 hpmstat added one more to every
# run, its own: its parent waited for the exec on a close-on-exec pipe, so
# the exec woke it and the scheduler switched to it and back while the
# command was counted (~3.7k instructions: the kernel's switch and the SBI
# calls that stop and start the counters). So each command's
# context-switches are checked against kattr's, in a short and a long run.
# R 9: a run of 2 ms meets the 4 ms tick in about half the repetitions,
# the smallest of 9 misses it but once in 500.
N=120000
N_LONG=900000
R=9
# the commands of one repetition (the order is the index in it)
rep=(
	"hpmstat stat -x, -e cycles,instructions -- busy $N"
	"hpmstat stat -x, -e cycles,instructions -- busy $N_LONG"
	"hpmstat stat -x, -e cycles -- busy $N"
	"hpmstat stat -x, -e r1 -- busy $N"
	"hpmstat stat -x, -e instructions -- busy $N"
	"hpmstat stat -x, -e r2 -- busy $N"
	"kattr 0:1:i -- busy $N"
	"kattr 4:0x1 -- busy $N"
	"kattr 4:0x4000000000001 -- busy $N"
	"kattr 4:0x4000000000001 -- busy $N"
	"kattr 4:0x1 -- busy $N"
	"hpmstat stat -x, -e instructions,context-switches -- busy $N"
	"kattr 0:1:i 1:3:i -- busy $N"
	"hpmstat stat -x, -e instructions,context-switches -- busy $N_LONG"
	"kattr 0:1:i 1:3:i -- busy $N_LONG"
	"hpmstat stat -x, -e r2 -- busy $N"
	"hpmstat stat -x, -e instructions -- busy $N"
	"hpmstat stat -x, -e r1 -- busy $N"
	"hpmstat stat -x, -e cycles -- busy $N"
)
W=3          # commands before the repetitions
SPACERS=(0 330000 90000 610000 250000 1270000 470000 170000 930000) # busy_loop iterations (~3 instructions each)
{
	echo "busy 1000"
	echo "hpmstat stat -x, -e cycles,instructions -- busy 1000"
	echo "hpmstat stat -e cycles,instructions -- busy $N"
	for r in $(seq $R); do
		echo "busy ${SPACERS[(r - 1) % ${#SPACERS[@]}]}"
		printf '%s\n' "${rep[@]}"
	done
} >"$VM_OUT/cmds"
# the command number of repetition R's command J (R from 0, J from 1)
at() { echo $((W + $1 * (${#rep[@]} + 1) + 1 + $2)); }
vm_run x --icount --raw-dtb -f "$KATTR:/bin/kattr" <"$VM_OUT/cmds"
ok $? "boot (one hart, -icount shift=0, raw-event device tree): every command ran (${VM_SECONDS}s)"

# values EVENT J: EVENT's count in repetition command J of every repetition
values() {
	local r i
	for r in $(seq 0 $((R - 1))); do
		i=$(at $r $2)
		csv_val "$(vm_out x $i).err" "$1"
	done
}
kvalues() {
	local r i
	for r in $(seq 0 $((R - 1))); do
		i=$(at $r $2)
		ka "$(vm_out x $i).out" "$1" 3
	done
}
allnum() { local v; [ $# -eq "$R" ] || return 1; for v; do num "$v" || return 1; done; }

# busy_loop's loop: from the backward branch's target to the branch
per=$(busy_loop_insns)
num "$per" && [ "$per" -ge 2 ]
ok $? "objdump: busy_loop's loop is $per instructions (the branch back included)"

ci=($(values instructions 1)); cc=($(values cycles 1))
ci2=($(values instructions 2)); cc2=($(values cycles 2))
allnum "${ci[@]}" && allnum "${cc[@]}" && allnum "${ci2[@]}" && allnum "${cc2[@]}"
ok $? "stat -e cycles,instructions: both rows count in each of $((2 * R)) runs"
[ $? = 0 ] || diag "$(cat "$(vm_out x $(at 0 1)).err")"

# within 1%: the long run has the kernel's own context switch in it (kattr's
# too), ~0.4% of the difference in instructions, ~0.5% in cycles
want=$(((N_LONG - N) * per))
d=$(($(min "${ci2[@]}") - $(min "${ci[@]}")))
within "$d" "$want" 10000
st=$?
ok $st "instructions(busy $N_LONG) - instructions(busy $N) = $((N_LONG - N)) x $per = $want (objdump) within 1%: $d"
[ $st = 0 ] || diag "busy $N: ${ci[*]}" "busy $N_LONG: ${ci2[*]}"
d=$(($(min "${cc2[@]}") - $(min "${cc[@]}")))
within "$d" "$want" 10000
ok $? "cycles the same (QEMU's cycle counter is the icount clock too): $d"

# hpmstat switches nothing of its own in while the command is counted: the
# command's context switches (the smallest of R: a tick's are the kernel's)
# are kattr's, whose parent sleeps in waitpid from the start
for j in 12 14; do
	hs=($(values context-switches $j)); ks=($(kvalues 1:3:i $((j + 1))))
	n=$([ $j = 12 ] && echo "$N" || echo "$N_LONG")
	allnum "${hs[@]}" && allnum "${ks[@]}" && [ "$(min "${hs[@]}")" = "$(min "${ks[@]}")" ]
	ok $? "busy $n: the command's context-switches under hpmstat = kattr's (no wake-up of hpmstat's in the count): $(min "${hs[@]}") vs $(min "${ks[@]}")"
	[ $? = 0 ] || diag "hpmstat: ${hs[*]}" "kattr: ${ks[*]}"
done

# in the run of each command with the fewest instructions: a tick in a run
# adds a counter stop and start to the gap (1.2% of a short run once)
least() { # the index of the smallest of the arguments
	local i m=0 a=("$@")
	for i in "${!a[@]}"; do [ "${a[i]}" -lt "${a[m]}" ] && m=$i; done
	echo "$m"
}
k=$(least "${ci[@]}")
k2=$(least "${ci2[@]}")
within "${cc[k]}" "${ci[k]}" 10000 && within "${cc2[k2]}" "${ci2[k2]}" 10000
bad=$?
ok $bad "in one run cycles = instructions within 1% (both icount; apart by one counter's SBI start/stop)"
[ $bad = 0 ] || diag "cycles: ${cc[*]} ${cc2[*]}" "instructions: ${ci[*]} ${ci2[*]}"

# -x,'s field 4 is the time running in ns: 1 ns per instruction here; in
# the repetition with the fewest instructions (the one least disturbed)
k=0
for r in $(seq 1 $((R - 1))); do [ "${ci[r]}" -lt "${ci[k]}" ] 2>/dev/null && k=$r; done
f=$(vm_out x $(at $k 1)).err
within "$(csv_run "$f" instructions)" "$(csv_val "$f" instructions)" 20000
ok $? "time running = instructions within 2% (icount shift=0: 1 ns each): $(csv_run "$f" instructions) ns, $(csv_val "$f" instructions)"

# the standard output: both rows, and the IPC is instructions / cycles
f=$(vm_out x 3).err
i=$(awk '$2 == "instructions" { gsub(",", "", $1); print $1 }' "$f")
c=$(awk '$2 == "cycles" { gsub(",", "", $1); print $1 }' "$f")
ipc=$(awk '$2 == "instructions" { for (k = 1; k < NF; k++) if ($(k + 1) == "insn") print $k }' "$f")
num "$i" && num "$c" && awk -v i="$i" -v c="$c" -v p="$ipc" 'BEGIN {
	q = i / c; exit !(p != "" && (p - q < 0.0051 && q - p < 0.0051) && p >= 0.98 && p <= 1.02) }'
ok $? "standard output: cycles $c, instructions $i, '$ipc insn per cycle' = their ratio, ~1 under icount"
[ $? = 0 ] || diag "$(cat "$f")"

# r1 and r2 against the named events, each run twice a repetition in both
# orders, the smallest of 18 compared, within 1%. Not 0.5%: a run of r1 or
# r2 reads ~1.3k instructions (0.3%) more than the named event's in every
# repetition, and so does nothing else that opens the same attr: kattr's
# 4:0x2:i reads like its 0:1:i, hpmstat's cpu/event=0x2/ (the same attr as
# r2) like instructions (smallest of 10, December 2026: r2 395743,
# cpu/event=0x2/ 394878, instructions 394473). What r1 and r2 alone do is
# print the bank warning (raw Kunminghu events are not pinned), before the
# command is released; why the command's count grows with it is not known.
# On top of that gap the smallest of 9 once differed by 0.92% on the loaded
# CI machine (r2 396798, instructions 393196).
c1=($(values cycles 3) $(values cycles 19)); r1=($(values r1 4) $(values r1 18))
i1=($(values instructions 5) $(values instructions 17)); r2=($(values r2 6) $(values r2 16))
allnum2() { local v; [ $# -eq $((2 * R)) ] || return 1; for v; do num "$v" || return 1; done; }
allnum2 "${c1[@]}" && allnum2 "${r1[@]}" && within "$(min "${r1[@]}")" "$(min "${c1[@]}")" 10000
ok $? "r1 (raw 0x1, the raw-event tree) counts like cycles within 1%: $(min "${r1[@]}") vs $(min "${c1[@]}")"
[ $? = 0 ] || diag "r1: ${r1[*]}" "cycles: ${c1[*]}"
allnum2 "${i1[@]}" && allnum2 "${r2[@]}" && within "$(min "${r2[@]}")" "$(min "${i1[@]}")" 10000
ok $? "r2 (raw 0x2) counts like instructions within 1%: $(min "${r2[@]}") vs $(min "${i1[@]}")"
[ $? = 0 ] || diag "r2: ${r2[*]}" "instructions: ${i1[*]}"

# kattr's child ends with fewer kernel instructions (QEMU counts them):
# hpmstat's parent also watches it through a pidfd; measured 0.2-0.5% here.
# (1.45% for a day: the command's close-on-exec of its pipe ends freed the
# pipes after its exec, counted; hpmstat now holds those ends too.)
k1=($(kvalues 0:1:i 7))
allnum "${k1[@]}" && within "$(min "${i1[@]}")" "$(min "${k1[@]}")" 10000
ok $? "hpmstat's instructions = kattr's (the same attr, inherit as perf stat's, opened without hpmstat) within 1%: $(min "${i1[@]}") vs $(min "${k1[@]}")"
[ $? = 0 ] || diag "kattr: ${k1[*]}"

# the kernel fact behind refusing raw bits 48-62 (count-facts.sh): they are
# dropped silently, 1<<50|1 counts exactly like 0x1. Without any tick, one
# command's count still spreads over ~1.3% here (measured: 8 runs of kattr
# 4:0x1 from 547.0k to 554.2k; 538.7k to 542.3k with ASLR off, so not only
# address layout): other kernel work QEMU counts (console, timers). Two
# smallest-of-5 then differed by 0.55% once; so each attr runs twice a
# repetition, in both orders. The smallest of 18 was compared until a CI
# run met a 1<<50|1 run of 390625, 0.55% under every other run of either
# attr (their smallest: 392767-392768 in run after run): the spread goes
# both ways, so the medians are compared (a bit 50 that was not dropped
# would count another event or nothing: far off).
kr1=($(kvalues 4:0x1 8) $(kvalues 4:0x1 11)); kb=($(kvalues 4:0x4000000000001 9) $(kvalues 4:0x4000000000001 10))
[ ${#kr1[@]} -eq $((2 * R)) ] && [ ${#kb[@]} -eq $((2 * R)) ] && (R=$((2 * R)); allnum "${kr1[@]}" && allnum "${kb[@]}") && within "$(median "${kb[@]}")" "$(median "${kr1[@]}")" 5000
ok $? "the kernel drops config bit 50: kattr's 1<<50|1 counts like 0x1 (medians of $((2 * R)): $(median "${kb[@]}") vs $(median "${kr1[@]}"))"
[ $? = 0 ] || diag "1<<50|1: ${kb[*]}" "0x1: ${kr1[*]}"
done_testing

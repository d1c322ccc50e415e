#!/bin/bash
# hpmstat's perf back end on a real riscv64 Linux 6.1 kernel (riscv_pmu_sbi,
# Debian's OpenSBI 1.1, QEMU 7.2), checked against what that kernel does
# (README's kernel facts) and against counts worked out independently.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/riscv/vm-lib.sh"
vm_require

# csv FILE EVENT: the value field of EVENT's -x, row; pct: its 5th field
csv() { awk -F, -v e="$2" '$3 == e { print $1; exit }' "$1"; }
pct() { awk -F, -v e="$2" '$3 == e { print $5; exit }' "$1"; }
rc() { cat "$(vm_out "$1" "$2").rc"; }
err() { cat "$(vm_out "$1" "$2").err"; }
errf() { echo "$(vm_out "$1" "$2").err"; }
num() { case $1 in '' | *[!0-9]*) return 1 ;; esac; }

g20=$(printf 'cycles,%.0s' $(seq 20)); g20="{${g20%,}}"

# --- A: Kunminghu marchid, raw events mapped to counters, 2 harts
vm_run a --raw-dtb --timeout 90 <<CMDS
hpmstat stat -x, -e cycles,instructions -- busy 1000000
hpmstat stat -x, -e rob_commitInstr,mcycle,minstret -- busy 100000
hpmstat stat -v -e rob_commitInstr -- busy 1000
hpmstat stat --dry-run -e rob_commitInstr:u,mcycle:k -- busy 1
hpmstat stat -x, -e rob_commitInstr:u,mcycle:k,cycles:u,cycles:k -- busy 100000
hpmstat stat -e r1000000000001 -- busy 1
hpmstat stat -e r0080000000000001 -- busy 1
hpmstat stat -x, -e $g20 -- busy 100000
hpmstat stat -j -e cycles,cache-misses -- busy 100000
hpmstat stat -x, -e cache-misses,cycles,instructions -- busy -s 0.5
hpmstat stat -I 100 -x, -e cycles -- busy -s 0.5
hpmstat stat -r 3 -e cycles -- busy 100000
@signal INT 400 hpmstat stat -e cycles -- busy -s 5
hpmstat stat -e cycles -- busy -x 3
@bg B busy -s 3
hpmstat stat -x, -e cycles -p \$B --timeout 300
hpmstat stat -x, -a -A -e cycles --timeout 300
hpmstat stat -x, -C 0 -e cycles --timeout 300
hpmstat top -b -n 2 -d 0.2
hpmstat stat --record /tmp/run.json -e cycles,cache-misses -- busy 100000
@export /tmp/run.json
@uid 1000
hpmstat stat -e cycles -- busy 1000
hpmstat stat -x, -e cycles:u,rob_commitInstr:u -- busy 1000
CMDS
ok $? "boot A (marchid 0x19, raw-event device tree): every command ran (${VM_SECONDS}s)"

c=$(csv "$(errf a 1)" cycles); i=$(csv "$(errf a 1)" instructions)
num "$c" && num "$i" && [ "$c" -gt 0 ] && [ "$i" -gt 0 ]; ok $? "cycles and instructions count on the real PMU ($c, $i)"
f=$(errf a 2)
[ "$(rc a 2)" = 0 ] && [ "$(csv $f rob_commitInstr)" = 0 ] && [ "$(csv $f mcycle)" -gt 0 ] 2>/dev/null && [ "$(csv $f minstret)" -gt 0 ] 2>/dev/null
ok $? "Kunminghu events open for real: rob_commitInstr counts 0 on QEMU (it knows only cycles, instret and TLB events), mcycle and minstret count"
[ $? = 0 ] || diag "$(err a 2)"
err a 3 | grep -q 'bank placement is up to the firmware' && err a 3 | grep -q 'counter chosen by the firmware'
ok $? "-v: placement by the firmware, and the bank warning (the 6.1 kernel has no counterid_mask)"
[ "$(rc a 4)" = 0 ] && grep -q 'rob_commitInstr:u: perf_event_attr type=4 config=0x35 .*exclude_user=0 exclude_kernel=1' "$(vm_out a 4).out"
ok $? "--dry-run: rob_commitInstr:u is type 4 config 0x35 exclude_kernel (what Linux 6.1 passes on as SINH)"
f=$(errf a 5)
[ "$(rc a 5)" = 0 ] && num "$(csv $f mcycle:k)" && num "$(csv $f cycles:u)" && grep -q "note: 'rob_commitInstr:u' also counts VS (guest modes.*Linux 6.1" $f
ok $? ":u and :k count on Linux 6.1, with one note that its driver cannot leave out the guest modes"
[ $? = 0 ] || diag "$(cat $f)"
[ "$(rc a 6)" != 0 ] && err a 6 | grep -q "bits 48:48 .*config:0-47"
ok $? "r1000000000001: bit 48 is refused before opening (the kernel would drop it: config:0-47)"
[ "$(rc a 7)" != 0 ] && err a 7 | grep -q "bits 55:55 .*config:0-47"
ok $? "r0080000000000001: reserved bit 55 is refused the same way"
f=$(errf a 8)
[ "$(grep -c '^<not counted>,,cycles,' $f)" = 20 ]
ok $? "a group of 20 cycles (more than the PMU's counters) never runs: 20 <not counted> rows whatever the members read"
j=$(vm_out a 9).err
grep -q '"counter-value" : "<not counted>".*"event" : "cache-misses"\|"event" : "cache-misses".*"<not counted>"' $j ||
	{ grep '"cache-misses"' $j | grep -q 'not counted'; }
ok $? "-j: an event QEMU's PMU has no counter for (cache-misses) is <not counted> in JSON"
f=$(errf a 10)
p=$(pct $f cycles)
[ "$(csv $f cache-misses)" = "<not counted>" ] && awk -v p="$p" 'BEGIN { exit !(p > 0 && p < 100) }'
ok $? "a never-runnable event makes the runnable ones multiplex (cycles ran $p% of the time)"
f=$(errf a 11)
awk -F, 'NF > 3 && $4 == "cycles" { n++; if ($1 + 0 <= last) bad = 1; last = $1 + 0 } END { exit !(n >= 3 && !bad) }' $f
ok $? "-I 100: interval rows with increasing timestamps"
[ $? = 0 ] || diag "$(head -5 $f)"
err a 12 | grep -q 'cycles.*( +- *[0-9.]*% )'
ok $? "-r 3: the +- variance of three runs"
f=$(errf a 13)
r=$(rc a 13)
{ [ "$r" = 130 ] || [ "$r" = "sig 2" ]; } && grep -q '[0-9] *cycles' $f
ok $? "Ctrl-C during the workload: the counts so far are printed, and hpmstat ends by the SIGINT ($r)"
[ "$(rc a 14)" = 3 ]; ok $? "the workload's exit status is hpmstat's (3)"
f=$(errf a 16); c=$(csv $f cycles)
num "$c" && [ "$c" -gt 0 ]; ok $? "-p PID of a running busy loop: cycles $c"
f=$(errf a 17)
grep -q '^CPU0,' $f && grep -q '^CPU1,' $f; ok $? "-a -A: one row per CPU of the 2 harts"
f=$(errf a 18); c=$(csv $f cycles)
num "$c" && [ "$c" -gt 0 ]; ok $? "-C 0: cycles of CPU 0 ($c)"
[ "$(rc a 19)" = 0 ] && [ -s "$(vm_out a 19).out" ]; ok $? "top -b -n 2 runs inside (built without ncurses)"
[ $? = 0 ] || diag "$(err a 19 | head -3)"
run=$VM_OUT/a/files/run.json
[ "$(rc a 20)" = 0 ] && "$HPMSTAT" report "$run" >"$VM_OUT/report.txt" 2>&1 &&
	grep -q 'cycles  *[1-9][0-9]* ' "$VM_OUT/report.txt" && grep 'cache-misses' "$VM_OUT/report.txt" | grep -q 'not.counted'
ok $? "stat --record inside, report on the host: cycles counted, cache-misses not counted"
[ $? = 0 ] || diag "$(head -20 "$VM_OUT/report.txt")"
[ "$(rc a 23)" != 0 ] && err a 23 | grep -q 'perf_event_paranoid is 2' && err a 23 | grep -q ':u'
ok $? "unprivileged (paranoid 2): cycles is EACCES, with advice naming the sysctl and :u"
f=$(errf a 24)
[ "$(rc a 24)" = 0 ] && num "$(csv $f cycles:u)"; ok $? "unprivileged: cycles:u and rob_commitInstr:u count"
[ $? = 0 ] || diag "$(cat $f)"

# (exact counts under -icount: count-exact.sh)

# --- C: a CPU without Sscofpmf
vm_run c --cpu rv64,sstc=true,marchid=0x19 --raw-dtb <<'CMDS'
hpmstat stat -x, -e cycles,rob_commitInstr -- busy 10000
hpmstat stat -e cycles:u -- busy 1000
hpmstat stat -e rob_commitInstr:u -- busy 1000
CMDS
ok $? "boot C (no Sscofpmf) ran (${VM_SECONDS}s)"
f=$(errf c 1); num "$(csv $f cycles)" && num "$(csv $f rob_commitInstr)"
ok $? "without Sscofpmf, events without modifiers count"
[ "$(rc c 2)" != 0 ] && err c 2 | grep -q 'no Sscofpmf'; ok $? "cycles:u: EINVAL explained (no Sscofpmf: the driver filters no mode)"
[ $? = 0 ] || diag "$(err c 2)"
[ "$(rc c 3)" != 0 ] && err c 3 | grep -q 'no Sscofpmf'; ok $? "rob_commitInstr:u: refused before opening for the same reason"

# --- D: QEMU's default marchid: no Kunminghu, the emulator takes Kunminghu events
vm_run d --cpu rv64,sscofpmf=true,sstc=true <<'CMDS'
hpmstat stat -e rob_commitInstr,cycles -- busy 10000
hpmstat stat --backend perf -e rob_commitInstr -- busy 10
CMDS
ok $? "boot D (QEMU's marchid) ran (${VM_SECONDS}s)"
err d 1 | grep -q 'emu' && err d 1 | grep -q '[0-9] *cycles'
ok $? "Kunminghu events go to the emulator ([emu]) while cycles count on the real PMU"
[ "$(rc d 2)" != 0 ] && err d 2 | grep -q 'Kunminghu (kunminghu-v2) events need that PMU'
ok $? "--backend perf without a Kunminghu core: the clear refusal"
done_testing

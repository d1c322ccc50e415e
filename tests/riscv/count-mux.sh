#!/bin/bash
# Multiplexing on the real riscv64 kernel: more events than the PMU can run
# at once, scaled counts against an unmultiplexed count of the same work.
#
# Under -icount shift=0 (one hart) QEMU's instructions are exact and its
# clock is 1 ns per instruction, so the work's count is the same run after
# run (the kernel's own instructions aside: count-exact.sh). Only events
# that QEMU ticks can be scaled: cycles (0x1) and instret (0x2), and of the
# counters programmed with one event code only one ticks (kattr shows it
# below, with separate events, not only in a group), so each code appears
# once and the rest of the events are codes QEMU does not count (they run,
# reading 0) or events that never get a counter.
#
# The error of a scaled count: the rate is uniform (busy's loop), but under
# icount the time enabled also holds the instructions of multiplexing
# itself (each rotation's SBI stop and start calls, counted while the task
# is enabled); it shows as the time enabled the multiplexed run has over
# the unmultiplexed one. So |scaled - unscaled| <= that excess + 1%.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/riscv/vm-lib.sh"
vm_require
. "$top_srcdir/tests/riscv/count-lib.sh"
count_kattr || { echo "1..1"; echo "not ok 1 - kattr builds"; exit 1; }

M=10000000 # 20M instructions: 20 ms virtual, five rotations of 4 ms
fill() { printf 'r%x,' $(seq "$1" "$2") | sed 's/,$//'; }
F17=$(fill 3 19) # raw codes QEMU does not count: 16 programmable counters for 18 events with r1 (+ r2 below)
F22=$(fill 3 24)

# enabled FILE EVENT: time enabled = running * 100 / pct (-x, fields 4, 5)
enabled() { awk -F, -v e="$2" '$3 == e && $5 > 0 { printf "%.0f\n", $4 * 100 / $5; exit }' "$1"; }
# scaled_ok FILE EVENT REF_VALUE REF_ENABLED: the check above
scaled_ok() {
	local v e
	v=$(csv_val "$1" "$2")
	e=$(enabled "$1" "$2")
	num "$v" && num "$e" && num "$3" && num "$4" || return 1
	local slack=$((e > $4 ? e - $4 : 0))
	[ "$(absdiff "$v" "$3")" -le $((slack + $3 / 100)) ]
}
pct_lt100() { awk -v p="$(csv_pct "$1" "$2")" 'BEGIN { exit !(p > 0 && p < 100) }'; }

# --- QEMU's own device tree: events without a counter make the rest rotate
cat >"$VM_OUT/q.cmds" <<CMDS
busy 1000
hpmstat stat -x, -e instructions -- busy $M
hpmstat stat -x, -e cache-misses,instructions -- busy $M
hpmstat stat -x, -e cache-misses,branches,branch-misses,instructions -- busy $M
hpmstat stat -e cache-misses,instructions -- busy $M
hpmstat stat -j -e cache-misses,instructions -- busy $M
kattr 0:3 0:1 -- busy $M
CMDS
vm_run q --icount -f "$KATTR:/bin/kattr" <"$VM_OUT/q.cmds"
ok $? "boot 1 (QEMU's device tree, one hart, -icount): every command ran (${VM_SECONDS}s)"
ref=$(csv_val "$(vm_out q 2).err" instructions)
refe=$(csv_run "$(vm_out q 2).err" instructions)
num "$ref" && [ "$(csv_pct "$(vm_out q 2).err" instructions)" = 100.00 ]
ok $? "instructions alone: $ref, not multiplexed (100%)"

k=$(vm_out q 7).out
[ "$(ka $k 0:3 5)" = 0 ] && [ "$(ka $k 0:1 5)" -lt "$(ka $k 0:1 4)" ] 2>/dev/null
ok $? "kernel: with cache-misses (never runs) beside it, instructions runs $(ka $k 0:1 5) of $(ka $k 0:1 4) ns (kattr)"
f=$(vm_out q 3).err
pct_lt100 $f instructions && scaled_ok $f instructions "$ref" "$refe"
ok $? "cache-misses,instructions: instructions at $(csv_pct $f instructions)%, scaled $(csv_val $f instructions) = unscaled $ref within its error"
[ $? = 0 ] || diag "$(cat $f)"
f2=$(vm_out q 4).err
pct_lt100 $f2 instructions && scaled_ok $f2 instructions "$ref" "$refe" &&
	awk -v a="$(csv_pct $f2 instructions)" -v b="$(csv_pct $f instructions)" 'BEGIN { exit !(a < b) }'
ok $? "three never-run events: instructions at $(csv_pct $f2 instructions)% (less than with one), scaled $(csv_val $f2 instructions) = $ref within its error"
[ $? = 0 ] || diag "$(cat $f2)"
f=$(vm_out q 5).err
v=$(awk '$2 == "instructions" { gsub(",", "", $1); print $1 }' $f)
p=$(awk '$2 == "instructions" { if (match($0, /\(([0-9.]+)%\)$/)) print substr($0, RSTART + 1, RLENGTH - 3) }' $f)
num "$v" && [ "$(absdiff "$v" "$ref")" -le $((ref / 20)) ] && awk -v p="$p" 'BEGIN { exit !(p > 0 && p < 100) }'
ok $? "standard output: instructions $v scaled, '($p%)' shown"
[ $? = 0 ] || diag "$(cat $f)"
f=$(vm_out q 6).err
l=$(grep '"event" : "instructions"' $f)
v=$(echo "$l" | sed -n 's/.*"counter-value" : "\([0-9]*\)[.0-9]*".*/\1/p')
p=$(echo "$l" | sed -n 's/.*"pcnt-running" : \([0-9.]*\).*/\1/p')
num "$v" && [ "$(absdiff "$v" "$ref")" -le $((ref / 20)) ] && awk -v p="$p" 'BEGIN { exit !(p > 0 && p < 100) }'
ok $? "-j: instructions $v scaled, pcnt-running $p"
[ $? = 0 ] || diag "$(cat $f)"

# --- raw events mapped to counters: more events than counters
cat >"$VM_OUT/r.cmds" <<CMDS
busy 1000
kattr 4:2 4:2 -- busy 1000000
hpmstat stat -x, -e r2 -- busy $M
hpmstat stat -x, -e r1 -- busy $M
hpmstat stat -x, -e r2,$F17 -- busy $M
hpmstat stat -x, -e r1,r2,$F22 -- busy $M
CMDS
vm_run r --icount --raw-dtb -f "$KATTR:/bin/kattr" <"$VM_OUT/r.cmds"
ok $? "boot 2 (raw-event device tree, one hart, -icount): every command ran (${VM_SECONDS}s)"
k=$(vm_out r 2).out
[ "$(awk '$1 == "4:2" && $2 == "ok" && $5 > 0 { print ($3 > 0) }' $k | paste -sd' ')" = "1 0" ]
ok $? "QEMU: of two separate events with code 0x2, only one ticks (kattr: $(awk '{ print $3 }' $k | paste -sd' '))"
r2=$(csv_val "$(vm_out r 3).err" r2); r2e=$(csv_run "$(vm_out r 3).err" r2)
r1=$(csv_val "$(vm_out r 4).err" r1); r1e=$(csv_run "$(vm_out r 4).err" r1)
num "$r2" && num "$r1"
ok $? "r2 and r1 alone: $r2, $r1"

f=$(vm_out r 5).err
nrun=$(awk -F, '$3 ~ /^r/ && $1 != "<not counted>"' $f | wc -l)
pct_lt100 $f r2 && scaled_ok $f r2 "$r2" "$r2e" && [ "$(grep -c ',r[0-9a-f]*,' $f)" = 18 ]
ok $? "18 raw events (16 programmable counters): r2 at $(csv_pct $f r2)%, scaled $(csv_val $f r2) = unscaled $r2 within its error"
[ $? = 0 ] || diag "$(cat $f)"
bad=0
awk -F, '$3 ~ /^r/ && $3 != "r2" && $1 != "<not counted>" && $1 != 0 { exit 1 }' $f || bad=1
ok $bad "the filler codes QEMU does not count read 0 wherever they ran ($((nrun - 1)) of 17)"
f=$(vm_out r 6).err
pct_lt100 $f r1 && pct_lt100 $f r2 && scaled_ok $f r1 "$r1" "$r1e" && scaled_ok $f r2 "$r2" "$r2e"
ok $? "24 raw events: r1 at $(csv_pct $f r1)%, r2 at $(csv_pct $f r2)%, scaled $(csv_val $f r1), $(csv_val $f r2) = unscaled $r1, $r2 within their error"
[ $? = 0 ] || diag "$(cat $f)"
done_testing

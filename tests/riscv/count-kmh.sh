#!/bin/bash
# Kunminghu events opened for real: QEMU's -cpu ...,marchid=0x19 makes the
# riscv64 kernel report Kunminghu's marchid, so hpmstat takes its Kunminghu
# path on the real riscv_pmu_sbi PMU. QEMU counts only cycles (0x1), instret
# (0x2) and three TLB events: every Kunminghu event reads 0 here, and only
# mcycle and minstret (the hardware cycles/instructions events) count.
#
# Independent truth: the kernel's sysfs (the PMU's type, format/event, no
# counterid_mask), and kattr (count-lib.sh) opening the perf_event_attr
# values --dry-run prints, exactly as printed, next to hpmstat's real run
# of the same events on the same work: the kernel takes them, and the
# counts agree (one hart under -icount: exact instruction counts; both are
# the smallest of 5 runs; 1.5% for the kernel's exit path, which differs
# between the two parents: count-exact.sh).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/riscv/vm-lib.sh"
vm_require
. "$top_srcdir/tests/riscv/count-lib.sh"
count_kattr || { echo "1..1"; echo "not ok 1 - kattr builds"; exit 1; }

KEV=rob_commitInstr,mcycle,minstret,Front_Bubble,INST_SPEC,RECOVERY_BUBBLE,BR_MIS_PRED
MEV=rob_commitInstr:u,mcycle:k,minstret:u,rob_commitInstr:G
N=200000
R=5
sysfs=/sys/bus/event_source/devices/cpu

cat >"$VM_OUT/a.cmds" <<CMDS
@cat /proc/cpuinfo
@cat $sysfs/type
@cat $sysfs/format/event
@cat $sysfs/format/counterid_mask
hpmstat stat --dry-run -e $KEV,$MEV -- busy 1
hpmstat stat --dry-run --topdown -- busy 1
hpmstat stat -v -e rob_commitInstr,mcycle,minstret -- busy $N
hpmstat stat -x, -e $KEV -- busy $N
hpmstat stat --topdown -- busy $N
hpmstat stat -x, -e cycles,instructions -- busy $N
CMDS
vm_run a --icount --raw-dtb <"$VM_OUT/a.cmds"
ok $? "boot 1 (marchid 0x19, raw-event device tree, one hart, -icount): every command ran (${VM_SECONDS}s)"
out() { cat "$(vm_out a "$1").out"; }
err() { cat "$(vm_out a "$1").err"; }

out 1 | grep -q '^marchid[[:space:]]*: 0x19$'
ok $? "kernel: /proc/cpuinfo says marchid 0x19 (Kunminghu)"
type=$(out 2)
[ "$type" = 4 ] && [ "$(out 3)" = config:0-47 ] && [ -z "$(out 4)" ]
ok $? "kernel: PMU cpu is type $type, format/event $(out 3), no format/counterid_mask"

# the dry-run's lines: NAME: perf_event_attr type=T config=C ... exclude_*=B
dry=$VM_OUT/dry.txt
cat "$(vm_out a 5).out" "$(vm_out a 6).out" >$dry
n=$(grep -c ': perf_event_attr type=' $dry)
[ "$(cat "$(vm_out a 5).rc")" = 0 ] && [ "$n" = 15 ]
ok $? "--dry-run: one perf_event_attr per event ($n for 11 events and the 4 of --topdown)"
# spec NAME: the kattr spec of NAME's dry-run line (flags from exclude_*=1,
# inherit as a command's events are opened)
spec() {
	awk -v e="$1" 'BEGIN { fl["exclude_user"] = "u"; fl["exclude_kernel"] = "k"; fl["exclude_hv"] = "h"
		fl["exclude_host"] = "H"; fl["exclude_guest"] = "G" }
	index($0, e ": perf_event_attr ") == 1 {
		f = ""
		for (i = 1; i <= NF; i++) {
			split($i, kv, "=")
			if (kv[1] == "type") t = kv[2]
			else if (kv[1] == "config") c = kv[2]
			else if (kv[1] ~ /^config[12]$/ && kv[2] != "0x0") c = "config1/2-not-zero"
			else if (kv[2] == "1") f = f fl[kv[1]]
		}
		print t ":" c ":" f "i"; exit }' $dry
}
bad=0
for e in ${KEV//,/ }; do
	s=$(spec $e)
	case $e in
	mcycle) [ "$s" = 0:0x0:i ] || bad=1 ;;    # PERF_COUNT_HW_CPU_CYCLES
	minstret) [ "$s" = 0:0x1:i ] || bad=1 ;;  # PERF_COUNT_HW_INSTRUCTIONS
	*) [ "${s%%:*}" = "$type" ] && c=${s#*:} && c=${c%%:*} && [ $((c >> 48)) = 0 ] || bad=1 ;;
	esac
done
ok $bad "--dry-run: Kunminghu events are type $type (sysfs) with configs within config:0-47; mcycle/minstret the hardware cycles/instructions"
[ $bad = 0 ] || diag "$(cat $dry)"

# -v: placement and the bank warning (sysfs has no counterid_mask)
f=$(vm_out a 7).err
[ "$(grep -c 'warning: bank placement is up to the firmware: this kernel has no counterid_mask' $f)" = 1 ] &&
	grep -A1 -E '^ +[0-9,]+ +rob_commitInstr' $f | grep -q 'on perf type 4 config 0x35 .*counter chosen by the firmware' &&
	grep -A1 -E '^ +[0-9,]+ +mcycle' $f | grep -q 'on perf type 0 config 0x0 ' &&
	grep -A1 -E '^ +[0-9,]+ +minstret' $f | grep -q 'on perf type 0 config 0x1 '
ok $? "-v: one bank warning naming counterid_mask, and each row's placement (Kunminghu: counter chosen by the firmware)"
[ $? = 0 ] || diag "$(cat $f)"
grep -q 'bank placement' "$(vm_out a 10).err"
ok $((!$?)) "no bank warning for cycles,instructions alone"

f=$(vm_out a 8).err
bad=0
for e in ${KEV//,/ }; do
	v=$(csv_val $f $e)
	r=$(csv_run $f $e)
	num "$v" && num "$r" && [ "$r" -gt 0 ] || bad=1
	case $e in
	mcycle | minstret) [ "$v" -gt 0 ] 2>/dev/null || bad=1 ;;
	*) [ "$v" = 0 ] || bad=1 ;;
	esac
done
ok $bad "-x,: every Kunminghu row runs; mcycle and minstret count, the others read 0 (QEMU counts only 0x1, 0x2 and TLB misses)"
[ $bad = 0 ] || diag "$(cat $f)"
f=$(vm_out a 9).err
[ "$(grep -cE '^ +(Frontend_Bound|Bad_Speculation|Backend_Bound|Retiring) +[0-9.]+ +% slots' $f)" = 4 ]
ok $? "--topdown: the four level-1 nodes, from the real PMU's counts"
[ $? = 0 ] || diag "$(cat $f)"

# --- the dry-run's attrs, opened by kattr, against hpmstat's real runs;
# each repetition starts with a spacer of an irregular length, so the timer
# tick cannot fall on the same command in every repetition (count-exact.sh
# says why); five repetitions
names="${KEV//,/ } ${MEV//,/ }"
SPACERS=(0 330000 90000 610000 250000)
{
	echo "busy 1000"
	echo "hpmstat stat -x, -e cycles -- busy 1000"
	for r in $(seq $R); do
		echo "busy ${SPACERS[(r - 1) % ${#SPACERS[@]}]}"
		for e in $names; do
			echo "kattr $(spec $e) -- busy $N"
			echo "hpmstat stat -x, -e $e -- busy $N"
		done
	done
	echo "kattr $(for e in Front_Bubble cycles rob_commitInstr INST_SPEC+RECOVERY_BUBBLE; do spec $e; done | paste -sd' ') -- busy 1000"
} >"$VM_OUT/b.cmds"
vm_run b --icount --raw-dtb -f "$KATTR:/bin/kattr" <"$VM_OUT/b.cmds"
ok $? "boot 2: the dry-run's attrs by kattr, and hpmstat's real runs (${VM_SECONDS}s)"
nn=$(echo $names | wc -w)
bad=0
for j in $(seq 0 $((nn - 1))); do
	e=$(echo $names | cut -d' ' -f$((j + 1)))
	s=$(spec $e)
	kv=()
	hv=()
	for r in $(seq 0 $((R - 1))); do
		i=$((3 + r * (2 * nn + 1) + 1 + 2 * j))
		[ "$(ka "$(vm_out b $i).out" $s 2)" = ok ] || bad=1
		kv+=("$(ka "$(vm_out b $i).out" $s 3)")
		hv+=("$(csv_val "$(vm_out b $((i + 1))).err" $e)")
	done
	k=$(min "${kv[@]}") h=$(min "${hv[@]}")
	if num "$k" && num "$h" && { [ "$k" = 0 ] && [ "$h" = 0 ] || { [ "$k" -gt 0 ] && within "$h" "$k" 15000; }; }; then
		diag "$e ($s): kattr $k, hpmstat $h"
	else
		bad=1
		diag "$e ($s): kattr ${kv[*]}, hpmstat ${hv[*]}"
	fi
done
ok $bad "the kernel takes every dry-run attr as printed, and it counts what hpmstat's real run counts (0 = 0, else within 1.5%)"
k=$(vm_out b $((3 + R * (2 * nn + 1)))).out
[ "$(awk '$2 == "ok" && $5 > 0' $k | wc -l)" = 4 ]
ok $? "--topdown's four attrs, opened together by kattr, all open and run"
[ $? = 0 ] || diag "$(cat $k)"
done_testing

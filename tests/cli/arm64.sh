#!/bin/sh
# The Arm cores as PMU models on the command line: list --pmu, encode and
# decode --pmu/--arch arm64 (PMEVTYPER<n>_EL0), decode --reg pmdevid, and
# their bad inputs.
. "$top_srcdir/tests/lib.sh"
H=$HPMSTAT
J=$JSONCHECK

# list --pmu: that core's events, its cycle counter and its metrics only
$H list --no-pager --pmu neoverse-n1 >"$tap_out" 2>"$tap_err"
ok $? "list --pmu neoverse-n1 succeeds"
grep -q '^  CPU_CYCLES .*pipeline:0x11' "$tap_out"; ok $? "it lists CPU_CYCLES with its topic and number"
grep -q '^  pmccntr ' "$tap_out"; ok $? "and the cycle counter PMCCNTR_EL0"
grep -q '^  frontend_stalled_cycles$' "$tap_out" && grep -q '^  backend_stalled_cycles$' "$tap_out"
ok $? "and Arm's first stage on N1: its cycle accounting"
! grep -qi 'rob_commitInstr\|mcycle' "$tap_out"; ok $? "and nothing of Kunminghu"
! grep -q '^  STALL_SLOT ' "$tap_out"; ok $? "N1 has no STALL_SLOT (its table has none)"
$H list --no-pager --pmu neoverse-v2 STALL_SLOT | grep -q '^  STALL_SLOT '
ok $? "V2 lists STALL_SLOT"
$H list --no-pager --json --pmu neoverse-v2 CPU_CYCLES | $J 0.name 0.kind 0.code | tr '\n' ' ' >"$tap_out"
[ "$(cat "$tap_out")" = "CPU_CYCLES neoverse-v2 0x11 " ]; ok $? "list --json: name, kind, code ($(cat "$tap_out"))"
$H list --no-pager --raw-dump | grep -qw CPU_CYCLES
[ $? -ne 0 ]; ok $? "without --pmu the Arm cores are not listed (stat takes their names only with --pmu or on their host)"

# encode -> decode -> encode over every event of each core, plain and with
# filters and threshold forms
for core in neoverse-n1 neoverse-n2 neoverse-v1 neoverse-v2; do
	names=$($H list --no-pager --raw-dump --pmu $core pmu)
	exprs=
	# the fields each core has (its emulator feature profile): the
	# threshold and MT and SH on V2, the filters everywhere
	case $core in
	neoverse-v2) more='k,th>=3 th<2,mt th!=1,count,sh' ;;
	*) more='k,nsk uk,m,nsu' ;;
	esac
	for n in $names; do
		case $n in pmccntr) continue ;; esac
		exprs="$exprs $n $n:u"
		for t in $more; do exprs="$exprs $n:$t"; done
	done
	# shellcheck disable=SC2086
	$H encode --pmu $core $exprs >"$tap_out.1" 2>"$tap_err"
	r1=$?
	vals=$(awk '{print $1}' "$tap_out.1")
	# shellcheck disable=SC2086
	$H decode --pmu $core $vals >"$tap_out.2" 2>>"$tap_err"
	r2=$?
	back=$(awk '{print $2}' "$tap_out.2")
	# shellcheck disable=SC2086
	$H encode --pmu $core $back | awk '{print $1}' >"$tap_out.3" 2>>"$tap_err"
	n=$(wc -l <"$tap_out.1")
	[ $r1 -eq 0 ] && [ $r2 -eq 0 ] && [ "$n" -gt 100 ] && [ ! -s "$tap_err" ] &&
		printf '%s\n' $vals | cmp -s - "$tap_out.3" && ! grep -q inexact "$tap_out.2"
	ok $? "$core: encode -> decode -> encode gives every value back ($n expressions)"
	rm -f "$tap_out.1" "$tap_out.2" "$tap_out.3"
done

out=$($H encode --pmu neoverse-v2 'stall_slot:th>=2')
case "$out" in "0x800000020800003f  STALL_SLOT:th>=2  "*"TC=0b100"*"adds STALL_SLOT each cycle where STALL_SLOT >= 2"*) r=0 ;; *) r=1 ;; esac
ok $r "stall_slot:th>=2 on neoverse-v2 ($out)"
out=$($H encode --pmu neoverse-v2 'BR_MIS_PRED:th>=5,count')
case "$out" in "0xa000000508000010  BR_MIS_PRED:th>=5,count  "*"adds 1 each cycle where BR_MIS_PRED >= 5"*) r=0 ;; *) r=1 ;; esac
ok $r "neoverse-v2: a threshold that counts 1 ($out)"
[ "$($H decode --pmu neoverse-v2 --json 0x800000020800003f | $J expression exact fields.# | tr '\n' ' ')" = "STALL_SLOT:th>=2 true 18 " ]
ok $? "decode --json: expression, exact, the 18 fields"
$H decode --arch arm64 0x080000000000003f | grep -q 'RES0=0x800000000000000 .*problem=.*inexact$'
ok $? "a RES0 bit set is a problem, and the value inexact"

# PMDEVID
out=$($H decode --arch arm64 --reg pmdevid 0x121)
printf '%s\n' "$out" | head -1 | grep -q '^0x0000000000000121  PMDEVID  PCSample=1(pc-sampling) PMSS=2(reserved) EXTPMN=1'
ok $? "decode --reg pmdevid 0x121: the three fields"
printf '%s\n' "$out" | grep -q '^  warning: PMSS=0x2 .*reserved'; ok $? "a reserved PMSS value is a warning in the output"
$H decode --arch arm64 --reg pmdevid 0x1001 | grep -q 'warning: RES0 bits set'
ok $? "RES0 bits of PMDEVID are a warning"
[ "$($H decode --arch arm64 --reg pmdevid --json 0x121 | $J register fields.0.feature | tr '\n' ' ')" = "PMDEVID FEAT_PCSRv8p2 " ]
ok $? "decode --reg pmdevid --json"

# bad inputs: one line, exit 1, nothing on stdout
run_fails_with "an unknown --pmu lists the known models" \
	"--pmu 'nosuch': no such PMU model (known: kunminghu, kunminghu-v3, neoverse-n1, neoverse-n2, neoverse-n2-r0p0, neoverse-v1, neoverse-v2)" \
	$H encode --pmu nosuch CPU_CYCLES
run_fails_with "list --pmu unknown" "no such PMU model" $H list --pmu nosuch
run_fails_with "decode --pmu unknown" "no such PMU model" $H decode --pmu nosuch 0
run_fails_with "an unknown --arch" "--arch 'sparc': no such architecture (known: riscv, arm64)" \
	$H decode --arch sparc 0
run_fails_with "an unknown Arm event names the closest" \
	"'stall_slott': column 1: unknown event 'stall_slott' (did you mean STALL_SLOT" \
	$H encode --pmu neoverse-v2 stall_slott
# STALL_SLOT is in the V2 data and not in N1's (the event files say so)
! grep -qi '"STALL_SLOT"' "$top_srcdir"/events/arm64/arm/neoverse-n1/*.json &&
	grep -qi '"STALL_SLOT"' "$top_srcdir"/events/arm64/arm/neoverse-v2/*.json
ok $? "the event data: STALL_SLOT on Neoverse V2, not on N1"
run_fails_with "an event of other cores says which have it" \
	"unknown event 'stall_slot' (STALL_SLOT is an event of neoverse-v1, neoverse-n2 and neoverse-v2, not of Neoverse N1)" \
	$H encode --pmu neoverse-n1 stall_slot
run_fails_with "a threshold beyond the 12-bit TH" "column 12: the threshold is at most 4095" \
	$H encode --pmu neoverse-v2 'stall_slot:th>=70000'
run_fails_with "a threshold beyond 16 bits in perf's term" "threshold" \
	$H encode --pmu neoverse-v2 'stall_slot/threshold=0x10000/'
run_fails_with "an evtCount above 0xFFFF" "evtCount is 16 bits" $H encode --arch arm64 0x10000
run_fails_with "a reserved combination says why" "TE" $H encode --arch arm64 'CPU_CYCLES:te'
run_fails_with "--reg on a Kunminghu model" "only an arm64 model" $H decode --reg pmdevid 1
run_fails_with "an unknown register" "--reg 'pmcr': no such register" $H decode --arch arm64 --reg pmcr 1
run_fails_with "--pmu and --arch disagree" "kunminghu is an riscv model" \
	$H encode --pmu kunminghu --arch arm64 CPU_CYCLES
# Each core's fields are its emulator's (issue 27, item 7): for every core
# and a value setting each optional field, the emulator's PMEVTYPER1_EL0
# reads back what the core implements; where it drops a field, decode
# marks it (RES0), names the problem, exits 1, and its rule is the rule of
# what the emulator kept; encode refuses the expression; where it keeps
# the value, decode is exact and exits 0.
for c in n1 n2 v1 v2; do
	st=0 msg=
	for v in 0x0000000008000011 0x8000000208000011 0xb000000508000010 0x804000020800003f \
		0x0100000000000011 0x000000000a000011 0x0000000009000011 0x0000000008400011 \
		0x0400000008000011; do
		got=$(printf 'msr PMEVTYPER1_EL0 %s\nmrs PMEVTYPER1_EL0\n' $v | $H emu --arch arm64 --pmu $c - | tail -1)
		line=$($H decode --pmu neoverse-$c $v 2>&1); rd=$?
		expr=$(printf '%s\n' "$line" | awk '{print $2}')
		$H encode --pmu neoverse-$c "$expr" >/dev/null 2>&1; re=$?
		rule=$(printf '%s\n' "$line" | sed -n 's/.* rule="\([^"]*\)".*/\1/p')
		if [ "$got" = $v ]; then
			[ $rd -eq 0 ] && [ $re -eq 0 ] && case $line in *RES0*|*inexact*|*problem=*) false ;; esac
		else
			kept=$($H decode --pmu neoverse-$c "$got" | sed -n 's/.* rule="\([^"]*\)".*/\1/p')
			[ $rd -eq 1 ] && [ $re -ne 0 ] && [ "$rule" = "$kept" ] &&
				case $line in *"(RES0)"*problem=*inexact) true ;; *) false ;; esac
		fi || { st=1; msg="$msg [$v: emulator $got, decode exit $rd: $line; encode exit $re]"; }
	done
	ok $st "neoverse-$c: encode and decode take the fields its emulator implements, and flag the others$msg"
done
run_fails_with "a threshold on Neoverse N1: refused naming the feature" \
	"'CPU_CYCLES:th>=2': column 12: Neoverse N1 has no FEAT_PMUv3_TH (PMMIR_EL1.THWIDTH is 0)" \
	$H encode --pmu neoverse-n1 'CPU_CYCLES:th>=2'
run_fails_with "vs= on Neoverse V2: refused naming FEAT_SME" \
	"Neoverse V2 has no FEAT_SME: VS is RES0 there" \
	$H encode --pmu neoverse-v2 'CPU_CYCLES:vs=1'
$H decode --pmu neoverse-n1 --json 0x8000000208000011 >"$tap_out"; r=$?
[ $r -eq 1 ] && [ "$($J exact fields.12.name fields.12.implemented fields.17.name fields.17.implemented rule <"$tap_out" | tr '\n' ' ')" = "false TH false TC false counts CPU_CYCLES every cycle " ]
ok $? "decode --json on N1: TH and TC implemented false, the rule without them, exit 1"

done_testing

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
[ "$($H decode --pmu neoverse-v2 --json 0x800000020800003f | $J expression exact fields.# | tr '\n' ' ')" = "STALL_SLOT:th>=2 true 19 " ]
ok $? "decode --json: expression, exact, the 19 fields"
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
		0x0400000008000011 0x0000000008800011; do
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
[ $r -eq 1 ] && [ "$($J exact fields.13.name fields.13.implemented fields.18.name fields.18.implemented rule <"$tap_out" | tr '\n' ' ')" = "false TH false TC false counts CPU_CYCLES every cycle " ]
ok $? "decode --json on N1: TH and TC implemented false, the rule without them, exit 1"

# PMEVTYPER<n>_EL0 bit 23 is T (FEAT_TME: "Transactional state filtering
# bit", the Arm ARM's PMEVTYPER<n>_EL0 page), not RES0. Worked by hand:
# INST_RETIRED 0x08 | NSH (27) 0x08000000 | T (23) 0x00800000.
out=$($H encode --arch arm64 inst_retired:t)
case "$out" in "0x0000000008800008  INST_RETIRED:t  evtCount=0x8(INST_RETIRED) T=1 NSH=1 "*) r=0 ;; *) r=1 ;; esac
ok $r "encode --arch arm64 inst_retired:t: T at bit 23 ($out)"
out=$($H decode --arch arm64 0x0000000008800008 2>&1); r=$?
case "$out" in *" T=1 "*RES0*|*problem=*) r=1 ;; esac
ok $r "decode --arch arm64 0x8800008: T=1, no RES0 and no problem ($out)"
[ "$($H decode --arch arm64 --json 0x0000000008800008 | $J fields.4.name fields.4.bits fields.4.implemented res0 | tr '\n' ' ')" = "T 23 true 0x0 " ]
ok $? "decode --json: field T at bit 23, res0 0x0"
run_fails_with "T on a core without FEAT_TME: refused naming the feature" \
	"'inst_retired:t': column 14: Neoverse V2 has no FEAT_TME: T is RES0 there" \
	$H encode --pmu neoverse-v2 inst_retired:t

# --arch arm64 is the architecture, not the first core: every common event
# (MEM_ACCESS_CHECKED 0x4024 is no N1 event; LDST_SPEC 0x72 is the Arm
# ARM's recommended number, in no core here) and every field of the newest
# PMUv3: the edge (TE 60, TC 63:61) and linking (TLC 55:54) N1 has not got.
# Worked by hand: NSH 0x08000000 | evtCount; TLC=1: 1 << 54 = 0x0040000000000000;
# edge=rise,th>=5: TE 1 << 60 | TC 0b101 << 61 = 0xb000000000000000 | TH 5 << 32.
$H encode --arch arm64 mem_access_checked ldst_spec 'cpu_cycles:tlc=1' 'br_mis_pred:edge=rise,th>=5' >"$tap_out" 2>"$tap_err"
[ $? -eq 0 ] && [ "$(awk '{print $1}' "$tap_out" | tr '\n' ' ')" = "0x0000000008004024 0x0000000008000072 0x0040000008000011 0xb000000508000010 " ]
ok $? "encode --arch arm64: common events no core of ours has, and TE/TC/TLC ($(awk '{print $1}' "$tap_out" | tr '\n' ' '))"
run_fails_with "... where encode --pmu neoverse-n1 refuses the event" "unknown event 'mem_access_checked'" \
	$H encode --pmu neoverse-n1 mem_access_checked
run_fails_with "an event of the architecture in no core here says so" \
	"unknown event 'ldst_spec' (LDST_SPEC is an event of the Arm architecture (--arch arm64), not of Neoverse N1)" \
	$H encode --pmu neoverse-n1 ldst_spec

# perf's own spelling, PMU/event=N,TERMS/ with any armv8_* PMU name, as
# perf stat -e takes it on an arm_pmuv3 host (SPEC §5: threshold config1
# 5-16, threshold_compare 3-4 = TC[2:1], 2 is >=). Worked by hand:
# STALL_SLOT 0x3f | NSH 0x08000000 | TH 2 << 32 | TC 0b100 << 61.
for pmu in armv8_pmuv3_0 armv8_neoverse_v2; do
	out=$($H encode --arch arm64 "$pmu/event=0x3f,threshold=2,threshold_compare=2/")
	case "$out" in "0x800000020800003f  STALL_SLOT:th>=2  "*) r=0 ;; *) r=1 ;; esac
	ok $r "encode $pmu/event=0x3f,threshold=2,threshold_compare=2/ ($out)"
done
[ "$($H encode --pmu neoverse-v2 'armv8_pmuv3_0/event=0x11/u' | awk '{print $1, $2}')" = "0x0000000080000011 CPU_CYCLES:u" ]
ok $? "armv8_pmuv3_0/event=0x11/u: perf's modifier after the PMU form (P 31 | 0x11)"
run_fails_with "the PMU form without event=" "armv8_pmuv3_0/.../ needs event=N" \
	$H encode --arch arm64 'armv8_pmuv3_0/threshold=2/'
run_fails_with "event= outside the PMU form" "event= belongs to perf's PMU form" \
	$H encode --arch arm64 'cpu_cycles/event=0x11/'
run_fails_with "the PMU form on a core without the field: refused" \
	"Neoverse N2 has no FEAT_PMUv3_TH" \
	$H encode --pmu neoverse-n2 'armv8_pmuv3_0/event=0x3f,threshold=2,threshold_compare=2/'

# --pmu v2-style short names, as emu --pmu takes them, in every command
for cmd in "encode --pmu v2 stall_slot" "decode --pmu v2 0x3f" "list --no-pager --pmu v2 STALL_SLOT"; do
	# shellcheck disable=SC2086
	a=$($H $cmd 2>&1); ra=$?
	# shellcheck disable=SC2086
	b=$($H $(echo "$cmd" | sed 's/--pmu v2/--pmu neoverse-v2/') 2>&1); rb=$?
	[ $ra -eq 0 ] && [ $rb -eq 0 ] && [ -n "$a" ] && [ "$a" = "$b" ]
	ok $? "$cmd: the same as with --pmu neoverse-v2"
done
$H stat --pmu n2 -x, -e cpu_cycles --emu-cycles 1000 >"$tap_out" 2>&1
grep -q '^1000,,cpu_cycles' "$tap_out"; ok $? "stat --pmu n2: the Neoverse N2 emulator, 1000 cycles"
run_fails_with "stat --pmu n2: a field N2 lacks is refused" "Neoverse N2 has no FEAT_PMUv3_TH" \
	$H stat --pmu n2 -e 'stall_slot:th>=2' true
$H decode --pmu v2 0x0000000008800008 >"$tap_out" 2>&1
[ $? -eq 1 ] && grep -q 'T=1(RES0) .*problem="Neoverse V2 has no FEAT_TME' "$tap_out"
ok $? "decode --pmu v2 flags T, which V2 lacks, and exits 1"

done_testing

#!/bin/sh
# hpmstat stat on the Arm emulator (issue 14): an Arm model without its
# PMU here is counted by the Arm PMUv3 emulator, programmed through its
# registers. The truth is each Arm profile's declared level-1 Topdown,
# which the profile library computes from the profile's declarations
# (class shares, run lengths, per-cycle vectors) and `hpmstat emu profiles
# --arch arm64 --json` prints: counting the profile's stream through stat
# must give it back within 0.5 points (Neoverse V2: the slot form; Neoverse
# N1: the cycle form, where the profile delivers its four events). Also:
# multiplexing, the [emu] labels, and bad profile and trace names.
. "$top_srcdir/tests/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$tap_out" "$tap_err"' EXIT
H=$HPMSTAT
CYCLES=30000000

"$H" emu profiles --arch arm64 --json >"$tmp/profiles.json" 2>"$tap_err"
ok $? "emu profiles --arch arm64 --json"

# declared PROFILE FORM NODE: the declared fraction, in percent
declared() {
	awk -v p="$1" -v f="declared_$2" -v n="$3" '
		/"name":/ { gsub(/[",]/, "", $2); name = $2 }
		/"declared_/ { gsub(/[":{]/, "", $1); form = $1 }
		name == p && form == f && $1 == "\"" n "\":" { gsub(/,/, "", $2); printf "%.4f\n", 100 * $2 }
	' "$tmp/profiles.json"
}
# counted FILE NODE: the node's figure in stat's output
counted() {
	awk -v n="$2" '$1 == n { print $2 }' "$1"
}
# close A B: |A - B| <= 0.5
close() {
	awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && b != "" && d <= 0.5) }'
}

check_profile() { # MODEL FORM PROFILE [STAT OPTION...]
	m=$1; form=$2; p=$3; shift 3
	"$H" stat --pmu "$m" "$@" --topdown --emu-profile "$p" --emu-cycles $CYCLES >"$tmp/out" 2>&1
	rc=$?
	st=$rc
	msg=
	for pair in frontend_bound:Frontend_Bound backend_bound:Backend_Bound \
		retiring:Retiring bad_speculation:Bad_Speculation; do
		key=${pair%%:*}; node=${pair#*:}
		d=$(declared "$p" "$form" "$key"); c=$(counted "$tmp/out" "$node")
		close "$d" "$c" || st=1
		msg="$msg $node $c/$d"
	done
	ok $st "$m $* --emu-profile $p: level 1 (counted/declared %)$msg"
	[ $st -eq 0 ] || diag "exit $rc" "$(cat "$tmp/out")"
}

# Neoverse V2 (emulator profile v2, 8 slots): every profile whose contexts
# the v2 features have (arm-system runs in Realm state and SME streaming
# mode, which v2 has not got: refused below)
for p in arm-backend-memory arm-badspec arm-balanced arm-frontend; do
	check_profile neoverse-v2 slots $p
done
# Neoverse V1 (emulator profile v1, 8 slots, PMUv3p4: 32-bit counters
# carried through the overflow interrupt): the same slot form
for p in arm-balanced arm-frontend; do
	check_profile neoverse-v1 slots $p
done
# Neoverse N1 has no slot events: its cycle form (STALL_FRONTEND,
# STALL_BACKEND, INST_RETIRED, INST_SPEC over CPU_CYCLES), for the profiles
# that deliver all four
for p in arm-backend-memory arm-balanced arm-frontend; do
	check_profile neoverse-n1 cycles $p
done
# arm-badspec never delivers STALL_FRONTEND: not modelled, so the nodes that
# need it are n/a rather than a number from nothing
"$H" stat --pmu neoverse-n1 --topdown --emu-profile arm-badspec --emu-cycles 1000000 >"$tmp/bad" 2>&1
[ "$(counted "$tmp/bad" Frontend_Bound)" = n/a ] && close "$(counted "$tmp/bad" Backend_Bound)" \
	"$(declared arm-badspec cycles backend_bound)"
ok $? "neoverse-n1 on a profile without STALL_FRONTEND: Frontend_Bound n/a, Backend_Bound as declared"
"$H" stat --pmu neoverse-n1 --topdown --emu-profile arm-badspec --dry-run true 2>&1 |
	grep -qx 'STALL_FRONTEND: <not modelled>: profile arm-badspec does not produce STALL_FRONTEND'
ok $? "... and its dry run says which event the profile does not produce"

# labels: every figure [emu], the header and the closing line say emulated
"$H" stat --pmu neoverse-v2 --topdown -e inst_retired --emu-cycles 1000000 >"$tmp/lab" 2>&1
[ "$(grep -c '\[emu\]\( *<==\)\{0,1\}$' "$tmp/lab")" -eq 5 ] &&
	grep -q '^ Neoverse V2 figures marked \[emu\] are emulated\.$' "$tmp/lab" &&
	grep -q '^ Neoverse V2 figures are emulated (emulated Neoverse V2: profile arm-balanced, seed 1, 1 hart, 1000000 cycles' "$tmp/lab"
ok $? "labels: inst_retired and the four level-1 nodes [emu], header and closing line"

# multiplexing: level 1's five events and three more on six counters take
# two groups; the scaled counts still give level 1 within 0.5 points
"$H" stat --pmu neoverse-v2 --topdown -e inst_retired,inst_spec,l1d_cache --emu-profile arm-balanced \
	--emu-cycles $CYCLES >"$tmp/mux" 2>&1
st=$?
grep -q 'counters multiplexed' "$tmp/mux" && grep -q 'inst_spec  *(50.00%)  \[emu\]$' "$tmp/mux" || st=1
for pair in frontend_bound:Frontend_Bound backend_bound:Backend_Bound retiring:Retiring \
	bad_speculation:Bad_Speculation; do
	close "$(declared arm-balanced slots "${pair%%:*}")" "$(counted "$tmp/mux" "${pair#*:}")" || st=1
done
ok $st "multiplexed (8 events, 6 counters, 2 groups at 50 %): level 1 within 0.5 points"
[ $st -eq 0 ] || diag "$(cat "$tmp/mux")"
"$H" stat --pmu neoverse-v2 --topdown -e inst_retired,inst_spec,l1d_cache --dry-run true >"$tmp/muxd" 2>&1
grep -q '^emu: 2 multiplex groups, .*msr PMCNTENCLR_EL0 (the counters that change)' "$tmp/muxd"
ok $? "... its dry run: 2 groups, rotated through PMCNTENCLR/PMEVTYPER/PMEVCNTR/PMCNTENSET"

# an edge on Neoverse V2 (no FEAT_PMUv3_EDGE: TE is RES0) would count
# something else: refused by the core's encoder, which reads the features
# the emulator implements (issue 27, item 7), and by the emulator itself
# when a feature profile lacks what the core has (the v1 case below)
run_fails_with "an edge on a PMU without FEAT_PMUv3_EDGE is refused, not counted without it" \
	"'stall_slot:edge=rise,th>=5': Neoverse V2 has no FEAT_PMUv3_EDGE: TE is RES0 there" \
	"$H" stat --pmu neoverse-v2 -e 'stall_slot:edge=rise,th>=5' --emu-cycles 1000 true
run_fails_with "a threshold on Neoverse N1 (no FEAT_PMUv3_TH) is refused as the emulator would drop it" \
	"'inst_retired:th>=2': Neoverse N1 has no FEAT_PMUv3_TH" \
	"$H" stat --pmu neoverse-n1 -e 'inst_retired:th>=2' --emu-cycles 1000 true

# bad names
run_fails_with "an unknown profile: one line listing the Arm profiles" \
	"--emu-profile: unknown Arm profile 'nosuch' (known: arm-backend-memory, arm-badspec, arm-balanced, arm-frontend, arm-n2-balanced, arm-system)" \
	"$H" stat --pmu neoverse-v2 --topdown --emu-profile nosuch true
run_fails_with "a missing trace" \
	"--emu-trace $tmp/none: cannot open trace '$tmp/none'" \
	"$H" stat --pmu neoverse-v2 --topdown --emu-trace "$tmp/none" true
printf 'hpmstat-arm-emu-trace 1\n100 0 ns 0 0x0 0x0 0 0x003b=1\n100 5 ns 0 0x0 0x0 0\n' >"$tmp/bad.trace"
run_fails_with "a bad trace: FILE:LINE" \
	"--emu-trace $tmp/bad.trace:3: bad exception level '5' (0..3)" \
	"$H" stat --pmu neoverse-v2 --topdown --emu-trace "$tmp/bad.trace" true
printf 'hpmstat-arm-emu-trace 1\n100 1 realm 0 0x0 0x0 0 0x003b=1\n' >"$tmp/realm.trace"
run_fails_with "a trace in Realm state on a PMU without FEAT_RME" \
	"realm.trace: run 1: " \
	"$H" stat --pmu neoverse-v2 --topdown --emu-trace "$tmp/realm.trace" true
run_fails_with "a profile whose contexts the PMU has not got" \
	"--emu-profile: profile arm-system runs in Realm state, which needs FEAT_RME; the neoverse-v2 PMU (emulator profile v2) has not got it" \
	"$H" stat --pmu neoverse-v2 --topdown --emu-profile arm-system true
run_fails_with "a profile of more slots than PMMIR_EL1.SLOTS on a core with slot events" \
	"profile arm-balanced is written for 8 slots; the neoverse-n2 PMU (emulator profile n2) has PMMIR_EL1.SLOTS 5" \
	"$H" stat --pmu neoverse-n2 --topdown true

# Neoverse N2 (emulator profile n2: 5 slots, and STALL_SLOT_FRONTEND counts
# one slot more every cycle, which N2's metrics take off as CPU_CYCLES):
# the profile written for it declares stall_slot_bias 1, and its declared
# slot form leaves that slot out as the metrics do
check_profile neoverse-n2 slots arm-n2-balanced
run_fails_with "a profile with N2's extra slot on V2" \
	"profile arm-n2-balanced has stall_slot_bias 1; the neoverse-v2 PMU (emulator profile v2) counts 0 extra slots a cycle" \
	"$H" stat --pmu neoverse-v2 --topdown --emu-profile arm-n2-balanced true

# arm-system runs in Secure state, Realm state and SME streaming mode: on
# the future feature profile, which has RME and SME, stat counts it as a
# Non-secure kernel does, with Secure counting prohibited (MDCR_EL3.SPME
# resets to 0) and the cycle counter counting everywhere (PMCR_EL0.DP = 0):
# its declaration in that view ("declared_kernel_slots")
check_profile neoverse-v2 kernel_slots arm-system --emu-pmu future

# --emu-pmu: the same core on another feature profile. "future" has
# FEAT_PMUv3_SS, so stat reads each group from one capture (PMSSCR_EL1.SS,
# then the snapshot registers): the counts are those of live reads on v2,
# to the last digit, since both read the same instant of the same stream
"$H" stat --pmu neoverse-v2 -x, -e cpu_cycles,op_spec,op_retired,stall_slot --emu-cycles 2000000 \
	>"$tmp/v2.csv" 2>&1
"$H" stat --pmu neoverse-v2 --emu-pmu future -x, -e cpu_cycles,op_spec,op_retired,stall_slot \
	--emu-cycles 2000000 >"$tmp/fu.csv" 2>&1
[ -s "$tmp/v2.csv" ] && cmp -s "$tmp/v2.csv" "$tmp/fu.csv" && grep -q '^[0-9][0-9]*,,op_spec' "$tmp/fu.csv"
ok $? "--emu-pmu future (PMSS snapshot reads) counts what v2's live reads count"
[ $? -eq 0 ] || diag "$(cat "$tmp/v2.csv" "$tmp/fu.csv")"
"$H" stat --pmu neoverse-v2 --emu-pmu future --topdown --dry-run >"$tmp/dry" 2>&1 &&
	grep -q 'reads: msr PMSSCR_EL1, 1 (one capture of every counter; NC = 0 says it happened), then mrs PMEVCNTSVR<n>_EL1 and PMCCNTSVR_EL1' "$tmp/dry"
ok $? "... its dry run reads through one PMSSCR_EL1 capture"
"$H" stat --pmu neoverse-v2 --topdown --dry-run >"$tmp/dry" 2>&1 &&
	grep -q 'reads: mrs PMEVCNTR<n>_EL0 and PMCCNTR_EL0, one at a time' "$tmp/dry"
ok $? "... and v2's, without FEAT_PMUv3_SS, one counter at a time"
run_fails_with "an unknown --emu-pmu" \
	"--emu-pmu bogus: no Arm emulator feature profile of that name (n1, v1, n2, v2, future, or an Arm core's name)" \
	"$H" stat --pmu neoverse-v2 --emu-pmu bogus -e cpu_cycles true
run_fails_with "--emu-pmu on Kunminghu" \
	"--emu-pmu v2: the Kunminghu emulator has one PMU" \
	"$H" stat --backend emu --emu-pmu v2 -e frontend:ifu_req true
run_fails_with "a V2 threshold event on the v1 feature profile (no FEAT_PMUv3_TH)" \
	"that the neoverse-v2 PMU (emulator profile v1" \
	"$H" stat --pmu neoverse-v2 --emu-pmu v1 -e 'stall_slot:th>=2' true

# a trace replays exactly: 1000 cycles at EL0 with OP_SPEC 6, OP_RETIRED 3,
# STALL_SLOT_FRONTEND 1, STALL_SLOT_BACKEND 1 (STALL_SLOT 2) per cycle, on
# 8 slots: Frontend 1/8 = 12.5 %, Backend 12.5 %, Retiring 3/6 x (1 - 2/8)
# = 37.5 %, Bad_Speculation 37.5 %
printf 'hpmstat-arm-emu-trace 1\n1000 0 ns 0 0x0 0x0 0 0x003a=3 0x003b=6 0x003d=1 0x003e=1 0x003f=2\n' >"$tmp/t.trace"
"$H" stat --pmu neoverse-v2 --topdown --emu-trace "$tmp/t.trace" >"$tmp/tr" 2>&1
[ "$(counted "$tmp/tr" Frontend_Bound)" = 12.50 ] && [ "$(counted "$tmp/tr" Backend_Bound)" = 12.50 ] &&
	[ "$(counted "$tmp/tr" Retiring)" = 37.50 ] && [ "$(counted "$tmp/tr" Bad_Speculation)" = 37.50 ]
ok $? "a trace: level 1 exactly as worked by hand (12.5, 12.5, 37.5, 37.5)"
[ $? -eq 0 ] || diag "$(cat "$tmp/tr")"

# CPU_CYCLES on the cycle counter (issue 27, item 12): Linux's arm_pmuv3
# puts event 0x11 on PMCCNTR_EL0 while it is free (armv8pmu_get_event_idx),
# so CPU_CYCLES and six events count whole on V2's six event counters
# (PMCR_EL0.N = 6). Worked by hand from the trace: 1000 cycles at EL0 with
# INST_RETIRED 2, INST_SPEC 3, BR_RETIRED 1, BR_MIS_PRED 1, L1D_CACHE 2,
# L1D_CACHE_REFILL 1 a cycle, then 600 at EL1 with 1 of each.
printf 'hpmstat-arm-emu-trace 1\n1000 0 ns 0 0x0 0x0 0 0x0008=2 0x001b=3 0x0021=1 0x0010=1 0x0004=2 0x0003=1\n600 1 ns 0 0x0 0x0 0 0x0008=1 0x001b=1 0x0021=1 0x0010=1 0x0004=1 0x0003=1\n' >"$tmp/cc.trace"
seven=cpu_cycles,inst_retired,inst_spec,br_retired,br_mis_pred,l1d_cache,l1d_cache_refill
"$H" stat --pmu neoverse-v2 --emu-trace "$tmp/cc.trace" --emu-cycles 1600 -x, -e $seven >"$tmp/cc" 2>&1
[ "$(grep -v '^#' "$tmp/cc" | cut -d, -f1,3,5 | tr '\n' ' ')" = "1600,cpu_cycles,100.00 2600,inst_retired,100.00 3600,inst_spec,100.00 1600,br_retired,100.00 1600,br_mis_pred,100.00 2600,l1d_cache,100.00 1600,l1d_cache_refill,100.00 " ] &&
	! grep -q multiplexed "$tmp/cc"
ok $? "CPU_CYCLES and six events on V2: all seven counted whole, as worked by hand"
[ $? -eq 0 ] || diag "$(cat "$tmp/cc")"
"$H" stat --pmu neoverse-v2 --emu-trace "$tmp/cc.trace" --dry-run -e $seven,r11 -- true >"$tmp/ccd" 2>&1
grep -qx 'cpu_cycles: hart0 msr PMCCFILTR_EL0, 0x0000000008000011 (pmccntr, always counted)' "$tmp/ccd" &&
	grep -qx 'r11: hart0 msr PMCCFILTR_EL0, 0x0000000008000011 (pmccntr, always counted, shared with cpu_cycles)' "$tmp/ccd" &&
	[ "$(grep -c ': hart0 msr PMEVTYPER[0-5]_EL0, .*(group 0)$' "$tmp/ccd")" = 6 ] &&
	! grep -q 'multiplex groups' "$tmp/ccd"
ok $? "... its dry run: CPU_CYCLES (and r11, the same value) on PMCCFILTR, the six in one group"
[ $? -eq 0 ] || diag "$(cat "$tmp/ccd")"
# the cycle counter filters as an event counter does: cpu_cycles:u on
# PMCCNTR (PMCCFILTR.P), cpu_cycles:k in an event counter; "cycles" takes
# PMCCNTR first, so there cpu_cycles:u goes to an event counter; a
# threshold keeps CPU_CYCLES off PMCCNTR, as in the driver
"$H" stat --pmu neoverse-v2 --emu-trace "$tmp/cc.trace" --emu-cycles 1600 -x, -e cpu_cycles:u,cpu_cycles:k >"$tmp/ccu" 2>&1
"$H" stat --pmu neoverse-v2 --emu-trace "$tmp/cc.trace" --emu-cycles 1600 -x, -e cycles,cpu_cycles:u,cpu_cycles:th!=0 >"$tmp/ccg" 2>&1
[ "$(grep -v '^#' "$tmp/ccu" | cut -d, -f1,3 | tr '\n' ' ')" = "1000,cpu_cycles:u 600,cpu_cycles:k " ] &&
	[ "$(grep -v '^#' "$tmp/ccg" | cut -d, -f1,3 | tr '\n' ' ')" = "1600,cycles 1000,cpu_cycles:u 1600,cpu_cycles:th!=0 " ]
ok $? "PMCCFILTR filters as PMEVTYPER does: EL0 1000 and EL1 600 cycles, on either counter"
[ $? -eq 0 ] || diag "$(cat "$tmp/ccu" "$tmp/ccg")"
"$H" stat --pmu neoverse-v2 --dry-run -e cycles,cpu_cycles,'cpu_cycles:th>=1' -- true >"$tmp/ccd" 2>&1
grep -q '^cpu_cycles: hart0 msr PMEVTYPER[0-5]_EL0, 0x0000000008000011 ' "$tmp/ccd" &&
	grep -q '^cpu_cycles:th>=1: hart0 msr PMEVTYPER[0-5]_EL0, 0x8000000108000011 ' "$tmp/ccd"
ok $? "... with cycles on PMCCNTR, cpu_cycles takes an event counter; with a threshold too"
[ $? -eq 0 ] || diag "$(cat "$tmp/ccd")"

# the default event set shows instructions with IPC, and branch-misses as
# a share of branches, as perf's default does; the figures are the rows'
# own quotients
# ratios FILE: whether the IPC beside instructions (and, when there are
# branches, the share beside branch-misses) is the quotient of the rows
ratios() {
	awk '$2 == "cycles" { c = $1 } $2 == "branches" { b = $1 }
		$2 == "instructions" && $3 == "#" && $5 == "insn" { i = $1; ipc = $4 }
		$2 == "branch-misses" && $3 == "#" && $7 == "branches" { m = $1; pct = $4 }
		END { d = ipc - i / c; e = b ? pct - 100 * m / b : 0
		      exit !(c > 0 && i > 0 && d <= 0.005 && d >= -0.005 && e <= 0.005 && e >= -0.005) }' "$1"
}
# perf's figures (stat-shadow.c): IPC "%7.2f ", the share "%7.2f%%", the
# rates "%8.3f", so every unit text starts in the same column
columns() {
	grep -E '# +[0-9.]+%? +(insn per cycle|of all branches|CPUs utilized|/sec|K/sec)' "$1" |
		awk '{ print index($0, "#") }' | sort -u | wc -l
}
"$H" stat --pmu neoverse-v2 --emu-cycles 1000000 >"$tmp/def" 2>&1
ratios "$tmp/def" && grep -q '^ *1000000  *cycles  *\[emu\]$' "$tmp/def"
ok $? "the default Arm run of the emulated harts: cycles, instructions # insn per cycle"
[ $? -eq 0 ] || diag "$(cat "$tmp/def")"
"$H" stat --pmu neoverse-v2 -- true >"$tmp/defc" 2>&1
ratios "$tmp/defc" && grep -q '^ *[0-9][0-9]*  *branch-misses  *# .* of all branches  *\[emu\]$' "$tmp/defc"
ok $? "... with a command: perf's default set, IPC and branch-misses # of all branches"
[ $? -eq 0 ] || diag "$(cat "$tmp/defc")"
grep -qE 'instructions +#  +[0-9]+\.[0-9]{2}  insn per cycle ' "$tmp/defc" &&
	grep -qE 'branch-misses +#  +[0-9]+\.[0-9]{2}% of all branches ' "$tmp/defc" &&
	[ "$(grep -c 'insn per cycle\|of all branches\|CPUs utilized' "$tmp/defc")" -eq 3 ] &&
	[ "$(columns "$tmp/defc")" -eq 1 ] &&
	grep -q 'instructions *#[0-9. ]*insn' "$tmp/defc" &&
	[ "$(grep 'insn per cycle' "$tmp/defc" | awk '{ print index($0, "insn per") }')" = \
		"$(grep 'CPUs utilized' "$tmp/defc" | awk '{ print index($0, "CPUs utilized") }')" ]
ok $? "... perf's figures: IPC '%7.2f ', branch-misses '%7.2f%%', units in one column"
[ $? -eq 0 ] || diag "$(cat "$tmp/defc")"
"$H" stat --pmu neoverse-v2 -x, -- true >"$tmp/defx" 2>&1
grep -qE '^[0-9]+,,instructions,[0-9]+,[0-9.]+,[0-9]+\.[0-9]{2},insn per cycle$' "$tmp/defx" &&
	grep -qE '^[0-9]+,,branch-misses,[0-9]+,[0-9.]+,[0-9]+\.[0-9]{2},of all branches$' "$tmp/defx"
ok $? "... -x,: perf's CSV figures, two decimals for IPC and the share"
[ $? -eq 0 ] || diag "$(cat "$tmp/defx")"

done_testing

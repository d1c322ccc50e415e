#!/bin/sh
# hpmstat stat on the Arm emulator (issue 14): an Arm model without its
# PMU here is counted by the Arm PMUv3 emulator, programmed through its
# registers. The truth is each Arm profile's declared level-1 Topdown,
# which the profile library computes from the profile's declarations
# (class shares, run lengths, per-cycle vectors) and `hpmstat emu profiles
# --arch arm64 --json` prints: counting the profile's stream through stat
# must give it back within 0.5 points (Neoverse V2: the slot form; Neoverse
# N1: the cycle form, where the profile delivers its four events). The
# declared figures are the SBSA forms without BR_MIS_PRED, which the
# profiles do not produce yet, so the test computes those forms itself from
# the raw counts stat prints (Arm's own level 1, which hpmstat's --topdown
# shows, moves slots per mispredicted branch: tests/stat/arm-topdown-arm.sh).
# Also: multiplexing, the [emu] labels, and bad profile and trace names.
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
# sbsa FILE FORM SLOTS BIAS NODE: NODE of the declared FORM (slots: SBSA's
# slot form over SLOTS x CPU_CYCLES with BIAS x CPU_CYCLES taken off
# STALL_SLOT_FRONTEND and STALL_SLOT; cycles: the cycle form), in percent,
# from the counts of stat -x, in FILE
sbsa() {
	awk -F, -v form="$2" -v S="$3" -v b="$4" -v n="$5" '
		/^#/ || $1 !~ /^[0-9.]+$/ { next }
		{ c[toupper($3)] = $1 }
		END {
			C = c["CPU_CYCLES"]
			if (form == "cycles") {
				fe = c["STALL_FRONTEND"] / C; be = c["STALL_BACKEND"] / C
				used = 1 - (c["STALL_FRONTEND"] + c["STALL_BACKEND"]) / C
				r = c["INST_RETIRED"] / c["INST_SPEC"]
			} else {
				fe = (c["STALL_SLOT_FRONTEND"] - b * C) / (S * C)
				be = c["STALL_SLOT_BACKEND"] / (S * C)
				used = 1 - (c["STALL_SLOT"] - b * C) / (S * C)
				r = c["OP_RETIRED"] / c["OP_SPEC"]
			}
			v["frontend_bound"] = fe; v["backend_bound"] = be
			v["retiring"] = r * used; v["bad_speculation"] = (1 - r) * used
			printf "%.4f\n", 100 * v[n]
		}' "$1"
}
SLOT_EVENTS=cpu_cycles,stall_slot_frontend,stall_slot_backend,stall_slot,op_retired,op_spec
CYCLE_EVENTS=cpu_cycles,stall_frontend,stall_backend,inst_retired,inst_spec
# close A B: |A - B| <= 0.5
close() {
	awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && b != "" && d <= 0.5) }'
}

# arm_form MODEL FORM: the declared form stat's metrics compute. Once the
# core's level-1 frontend formula uses BR_MIS_PRED (Arm's own formulas,
# issue 29), the slot forms are Arm's: V1's for neoverse-v1, V2/N2's
# otherwise.
arm_form() {
	case $2 in *slots) ;; *) echo "$2"; return ;; esac
	if awk 'BEGIN { RS = "}" } /"MetricName": *"(tma_)?frontend_bound"/ && /TopdownL1/ { print }' \
		"$top_srcdir/events/arm64/arm/$1/metrics.json" | grep -q BR_MIS_PRED; then
		v=v2; [ "$1" = neoverse-v1 ] && v=v1
		echo "${2%slots}arm_$v"
	else
		echo "$2"
	fi
}

check_profile() { # MODEL FORM PROFILE [STAT OPTION...]
	m=$1; form=$2; p=$3; shift 3
	ev=$SLOT_EVENTS slots=8 bias=0
	case $m in
	neoverse-n1) ev=$CYCLE_EVENTS ;;
	neoverse-n2-r0p0) slots=5 bias=1 ;; # the emulated N2 r0p0-r0p2 counts an extra slot
	neoverse-n2) slots=5 ;;
	esac
	"$H" stat -x, --pmu "$m" "$@" -e "$ev" --emu-profile "$p" --emu-cycles $CYCLES >"$tmp/out" 2>&1
	rc=$?
	st=$rc
	msg=
	for key in frontend_bound backend_bound retiring bad_speculation; do
		d=$(declared "$p" "$form" "$key"); c=$(sbsa "$tmp/out" "${form#kernel_}" $slots $bias "$key")
		close "$d" "$c" || st=1
		msg="$msg $key $c/$d"
	done
	ok $st "$m $* --emu-profile $p: level 1 (counted/declared %)$msg"
	[ $st -eq 0 ] || diag "exit $rc" "$(cat "$tmp/out")"
	# stat --topdown's level 1 (Arm's formulas for the core) against the
	# profile's declaration by the same formulas
	[ "$m" = neoverse-n1 ] && return
	aform=$(arm_form "${m%-r0p0}" "$form")
	"$H" stat --pmu "$m" "$@" --topdown --emu-profile "$p" --emu-cycles $CYCLES >"$tmp/td" 2>&1
	rc=$?
	st=$rc
	msg=
	for pair in frontend_bound:Frontend_Bound backend_bound:Backend_Bound \
		retiring:Retiring bad_speculation:Bad_Speculation; do
		key=${pair%%:*}; node=${pair#*:}
		d=$(declared "$p" "$aform" "$key"); c=$(counted "$tmp/td" "$node")
		close "$d" "$c" || st=1
		msg="$msg $node $c/$d"
	done
	ok $st "$m $* --topdown --emu-profile $p: Arm's level 1 (counted/declared $aform %)$msg"
	[ $st -eq 0 ] || diag "exit $rc" "$(cat "$tmp/td")"
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
[ "$(counted "$tmp/bad" Frontend_Stalled_Cycles)" = n/a ] && close "$(counted "$tmp/bad" Backend_Stalled_Cycles)" \
	"$(declared arm-badspec cycles backend_bound)"
ok $? "neoverse-n1 on a profile without STALL_FRONTEND: Frontend_Stalled_Cycles n/a, Backend_Stalled_Cycles as declared"
"$H" stat --pmu neoverse-n1 --topdown --emu-profile arm-badspec --dry-run true 2>&1 |
	grep -qx 'STALL_FRONTEND: <not modelled>: profile arm-badspec does not produce STALL_FRONTEND'
ok $? "... and its dry run says which event the profile does not produce"

# labels: every figure [emu], the header and the closing line say emulated
"$H" stat --pmu neoverse-v2 --topdown -e inst_retired --emu-cycles 1000000 >"$tmp/lab" 2>&1
[ "$(grep -c '\[emu\]\( *<==\)\{0,1\}$' "$tmp/lab")" -eq 5 ] &&
	grep -q '^ Neoverse V2 figures marked \[emu\] are emulated\.$' "$tmp/lab" &&
	grep -q '^ Neoverse V2 figures are emulated (emulated Neoverse V2: profile arm-balanced, seed 1, 1 hart, 1000000 cycles' "$tmp/lab"
ok $? "labels: inst_retired and the four level-1 nodes [emu], header and closing line"

# multiplexing: the slot form's five events and three more on six counters
# take two groups; the scaled counts still give level 1 within 0.5 points
"$H" stat -x, --pmu neoverse-v2 -e $SLOT_EVENTS,inst_retired,inst_spec,l1d_cache --emu-profile arm-balanced \
	--emu-cycles $CYCLES >"$tmp/mux" 2>&1
st=$?
grep -q 'counters multiplexed' "$tmp/mux" && grep -q '^[0-9]*,,inst_spec,[0-9]*,50.00,' "$tmp/mux" || st=1
for key in frontend_bound backend_bound retiring bad_speculation; do
	close "$(declared arm-balanced slots $key)" "$(sbsa "$tmp/mux" slots 8 0 $key)" || st=1
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
	"--emu-profile: unknown Arm profile 'nosuch' (known: arm-backend-memory, arm-badspec, arm-balanced, arm-frontend, arm-n2-balanced, arm-n2-r0p0-balanced, arm-system)" \
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
	"$H" stat --pmu neoverse-n2 --topdown --emu-profile arm-balanced true
# ... a dry run runs nothing, so it needs no profile that fits (issue 29)
"$H" stat --pmu neoverse-n2 --topdown --emu-profile arm-balanced --dry-run true >"$tmp/dryn2" 2>&1
ok $? "--dry-run with a profile that does not fit N2's 5 slots: planned, exit 0"
[ $? -eq 0 ] || diag "$(cat "$tmp/dryn2")"
# without --emu-profile N2 takes the built-in profile written for its 5
# slots and extra frontend slot, arm-n2-balanced, where it failed before
# (issue 29): its level 1 is that profile's declaration
"$H" stat --pmu neoverse-n2 --backend emu --topdown --emu-cycles $CYCLES >"$tmp/n2def" 2>&1
st=$?
grep -q 'profile arm-n2-balanced' "$tmp/n2def" || st=1
for pair in frontend_bound:Frontend_Bound backend_bound:Backend_Bound \
	retiring:Retiring bad_speculation:Bad_Speculation; do
	close "$(declared arm-n2-balanced "$(arm_form neoverse-n2 slots)" "${pair%%:*}")" \
		"$(counted "$tmp/n2def" "${pair#*:}")" || st=1
done
ok $st "stat --pmu neoverse-n2 --backend emu without --emu-profile: arm-n2-balanced, its declared level 1"
[ $st -eq 0 ] || diag "$(cat "$tmp/n2def")"
"$H" stat --pmu n2 --topdown --dry-run true >/dev/null 2>&1
ok $? "... and its dry run"

# every profile delivers BR_MIS_PRED and the events of Arm's stage-2 groups
# (issue 29): counted, never <not modelled>
stage2=br_mis_pred,br_mis_pred_retired,br_retired,br_immed_spec,br_indirect_spec,br_return_spec
stage2=$stage2,itlb_walk,l1i_tlb,l1i_tlb_refill,l1i_cache,l1i_cache_refill,l2d_cache,l2d_cache_refill
stage2=$stage2,ll_cache_rd,ll_cache_miss_rd,dtlb_walk,l1d_tlb,l1d_tlb_refill,l2d_tlb,l2d_tlb_refill
stage2=$stage2,l1d_cache,l1d_cache_refill,ld_spec,st_spec,dp_spec,ase_spec,vfp_spec,crypto_spec
stage2=$stage2,sve_inst_spec,inst_spec,inst_retired,l3d_cache,l3d_cache_refill
for p in arm-backend-memory:neoverse-v2 arm-badspec:neoverse-v2 arm-balanced:neoverse-v2 \
	arm-frontend:neoverse-v2 arm-n2-balanced:neoverse-n2 arm-n2-r0p0-balanced:neoverse-n2-r0p0 \
	arm-system:future; do
	prof=${p%%:*}; m=${p#*:}; extra=
	[ "$m" = future ] && m=neoverse-v2 extra="--emu-pmu future"
	# shellcheck disable=SC2086
	"$H" stat --pmu $m $extra -x, -e $stage2 --emu-profile $prof --emu-cycles 4000000 >"$tmp/s2" 2>&1
	st=$?
	n=$(grep -c '^[1-9][0-9]*,,' "$tmp/s2")
	[ "$n" = 33 ] && grep -q '^[1-9][0-9]*,,br_mis_pred,' "$tmp/s2" || st=1
	ok $st "$prof: BR_MIS_PRED and all 33 stage-2 events counted, none zero ($n)"
	[ $st -eq 0 ] || diag "$(grep -v '^[1-9]' "$tmp/s2" | head -5)"
done

# Neoverse N2 r0p3 and later (emulator profile n2: 5 slots) on the profile
# written for it, and N2 r0p0-r0p2 (emulator profile n2-r0p0), whose
# STALL_SLOT_FRONTEND counts one slot more every cycle, which Arm's
# r0p0-r0p2 formulas take off as CPU_CYCLES: its profile declares
# stall_slot_bias 1 and its declared forms leave that slot out as the
# formulas do. The same workload gives the same level 1 on both.
check_profile neoverse-n2 slots arm-n2-balanced
check_profile neoverse-n2-r0p0 slots arm-n2-r0p0-balanced
run_fails_with "a profile with N2 r0p0's extra slot on V2" \
	"profile arm-n2-r0p0-balanced has stall_slot_bias 1; the neoverse-v2 PMU (emulator profile v2) counts 0 extra slots a cycle" \
	"$H" stat --pmu neoverse-v2 --topdown --emu-profile arm-n2-r0p0-balanced true
run_fails_with "the r0p0 profile on the r0p3 model" \
	"profile arm-n2-r0p0-balanced has stall_slot_bias 1; the neoverse-n2 PMU (emulator profile n2) counts 0 extra slots a cycle" \
	"$H" stat --pmu neoverse-n2 --topdown --emu-profile arm-n2-r0p0-balanced true
"$H" stat --pmu neoverse-n2-r0p0 --backend emu --topdown --emu-cycles 1000000 >"$tmp/n2r0" 2>&1
grep -q 'profile arm-n2-r0p0-balanced' "$tmp/n2r0"
ok $? "stat --pmu neoverse-n2-r0p0 without --emu-profile: arm-n2-r0p0-balanced"

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
	"--emu-pmu bogus: no Arm emulator feature profile of that name (n1, v1, n2, n2-r0p0, v2, future, or an Arm core's name)" \
	"$H" stat --pmu neoverse-v2 --emu-pmu bogus -e cpu_cycles true
run_fails_with "--emu-pmu on Kunminghu" \
	"--emu-pmu v2: the Kunminghu emulator has one PMU" \
	"$H" stat --backend emu --emu-pmu v2 -e frontend:ifu_req true
run_fails_with "a V2 threshold event on the v1 feature profile (no FEAT_PMUv3_TH)" \
	"that the neoverse-v2 PMU (emulator profile v1" \
	"$H" stat --pmu neoverse-v2 --emu-pmu v1 -e 'stall_slot:th>=2' true

# a trace replays exactly: 992 cycles at EL0 with OP_SPEC 6, OP_RETIRED 3,
# STALL_SLOT_FRONTEND 1, STALL_SLOT_BACKEND 1 (STALL_SLOT 2) per cycle, then
# 32 with a mispredicted branch each (BR_MIS_PRED 1) and all 8 slots
# frontend-stalled: C 1024, 8C 8192, STALL_SLOT_FRONTEND 992 + 256 = 1248,
# STALL_SLOT_BACKEND 992, STALL_SLOT 1984 + 256 = 2240, OP 2976 / 5952,
# BR_MIS_PRED 32 (BM / C = 0.03125). Arm's V2 level 1:
# Frontend 1248/8192 - 0.03125 = 12.109375 %, Backend 992/8192 - 3 x
# 0.03125 = 2.734375 %, Retiring 0.5 x (1 - 2240/8192) = 36.328125 %,
# Bad_Speculation 0.5 x 0.7265625 + 4 x 0.03125 = 48.828125 %
printf 'hpmstat-arm-emu-trace 1\n992 0 ns 0 0x0 0x0 0 0x003a=3 0x003b=6 0x003d=1 0x003e=1 0x003f=2\n32 0 ns 0 0x0 0x0 0 0x0010=1 0x003e=8 0x003f=8\n' >"$tmp/t.trace"
"$H" stat --pmu neoverse-v2 --topdown --emu-trace "$tmp/t.trace" --emu-cycles 1024 >"$tmp/tr" 2>&1
[ "$(counted "$tmp/tr" Frontend_Bound)" = 12.11 ] && [ "$(counted "$tmp/tr" Backend_Bound)" = 2.73 ] &&
	[ "$(counted "$tmp/tr" Retiring)" = 36.33 ] && [ "$(counted "$tmp/tr" Bad_Speculation)" = 48.83 ]
ok $? "a trace: Arm's level 1 as worked by hand (12.11, 2.73, 36.33, 48.83)"
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

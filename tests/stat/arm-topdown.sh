#!/bin/sh
# Arm Topdown in hpmstat stat and top, on a host without an Arm PMU, where
# the Arm emulator (issue 14) counts: --topdown and -M on each Neoverse
# core choose the events of Arm's formulas (events/arm64/README.md), each
# programmed as its PMEVTYPER<n>_EL0 value (SPEC §5: evtCount 15:0, NSH
# bit 27 = 0x08000000 for an event without letters, which counts EL0, EL1
# and EL2 as Linux's driver programs it), on the six event counters, with
# CPU_CYCLES on the cycle counter PMCCNTR (where Linux's arm_pmuv3 driver
# puts event 0x11); more events than counters multiplex or, with
# --no-multiplex, run once per group. The dry runs replay a trace that
# delivers every event they name (a trace produces what it lists), so no
# event is left out as one the default profile does not produce. Counting
# runs on the emulator and labels its figures; mixing Kunminghu and Arm
# events is refused naming both models. (tests/stat/arm-emu.sh checks
# what the emulator counts.)
. "$top_srcdir/tests/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$tap_out" "$tap_err"' EXIT

# One run of 1000 cycles at EL0 in which each event the dry runs name
# delivers: INST_RETIRED 0x08, BR_MIS_PRED 0x10, INST_SPEC 0x1B,
# STALL_FRONTEND 0x23, STALL_BACKEND 0x24, OP_RETIRED 0x3A, OP_SPEC 0x3B,
# STALL_SLOT_BACKEND 0x3D, STALL_SLOT_FRONTEND 0x3E, STALL_SLOT 0x3F, and
# Operation_Mix's LD/ST/DP/ASE/VFP/CRYPTO_SPEC 0x70-0x77, BR_IMMED_SPEC
# 0x78, BR_INDIRECT_SPEC 0x7A, ISB/DSB/DMB_SPEC 0x7C-0x7E, SVE_INST_SPEC
# 0x8006.
trace="$tmp/all.trace"
printf '%s\n' 'hpmstat-arm-emu-trace 1' \
	'1000 0 ns 0 0x0 0x0 0 0x0008=1 0x0010=1 0x001b=1 0x0023=1 0x0024=1 0x003a=1 0x003b=2 0x003d=1 0x003e=1 0x003f=2 0x0070=1 0x0071=1 0x0073=1 0x0074=1 0x0075=1 0x0077=1 0x0078=1 0x007a=1 0x007c=1 0x007d=1 0x007e=1 0x8006=1' >"$trace"

# events MODEL ARGS...: "NAME=VALUE" of each programmed event of a dry run,
# sorted
events() {
	m=$1; shift
	"$HPMSTAT" stat --pmu "$m" --emu-trace "$trace" "$@" --dry-run true 2>"$tap_err" |
		sed -n 's/^\([A-Z_]*\): hart0 msr PMEVTYPER[0-5]_EL0, \(0x[0-9a-f]*\) .*/\1=\2/p' | sort
}

# Event numbers (Arm ARM): CPU_CYCLES 0x11, INST_RETIRED 0x08, BR_MIS_PRED
# 0x10, INST_SPEC 0x1B, STALL_FRONTEND 0x23, STALL_BACKEND 0x24, OP_RETIRED
# 0x3A, OP_SPEC 0x3B, STALL_SLOT_BACKEND 0x3D, STALL_SLOT_FRONTEND 0x3E,
# STALL_SLOT 0x3F. Arm's level 1 on N2, V1 and V2 moves slots per
# mispredicted branch (BR_MIS_PRED) between its categories.
slots="BR_MIS_PRED=0x0000000008000010
OP_RETIRED=0x000000000800003a
OP_SPEC=0x000000000800003b
STALL_SLOT=0x000000000800003f
STALL_SLOT_BACKEND=0x000000000800003d
STALL_SLOT_FRONTEND=0x000000000800003e"
for m in neoverse-n2 neoverse-v1 neoverse-v2; do
	got=$(events $m --topdown)
	[ "$got" = "$slots" ]; ok $? "$m --topdown: the six events of Arm's level 1 on event counters"
	[ "$got" = "$slots" ] || diag "$got" "$(cat "$tap_err")"
done
# N1 has no STALL_SLOT events: Arm's first stage is its cycle accounting
cycles="STALL_BACKEND=0x0000000008000024
STALL_FRONTEND=0x0000000008000023"
got=$(events neoverse-n1 --topdown)
[ "$got" = "$cycles" ]; ok $? "neoverse-n1 --topdown: STALL_FRONTEND and STALL_BACKEND, Arm's cycle accounting"
"$HPMSTAT" stat --pmu neoverse-n1 --topdown --dry-run true 2>&1 | grep -qx 'CPU_CYCLES: hart0 pmccntr (fixed counter, always counted)'
ok $? "CPU_CYCLES is counted by the cycle counter"
# -M of the level-1 group and of one metric choose the same
[ "$(events neoverse-v2 -M tma_L1_group)" = "$slots" ]; ok $? "-M tma_L1_group is --topdown's events"
got=$(events neoverse-v2 -M tma_frontend_bound)
[ "$got" = "BR_MIS_PRED=0x0000000008000010
STALL_SLOT_FRONTEND=0x000000000800003e" ]
ok $? "-M tma_frontend_bound (the old name of frontend_bound): STALL_SLOT_FRONTEND and BR_MIS_PRED (and CPU_CYCLES on pmccntr)"
run_fails_with "--topdown=3 on an Arm core: level 1 and Arm's stage 2 below it" \
	"Topdown level 3 out of range (1 to 2)" \
	"$HPMSTAT" stat --pmu neoverse-v2 --topdown=3 --dry-run true

# six events on six counters and CPU_CYCLES on PMCCNTR: one group
"$HPMSTAT" stat --pmu neoverse-v2 --emu-trace "$trace" --topdown --dry-run true >"$tmp/td" 2>&1
! grep -q 'multiplex' "$tmp/td" && [ "$(grep -c '(group 0)' "$tmp/td")" -eq 6 ] &&
	grep -qx 'CPU_CYCLES: hart0 pmccntr (fixed counter, always counted)' "$tmp/td"
ok $? "level 1 fits: one group, CPU_CYCLES on pmccntr"
# level 1 and Operation_Mix: 6 + 13 events (LD/ST/DP/ASE/VFP/CRYPTO/SVE_INST
# /BR_IMMED/BR_INDIRECT/INST_SPEC, and barrier_percentage's ISB/DSB/DMB)
# = 19 on 6 counters: ceil(19 / 6) = 4
"$HPMSTAT" stat --pmu neoverse-v2 --emu-trace "$trace" --topdown -M Operation_Mix --dry-run true >"$tmp/mux" 2>&1
grep -q '^emu: 4 multiplex groups, ' "$tmp/mux"; ok $? "19 events on 6 counters multiplex in 4 groups"
[ "$(grep -c ': hart0 msr PMEVTYPER[0-5]_EL0, ' "$tmp/mux")" -eq 19 ]; ok $? "every one of the 19 events is placed"
"$HPMSTAT" stat --pmu neoverse-v2 --emu-trace "$trace" --topdown -M Operation_Mix --no-multiplex --dry-run true >"$tmp/nomux" 2>&1
[ "$(grep -c '^# run [1234] of 4:$' "$tmp/nomux")" -eq 4 ] && ! grep -q 'multiplex groups' "$tmp/nomux"
ok $? "--no-multiplex: four runs, none multiplexed"

# threshold forms reach the counter as encoded (SPEC §5: TC 63:61 = 0b100
# for >=, TH 43:32 = 2; :count TC[0] = 1: 0b101)
"$HPMSTAT" stat --pmu neoverse-v2 -e 'stall_slot:th>=2,stall_slot:th>=2:count' --dry-run true >"$tmp/th" 2>&1
grep -q '^stall_slot:th>=2: hart0 msr PMEVTYPER0_EL0, 0x800000020800003f' "$tmp/th" &&
	grep -q '^stall_slot:th>=2:count: hart0 msr PMEVTYPER1_EL0, 0xa00000020800003f' "$tmp/th"
ok $? "threshold forms: TC=0b100 TH=2 and TC=0b101 TH=2"

# an Arm core without its PMU here is counted on the emulator, every
# figure labelled as emulated
"$HPMSTAT" stat --pmu neoverse-v2 --topdown --emu-trace "$trace" --emu-cycles 2000000 true >"$tmp/count" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q '^ Neoverse V2 figures marked \[emu\] are emulated' "$tmp/count" &&
	[ "$(grep -c '% slots *\[emu\]' "$tmp/count")" -eq 4 ]
st=$?
ok $st "stat --pmu neoverse-v2 --topdown counts on the emulator, its four level-1 figures [emu]"
[ $st -eq 0 ] || diag "exit $rc" "$(cat "$tmp/count")"
"$HPMSTAT" stat --pmu neoverse-n1 --topdown --no-multiplex --emu-cycles 2000000 true >"$tmp/count1" 2>&1
[ $? -eq 0 ] && [ "$(grep -c '% cycles *\[emu\]' "$tmp/count1")" -eq 2 ]
ok $? "--no-multiplex too; Neoverse N1's level 1 (its two stall shares) is a share of cycles"
"$HPMSTAT" top --pmu neoverse-v2 --emu-trace "$trace" -b -n 1 >"$tmp/top" 2>"$tmp/toperr"; rc=$?
[ $rc -eq 0 ] && grep -q 'Frontend_Bound' "$tmp/top" && grep -q 'Backend_Bound' "$tmp/top" &&
	grep -q 'Retiring' "$tmp/top" && grep -q 'Bad_Speculation' "$tmp/top"
st=$?
ok $st "top --pmu neoverse-v2: its level 1, on the emulator"
[ $st -eq 0 ] || diag "exit $rc" "$(cat "$tmp/top" "$tmp/toperr")"
# host events alone need no Arm back end
run_ok "--pmu neoverse-v2 with only host events runs" \
	"$HPMSTAT" stat --pmu neoverse-v2 -e duration_time true

# one run counts one PMU model
run_fails_with "Kunminghu and Arm events in one run" \
	"'stall_slot' is an event of Neoverse N2, Neoverse N2 r0p0-r0p2, Neoverse V1 and Neoverse V2, not of Kunminghu (kunminghu-v2), whose events this run counts: one run counts one PMU model" \
	"$HPMSTAT" stat -e rob_commitInstr,stall_slot --dry-run true
run_fails_with "a Kunminghu event with --pmu neoverse-v2" \
	"'rob_commitInstr' is an event of Kunminghu (kunminghu-v2) and Kunminghu (kunminghu-v3), not of Neoverse V2, whose events this run counts" \
	"$HPMSTAT" stat --pmu neoverse-v2 -e stall_slot,rob_commitInstr --dry-run true
run_fails_with "... also when the run would count" \
	"'rob_commitInstr' is an event of Kunminghu (kunminghu-v2) and Kunminghu (kunminghu-v3), not of Neoverse V2" \
	"$HPMSTAT" stat --pmu neoverse-v2 -e rob_commitInstr true
run_fails_with "an event of another Arm core" \
	"'stall_slot' is an event of Neoverse N2, Neoverse N2 r0p0-r0p2, Neoverse V1 and Neoverse V2, not of Neoverse N1" \
	"$HPMSTAT" stat --pmu neoverse-n1 -e stall_slot --dry-run true
run_fails_with "an unknown Arm event gives the closest names" \
	"unknown event 'stall_slott' (did you mean STALL_SLOT" \
	"$HPMSTAT" stat --pmu neoverse-v2 -e stall_slott --dry-run true

# -e lists: a comma before a term with a value (threshold=5, th>=5)
# continues the event, as hpmstat-events(7) writes Arm events; a bare term
# after a comma is an event of its own, and the error says how to write it.
# BR_MIS_PRED 0x10; TC 0b100 (>=) << 61 = 0x8000000000000000, TH 5 << 32 =
# 0x500000000, NSH (EL2 counted with no filter letter) 1 << 27 = 0x8000000:
# 0x8000000508000010. INST_RETIRED 0x08 with :u: P (bit 31, no EL1) =
# 0x80000000, NSH clear: 0x80000008.
"$HPMSTAT" stat --pmu neoverse-v2 --emu-trace "$trace" --dry-run -e 'br_mis_pred:threshold=5,threshold_compare=2,inst_retired:u' -- true >"$tap_out" 2>&1
grep -q '^br_mis_pred:threshold=5,threshold_compare=2: hart0 msr PMEVTYPER0_EL0, 0x8000000508000010 ' "$tap_out" &&
	grep -q '^inst_retired:u: hart0 msr PMEVTYPER1_EL0, 0x0000000080000008 ' "$tap_out" &&
	[ "$(grep -c ': hart0 msr PMEVTYPER[0-9]' "$tap_out")" = 2 ]
ok $? "-e 'br_mis_pred:threshold=5,threshold_compare=2,inst_retired:u': two events, PMEVTYPER 0x8000000508000010 and 0x80000008 (worked by hand)"
[ $? = 0 ] || diag "$(cat "$tap_out")"
run_fails_with "a bare term after a comma: says to write it after a colon" \
	"unknown event 'count': a comma separates events; as a term of 'stall_slot:th>=2' write it after a colon: 'stall_slot:th>=2:count'" \
	"$HPMSTAT" stat --pmu neoverse-v2 --dry-run -e 'stall_slot:th>=2,count' -- true

done_testing

#!/bin/sh
# arm-cli.sh: an Arm core's events and Topdown through stat, top, stat
# --record and report, counted by tests/toy/arm-steady: hpmstat with a
# fixed-rate test machine under a copy of the Neoverse V2 model. Its rates
# (arm-steady.c) make every figure a hand calculation: per cycle
# INST_RETIRED 3, CPU_CYCLES 1, OP_RETIRED 3, OP_SPEC 4, STALL_SLOT_BACKEND
# 3, STALL_SLOT_FRONTEND 2, STALL_SLOT 5, all at EL0; Neoverse V2 has 8
# slots, so Arm's level 1 is
#   Frontend_Bound  = 2 / 8                   = 25.000 %
#   Backend_Bound   = 3 / 8                   = 37.500 %   (the bottleneck)
#   Retiring        = 3/4 x (1 - 5/8)         = 28.125 %
#   Bad_Speculation = (1 - 3/4) x (1 - 5/8)   =  9.375 %
# and the IPC is 3.
. "$top_srcdir/tests/lib.sh"
J=$JSONCHECK
A=$(dirname "$HPMSTAT")/../tests/toy/arm-steady
M=neoverse-v2-steady
dir=$(mktemp -d)
trap 'main_shell && rm -rf "$dir" "$tap_out" "$tap_err"' EXIT

# ---- stat: counts, filters, generic names
$A stat --pmu $M -x, -e instructions,cycles,stall_slot:u,stall_slot:k,op_spec --emu-cycles 1000 \
	2>"$dir/csv" >/dev/null
ok $? "stat --pmu $M counts"
grep -v '^#' "$dir/csv" | cut -d, -f1,3 | tr '\n' ' ' >"$tap_out"
[ "$(cat "$tap_out")" = "3000,instructions 1000,cycles 5000,stall_slot:u 0,stall_slot:k 4000,op_spec " ]
ok $? "instructions = INST_RETIRED 3 x 1000, cycles the cycle counter, stall_slot:u 5000, :k 0 (the machine runs at EL0), op_spec 4000 ($(cat "$tap_out"))"

# ---- stat --topdown: the tree, the bottleneck, the units of Arm's level 1
$A stat --pmu $M --topdown --emu-cycles 1000000 2>"$dir/td" >/dev/null
ok $? "stat --topdown on an Arm core"
for row in "Frontend_Bound 25.00" "Bad_Speculation 9.38" "Backend_Bound 37.50" "Retiring 28.12"; do
	grep -Eq "^ +${row% *} +${row#* } +% slots " "$dir/td"
	ok $? "--topdown: ${row% *} ${row#* } % slots (by hand)"
done
grep -Eq '^ +Backend_Bound .*<==$' "$dir/td" && [ "$(grep -c '<==$' "$dir/td")" = 1 ]
ok $? "--topdown: <== on Backend_Bound only"
$A stat --pmu $M -M ipc --emu-cycles 1000 2>"$tap_out" >/dev/null
# perf's layout: the metric in the '#' column of its first event, "%8.1f"
# and "unit  name" for a metric with a ScaleUnit (perf's generic_metric)
grep -Eq '^ +3000 +INST_RETIRED +# +3\.0 per cycle  ipc ' "$tap_out"
ok $? "-M ipc: 3.0 (INST_RETIRED / CPU_CYCLES) beside INST_RETIRED"

# ---- top: level 1 per unit and the tree, JSON and batch text
$A top -j -n 1 -d 0.2 --pmu $M --no-config 2>"$tap_err" |
	$J units.0.ipc units.0.topdown.tma_frontend_bound units.0.topdown.tma_bad_speculation \
		units.0.topdown.tma_backend_bound units.0.topdown.tma_retiring topdown.2.bottleneck | tr '\n' ' ' >"$tap_out"
[ "$(cat "$tap_out")" = "3.0 25.0 9.375 37.5 28.125 true " ]
ok $? "top -j --pmu $M: IPC 3, level 1 25 / 9.375 / 37.5 / 28.125, backend the bottleneck ($(cat "$tap_out"))"
$A top -b -n 1 -d 0.2 --pmu $M --no-config >"$tap_out" 2>"$tap_err"
grep -Eq '^ +Backend_Bound +37\.5 +<==$' "$tap_out" && grep -Eq '^ +Retiring +28\.1$' "$tap_out"
ok $? "top -b: the Topdown tree with <=="

# ---- stat --record and report: the run file names the model, report
# recomputes level 1 from the counts
$A stat --pmu $M --topdown --emu-cycles 100000 --emu-harts 2 --record "$dir/run.json" 2>/dev/null
ok $? "stat --record on an Arm core"
$J events.0.kind <"$dir/run.json" >"$tap_out"
[ "$(cat "$tap_out")" = "$M" ]
ok $? "the run file records the model by name ($(cat "$tap_out"))"
$A report "$dir/run.json" >"$dir/rep" 2>"$tap_err"
ok $? "report renders the Arm run"
grep -Eq '^ +Backend_Bound +37\.50 +% slots +<==$' "$dir/rep" && grep -Eq '^ +Frontend_Bound +25\.00 +% slots' "$dir/rep"
ok $? "report: level 1 as counted (Backend_Bound 37.50 <==, Frontend_Bound 25.00)"
$A report --format csv "$dir/run.json" >"$dir/rep.csv" 2>"$tap_err"
ok $? "report --format csv on the Arm run"

# ---- a model with no machine (neoverse-v2-bare): a dry run shows each
# event's counter and PMEVTYPER value (SPEC §5: STALL_SLOT_FRONTEND 0x3E,
# NSH bit 27 for no letters: 0x800003e), counting is refused with one line
$A stat --pmu neoverse-v2-bare --topdown --dry-run true >"$dir/bare" 2>&1
[ $? -eq 0 ] && grep -q '^STALL_SLOT_FRONTEND: pmevcntr[0-5] event 0x000000000800003e ' "$dir/bare"
ok $? "a model without a machine: --dry-run shows its PMEVTYPER values (stat/uncounted.c)"
run_fails_with "... and counting it is refused with one line" \
	"--pmu neoverse-v2-bare: this host has no Neoverse V2 (no machine) PMU and hpmstat has no emulator of it yet" \
	$A stat --pmu neoverse-v2-bare --topdown true

done_testing

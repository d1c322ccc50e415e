#!/bin/sh
# hpmstat report --topdown on files written by gen-perfdata: the formulas
# come from the PMU model (Kunminghu's, then the Neoverse cores' below).
# gen-perfdata topdown: a
# Kunminghu group {cycles,Front_Bubble,INST_SPEC,RECOVERY_BUBBLE,
# rob_commitInstr}:S of one thread on one CPU, sampled four times, at
# 0x1000 twice then 0x2000 twice, with these cumulative reads:
#
#   sample  ip      cycles  Front_Bubble  INST_SPEC  RECOVERY_BUBBLE  rob_commitInstr
#   0       0x1000  1000    600           3000       300              2400
#   1       0x1000  2000    1200          6000       600              4800
#   2       0x2000  3000    1500          7200       600              6000
#   3       0x2000  4000    1800          8400       600              7200
#
# Each read's delta from the one before goes to the function sampled (the
# first read's from 0, as perf report counts it):
#   0x1000 gets samples 0+1: cycles 2000, FB 1200, IS 6000, RB 600, RC 4800
#   0x2000 gets samples 2+3: cycles 2000, FB 600,  IS 2400, RB 0,   RC 2400
# Kunminghu's level 1 (slots = 6 x cycles):
#   0x1000: Frontend 1200/12000 = 10 %, Bad speculation (6000+600-4800)/12000
#           = 15 %, Retiring 4800/12000 = 40 %, Backend 100-10-15-40 = 35 %
#   0x2000: Frontend 600/12000 = 5 %, Bad speculation (2400+0-2400)/12000
#           = 0 %, Retiring 2400/12000 = 20 %, Backend 75 %
# The <== path is stat's rule (hpmstat-stat(1)): the largest level-1 node
# over its threshold (Frontend > 15 %, Bad speculation > 15 %, Backend
# > 20 %, Retiring > 70 %): at 0x1000 Backend (35 %; Retiring's 40 % is
# the largest share but under 70 %), at 0x2000 Backend.
. "$top_srcdir/tests/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$tap_out" "$tap_err"' EXIT
gen="$top_builddir/tests/samples/gen-perfdata"

"$gen" topdown "$tmp/td.data"
run_ok "report --topdown" "$HPMSTAT" report -i "$tmp/td.data" --topdown
# the leader's histogram carries the Topdown columns
row() { sed -n "/of event 'cycles'/,/^\$/p" "$tap_out" | grep -F "[.] $1" | awk '{print $(NF-5), $(NF-4), $(NF-3), $(NF-2), $NF}'; }
out=$(row 0x0000000000001000)
[ "$out" = "10.00 15.00 35.00 40.00 tma_backend_bound" ]; ok $? "0x1000: 10 / 15 / 35 / 40, backend the bottleneck (retiring under its threshold)"
[ -n "$out" ] || diag "$(cat "$tap_out")"
out=$(row 0x0000000000002000)
[ "$out" = "5.00 0.00 75.00 20.00 tma_backend_bound" ]; ok $? "0x2000: 5 / 0 / 75 / 20, backend the bottleneck"
grep -q "kunminghu model" "$tap_out"; ok $? "the formulas are named as the Kunminghu model's"
# --topdown-variant=slots: each RECOVERY_BUBBLE cycle is 6 slots (by hand):
#   0x1000: Bad speculation (6000 + 6 x 600 - 4800)/12000 = 40 %, Backend
#           100 - 10 - 40 - 40 = 10 %; Bad speculation the bottleneck
#   0x2000: no recovery, as above
run_ok "report --topdown --topdown-variant=slots" "$HPMSTAT" report -i "$tmp/td.data" --topdown --topdown-variant=slots
out=$(row 0x0000000000001000)
[ "$out" = "10.00 40.00 10.00 40.00 tma_bad_speculation" ]; ok $? "slots, 0x1000: 10 / 40 / 10 / 40, bad speculation the bottleneck ($out)"
out=$(row 0x0000000000002000)
[ "$out" = "5.00 0.00 75.00 20.00 tma_backend_bound" ]; ok $? "slots, 0x2000: no recovery, as the document's ($out)"
grep -q "kunminghu model's formulas, variant slots" "$tap_out"; ok $? "the header names the variant"
grep -q "50.00%.*0x0000000000001000" "$tap_out"; ok $? "overhead by period: 50 % each"
# perf report's view of a group read: each member its own event, weighted
# by its deltas: Front_Bubble 0x1000 1200, 0x2000 600 -> 66.67 / 33.33;
# RECOVERY_BUBBLE only at 0x1000 (its later deltas are 0: no sample)
"$HPMSTAT" report -i "$tmp/td.data" >"$tmp/td.txt" 2>/dev/null
sed -n "/of event 'Front_Bubble'/,/^\$/p" "$tmp/td.txt" | grep -q "66.67%.*0x0000000000001000"
ok $? "member Front_Bubble: its deltas' shares, 66.67 % at 0x1000"
sed -n "/of event 'RECOVERY_BUBBLE'/,/^\$/p" "$tmp/td.txt" | grep -q "100.00%.*0x0000000000001000"
ok $? "member RECOVERY_BUBBLE: 100 % at 0x1000"
grep -q "# Samples: 2  of event 'RECOVERY_BUBBLE'" "$tmp/td.txt"; ok $? "RECOVERY_BUBBLE: 2 samples (zero deltas are none)"
if command -v perf >/dev/null 2>&1; then
	perf report -i "$tmp/td.data" --stdio --no-children 2>/dev/null | grep -v '^#' >"$tmp/td.perf"
	grep -v '^#' "$tmp/td.txt" | cmp -s - "$tmp/td.perf"; ok $? "perf report reads the group the same"
fi

"$HPMSTAT" report -i "$tmp/td.data" --topdown --format json >"$tmp/td.json" 2>"$tap_err"
"$JSONCHECK" <"$tmp/td.json" >/dev/null 2>&1; ok $? "JSON with Topdown parses"
command -v python3 >/dev/null 2>&1 && python3 - "$tmp/td.json" <<'PY' >/dev/null 2>&1
import json, sys
d = json.load(open(sys.argv[1]))
e = {x["symbol"]: x["topdown"] for x in d["events"][0]["entries"]}
a = e["0x0000000000001000"]; b = e["0x0000000000002000"]
assert abs(a["tma_frontend_bound"] - 10) < 1e-9 and abs(a["tma_retiring"] - 40) < 1e-9
assert abs(b["tma_backend_bound"] - 75) < 1e-9 and abs(b["tma_bad_speculation"]) < 1e-9
PY
ok $? "JSON Topdown values as worked by hand"

# The Arm group of gen-perfdata topdown-arm: two reads at 0x1000, the
# second twice the first, so the function's deltas (first from 0) are the
# second read: CPU_CYCLES 1000, STALL_SLOT_FRONTEND 2000,
# STALL_SLOT_BACKEND 3000, STALL_SLOT 5000, OP_RETIRED 2100, OP_SPEC 2800,
# BR_MIS_PRED 50 (BM / C = 0.05). Arm's level 1 (events/arm64/README.md).
# Its CPUID feature names Neoverse V2 (8 slots a cycle):
#   Frontend 2000/8000 - 0.05 = 20 %, Backend 3000/8000 - 3 x 0.05 = 22.5 %,
#   Retiring (2100/2800) x (1 - 5000/8000) = 0.75 x 0.375 = 28.125 %,
#   Bad speculation 0.25 x 0.375 + 4 x 0.05 = 29.375 %.
# With --pmu neoverse-n2 (r0p3 on, 5 slots): Frontend 2000/5000 - 0.05 =
#   35 %, Backend 3000/5000 - 0.15 = 45 %, Retiring 0.75 x (1 - 5000/5000)
#   = 0 %, Bad speculation 0.25 x 0 + 0.2 = 20 %.
# With --pmu neoverse-n2-r0p0 (CPU_CYCLES off STALL_SLOT_FRONTEND and
#   STALL_SLOT): Frontend (2000-1000)/5000 - 0.05 = 15 %, Backend 45 %,
#   Retiring 0.75 x (1 - 4000/5000) = 15 %, Bad speculation 0.25 x 0.2 +
#   0.2 = 25 %.
"$gen" topdown-arm "$tmp/arm.data"
tdjson() { # FILE ARGS...: "model fe bs be ret" of 0x1000
	f=$1; shift
	"$HPMSTAT" report -i "$f" --topdown --format json "$@" 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
t = d["events"][0]["entries"][0]["topdown"]
print(d["topdown_model"], *("%g" % t[k] for k in ("frontend_bound", "bad_speculation", "backend_bound", "retiring")))'
}
if command -v python3 >/dev/null 2>&1; then
	out=$(tdjson "$tmp/arm.data")
	[ "$out" = "neoverse-v2 20 29.375 22.5 28.125" ]; ok $? "Arm group, cpuid of Neoverse V2: its formulas ($out)"
	out=$(tdjson "$tmp/arm.data" --pmu neoverse-n2)
	[ "$out" = "neoverse-n2 35 20 45 0" ]; ok $? "--pmu neoverse-n2: N2 r0p3's formulas ($out)"
	out=$(tdjson "$tmp/arm.data" --pmu neoverse-n2-r0p0)
	[ "$out" = "neoverse-n2-r0p0 15 25 45 15" ]; ok $? "--pmu neoverse-n2-r0p0: N2 r0p0-r0p2's formulas ($out)"
fi
run_fails_with "--pmu of no model" "no such PMU model" "$HPMSTAT" report -i "$tmp/arm.data" --topdown --pmu nosuch

# the Topdown asked for and not computable is an error, never a report
# that exits 0 without it (as perf report -b on a file without branch
# stacks)
"$gen" simple "$tmp/s.data"
run_fails_with "--topdown without group reads: an error, no report" "--topdown: no group reads" \
	"$HPMSTAT" report -i "$tmp/s.data" --topdown
run_fails_with "--topdown --pmu neoverse-n2 on a Kunminghu group: an error naming the missing events" \
	"the neoverse-n2 model's level 1 needs " "$HPMSTAT" report -i "$tmp/td.data" --topdown --pmu neoverse-n2

# Damaged reads (gen-perfdata topdown-damaged: at 0x2000 cycles advances
# by 1 while Front_Bubble advances by 300, a frontend share of 5000 %): the
# function's Topdown is n/a with a warning, never a number outside 0-100 %;
# 0x1000's reads are sound and keep 10 / 15 / 35 / 40.
"$gen" topdown-damaged "$tmp/dm.data"
"$HPMSTAT" report -i "$tmp/dm.data" --topdown >"$tap_out" 2>"$tap_err"; rc=$?
[ $rc -eq 0 ] && [ "$(grep -c 'damaged group reads' "$tap_err")" -eq 1 ] &&
	grep -q "in 1 entry: their Topdown is shown as n/a" "$tap_err"
ok $? "damaged group reads: one warning naming one entry"
[ $? -eq 0 ] || diag "exit $rc" "$(cat "$tap_err")"
out=$(sed -n "/of event 'cycles'/,/^\$/p" "$tap_out" | grep -F "[.] 0x0000000000002000")
echo "$out" | awk '{ exit !($(NF-3) == "n/a" && $(NF-2) == "n/a" && $(NF-1) == "n/a" && $NF == "n/a") }'
ok $? "damaged group reads: 0x2000's level 1 is n/a, no bottleneck ($out)"
out=$(row 0x0000000000001000)
# (Retiring counts as the bottleneck only over its 70 % threshold)
[ "$out" = "10.00 15.00 35.00 40.00 tma_backend_bound" ]; ok $? "the sound reads keep their Topdown ($out)"
done_testing

#!/bin/sh
# idle-harts.sh: an emulated hart with nothing to run is a hart in wfi, and
# Kunminghu gates its clock there (XiangShan's XSNoCTop, WFIClockGate), so
# no counter counts, mcycle included: it has no cycles and no slots. The
# Topdown of all harts is a sum of counts, so it is the busy harts' own,
# weighed by their slots (6 x cycles), never dragged toward 100 % Backend
# Bound by idle harts; and every view names the idle harts.
# tasks-mixed on 4 harts: its five tasks run on harts 0 and 1 (each task's
# hart modulo 4: 0, 0, 1, 1, 0), so harts 2 and 3 only ever run the idle
# task (the profile, hpmstat-emu-profile(5)).
. "$top_srcdir/tests/lib.sh"
H=${HPMSTAT:-$top_builddir/src/hpmstat}
T=$(mktemp -d)
trap 'rm -rf "$T" "$tap_out" "$tap_err"' EXIT
export XDG_CONFIG_HOME="$T/cfg"
if ! command -v python3 >/dev/null 2>&1; then
	skip_all "python3 is needed to read the JSON lines"
fi
E="--backend emu --emu-profile tasks-mixed --emu-harts 4 --emu-cycles 20000000 --topdown"
# the level-1 events counted as they are, beside the Topdown (no multiplexing
# at level 1: one frontend, three backend counters)
EV=cycles,instructions,Front_Bubble,rob_commitInstr,INST_SPEC,RECOVERY_BUBBLE

"$H" stat $E -A -j --json-extra -e $EV >"$T/s.json" 2>&1; rc=$?
[ $rc -eq 0 ]; ok $? "stat -A -j on tasks-mixed, 4 harts"

# From the per-hart counts alone, Kunminghu's level 1 (SPEC 3) of the busy
# harts (those that retired instructions), summed: Frontend FB/6C, Bad
# speculation (IS+RB-RC)/6C, Retiring RC/6C, Backend the rest, over the
# busy harts' cycles C; and the same as the per-hart values weighed by each
# hart's slots. stat's all-harts figures must be both.
python3 - "$T/s.json" >"$T/res" 2>&1 <<'PY'
import json, sys
ev, met, tot, idle_units = {}, {}, {}, None
for line in open(sys.argv[1]):
    if not line.startswith("{"):
        continue
    d = json.loads(line)
    h = d.get("hart")
    if "event" in d and h is not None:
        ev.setdefault(h, {})[d["event"]] = float(d["counter-value"])
    elif "metric" in d and d.get("topdown-level") == 1:
        if h is None:
            tot[d["metric"]] = d["metric-value"]
            idle_units = d.get("idle-units", idle_units)
        else:
            met.setdefault(h, {})[d["metric"]] = (d["metric-value"], d.get("idle", False))
busy = sorted(h for h in ev if ev[h]["instructions"] > 0)
idle = sorted(h for h in ev if h not in busy)
print("busy", busy, "idle", idle)
print("idle harts count nothing:", all(v == 0 for h in idle for v in ev[h].values()))
C = sum(ev[h]["cycles"] for h in busy)
fb = sum(ev[h]["Front_Bubble"] for h in busy)
rc = sum(ev[h]["rob_commitInstr"] for h in busy)
bs = sum(ev[h]["INST_SPEC"] + ev[h]["RECOVERY_BUBBLE"] - ev[h]["rob_commitInstr"] for h in busy)
want = {"tma_frontend_bound": 100 * fb / (6 * C), "tma_bad_speculation": 100 * bs / (6 * C),
        "tma_retiring": 100 * rc / (6 * C)}
want["tma_backend_bound"] = 100 - sum(want.values())
bad = 0
for k, w in sorted(want.items()):
    weighed = sum(met[h][k][0] * ev[h]["cycles"] for h in busy) / C
    ok = abs(tot[k] - w) < 1e-4 and abs(tot[k] - weighed) < 1e-4
    bad += not ok
    print("%-22s all harts %.6f, from the busy harts' counts %.6f, their values by slots %.6f"
          % (k, tot[k], w, weighed))
print("sums", "bad" if bad else "agree")
print("idle-units", idle_units)
print("idle flags", sorted(h for h in met if all(v[1] for v in met[h].values())))
PY
grep -q "^busy \['0', '1'\] idle \['2', '3'\]$" "$T/res"; ok $? "harts 0 and 1 retire instructions, harts 2 and 3 none"
grep -q "^idle harts count nothing: True$" "$T/res"; ok $? "the idle harts count nothing, cycles included (their clock gated in wfi)"
grep -q "^sums agree$" "$T/res"; ok $? "the all-harts level 1 is the busy harts' counts summed, and their values weighed by slots"
grep -q "^sums agree$" "$T/res" || diag "$(cat "$T/res")"
be=$(awk '/^tma_backend_bound/ { print $4 }' "$T/res" | tr -d ,)
awk -v b="$be" 'BEGIN { exit !(b < 50) }'; ok $? "all harts: Backend Bound $be %, not the idle harts' 100 % averaged in"
grep -q "^idle-units hart2,hart3$" "$T/res"; ok $? "JSON: the all-harts rows name the idle harts (idle-units)"
grep -q "^idle flags \['2', '3'\]$" "$T/res"; ok $? "JSON -A: the idle harts' rows say idle"

# std and CSV name them too, and -A says which block is idle
"$H" stat $E -A >"$T/std" 2>&1
grep -q '^ (hart2, hart3 idle (no cycles counted: in wfi, the clock gated): not in the Topdown)$' "$T/std"
ok $? "std: the idle harts named under the Topdown title"
[ "$(grep -c '^ hart[23]: idle (no cycles counted' "$T/std")" -eq 2 ]; ok $? "std -A: hart2's and hart3's blocks say idle"
"$H" stat $E -x, >"$T/csv" 2>&1
grep -q '^# hart2, hart3 idle (no cycles counted: in wfi, the clock gated): not in the Topdown$' "$T/csv"
ok $? "CSV: a comment line names the idle harts"

# top: the note and the rows
"$H" top --json -n 2 -d 0.2 --no-config --backend emu --emu-profile tasks-mixed --emu-harts 4 >"$T/t.json" 2>/dev/null
python3 - "$T/t.json" >"$T/tres" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    f = json.loads(line)
    print(f["frame"], sorted(u["unit"] for u in f["units"] if u.get("idle")),
          "note" if "hart2, hart3 idle" in f.get("note", "") else "no-note")
PY
[ "$(grep -c "^[12] \['hart2', 'hart3'\] note$" "$T/tres")" -eq 2 ]; ok $? "top --json: hart2 and hart3 idle in every frame, named in the note"
"$H" top -b -n 1 -d 0.2 --no-config --backend emu --emu-profile tasks-mixed --emu-harts 4 >"$T/t.txt" 2>/dev/null
grep -q '^note: .*hart2, hart3 idle (no cycles counted: in wfi, the clock gated): not in the Topdown' "$T/t.txt"
ok $? "top -b: the note names the idle harts"

# report of the same run's file
"$H" stat $E -A --record "$T/run.json" >/dev/null 2>&1
"$H" report "$T/run.json" >"$T/rep.txt" 2>&1
grep -q '^ (hart2, hart3 idle (no cycles counted: in wfi, the clock gated): not in the Topdown)$' "$T/rep.txt" &&
	[ "$(grep -c '^ Topdown, hart[23]: idle' "$T/rep.txt")" -eq 2 ]
ok $? "report: the idle harts named under the all-harts tree, their blocks say idle"
"$H" report --format json "$T/run.json" 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(sorted(s["hart"] for s in d["runs"][0]["slices"] if s.get("idle")))' >"$T/rj"
[ "$(cat "$T/rj")" = "['hart2', 'hart3']" ]; ok $? "report JSON: the idle harts' slices say idle ($(cat "$T/rj"))"

done_testing

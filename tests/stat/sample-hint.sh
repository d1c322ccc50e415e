#!/bin/sh
# toplev's sampling hint (pmu-tools toplev.py: "Sampling events:" under
# the bottleneck node, and --show-sample's record command line): after a
# Topdown run, hpmstat stat names the deepest node of the <== path and the
# hpmstat record command whose {...}:S group reads the events that node's
# MetricExpr needs (its referenced metrics expanded, from the model's
# metrics.json, read here independently), led by an event that can
# sample. On the Kunminghu emulator the command samples the same emulated
# workload and is run here: it must record exactly those events. The Arm
# emulator cannot sample, so its hint is the command for a host of that
# core, said so. Not in CSV or JSON (--show-sample's goes to stderr there).
. "$top_srcdir/tests/lib.sh"
H=$(cd "$(dirname "$HPMSTAT")" && pwd)/$(basename "$HPMSTAT") # the test runs in $tmp
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$tap_out" "$tap_err"' EXIT
top_srcdir=$(cd "$top_srcdir" && pwd)
cd "$tmp" || exit 1

kmh="$top_srcdir/events/riscv/openxiangshan/kunminghu/metrics.json"
v2="$top_srcdir/events/arm64/arm/neoverse-v2/metrics.json"
# node_events JSON DISPLAY: the events of the node shown as DISPLAY
# (Memory_Bound is tma_memory_bound), sorted, one a line
node_events() {
	python3 -c '
import json, re, sys
ms = {m["MetricName"]: m["MetricExpr"] for m in json.load(open(sys.argv[1]))}
def ev(name, out):
    for w in re.findall(r"[A-Za-z_][A-Za-z0-9_.]*", ms[name]):
        if w in ms: ev(w, out)
        else: out.add(w)
    return out
# Kunminghu names its nodes tma_*, Arm by Arm'"'"'s own names (frontend_bound)
n = "tma_" + sys.argv[2].lower()
n = n if n in ms else sys.argv[2].lower()
for e in sorted(ev(n, set())): print(e)' "$1" "$2"
}
# deepest NODE of the <== path in a std output
deepest() {
	awk '/<==/ { n = match($0, /[^ ]/); if (n >= d) { d = n; name = $1 } } END { print name }' "$1"
}

"$H" stat --topdown=2 -- true >"$tmp/o" 2>&1; rc=$?
node=$(deepest "$tmp/o")
hint=$(grep '^ Sample ' "$tmp/o")
[ $rc -eq 0 ] && [ -n "$node" ] && [ "$(grep -c '^ Sample ' "$tmp/o")" -eq 1 ] &&
	printf '%s\n' "$hint" | grep -q "^ Sample $node: hpmstat record --backend emu -e '{"
ok $? "Kunminghu emulator: one hint line for the bottleneck $node ($hint)"
group=$(printf '%s\n' "$hint" | sed -n "s/.* -e '{\([^}]*\)}:S'.*/\1/p")
leader=${group%%,*}
printf '%s\n' "$group" | tr ',' '\n' | sed 1d | sort >"$tmp/got"
node_events "$kmh" "$node" >"$tmp/want"
cmp -s "$tmp/got" "$tmp/want"; ok $? "the group reads the events of $node's formula ($(tr '\n' ' ' <"$tmp/want"))"
# mcycle cannot sample: the leader counts every cycle (the free list's
# occupancy is in exactly one quarter a cycle) and can
[ "$leader" = me_freelist_1_4_valid+me_freelist_2_4_valid+me_freelist_3_4_valid+me_freelist_4_4_valid ]
ok $? "led by the emulator's cycle sampler ($leader)"

# the printed command works: run it (shorter, into a file of our own)
cmd=$(printf '%s\n' "$hint" | sed 's/^ Sample [^:]*: hpmstat //')
eval "set -- $cmd"
"$H" "$@" --emu-cycles 2e6 -o "$tmp/r.data" >"$tap_out" 2>"$tap_err"; rc=$?
ok $rc "the printed command records ($(tail -n 1 "$tap_err"))"
"$H" report -i "$tmp/r.data" --stdio </dev/null 2>/dev/null |
	sed -n "s/^# Samples: .* of event '\(.*\)'\$/\1/p" | sort >"$tmp/rec"
printf '%s\n' "$group" | tr ',' '\n' | sort >"$tmp/all"
[ -s "$tmp/rec" ] && cmp -s "$tmp/rec" "$tmp/all"; ok $? "it recorded the group's events ($(tr '\n' ' ' <"$tmp/rec"))"

# the emulator's settings go with it
"$H" stat --topdown --emu-harts 2 --emu-seed 7 --emu-profile dram-bound -a sleep 0.1 >"$tmp/o" 2>&1
grep -q "^ Sample [A-Za-z_]*: hpmstat record --backend emu --emu-profile dram-bound --emu-seed 7 --emu-harts 2 -e '{" "$tmp/o"
ok $? "the emulator's profile, seed and harts ($(grep '^ Sample' "$tmp/o"))"

# kunminghu-v3: record's emulator would take v2 unless told, so the hint
# names the run's model, and the command records v3's encodings
"$H" stat --pmu kunminghu-v3 --topdown --emu-cycles 2e6 >"$tmp/o" 2>&1
hint=$(grep '^ Sample ' "$tmp/o")
cmd=$(printf '%s\n' "$hint" | sed 's/^ Sample [^:]*: hpmstat //')
case $cmd in "record --backend emu --pmu kunminghu-v3 -e '{"*) st=0 ;; *) st=1 ;; esac
if [ $st -eq 0 ]; then
	eval "set -- $cmd"
	"$H" "$@" --emu-cycles 2e6 -o "$tmp/v3.data" >"$tap_out" 2>"$tap_err" || st=1
	# rob_commitInstr is v3's backend 51 (v2's 53): EVENT0 = 51 in the recorded attr
	perf evlist -v -i "$tmp/v3.data" </dev/null 2>/dev/null | grep -q 'config: 0x4000000000000033' || st=1
fi
ok $st "kunminghu-v3: the hint names --pmu kunminghu-v3 and its command records v3's rob_commitInstr ($hint)"

# Arm: the core's cycle counter samples; the emulator cannot, so the hint
# is the command for a Neoverse V2 host, with the command quoted for sh
"$H" stat --pmu neoverse-v2 --topdown --emu-cycles 20000000 -- sh -c "echo 'a b' >/dev/null" >"$tmp/o" 2>&1
node=$(deepest "$tmp/o")
hint=$(grep '^ Sample ' "$tmp/o")
printf '%s\n' "$hint" | grep -q "^ Sample $node: hpmstat record -e '{CPU_CYCLES,.*}:S' -- sh -c .* (on a Neoverse V2 host: its emulator cannot sample)\$"
ok $? "Arm emulator: the command for a Neoverse V2 host ($hint)"
printf '%s\n' "$hint" | sed -n "s/.* -e '{CPU_CYCLES,\([^}]*\)}:S'.*/\1/p" | tr ',' '\n' | sort >"$tmp/got"
node_events "$v2" "$node" | grep -vx CPU_CYCLES >"$tmp/want"
cmp -s "$tmp/got" "$tmp/want"; ok $? "Arm: the group reads $node's events ($(tr '\n' ' ' <"$tmp/want"))"
argv=$(printf '%s\n' "$hint" | sed 's/.* -- \(.*\) (on a .*/\1/')
eval "set -- $argv"
[ $# -eq 3 ] && [ "$1" = sh ] && [ "$3" = "echo 'a b' >/dev/null" ]; ok $? "the command's words come back whole from the shell ($argv)"
sleep 0.3 &
pid=$!
# --show-sample: the target is the point, not whether a node passes its
# threshold in a run that follows wall time
"$H" stat --pmu neoverse-v2 --topdown --show-sample -p $pid >"$tmp/o" 2>&1
grep -q "^ Sample [A-Za-z_ 1()]*: hpmstat record -p $pid -e '{CPU_CYCLES," "$tmp/o" && ! grep '^ Sample' "$tmp/o" | grep -q -- ' -- '
ok $? "-p PID: the hint samples that process ($(grep '^ Sample' "$tmp/o"))"

# machine-readable outputs carry no hint; --show-sample's goes to stderr
"$H" stat --topdown -x, -- true >"$tmp/o" 2>"$tmp/e"
! grep -q 'Sample' "$tmp/o" "$tmp/e"; ok $? "CSV: no hint"
"$H" stat --topdown --json -o "$tmp/j" -- true 2>"$tmp/e"
! grep -q 'Sample' "$tmp/j" "$tmp/e"; ok $? "JSON: no hint"
"$H" stat --show-sample -x, -- true >"$tmp/o" 2>"$tmp/e"
! grep -q 'Sample' "$tmp/o" && grep -q "^ Sample [A-Za-z_ ()0-9]*: hpmstat record" "$tmp/e"
ok $? "CSV --show-sample: the command on stderr, the CSV rows clean"
"$H" stat --topdown -q -- true >"$tmp/o" 2>&1
[ ! -s "$tmp/o" ]; ok $? "-q: nothing"
"$H" stat --topdown -I 100 -- sleep 0.25 >"$tmp/o" 2>&1
! grep -q '^ Sample' "$tmp/o"; ok $? "-I: no hint between intervals"
# no Topdown, no hint
"$H" stat -e cycles -- true >"$tmp/o" 2>&1
! grep -q '^ Sample' "$tmp/o"; ok $? "no Topdown: no hint"
done_testing

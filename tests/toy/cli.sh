#!/bin/sh
# A PMU model that src/ has never heard of, through hpmstat's own command
# line: toy-hpmstat is hpmstat with the throwaway model of tests/toy/toy.h
# registered first. stat counts it on its emulated machine, writes a run
# file, and report renders that file; every count is worked out by hand
# from the toy's rule (evK counts K per cycle, ticks counts cycles, ev5 is
# never produced), and plain hpmstat, which lacks the model, refuses it.
. "$top_srcdir/tests/lib.sh"
H=$HPMSTAT
J=$JSONCHECK
T=$(dirname "$HPMSTAT")/../tests/toy/toy-hpmstat
dir=$(mktemp -d)
trap 'main_shell && rm -rf "$dir" "$tap_out" "$tap_err"' EXIT

# stat on the toy's machine: one group, exact counts
$T stat --pmu toy -x, -e ev1,ev2,ticks --emu-cycles 1000 2>"$dir/csv" >"$tap_out"
ok $? "stat --pmu toy counts the toy's events"
cut -d, -f1,3 "$dir/csv" | grep -v '^#' | tr '\n' ' ' >"$tap_out"
[ "$(cat "$tap_out")" = "1000,ev1 2000,ev2 1000,ticks " ]
ok $? "ev1 = cycles, ev2 = 2 x cycles, ticks = cycles ($(cat "$tap_out"))"
grep -q '^# emulated Toy: profile steady, seed 1, 1 hart, 1000 cycles' "$dir/csv"
ok $? "the label names the model and its machine's profile"

# three events on two counters: multiplexed, each estimate exact (the
# rates are constant), every row saying its share
$T stat --pmu toy -e ev1,ev2,ev3 --emu-cycles 1000000 2>"$dir/std" >/dev/null
ok $? "three events on two counters"
for row in "1000000 ev1" "2000000 ev2" "3000000 ev3"; do
	grep -Eq "^ +${row% *} +${row#* } +\(50\.00%\) +\[emu\]$" "$dir/std"
	ok $? "${row#* }: ${row% *}, counted half the time"
done
grep -q 'Toy figures are emulated (emulated Toy: .*counters multiplexed)' "$dir/std"
ok $? "the closing line says Toy figures and multiplexing"

# the run file: the model by name, the counts, and report reading it back
$T stat --pmu toy -e ev1,ev4,ticks --emu-cycles 5000 --emu-harts 2 --record "$dir/run.json" \
	2>/dev/null
ok $? "stat --record on the toy"
$J events.0.kind events.0.name events.1.kind <"$dir/run.json" | tr '\n' ' ' >"$tap_out"
[ "$(cat "$tap_out")" = "toy ev1 toy " ]
ok $? "the run file records the model by name ($(cat "$tap_out"))"
$T report "$dir/run.json" >"$dir/rep" 2>"$tap_err"
ok $? "report renders the toy's run file"
grep -Eq '^ +ev1 +10000 +100\.00 %$' "$dir/rep" && grep -Eq '^ +ev4 +40000 +100\.00 %$' "$dir/rep" &&
	grep -Eq '^ +ticks +10000 +100\.00 %$' "$dir/rep"
ok $? "report: the two harts' sums (ev1 10000, ev4 40000, ticks 10000)"
grep -q 'emulated, profile steady, 2 harts' "$dir/rep"
ok $? "report: where the figures came from"
$T report --format json "$dir/run.json" 2>"$tap_err" | $J runs.0.profile runs.0.harts runs.0.units.1 |
	tr '\n' ' ' >"$tap_out"
[ "$(cat "$tap_out")" = "steady 2 hart1 " ]
ok $? "report --format json: the run's source and units ($(cat "$tap_out"))"
$T report --format html "$dir/run.json" | grep -q 'emulated, profile steady, 2 harts'
ok $? "report --format html"
run_fails_with "hpmstat without the model refuses the file" "'toy'" $H report "$dir/run.json"

# the CLI's errors name the model's world, never Kunminghu's
run_fails_with "an unknown model" "--pmu 'nosuch': no such PMU model (known: kunminghu, kunminghu-v3, neoverse-n1, neoverse-n2, neoverse-n2-r0p0, neoverse-v1, neoverse-v2, toy)" \
	$T stat --pmu nosuch -e ev1 --emu-cycles 10
$T stat --pmu toy -e BpInstr --emu-cycles 10 >"$tap_out" 2>"$tap_err"
[ $? -ne 0 ] && grep -q 'BpInstr' "$tap_err"
ok $? "a Kunminghu event is no toy event"
run_fails_with "--backend perf on a host without the toy's PMU" "this host has no Toy PMU" \
	$T stat --pmu toy --backend perf -e ev1 -- true
$T stat --pmu toy -e ev1,ev5,r9 --emu-cycles 10 2>"$dir/na" >/dev/null
grep -q '<not modelled> *ev5' "$dir/na" && grep -q '<not supported> *r9' "$dir/na"
ok $? "an event the profile lacks and one the machine cannot place get no number"
$T stat --pmu toy -e ev1 --dry-run >"$dir/dry" 2>&1
grep -q '^ev1: hart0 SET ctr1=1 (group 0)$' "$dir/dry"
ok $? "--dry-run in the machine's words"
run_fails_with "the machine's own profile check" "unknown profile 'bursty' (known: steady)" \
	$T stat --pmu toy --emu-profile bursty -e ev1 --emu-cycles 10
$T list 2>/dev/null | grep -q '^  ev3 .*pool:3'
ok $? "list shows the toy's events"
# top shows the toy's harts: instructions are ev1, one a cycle
$T top -j -n 1 -d 0.2 --pmu toy --no-config 2>"$tap_err" | $J backend source units.0.ipc topdown.# |
	tr '\n' '|' >"$tap_out"
[ "$(cat "$tap_out")" = "emu|emulated Toy: profile steady, seed 1, 1 hart at 5 MHz (synthetic workload, not this host)|1.0|0|" ]
ok $? "top --pmu toy: the toy's harts, IPC exactly 1, no Topdown tree ($(cat "$tap_out"))"
printf 'pmu = toy\n' >"$dir/top.conf"
$T top -b -n 1 -d 0.2 --config "$dir/top.conf" 2>"$tap_err" | grep -q '^emulated Toy: '
ok $? "top.conf's pmu key"
run_fails_with "top --pmu with an unknown model" "--pmu 'nosuch': no such PMU model" \
	$T top -b -n 1 --no-config --pmu nosuch
# plain hpmstat takes --pmu for its built-in models
$H stat --pmu kunminghu -x, -e mcycle --emu-cycles 777 2>&1 | grep -q '^777,,mcycle,'
ok $? "hpmstat stat --pmu kunminghu"
run_fails_with "hpmstat knows no toy" "--pmu 'toy': no such PMU model (known: kunminghu, kunminghu-v3, neoverse-n1, neoverse-n2, neoverse-n2-r0p0, neoverse-v1, neoverse-v2)" \
	$H stat --pmu toy -e mcycle --emu-cycles 10
done_testing

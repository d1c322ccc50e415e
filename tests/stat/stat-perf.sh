#!/bin/sh
# hpmstat stat on the real kernel (no mock): software events against perf
# stat's own figures, perf's CSV and JSON formats read back, the workload's
# exit status, Ctrl-C, -p, -a/-A, and bad input.
. "$top_srcdir/tests/lib.sh"
H=$HPMSTAT
J=$JSONCHECK
T="$top_builddir/tests/stat/touch-pages"
dir=$(mktemp -d)
trap 'main_shell || exit; rm -rf "$dir" "$tap_out" "$tap_err"' EXIT

# page-faults of a fixed program, against perf stat on the same program
if command -v perf >/dev/null 2>&1 && perf stat -x, -e page-faults true >/dev/null 2>&1; then
	p=$(perf stat -x, -e page-faults "$T" 4000 2>&1 >/dev/null | awk -F, '$3=="page-faults"{print $1}')
	h=$($H stat -x, -e page-faults "$T" 4000 2>&1 >/dev/null | awk -F, '$3=="page-faults"{print $1}')
	awk -v p="$p" -v h="$h" 'BEGIN{d=p-h; if(d<0)d=-d; exit !(p>=4000 && d <= 0.03*p)}'
	ok $? "page-faults of touch-pages 4000: hpmstat $h, perf $p (within 3%)"
else
	skip "perf stat cannot count page-faults here"
fi

# CSV: perf stat's 7 fields, msec unit, '.' decimal point, on stderr as perf
$H stat -x, -e task-clock,page-faults,context-switches -- "$T" 100 2>"$tap_out" >/dev/null; ok $? "-x, exits 0"
[ "$(wc -l < "$tap_out")" -eq 3 ]; ok $? "-x, prints one line per event"
awk -F, 'NF!=7{bad=1} END{exit bad}' "$tap_out"; ok $? "every CSV line has perf's 7 fields"
awk -F, '$3=="task-clock" && $2=="msec" && $1 ~ /^[0-9]+\.[0-9][0-9]$/ && $5=="100.00" && $7=="CPUs utilized"{f=1} END{exit !f}' "$tap_out"; ok $? "task-clock: value, msec, event, run-time, 100.00, metric"
awk -F, '$3=="page-faults" && $1 >= 100 {f=1} END{exit !f}' "$tap_out"; ok $? "page-faults counted ($(grep page-faults "$tap_out"))"
$H stat -x';' -e task-clock -- true 2>"$tap_out" >/dev/null
awk -F';' 'NF==7{f=1} END{exit !f}' "$tap_out"; ok $? "-x with another separator"
LC_ALL=C.UTF-8 LC_NUMERIC=de_DE.UTF-8 $H stat -x, -e task-clock -- true 2>"$tap_out" >/dev/null
grep -qE '^[0-9]+\.[0-9]+,msec' "$tap_out"; ok $? "CSV numbers keep '.' whatever LC_NUMERIC says"

# JSON lines with perf's keys
$H stat -j -e task-clock,page-faults -- true 2>"$tap_out" >/dev/null; ok $? "-j exits 0"
$J --lines < "$tap_out" >/dev/null; ok $? "-j is one JSON object per line"
v=$(head -1 "$tap_out" | $J event unit pcnt-running metric-unit | tr '\n' '|')
[ "$v" = "task-clock|msec|100.0|CPUs utilized|" ]; ok $? "JSON keys as perf's ($v)"

# -o: the output goes to the file, nothing to stdout or stderr
$H stat -o "$dir/out.txt" -e task-clock -- true >"$tap_out" 2>&1
[ ! -s "$tap_out" ] && grep -q 'task-clock' "$dir/out.txt"; ok $? "-o FILE holds the output"

# the workload's exit status is ours; a missing command is 127
$H stat -e task-clock -- sh -c 'exit 3' >/dev/null 2>&1; [ $? -eq 3 ]; ok $? "the command's exit status becomes hpmstat's"
run_fails_with "a missing command" "cannot run '$dir/nope'" $H stat -e task-clock -- "$dir/nope"
$H stat -e task-clock -- "$dir/nope" >/dev/null 2>&1; [ $? -eq 127 ]; ok $? "a missing command exits 127"

# Ctrl-C prints what was counted so far
$H stat -e task-clock -- sleep 10 > /dev/null 2>"$tap_out" &
pid=$!
sleep 0.5
kill -INT $pid
wait $pid; rc=$?
grep -q 'task-clock' "$tap_out" && [ $rc -eq 130 ]; ok $? "Ctrl-C prints the counts so far (exit $rc)"

# -p: an existing process, until it exits
sleep 1 & sp=$!
$H stat -p $sp -e task-clock,context-switches 2>"$tap_out" >/dev/null; ok $? "-p PID counts until the process exits"
grep -q "process id '$sp'" "$tap_out"; ok $? "-p names the process in the header"
run_fails_with "-p of a process that does not exist" "no such process" $H stat -p 999999999 -e task-clock

# system wide, and per CPU
if $H stat -a -e cpu-clock -- sleep 0.05 >/dev/null 2>&1; then
	ncpu=$(getconf _NPROCESSORS_ONLN)
	$H stat -a -A -x, -e cpu-clock -- sleep 0.05 2>"$tap_out" >/dev/null
	[ "$(grep -c '^CPU[0-9]*,' "$tap_out")" -eq "$ncpu" ]; ok $? "-a -A: one line per CPU ($ncpu)"
	$H stat -C 0 -A -x, -e cpu-clock -- sleep 0.05 2>"$tap_out" >/dev/null
	[ "$(grep -c '^CPU0,' "$tap_out")" -eq 1 ] && [ "$(wc -l < "$tap_out")" -eq 1 ]; ok $? "-C 0: CPU0 only"
else
	skip "no permission for system-wide counting"
	skip "no permission for system-wide counting"
fi

# an event the kernel does not have is a row, not an abort
$H stat -x, -e task-clock,cycles -- true 2>"$tap_out" >/dev/null; rc=$?
if grep -q '^<not supported>,,cycles' "$tap_out"; then
	[ $rc -eq 0 ] && grep -q ',task-clock,' "$tap_out"; ok $? "<not supported> rows do not stop the run"
else
	skip "this machine counts cycles"
fi

# bad input: one line, non-zero, nothing counted or half-written
run_fails_with "unknown option" "unknown option '--frob'" $H stat --frob -- true
run_fails_with "option without its value" "needs a value" $H stat -e
run_fails_with "-I abc" "-I 'abc': not a number" $H stat -I abc -- true
run_fails_with "-I below 10 ms" "must be 10 to" $H stat -I 5 -- true
run_fails_with "-r 0" "-r '0': must be 1 to" $H stat -r 0 -- true
run_fails_with "unknown event with suggestions" "did you mean" $H stat -e task-clok -- true
run_fails_with "unknown backend" "must be auto, perf or emu" $H stat --backend gpu -- true
run_fails_with "Kunminghu events on perf without a Kunminghu PMU" "Kunminghu (kunminghu-v2) events need that PMU" $H stat --backend perf -e rob_commitInstr -- true
# --topdown: what Topdown needs, on a host of no PMU (empty sysfs and procfs
# roots: no cpuinfo, no core PMU), not the message of its first event
mkdir -p "$dir/nosys" "$dir/noproc"
HPMSTAT_SYSFS="$dir/nosys" HPMSTAT_PROCFS="$dir/noproc" $H stat --backend perf --topdown -- true >"$tap_out" 2>"$tap_err"
[ $? -eq 1 ] && [ ! -s "$tap_out" ] && [ "$(wc -l <"$tap_err")" -eq 1 ] &&
	grep -qx "hpmstat stat: --topdown: Topdown needs a Kunminghu or Neoverse PMU, and this host has none (use --backend emu or auto)" "$tap_err"
ok $? "--backend perf --topdown without a supported PMU: one line, what Topdown needs"
[ $? -eq 0 ] || diag "$(cat "$tap_err")"
HPMSTAT_SYSFS="$dir/nosys" HPMSTAT_PROCFS="$dir/noproc" $H stat --backend perf --topdown=2 -e rob_commitInstr -- true >"$tap_out" 2>"$tap_err"
[ $? -eq 1 ] && grep -q "Topdown needs a Kunminghu or Neoverse PMU" "$tap_err"
ok $? "... with Kunminghu events beside it too"
rm -f "$dir/ran"
run_fails_with "--record to a path that cannot be written" "cannot write '$dir/no/such/run.json'" $H stat --record "$dir/no/such/run.json" -e task-clock -- touch "$dir/ran"
[ ! -e "$dir/ran" ]; ok $? "... and the workload did not run"
run_fails_with "-o to a path that cannot be written" "cannot write" $H stat -o "$dir/no/out.txt" -e task-clock -- true
# "hpmstat" with an option and a command is hpmstat stat
$H -e task-clock -- true 2>"$tap_out" >/dev/null; grep -q "Performance counter stats for 'true'" "$tap_out"; ok $? "'hpmstat -e EV -- cmd' is hpmstat stat"
done_testing

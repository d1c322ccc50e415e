#!/bin/sh
# hpmstat stat, emu and top under SIGINT and SIGTERM (issue 9, items 1, 2,
# 12 and 14): every long loop stops within 100 ms (checked here with a 2 s
# margin, the measured figure printed as a diagnostic), prints what it
# counted labelled partial with the cycles actually run, and dies of the
# signal as perf stat does (130, 143); a command that traps the signals is
# passed them and waited for; emulated time follows a command's wall time;
# host events with no command and no target count system-wide until Ctrl-C.
# Every command runs under timeout(1), so a regression fails, never hangs.
. "$top_srcdir/tests/lib.sh"
H=$HPMSTAT
J=$JSONCHECK
dir=$(mktemp -d)
trap 'main_shell || exit; rm -rf "$dir" "$tap_out" "$tap_err"' EXIT
GUARD=20 # seconds before a run that ignores its signal is SIGKILLed

now_ms() { echo $(($(date +%s%N) / 1000000)); }
# start CMD...: CMD in the background (stdout $dir/out, stderr $dir/err),
# its pid in $bg; timeout(1) KILLs it after $GUARD s (timeout passes on
# the signals it gets itself, so they are sent to the command directly)
start() {
	timeout -s KILL $GUARD "$@" >"$dir/out" 2>"$dir/err" &
	tpid=$!
	bg=
	i=0
	while [ -z "$bg" ] && [ $i -lt 100 ]; do
		bg=$(pgrep -P $tpid | head -1)
		[ -n "$bg" ] || sleep 0.05
		i=$((i + 1))
	done
}
# stop SIG: sends SIG to the command, waits; $rc its exit status, $ms the
# milliseconds from the signal to its end
stop() {
	t=$(now_ms)
	kill -"$1" "$bg" 2>/dev/null
	wait $tpid
	rc=$?
	ms=$(($(now_ms) - t))
}
# cycles run and cycles asked for, from "N of M cycles" of the label
label_cycles() { grep -o '[0-9]* of [0-9]* cycles' "$1" | head -1; }

# ---- item 1: long emulated runs, std, CSV and JSON, INT and TERM
for sig in INT TERM; do
	[ $sig = INT ] && want=130 || want=143
	start "$H" stat -e ifu_req --emu-cycles 4611686018427387904
	sleep 1
	stop $sig
	diag "SIG$sig of --emu-cycles 2^62: exit $rc after $ms ms (requirement: 100 ms)"
	[ $rc -eq $want ] && [ $ms -lt 2000 ]
	ok $? "SIG$sig stops an emulated run of 2^62 cycles within 2 s, exit $want"
	set -- $(label_cycles "$dir/err")
	[ $# -eq 4 ] && [ "$1" -gt 0 ] && [ "$1" -lt "$3" ] && [ "$3" = 4611686018427387904 ] &&
		grep -q 'partial (interrupted)' "$dir/err" && grep -q 'ifu_req' "$dir/err"
	ok $? "SIG$sig: the counts are printed, labelled partial with the cycles run ($1 of $3)"
done

start "$H" stat -x, -e ifu_req,mcycle --emu-cycles 1e13
sleep 0.5
stop INT
# the CSV rows parse: count,unit,event,run,pct; mcycle is the cycles run
mc=$(awk -F, '$3 == "mcycle" { print $1 }' "$dir/err")
set -- $(label_cycles "$dir/err")
[ $rc -eq 130 ] && [ -n "$mc" ] && [ "$mc" = "$1" ] && [ "$3" = 10000000000000 ] &&
	grep -q '^# .*partial (interrupted)' "$dir/err"
ok $? "CSV: interrupted run exits 130, the label says partial, mcycle = the cycles run ($mc)"
[ $ms -lt 2000 ] || diag "CSV run stopped after $ms ms"

start "$H" stat -j --json-extra -e mcycle --emu-cycles 1e13 --record "$dir/run.json"
sleep 0.5
stop INT
head -1 "$dir/err" >"$dir/line.json"
v=$($J emu-partial emu-interrupted emu-cycles-wanted < "$dir/line.json" | tr '\n' ' ')
c=$($J counter-value < "$dir/line.json" | tr -d '"')
r=$($J emu-cycles < "$dir/line.json")
[ $rc -eq 130 ] && [ "$v" = "true true 10000000000000 " ] && [ "${c%.*}" = "$r" ]
ok $? "JSON: interrupted run exits 130 with emu-partial, and mcycle = emu-cycles ($v$c $r)"
v=$($J emulated.partial emulated.interrupted emulated.cycles_wanted < "$dir/run.json" | tr '\n' ' ')
[ "$v" = "true true 10000000000000 " ]
ok $? "--record: the run file says partial, interrupted, and the cycles asked for ($v)"

start "$H" stat -e ifu_req --emu-cycles 1e13 -I 200
sleep 0.5
stop TERM
[ $rc -eq 143 ] && grep -q '^# .*partial (interrupted)' "$dir/err" && [ $ms -lt 2000 ]
ok $? "-I: SIGTERM exits 143, the last line labels the run partial ($ms ms)"

# ---- -r 3 interrupted in its second run: the label says the runs done
# one run's length is measured first (machines differ threefold): the
# signal comes half-way into the second run. A loaded machine can make the
# -r runs faster than the measured one, so that all three end before the
# signal, or make the first run slower than the measured one, so that the
# signal cuts it: the premise failed, not hpmstat; then the runs are made
# three times longer and the signal aimed again (at most twice)
for cycles in 2e9 6e9 18e9; do
	t=$(now_ms)
	timeout 60 "$H" stat -e ifu_req --emu-cycles $cycles >/dev/null 2>&1
	one=$(($(now_ms) - t))
	start "$H" stat -r 3 -e ifu_req --emu-cycles $cycles
	sleep "$(awk -v m="$one" 'BEGIN { printf "%.3f", m * 1.5 / 1000 }')"
	stop INT
	if [ $rc -eq 0 ] && ! grep -q 'partial' "$dir/err"; then
		diag "all three runs of $cycles cycles ended before the signal: again, longer"
	elif [ $rc -eq 130 ] && ! grep -q '([0-9]* runs)' "$dir/err"; then
		# one run, cut: the first run took more than half as long
		# again as the one measured (CI's ASan pass under load)
		diag "the signal came in the first run of $cycles cycles: again, longer"
	else
		break
	fi
done
# the label counts the runs done, the cut one included: aimed at run 2, a
# loaded machine may land the signal in run 3, which is then "(3 runs)",
# partial; in run 2 it is "(2 runs)", interrupted "in run 2"
n=$(grep -o '([0-9]* runs)' "$dir/err" | tr -dc 0-9)
[ $rc -eq 130 ] && grep -q 'partial (interrupted' "$dir/err" &&
	{ { [ "$n" = 2 ] && grep -q 'interrupted in run 2' "$dir/err"; } || [ "$n" = 3 ]; }
ok $? "-r 3 interrupted: exit 130, labelled with the runs done, partial ($(grep -o 'Performance.*' "$dir/err"); $(grep -o 'partial ([^)]*)' "$dir/err"))"
[ $ms -lt 2000 ] || diag "-r 3 stopped after $ms ms"

# ---- -a and -p exit as perf does
start "$H" stat -a -e task-clock
sleep 0.5
stop INT
[ $rc -eq 130 ] && grep -q 'task-clock' "$dir/err"
ok $? "-a: SIGINT prints the counts and exits 130 (exit $rc)"
sleep 30 &
victim=$!
start "$H" stat -p $victim -e task-clock
sleep 0.5
stop INT
[ $rc -eq 130 ] && grep -q 'task-clock' "$dir/err" && kill -0 $victim
ok $? "-p: SIGINT prints the counts and exits 130, the process runs on (exit $rc)"
kill $victim
wait $victim 2>/dev/null

# ---- item 14: host events, no command, no target: system-wide until Ctrl-C
start "$H" stat -e task-clock,page-faults
sleep 1
stop INT
ms_tc=$(awk '/msec task-clock/ { gsub(",", "", $1); print int($1) }' "$dir/err")
[ $rc -eq 130 ] && grep -q 'system wide' "$dir/err" && ! grep -q 'emulated harts' "$dir/err" &&
	[ -n "$ms_tc" ] && [ "$ms_tc" -gt 500 ]
ok $? "no command, no target: system-wide until SIGINT, exit 130 (task-clock $ms_tc msec)"

# ---- item 2: a command that traps INT and TERM is passed them and waited for
cat >"$dir/trap.sh" <<'EOF'
trap 'echo INT >> "$1"' INT
trap 'echo TERM >> "$1"' TERM
i=0
while [ $i -lt 20 ]; do sleep 0.1; i=$((i + 1)); done
echo done >> "$1"
exit 3
EOF
start "$H" stat -e task-clock -- sh "$dir/trap.sh" "$dir/trapped"
sleep 0.5
kpid=$(pgrep -P "$bg" | head -1)
kill -INT "$bg"
sleep 0.3
t=$(now_ms)
kill -TERM "$bg"
wait $tpid
rc=$?
ms=$(($(now_ms) - t))
got=$(tr '\n' ' ' < "$dir/trapped" 2>/dev/null)
el=$(awk '/seconds time elapsed/ { print int($1 * 10) }' "$dir/err")
[ "$got" = "INT TERM done " ]
ok $? "the command got SIGINT and SIGTERM and ran to its end ($got)"
[ -n "$kpid" ] && ! kill -0 "$kpid" 2>/dev/null && [ -n "$el" ] && [ "$el" -ge 19 ] && [ $ms -ge 500 ]
ok $? "hpmstat waited for the command: it is gone, elapsed covers its 2 s ($el/10 s, $ms ms after SIGTERM)"
[ $rc -eq 143 ]
ok $? "then hpmstat exits as its last signal says (143, got $rc)"

# a command that does not trap: the signal sent to hpmstat is passed on,
# the command dies of it and perf's psignal line names it
start "$H" stat -e task-clock -- sleep 5
sleep 0.5
stop TERM
[ $rc -eq 143 ] && grep -q '^sleep: Terminated' "$dir/err" && grep -q 'seconds user' "$dir/err" &&
	[ $ms -lt 2000 ]
ok $? "SIGTERM to hpmstat reaches the command: 'sleep: Terminated', exit 143 ($rc, $ms ms)"

# ---- item 12: emulated time follows the command's wall time
t=$(now_ms)
timeout -s KILL $GUARD "$H" stat -x, -e mcycle --emu-harts 1024 -- sleep 1 >/dev/null 2>"$dir/err"
rc=$?
ms=$(($(now_ms) - t))
# mcycle sums the harts: per hart, at most 1 s (5e6 at 5 MHz) plus 20%
per=$(awk -F, '$3 == "mcycle" { printf "%d", $1 / 1024 }' "$dir/err")
diag "sleep 1 on 1024 harts: $ms ms, $per cycles per hart; $(grep warning "$dir/err")"
[ $rc -eq 0 ] && [ $ms -lt 3000 ] && [ -n "$per" ] && [ "$per" -le 6000000 ]
ok $? "sleep 1 on 1024 harts ends within 3 s with at most 1.2 s of cycles per hart"
if [ "$per" -lt 4500000 ] 2>/dev/null; then
	grep -q 'warning: the emulator fell behind wall time: emulated .* s of .* s' "$dir/err" &&
		grep -q 'partial (the emulator fell behind' "$dir/err"
	ok $? "fewer cycles than 1 s: a warning says by how much and the label says partial"
else
	! grep -q 'fell behind' "$dir/err"
	ok $? "the emulator kept up: no warning"
fi
timeout -s KILL $GUARD "$H" stat -x, -e mcycle -- sleep 1 >/dev/null 2>"$dir/err"
per=$(awk -F, '$3 == "mcycle" { print $1 }' "$dir/err")
[ -n "$per" ] && [ "$per" -ge 4500000 ] && [ "$per" -le 6000000 ]
ok $? "sleep 1 on one hart: 1 s of cycles at 5 MHz, within 20% ($per)"

# following wall time costs little: hpmstat sleeps between catch-ups
# (the outer hpmstat counts the inner one and its sleep)
timeout -s KILL $GUARD "$H" stat -x, -e task-clock -- "$H" stat -e mcycle -- sleep 1 2>"$dir/err" >/dev/null
tc=$(awk -F, '$3 == "task-clock" { printf "%d", $1 }' "$dir/err")
[ -n "$tc" ] && [ "$tc" -lt 300 ]
ok $? "following sleep 1 on one hart takes under 300 ms of CPU ($tc ms)"

# ---- emu scripts and top
printf 'csrw mcountinhibit 0\nrun 10000000000000 balanced\ncsrr mcycle\n' >"$dir/long.emu"
start "$H" emu "$dir/long.emu"
sleep 0.5
stop INT
[ $rc -eq 130 ] && [ $ms -lt 2000 ] && grep -q 'interrupted after [0-9]* of 10000000000000 cycles' "$dir/err"
ok $? "emu: SIGINT stops a long run within 2 s, exit 130, says how far it got ($ms ms)"
start "$H" top -b -d 1 --backend emu --emu-harts 1024 --emu-freq 1000000000
sleep 1.5
stop INT
diag "top with 1024 harts at 1 GHz quit $ms ms after SIGINT"
[ $ms -lt 2000 ]
ok $? "top quits within 2 s of SIGINT, however many harts it emulates"

done_testing

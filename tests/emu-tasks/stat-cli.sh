#!/bin/sh
# hpmstat stat --emu-tasks: the per-task table of a profile's task schedule
# (issue 16), in CSV so that the numbers can be checked: attributed = truth
# without multiplexing, the tasks add up to the totals stat prints, the task
# that exits is marked, and a bad [task] section is refused with FILE:LINE.
. "$top_srcdir/tests/lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T" "$tap_out" "$tap_err"' EXIT

EV=cycles,instructions,rob_commitInstr,Front_Bubble
run_ok "stat --emu-tasks=truth on tasks-mixed" "$HPMSTAT" stat -x, --backend emu \
	--emu-profile tasks-mixed --emu-harts 2 --emu-cycles 40000000 -e $EV --emu-tasks=truth
# the totals: VALUE,UNIT,EVENT,...; the task rows: COMM-PID,TGID,HART,VALUE,EVENT,RUN,PCT,EXITED,TRUTH,DIFF
grep -E '^[a-z-]+-[0-9]+,' "$tap_err" >"$T/tasks"
grep -vE '^[a-z-]+-[0-9]+,' "$tap_err" | grep -E '^[0-9]+,' >"$T/totals"
n=$(wc -l <"$T/tasks")
[ "$n" -eq 24 ]; ok $? "6 tasks (the idle one included) x 4 events: $n rows"
bad=$(awk -F, '$4 != $9 || $10 != "exact"' "$T/tasks")
[ -z "$bad" ]; ok $? "every attributed count is its ground truth exactly"
[ -z "$bad" ] || diag "$bad"
for e in cycles instructions rob_commitInstr Front_Bubble; do
	sum=$(awk -F, -v e=$e '$5 == e { s += $4 } END { printf "%d", s }' "$T/tasks")
	tot=$(awk -F, -v e=$e '$3 == e { print $1 }' "$T/totals")
	[ -n "$tot" ] && [ "$sum" = "$tot" ]; ok $? "$e: the tasks add up to the total ($sum = $tot)"
done
# tasks-mixed: parse (pid 1400) exits at cycle 3e7 of hart 1; stream runs on hart 0
grep -q '^parse-1400,1400,1,[0-9]*,cycles,[0-9]*,[0-9.]*,exited,' "$T/tasks"; ok $? "parse exited on hart 1"
grep -q '^httpd-worker-1301,1300,1,' "$T/tasks"; ok $? "the worker thread is of process 1300"
grep -q '^swapper-0,0,' "$T/tasks"; ok $? "the idle task is pid 0"
# the running tasks are charged up to the end: their times on the harts
# (RUN, in cycles of the emulated clock) add up to 2 x 4e7
c=$(awk -F, '$5 == "cycles" { s += $6 } END { printf "%d", s }' "$T/tasks")
[ "$c" = 80000000 ]; ok $? "the tasks' times on the harts are the harts' 8e7 ($c)"
# the idle task is a hart in wfi, its clock gated: time on the hart, no cycle
grep -Eq '^swapper-0,0,[0-9]+,0,cycles,[1-9][0-9]*,' "$T/tasks"
ok $? "the idle task: no cycle counted in its time on the hart (wfi, the clock gated)"

run_ok "std format" "$HPMSTAT" stat --backend emu --emu-profile tasks-mixed \
	--emu-cycles 1000000 -e cycles --emu-tasks
grep -q '^ Per-task counts of the emulated harts (profile tasks-mixed' "$tap_err"; ok $? "std: the table's title"
grep -Eq '^ +stream-1200 +[0-9]+ +cycles +\[emu\]$' "$tap_err"; ok $? "std: a task's row, marked [emu] as the totals' rows"
n=$(grep -cE '^ +[a-z-]+-[0-9]+ ' "$tap_err")
m=$(grep -cE '^ +[a-z-]+-[0-9]+ .* \[emu\]$' "$tap_err")
[ "$n" -eq 6 ] && [ "$m" -eq "$n" ]; ok $? "std: every task row ends with [emu] ($m of $n)"
run_ok "std format, =truth" "$HPMSTAT" stat --backend emu --emu-profile tasks-mixed \
	--emu-cycles 1000000 -e cycles --emu-tasks=truth
grep -q '^ \+[0-9]\+ \+cycles .*\[emu\]$' "$tap_err" && {
	n=$(grep -cE '^ +[a-z-]+-[0-9]+ ' "$tap_err")
	m=$(grep -cE '^ +[a-z-]+-[0-9]+ .* truth [0-9]+ \([^)]*\)  \[emu\]$' "$tap_err")
	[ "$n" -eq 6 ] && [ "$m" -eq "$n" ]
}
ok $? "std, =truth: the total and every task row (after its truth) end with [emu]"

run_ok "json" "$HPMSTAT" stat -j --backend emu --emu-profile tasks-mixed \
	--emu-cycles 1000000 -e cycles --emu-tasks=truth
grep '"thread"' "$tap_err" >"$T/json"
n=0; bad=0
while read -r line; do
	n=$((n + 1))
	printf '%s\n' "$line" | "$JSONCHECK" . >/dev/null || bad=1
done <"$T/json"
[ "$n" -eq 6 ] && [ $bad -eq 0 ]; ok $? "json: one valid object per task and event ($n)"
v=$(grep '"thread" : "stream-1200"' "$T/json" | "$JSONCHECK" .counter-value .truth .tgid)
[ "$(echo "$v" | sed -n 1p)" = "$(echo "$v" | sed -n 2p)" ] && [ "$(echo "$v" | sed -n 3p)" = 1200 ]
ok $? "json: stream's count is its truth ($(echo $v))"
bad=0
while read -r line; do
	[ "$(printf '%s\n' "$line" | "$JSONCHECK" .emulated)" = true ] || bad=1
done <"$T/json"
[ $bad -eq 0 ]; ok $? "json: every task row says emulated, as every emulated row"

run_ok "emu profiles --json" "$HPMSTAT" emu profiles --json
i=$("$JSONCHECK" '.#' <"$tap_out"); i=$((i - 1))
t=$("$JSONCHECK" .$i.name .$i.tasks.# .$i.tasks.3.comm .$i.tasks.3.exit .$i.tasks.2.tgid .$i.tasks.0.exit <"$tap_out")
[ "$(echo $t)" = "tasks-mixed 5 parse 30000000 1300 null" ]; ok $? "emu profiles --json lists tasks-mixed's tasks ($(echo $t))"

run_fails_with "--emu-tasks and --no-multiplex" "--emu-tasks and --no-multiplex exclude each other" \
	"$HPMSTAT" stat --backend emu --emu-profile tasks-mixed --emu-tasks --no-multiplex -e cycles
# --per-thread on the emulator alone: the tasks' rows in place of the totals
run_ok "--per-thread on tasks-mixed" "$HPMSTAT" stat -x, --backend emu --emu-profile tasks-mixed \
	--emu-harts 2 --emu-cycles 2000000 -e cycles --per-thread
rows=$(grep -cE '^[a-z-]+-[0-9]+,[0-9]+,[01],' "$tap_err")
totals=$(grep -cE '^[0-9]+,,cycles' "$tap_err")
[ "$rows" -eq 6 ] && [ "$totals" -eq 0 ]; ok $? "--per-thread: 6 task rows, no total row ($rows, $totals)"
"$HPMSTAT" stat --backend emu --emu-cycles 1000 --per-thread -e cycles >"$tap_out" 2>"$tap_err"
[ $? -eq 129 ] && grep -q "^hpmstat stat: --per-thread: emulated events count harts, not threads (use --per-core, or a profile with \[task\] sections)" "$tap_err"
ok $? "--per-thread on a profile without tasks: the usage error"

run_fails_with "a profile without tasks" "--emu-tasks: profile balanced declares no tasks" \
	"$HPMSTAT" stat --backend emu --emu-profile balanced --emu-cycles 1000 -e cycles --emu-tasks
run_fails_with "--emu-tasks=frob" "--emu-tasks=frob: the only value is 'truth'" \
	"$HPMSTAT" stat --backend emu --emu-tasks=frob -e cycles

# bad [task] sections: one line, FILE:LINE: reason, exit non-zero
base='name = t
description = tasks
[cycle c]
commit = 6
[class k]
runs = c:10'
bad_task() { # DESC LINE REASON TASK-LINES
	printf '%s\n%s\n' "$base" "$4" >"$T/p.profile"
	run_fails_with "$1" "$T/p.profile:$2: $3" "$HPMSTAT" stat --backend emu \
		--emu-profile "$T/p.profile" --emu-cycles 1000 -e cycles
}
bad_task "a task without pid" 7 "task 'a' needs pid and share" '[task a]
share = 0.5
mix = k:1'
bad_task "a pid given twice" 11 "task 'b' has pid 5 of task 'a' (line 7)" '[task a]
pid = 5
share = 0.5
mix = k:1
[task b]
pid = 5
share = 0.5
mix = k:1'
bad_task "pid 0" 8 "bad pid '0' (1..4194304)" '[task a]
pid = 0'
bad_task "shares above 1 on a hart" 11 "the shares of the tasks on hart 0 sum to 1.2, above 1" '[task a]
pid = 5
share = 0.6
mix = k:1
[task b]
pid = 6
share = 0.6
mix = k:1'
bad_task "a tgid that leads nothing" 7 "task 'a': tgid 9 is the pid of no task that leads its process (pid = tgid)" '[task a]
pid = 5
tgid = 9
share = 0.5
mix = k:1'
bad_task "exit before start" 7 "task 'a' exits (100) before it starts (200)" '[task a]
pid = 5
share = 0.5
start = 200
exit = 100
mix = k:1'
bad_task "a comm of 16 characters" 7 "task name 'abcdefghijklmnop' is longer than 15 characters (a comm)" '[task abcdefghijklmnop]'
bad_task "an unknown task key" 9 "unknown task key 'nice' (pid, tgid, hart, share, start, exit, mix)" '[task a]
pid = 5
nice = 3'
bad_task "a share of 0" 8 "bad share '0' (the task's fraction of its hart, above 0, at most 1)" '[task a]
share = 0'
printf '%s\ntask-slice = 0\n' "$(printf '%s' "$base" | head -2)" >"$T/p.profile"
run_fails_with "task-slice 0" "$T/p.profile:3: bad task-slice '0'" "$HPMSTAT" stat --backend emu \
	--emu-profile "$T/p.profile" --emu-cycles 1000 -e cycles

printf '%s\ntask-slice = 500\n[cycle c]\ncommit = 6\n[class k]\nruns = c:10\nshare = 1\n' \
	"$(printf '%s' "$base" | head -2)" >"$T/p.profile"
run_fails_with "task-slice without tasks" "$T/p.profile:3: 'task-slice' without [task] sections" \
	"$HPMSTAT" stat --backend emu --emu-profile "$T/p.profile" --emu-cycles 1000 -e cycles
bad_task "tasks and phases" 7 "a profile with [task] sections has no [phase] or [function] sections (each task has its own mix)" '[phase p]
cycles = 100
mix = k:1
[task a]
pid = 5
share = 0.5
mix = k:1'

done_testing

#!/bin/sh
# top-bpf.sh: where hpmstat top's task rows come from (src/top/tasks.h).
# - BPF (root, built with libbpf): the header names it and its counters,
#   which are events x CPUs perf_event fds, whatever the number of tasks; a
#   busy loop of a known share (tests/bpf/duty) that starts and exits during
#   the run is listed with its counts, and its TASK-MS summed over the
#   frames (the frame after its exit included: counted until its last
#   switch) is its own task-clock (a perf counter the loop opens on itself,
#   tests/bpf/duty.c) within 5 %; the session's -e events per task agree with the
#   task's own cpu-clock; a map too small says how many switches it missed.
# - The fallback: --no-bpf, HPMSTAT_NO_BPF, and an unprivileged user show
#   the per-task groups with the reason in the header.
# - The emulator's task schedule (profile tasks-mixed): each task row's
#   attributed counts equal the emulator's ground truth for that task
#   (exact: nothing is multiplexed at Topdown level 1), and the tasks'
#   cycles add up to the hart's.
# Skips the BPF points when not root or built without libbpf.
. "$top_srcdir/tests/lib.sh"
H=${HPMSTAT:-$top_builddir/src/hpmstat}
J=${JSONCHECK:-$top_builddir/tests/jsoncheck}
D="$top_builddir/tests/bpf/duty"
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'main_shell || exit; rm -rf "$tmp" "$tap_out" "$tap_err"' EXIT
export XDG_CONFIG_HOME="$tmp/cfg" # no top.conf of the user's
ncpu=$(getconf _NPROCESSORS_ONLN)

# within GOT WANT PCT: |GOT - WANT| <= PCT % of WANT
within() { awk -v g="$1" -v w="$2" -v p="$3" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(w > 0 && d <= p / 100 * w) }'; }

bpf=yes
if ! have HAVE_LIBBPF; then
	bpf="hpmstat was built without libbpf"
elif [ "$(id -u)" != 0 ]; then
	bpf="not root: BPF needs root (or CAP_BPF and CAP_PERFMON)"
else
	# root in a container may still be refused BPF: top says why
	"$H" top -b -n 1 -d 0.1 >"$tmp/probe" 2>/dev/null
	grep -q '^tasks: BPF sched_switch' "$tmp/probe" ||
		bpf="BPF does not load here ($(grep -m1 '^tasks:' "$tmp/probe"))"
fi

if [ "$bpf" = yes ]; then
	# 1. the header, and the counters it names are the fds open
	"$H" top -b -n 4 -d 0.5 -e task-clock >"$tmp/b" 2>"$tmp/be" &
	tp=$!
	sleep 1.2
	fds=$(ls -l "/proc/$tp/fd" 2>/dev/null | grep -c 'perf_event')
	wait $tp
	ok $? "top -b on the BPF path exits 0 ($(head -1 "$tmp/be"))"
	line=$(grep -m1 '^tasks:' "$tmp/b")
	set -- $(echo "$line" | sed -n 's/^tasks: BPF sched_switch, \([0-9]*\) events x \([0-9]*\) CPUs = \([0-9]*\) counters$/\1 \2 \3/p')
	[ $# -eq 3 ] && [ "$2" -eq "$ncpu" ] && [ "$3" -eq $(($1 * $2)) ]
	ok $? "header: the BPF task source, events x CPUs ($line)"
	# cpu-clock, context-switches, page-faults of its own, and the
	# session's task-clock: 4 events a CPU
	[ "${1:-0}" -eq 4 ] && [ "$fds" -eq "${3:-0}" ]
	ok $? "the perf_event fds open are the counters it names ($fds)"
	[ ! -s "$tmp/be" ]; ok $? "nothing on stderr"

	# 2. a loop at 50 % of CPU 0 for 1.5 s, started after the first of
	# 7 frames of 0.5 s: all of its life is inside the run, and it exits
	# before the end; every task is listed (-N 1000), since its
	# last slice is small and tests running beside this one (stat-bpf.sh's
	# 200 processes) would push it out of the busiest 40
	: >"$tmp/duty.out"
	"$H" top --json -n 7 -d 0.5 -N 1000 -e task-clock >"$tmp/j" 2>"$tmp/je" &
	tp=$!
	# from its first frame on, BPF counts (a loaded machine may take a
	# while to start it)
	w=0
	while [ ! -s "$tmp/j" ] && [ $w -lt 50 ]; do
		sleep 0.1
		w=$((w + 1))
	done
	"$D" 50 0 1.5 "$tmp/duty.out" &
	dp=$!
	wait $dp
	wait $tp
	ok $? "top --json on the BPF path exits 0"
	read -r pid ns <"$tmp/duty.out"
	"$J" --lines . <"$tmp/j" >/dev/null; ok $? "JSON frames parse"
	# per frame: the loop's TASK-MS and its task-clock event, and exited
	i=0
	: >"$tmp/rows"
	while [ $i -lt 7 ]; do
		sed -n "$((i + 1))p" "$tmp/j" >"$tmp/f"
		n=$("$J" .processes.# <"$tmp/f")
		k=0
		while [ $k -lt "$n" ]; do
			if [ "$("$J" .processes.$k.pid <"$tmp/f")" = "$pid" ]; then
				"$J" .processes.$k.TASK-MS .processes.$k.events.task-clock .processes.$k.exited \
					.processes.$k.name <"$tmp/f" | tr '\n' ' ' >>"$tmp/rows"
				echo >>"$tmp/rows"
			fi
			k=$((k + 1))
		done
		i=$((i + 1))
	done
	rows=$(wc -l <"$tmp/rows")
	[ "$rows" -ge 3 ]; ok $? "the loop is listed in the frames it ran in ($rows rows)"
	grep -q ' true duty' "$tmp/rows"; ok $? "the frame after its exit lists it exited"
	sum=$(awk '{ s += $1 } END { printf "%.0f", s * 1e6 }' "$tmp/rows")
	within "$sum" "$ns" 5
	ok $? "its TASK-MS over the frames ${sum} ns = its own CPU time $ns ns (5 %)"
	# the session's task-clock counter per CPU, charged to the task, is
	# the task's own cpu-clock counter's: the same time
	awk '{ d = $1 - $2; if (d < 0) d = -d; if (d > 0.01 * $1 + 0.05) bad = 1 } END { exit bad }' "$tmp/rows"
	ok $? "the session's task-clock per task = its TASK-MS (1 %)"
	sed 's/^/# /' "$tmp/rows"

	# 3. a map of 4 tasks: the switches of the others are missed, and said
	HPMSTAT_BPF_MAX_TASKS=4 "$H" top -b -n 2 -d 0.3 >"$tmp/m" 2>&1
	grep -Eq '^note: .*[0-9]+ switches missed \(task map full: 4 tasks\)' "$tmp/m"
	ok $? "a full map: the missed switches in the status line ($(grep -m1 '^note:' "$tmp/m"))"
else
	skip "BPF: $bpf"
fi

# 4. the fallback, with its reason in the header
"$H" top -b -n 1 -d 0.2 --no-bpf >"$tmp/n" 2>/dev/null
grep -qx 'tasks: per-task groups (BPF: --no-bpf)' "$tmp/n"; ok $? "--no-bpf: the per-task groups, said in the header"
grep -Eq '^ +PID COMMAND +%CPU' "$tmp/n"; ok $? "--no-bpf: the process table"
HPMSTAT_NO_BPF=1 "$H" top -b -n 1 -d 0.2 >"$tmp/n2" 2>/dev/null
grep -qx 'tasks: per-task groups (BPF: HPMSTAT_NO_BPF is set)' "$tmp/n2"; ok $? "HPMSTAT_NO_BPF: the same"
"$H" top -b -n 1 -d 0.2 -p $$ >"$tmp/n3" 2>/dev/null
grep -qx 'tasks: per-task groups (BPF: -p counts one process)' "$tmp/n3"; ok $? "-p: the per-task groups"
if [ "$bpf" = "hpmstat was built without libbpf" ]; then
	"$H" top -b -n 1 -d 0.2 >"$tmp/n4" 2>/dev/null
	grep -q '^tasks: per-task groups (BPF: .*libbpf' "$tmp/n4"; ok $? "without libbpf: said in the header"
fi
if [ "$(id -u)" = 0 ] && setpriv --reuid=nobody --regid=nogroup --clear-groups "$H" --version >/dev/null 2>&1; then
	setpriv --reuid=nobody --regid=nogroup --clear-groups env XDG_CONFIG_HOME="$tmp/none" \
		"$H" top -b -n 1 -d 0.2 >"$tmp/u" 2>/dev/null
	grep -qx 'tasks: per-task groups (BPF: loading BPF needs root or CAP_BPF and CAP_PERFMON)' "$tmp/u"
	ok $? "unprivileged: the per-task groups, the reason in the header ($(grep -m1 '^tasks:' "$tmp/u"))"
else
	skip "setpriv cannot run hpmstat as nobody here"
fi

# 5. the emulator's task schedule: attributed = ground truth, per task and
# per frame; the tasks' cycles are the hart's (the idle task has none in
# tasks-mixed, whose tasks are always runnable)
"$H" top --json -n 3 -d 0.3 --backend emu --emu-profile tasks-mixed >"$tmp/e" 2>"$tmp/ee"
ok $? "emulator tasks: exits 0"
tail -n 1 "$tmp/e" >"$tmp/f"
"$J" .tasks <"$tmp/f" | grep -q '^tasks: emulated task schedule of profile tasks-mixed, [0-9]* tasks on 1 hart'
ok $? "emulator tasks: the header ($("$J" .tasks <"$tmp/f"))"
bad=0
rows=0
for i in 1 2 3; do
	sed -n "${i}p" "$tmp/e" >"$tmp/f"
	n=$("$J" .processes.# <"$tmp/f")
	hart=$("$J" .units.0.cycles <"$tmp/f")
	sum=0
	k=0
	while [ $k -lt "$n" ]; do
		set -- $("$J" .processes.$k.events.mcycle .processes.$k.truth.mcycle \
			.processes.$k.events.minstret .processes.$k.truth.minstret <"$tmp/f")
		[ "$1" = "$2" ] && [ "$3" = "$4" ] || {
			bad=1
			diag "frame $i row $k: mcycle $1 truth $2, minstret $3 truth $4"
		}
		sum=$(awk -v a="$sum" -v b="$1" 'BEGIN { printf "%.0f", a + b }')
		rows=$((rows + 1))
		k=$((k + 1))
	done
	awk -v a="$sum" -v b="$hart" 'BEGIN { exit !(a == b) }' || {
		bad=1
		diag "frame $i: tasks' cycles $sum, the hart's $hart"
	}
done
[ $bad -eq 0 ] && [ $rows -ge 3 ]; ok $? "emulator tasks: attributed = ground truth, tasks add up to the hart ($rows rows)"
"$H" top -b -n 1 -d 0.3 --backend emu --emu-profile tasks-mixed >"$tmp/eb" 2>/dev/null
grep -Eq '^ +PID COMMAND +CYCLESv +INSTR +IPC +TOPDOWN +BOTTLENECK$' "$tmp/eb"; ok $? "emulator tasks: batch table with Topdown per task"
grep -Eq '^ +1301  \\_ httpd-worker ' "$tmp/eb"; ok $? "emulator tasks: a thread under its process"
# the count, as htop's "Tasks:" (and <proc> on a host): processes, a
# thread row being none (it was "5 shown of 5" with httpd's worker)
procs=$(sed -n '/^ *PID COMMAND/,/^$/p' "$tmp/eb" | sed '1d;/^$/d' | grep -Evc '^ +[0-9]+  \\_ ')
grep -qx "Processes: $procs shown of $procs" "$tmp/eb"
ok $? "emulator tasks: the processes counted, not the thread rows ($(grep '^Processes:' "$tmp/eb"); $procs process rows)"
# 5. the live view says the same in its header (tmux, when present)
. "$top_srcdir/tests/top/tmux.sh"
why=$(tmux_why_not)
if [ -z "$why" ]; then
	session 120 30 "TERM=xterm $H top -d 0.3 --no-bpf; sleep 30"
	wait_for 'tasks: per-task groups'
	cap | grep -qx 'tasks: per-task groups (BPF: --no-bpf) *'
	ok $? "live view: the task source's line in the header"
	tmux_end
else
	skip "live view: $why"
fi
done_testing

#!/bin/sh
# hpmstat stat through BPF (src/bpf) against the real kernel: -a --per-task
# and -a --per-thread rows of busy loops with known CPU shares against each
# loop's own task-clock (a perf counter the loop opens on itself, see
# tests/bpf/duty.c), --bpf-counters on a command and on -p,
# its CSV layout against perf stat's on the same workload, 200 processes
# that start and exit during the run, a map too small (HPMSTAT_BPF_MAX_TASKS)
# that says how much it missed, and an unprivileged user: --bpf-counters
# fails with the reason, -a --per-thread falls back with a one-line note.
# Skips when not root or built without libbpf.
. "$top_srcdir/tests/lib.sh"
H=$HPMSTAT
D="$top_builddir/tests/bpf/duty"
dir=$(mktemp -d)
trap 'main_shell || exit; rm -rf "$dir" "$tap_out" "$tap_err"' EXIT

if ! have HAVE_LIBBPF; then
	skip_all "hpmstat was built without libbpf"
fi
if [ "$(id -u)" != 0 ]; then
	skip_all "not root: BPF needs root (or CAP_BPF and CAP_PERFMON)"
fi
last=$(($(getconf _NPROCESSORS_ONLN) - 1))

# within GOT WANT: |GOT - WANT| <= 5 % of WANT (the issue's bound)
within() { awk -v g="$1" -v w="$2" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(w > 0 && d <= 0.05 * w) }'; }

# 1. known shares: 20 % and 50 % of CPU 0, 100 % of the last CPU; each
# loop's row (raw count, field 5 of the per-thread CSV) = its own CPU time.
# 1.2 s each: the BPF path also charges the loop's exit (after it read its
# own clock), a few ms on a loaded machine, which must stay well inside 5 %
# of the 20 % loop's time.
# loops MODE: one run; "PID GOT NS" a line for each loop in $dir/loops.txt
loops() {
	: >"$dir/duty.out"
	$H stat -a --per-$1 -x, -e cpu-clock -- sh -c "$D 20 0 1.2 $dir/duty.out & $D 50 0 1.2 $dir/duty.out & $D 100 $last 1.2 $dir/duty.out & wait" \
		2>"$dir/pt.csv" >/dev/null
	st=$?
	while read -r pid ns; do
		got=$(awk -F, -v r="duty-$pid" '$1 == r && $4 == "cpu-clock" {print $5}' "$dir/pt.csv")
		echo "$pid ${got:-none} $ns"
	done <"$dir/duty.out" >"$dir/loops.txt"
	return $st
}
# misses: how many loops' rows are off by more than 5 %
misses() { while read -r pid got ns; do within "$got" "$ns" || echo "$pid"; done <"$dir/loops.txt" | wc -l; }
for mode in task thread; do
	loops $mode
	st=$?
	# the same run again when a loop is off: on 2 CPUs shared with the
	# suite's other tests (a riscv64 VM, a sanitizer build) a loop's
	# hundreds of switches now and then add up past 5 %; a bias fails twice
	if [ $st -ne 0 ] || [ "$(misses)" -ne 0 ]; then
		diag "-a --per-$mode, first run (exit $st), again: $(tr '\n' ';' <"$dir/loops.txt")"
		loops $mode
		st=$?
	fi
	ok $st "-a --per-$mode with 3 loops exits 0"
	grep -q "without BPF\|warning" "$dir/pt.csv"; [ $? -ne 0 ]; ok $? "-a --per-$mode: through BPF, nothing missed"
	n=0
	while read -r pid got ns; do
		n=$((n + 1))
		within "$got" "$ns"
		ok $? "-a --per-$mode: duty-$pid's cpu-clock $got ns = its CPU time $ns ns (5 %)"
	done <"$dir/loops.txt"
	[ $n -eq 3 ]; ok $? "-a --per-$mode: the 3 loops reported ($n)"
done

# 2. --bpf-counters on a command: perf's target (the command's process),
# its task-clock = the loop's CPU time; as in 1, run again once when it is
# off by more than 5 % (a bias fails both runs)
bc_cmd() {
	: >"$dir/duty.out"
	$H stat --bpf-counters -x, -e task-clock -- $D 50 0 0.5 "$dir/duty.out" 2>"$dir/bc.csv" >/dev/null
	st=$?
	read -r pid ns <"$dir/duty.out"
	got=$(awk -F, '$3 == "task-clock" {print $4}' "$dir/bc.csv")
}
# once_more RUN LABEL: RUN (which sets st, got and ns), and again when it
# failed or is off by more than 5 %, the first run's figures printed
once_more() {
	$1
	if [ $st -ne 0 ] || ! within "${got:-0}" "$ns"; then
		diag "$2, first run (exit $st): ${got:-none} ns against $ns ns, again"
		$1
	fi
}
once_more bc_cmd "--bpf-counters"
ok $st "--bpf-counters -- command exits 0"
within "${got:-0}" "$ns"; ok $? "--bpf-counters: the command's task-clock ${got:-none} ns = its CPU time $ns ns"

# -p: the process's threads from the moment hpmstat starts; the loop sleeps
# its first 0.3 s, so hpmstat's start misses none of its CPU time
bc_pid() {
	: >"$dir/duty.out"
	$D 50 0 0.6 "$dir/duty.out" 0.3 &
	dp=$!
	$H stat --bpf-counters -p $dp -x, -e task-clock 2>"$dir/bp.csv" >/dev/null
	st=$?
	wait $dp
	read -r pid ns <"$dir/duty.out"
	got=$(awk -F, '$3 == "task-clock" {print $4}' "$dir/bp.csv")
}
once_more bc_pid "--bpf-counters -p"
ok $st "--bpf-counters -p exits 0 when the process ends"
within "${got:-0}" "$ns"; ok $? "--bpf-counters -p $pid: task-clock ${got:-none} ns = its CPU time $ns ns"

# 3. the CSV layout of --bpf-counters is perf stat's without it (this perf
# has no --bpf-counters: field counts, units, names and metric names of the
# same events on the same workload)
ev=task-clock,cpu-clock,context-switches,cpu-migrations,page-faults
# (a rate's unit keeps its name, not its scale: K/sec or /sec follows the
# rate, which moves between two runs on a loaded machine)
layout() { awk -F, 'NF > 1 { u = $7; sub(/^[KMG]\//, "/", u); print NF, $2, $3, u }' "$1"; }
if command -v perf >/dev/null 2>&1 && perf stat -x, -e $ev -- $D 100 -1 0.1 2>"$dir/perf.csv" >/dev/null; then
	$H stat --bpf-counters -x, -e $ev -- $D 100 -1 0.1 2>"$dir/h.csv" >/dev/null
	[ "$(layout "$dir/perf.csv")" = "$(layout "$dir/h.csv")" ]
	st=$?
	ok $st "--bpf-counters -x,: perf's fields ($(layout "$dir/h.csv" | tr '\n' ';'))"
	[ $st -eq 0 ] || diag "perf: $(layout "$dir/perf.csv" | tr '\n' ';')"
else
	skip "perf stat -x, -e $ev does not run here"
fi
$H stat --bpf-counters -e $ev -- $D 100 -1 0.1 2>"$dir/h.std" >/dev/null
grep -q 'msec task-clock *# *[0-9.]* CPUs utilized' "$dir/h.std"; ok $? "--bpf-counters std: perf's row and metric"

# 4. 200 processes start and exit during the run: each has its row, none
# missed (no warning)
: >"$dir/duty.out"
$H stat -a --per-task -x, -e cpu-clock -- sh -c "i=0; while [ \$i -lt 200 ]; do $D 100 -1 0.002 $dir/duty.out & i=\$((i + 1)); done; wait" \
	2>"$dir/churn.csv" >/dev/null
ok $? "-a --per-task with 200 short processes exits 0"
n=$(wc -l <"$dir/duty.out")
miss=$(while read -r pid ns; do grep -q "^duty-$pid," "$dir/churn.csv" || echo "$pid"; done <"$dir/duty.out" | wc -l)
[ "$n" -eq 200 ] && [ "$miss" -eq 0 ]; ok $? "-a --per-task: the 200 exited processes have their rows ($miss of $n missing)"
grep -q 'map full' "$dir/churn.csv"; [ $? -ne 0 ]; ok $? "-a --per-task: nothing missed"

# 5. a map of 4 tasks: the switches of the others are counted and said
HPMSTAT_BPF_MAX_TASKS=4 $H stat -a --per-thread -x, -e cpu-clock sleep 0.2 2>"$dir/tiny.csv" >/dev/null
ok $? "a map of 4 tasks: exits 0"
grep -q '^hpmstat stat: warning: BPF task map full (4 tasks): [1-9][0-9]* of [0-9]* context switches not charged' "$dir/tiny.csv"
ok $? "a map of 4 tasks: one warning with the missed count ($(grep 'map full' "$dir/tiny.csv" | cut -c1-90))"
rows=$(grep -c ',cpu-clock,' "$dir/tiny.csv")
[ "$rows" -le 4 ]; ok $? "a map of 4 tasks: at most 4 rows ($rows)"

# 6. perf's refusals and ours
run_fails_with "--bpf-counters and a group" "bpf managed perf events do not yet support groups" \
	$H stat --bpf-counters -e '{cpu-clock,task-clock}' true
run_fails_with "--per-task with -p" "--per-task counts every process of the system" \
	$H stat --per-task -p $$ -e cpu-clock

# 7. unprivileged: --bpf-counters fails with the reason; with CAP_PERFMON
# alone (-a allowed, BPF not), -a --per-thread falls back with one note
if setpriv --reuid=nobody --regid=nogroup --clear-groups true 2>/dev/null; then
	run_fails_with "unprivileged --bpf-counters: the reason" \
		"--bpf-counters: cannot use BPF: loading BPF needs root or CAP_BPF and CAP_PERFMON" \
		setpriv --reuid=nobody --regid=nogroup --clear-groups $H stat --bpf-counters -e task-clock true
	if setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=+perfmon --ambient-caps=+perfmon \
		true 2>/dev/null; then
		setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=+perfmon --ambient-caps=+perfmon \
			$H stat -a --per-thread -x, -e cpu-clock sleep 0.1 2>"$dir/np.csv" >/dev/null
		ok $? "CAP_PERFMON without CAP_BPF: -a --per-thread exits 0"
		notes=$(grep -c '^hpmstat stat: note: counting per thread without BPF: loading BPF needs root or CAP_BPF and CAP_PERFMON$' "$dir/np.csv")
		other=$(grep -v ',cpu-clock,' "$dir/np.csv" | grep -vc '^$')
		[ "$notes" -eq 1 ] && [ "$other" -eq 1 ]; ok $? "CAP_PERFMON without CAP_BPF: one note with the reason ($notes), then the rows"
		grep -q ',cpu-clock,' "$dir/np.csv"; ok $? "CAP_PERFMON without CAP_BPF: the per-thread rows"
	else
		skip "setpriv cannot raise CAP_PERFMON as an ambient capability here"
	fi
else
	skip "setpriv cannot switch to nobody here"
fi
done_testing

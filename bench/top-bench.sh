#!/bin/sh
# top-bench.sh: the performance targets of hpmstat top (issue 6), measured
# and printed. Usage: sh bench/top-bench.sh [HPMSTAT] [FRAMES]
#  with 200 extra processes on the host and a 1 s refresh:
#  1. perf back end, every one of the 200 processes in the table (-N 200:
#     600 per-task counters read per frame): hpmstat's CPU at most 1% of one
#     core, and each frame ready within 20 ms of its tick (JSON lag_ms);
#  2. the same in the ncurses view (in tmux, when installed), lag measured
#     by the view itself (HPMSTAT_TOP_STATS), CPU from /proc;
#  3. the emulator back end (2 harts, Topdown level 3) in batch mode.
H=${1:-src/hpmstat}
N=${2:-30}
fail=0
tmp=$(mktemp -d)
pids=
cleanup() { [ -n "$pids" ] && kill $pids 2>/dev/null; tmux -L topbench kill-server 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
echo "hpmstat top benchmarks on $(uname -m), $(nproc) cores, $N frames at -d 1; load average $(cut -d" " -f1-3 /proc/loadavg)"
i=0
while [ $i -lt 200 ]; do
	sleep 600 &
	pids="$pids $!"
	i=$((i + 1))
done
echo "processes on the host: $(ls -d /proc/[0-9]* | wc -l)"

clk=$(getconf CLK_TCK)
# cpu_of PID: utime + stime in seconds
cpu_of() { awk -v hz="$clk" '{ sub(/.*\) /, ""); print ($12 + $13) / hz }' "/proc/$1/stat"; }

# lag_of FILE: mean and max lag_ms of JSON frames
lag_of() { sed 's/.*"lag_ms":\([0-9.e+-]*\),"work_ms":\([0-9.e+-]*\).*/\1 \2/' "$1" | awk '{ s += $1; if ($1 > m) m = $1; w += $2; if ($2 > wm) wm = $2 } END { printf "%.2f %.2f %.2f %.2f", s / NR, m, w / NR, wm }'; }

report() { # name cpu_s wall_s mean max
	pct=$(awk -v c="$2" -v w="$3" 'BEGIN { printf "%.3f", 100 * c / w }')
	printf '%s: CPU %.2f s over %.1f s wall = %s%% of one core (target <= 1%%); lag mean %s ms, max %s ms (target <= 20)\n' "$1" "$2" "$3" "$pct" "$4" "$5"
	awk -v p="$pct" -v m="$5" 'BEGIN { exit !(p <= 1 && m <= 20) }' || fail=1
}

run_batch() { # name args...
	name=$1; shift
	t0=$(date +%s.%N)
	"$H" top --json -n "$N" -d 1 --no-config "$@" >"$tmp/j" 2>/dev/null &
	p=$!
	# CPU of the process itself, read just before it exits
	c=0
	while kill -0 $p 2>/dev/null; do
		c2=$(cpu_of $p 2>/dev/null) && c=$c2
		sleep 0.2
	done
	wait $p
	t1=$(date +%s.%N)
	wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
	set -- $(lag_of "$tmp/j")
	report "$name" "$c" "$wall" "$1" "$2"
	echo "  of which sampling+formatting: mean $3 ms, max $4 ms (the rest is waking up late: load average $(cut -d' ' -f1-3 /proc/loadavg))"
	echo "  command: $H top --json -n $N -d 1 $ARGS"
}

ARGS="--backend perf -N 200"
run_batch "1. perf, 200 processes counted, JSON" --backend perf -N 200
rows=$(tail -n 1 "$tmp/j" | sed 's/.*"processes_total":\([0-9]*\).*/\1/')
echo "  processes seen per frame: $rows"

if command -v tmux >/dev/null 2>&1; then
	tmux -L topbench -f /dev/null new-session -d -x 160 -y 50 \
		"env HPMSTAT_TOP_STATS=$tmp/stats $H top -n $N -d 1 --no-config --backend perf -N 200; sleep 60"
	sleep 1
	pp=$(tmux -L topbench list-panes -F '#{pane_pid}' | head -n 1)
	p=$(pgrep -P "$pp" | head -n 1)
	t0=$(date +%s.%N)
	c=0
	while [ -n "$p" ] && kill -0 "$p" 2>/dev/null; do
		c2=$(cpu_of "$p" 2>/dev/null) && c=$c2
		sleep 0.2
	done
	t1=$(date +%s.%N)
	wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
	set -- $(awk '{ print $4, $6, $8, $10 }' "$tmp/stats" 2>/dev/null)
	report "2. perf, 200 processes, ncurses view in tmux 160x50" "$c" "$wall" "${1:-?}" "${2:-999}"
	echo "  of which sampling+drawing: mean ${3:-?} ms, max ${4:-?} ms"
	echo "  command: hpmstat top -n $N -d 1 --backend perf -N 200 (view: $(cat "$tmp/stats" 2>/dev/null))"
else
	echo "2. skipped: tmux not installed"
fi

ARGS="--backend emu --emu-harts 2 -t 3"
run_batch "3. emulator, 2 harts, Topdown level 3, JSON" --backend emu --emu-harts 2 -t 3
[ $fail -eq 0 ] && echo "all targets met" || echo "some targets missed"
exit $fail

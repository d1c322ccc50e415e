#!/bin/bash
# bench/record-bench.sh (bash: its `times` counts the waited background job) HPMSTAT [SECONDS] [FREQ]: the recorder's own CPU at
# -F FREQ (default 4000) on a busy program, hpmstat record against perf
# record, in one run. Both record the same running process with -p for
# SECONDS (default 5), so the CPU a recorder's shell sees in its children
# is the recorder's alone (the busy program is not its child). Prints each
# recorder's user+system seconds, its samples and the samples perf report
# counts as lost in its file.
set -u
H=${1:?usage: record-bench.sh HPMSTAT [SECONDS] [FREQ]}
SECS=${2:-5}
FREQ=${3:-4000}
here=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d)
trap 'kill $busy 2>/dev/null; rm -rf "$T"' EXIT
gcc -O1 -fno-ipa-icf -o "$T/split" "$here/../tests/record/split.c" || exit 1
"$T/split" forever &
busy=$!
sleep 0.2

# one NAME CMD...: run CMD for SECS, end it with SIGINT, print its CPU
one() {
	name=$1
	shift
	(
		"$@" 2>"$T/$name.err" &
		rec=$!
		sleep "$SECS"
		kill -INT $rec
		wait $rec
		# the children's user and system time: the second line of `times`
		# (not in a pipeline, whose subshell has no children)
		times >"$T/$name.all"
		sed -n 2p "$T/$name.all" >"$T/$name.times"
	)
	cpu=$(awk '{ u = $1; s = $2; sub("m", " ", u); sub("s", "", u); sub("m", " ", s); sub("s", "", s);
		split(u, a, " "); split(s, b, " "); printf "%.3f", a[1] * 60 + a[2] + b[1] * 60 + b[2] }' "$T/$name.times")
	samples=$(perf script -i "$T/$name.data" 2>/dev/null | grep -c 'cpu-clock:')
	lost=$(perf report -i "$T/$name.data" --stdio 2>/dev/null | sed -n 's/^# Total Lost Samples: //p')
	printf '%-16s cpu %6ss  samples %7s  lost %s\n' "$name" "$cpu" "$samples" "${lost:-?}"
}
echo "recording pid $busy for ${SECS}s at -F $FREQ (cpu = the recorder's user+sys)"
one hpmstat-record "$H" record -q -e cpu-clock -F "$FREQ" -p $busy -o "$T/hpmstat-record.data"
one perf-record perf record -q -e cpu-clock -F "$FREQ" -p $busy -o "$T/perf-record.data"

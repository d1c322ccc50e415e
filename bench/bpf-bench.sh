#!/bin/sh
# bpf-bench.sh: hpmstat stat -a --per-thread through BPF (per-CPU counters,
# charged to tasks at each switch) against its fallback (one counter per
# event per thread, HPMSTAT_NO_BPF=1), with 200 busy processes (nice 19,
# so that the machine stays usable) on the host.
# Usage: sh bench/bpf-bench.sh [HPMSTAT] [SECONDS]; needs root.
# Prints, for each: the counters (fds) hpmstat holds, its own CPU time
# (user + sys, /usr/bin/time) and the rows printed.
H=${1:-src/hpmstat}
T=${2:-3}
ev=cpu-clock,context-switches,cpu-migrations,page-faults
tmp=$(mktemp -d)
pids=
cleanup() { [ -n "$pids" ] && kill $pids 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
i=0
while [ $i -lt 200 ]; do
	nice -n 19 sh -c 'while :; do :; done' &
	pids="$pids $!"
	i=$((i + 1))
done
sleep 0.5
echo "hpmstat stat -a --per-thread -e $ev sleep $T, 200 busy processes, $(nproc) CPUs; $(ls -d /proc/[0-9]*/task/[0-9]* 2>/dev/null | wc -l) threads on the host"
printf '%-30s %8s %12s %8s\n' "mode" "fds" "CPU (s)" "rows"
for mode in bpf per-thread; do
	if [ $mode = bpf ]; then no=0; else no=1; fi
	HPMSTAT_NO_BPF=$no /usr/bin/time -o "$tmp/time" -f "%U %S" \
		"$H" stat -a --per-thread -x, -e $ev sleep "$T" 2>"$tmp/out" >/dev/null &
	tp=$!
	sleep 1
	hp=$(pgrep -P $tp -x hpmstat | head -1)
	fds=$(ls "/proc/$hp/fd" 2>/dev/null | wc -l)
	wait $tp
	cpu=$(awk '{ printf "%.2f", $1 + $2 }' "$tmp/time")
	rows=$(grep -c ',cpu-clock,' "$tmp/out")
	case $mode in bpf) name="BPF (events x CPUs)" ;; *) name="per-thread (events x threads)" ;; esac
	printf '%-30s %8s %12s %8s\n' "$name" "$fds" "$cpu" "$rows"
	grep 'note\|warning' "$tmp/out"
done

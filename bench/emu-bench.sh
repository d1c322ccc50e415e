#!/bin/sh
# emu-bench.sh: the emulator benchmark behind `make bench`.
#
#   bench/emu-bench.sh [HPMSTAT] [CYCLES]
#
# Runs `hpmstat emu bench` (all 29 counters programmed with one- to
# four-event expressions using OR, AND, XOR and ADD) on several profiles and
# prints the simulated cycles per second of the fast path and of the
# per-cycle reference on the same stream, and their ratio, against the
# targets of issue 3: >= 1e9 cycles/s and >= 20x the reference. Exits 1 if
# the two paths disagree on any counter; a missed target is reported, not
# fatal (this is a benchmark, not a test).
hpmstat=${1:-src/hpmstat}
cycles=${2:-20000000}
profiles="balanced phased dram-bound branch-mispredict retiring"

echo "hpmstat emu bench: $cycles cycles per profile, one core"
echo "machine: $(grep -m1 "model name" /proc/cpuinfo 2>/dev/null | sed "s/.*: //"), $(getconf _NPROCESSORS_ONLN 2>/dev/null) cores online"
printf '%-18s %12s %14s %14s %10s  %s\n' profile cycles/run "fast cycles/s" "ref cycles/s" ratio check
status=0
missed=0
for p in $profiles; do
	out=$("$hpmstat" emu bench --cycles "$cycles" --profile "$p" 2>&1)
	rc=$?
	perrun=$(echo "$out" | sed -n 's/^stream: .*(\([0-9.]*\) cycles\/run.*/\1/p')
	fast=$(echo "$out" | sed -n 's/^fast path: *\([0-9.e+]*\) cycles\/s.*/\1/p')
	ref=$(echo "$out" | sed -n 's/^reference: *\([0-9.e+]*\) cycles\/s.*/\1/p')
	ratio=$(echo "$out" | sed -n 's/^ratio: *\([0-9.]*\)x/\1/p')
	if [ $rc -eq 0 ]; then check=equal; else check=MISMATCH; status=1; fi
	printf '%-18s %12s %14s %14s %9sx  %s\n' "$p" "$perrun" "$fast" "$ref" "$ratio" "$check"
	[ $rc -eq 0 ] || echo "$out" | sed 's/^/    /'
	if [ $rc -eq 0 ] && ! awk -v f="$fast" -v r="$ratio" 'BEGIN { exit !(f >= 1e9 && r >= 20) }'; then
		missed=1
	fi
done
if [ $missed -eq 0 ]; then
	echo "targets (>= 1e9 cycles/s, >= 20x the reference): met"
else
	echo "targets (>= 1e9 cycles/s, >= 20x the reference): MISSED"
fi
exit $status

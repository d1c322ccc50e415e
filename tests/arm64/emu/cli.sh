#!/bin/sh
# hpmstat emu profiles --arch arm64 and emu bench --arch arm64.
. "$top_srcdir/tests/lib.sh"

# every built-in Arm profile (profiles/arm64/*.profile) is listed, with its
# declared level 1 in both forms; the four nodes of a form add up to 100 %
run_ok "emu profiles --arch arm64" "$HPMSTAT" emu profiles --arch arm64
for p in arm-backend-memory arm-badspec arm-balanced arm-frontend arm-n2-balanced arm-n2-r0p0-balanced arm-system; do
	grep -q "^$p: " "$tap_out" || { ok 1 "profile $p listed"; continue; }
	ok 0 "profile $p listed"
done
awk '/^  slots \([0-9]+\):|^  cycles:/ { s = $(NF-6) + $(NF-4) + $(NF-2) + $NF; if (s < 99.85 || s > 100.15) bad = 1; n++ }
	END { exit !(n == 14 && !bad) }' "$tap_out"
ok $? "each profile's declared level 1 sums to 100 % in both forms"
run_ok "emu profiles --arch arm64 --json" "$HPMSTAT" emu profiles --arch arm64 --json
grep -q '"declared_slots"' "$tap_out" && grep -q '"emulated": true' "$tap_out"
ok $? "--json: declared_slots and emulated"

# the bench: fast path and reference on the same stream, every register
# equal at the end (a short stream: the reference takes about 3e6 cycles/s)
run_ok "emu bench --arch arm64 --cycles 2000000" "$HPMSTAT" emu bench --arch arm64 --cycles 2000000
grep -q '^fast path:  .* cycles/s' "$tap_out" && grep -q '^reference:  .* cycles/s' "$tap_out" &&
	grep -q '^check:      equal: every register' "$tap_out"
ok $? "bench prints both rates and the check"
run_fails_with "bench --cycles 0" "--cycles" "$HPMSTAT" emu bench --arch arm64 --cycles 0

# the bench on a workload profile's stream (issue 14's target): the same 31
# counters on the runs of arm-balanced, every register equal to the
# reference; the stream is exactly the cycles asked for
run_ok "emu bench --arch arm64 --profile arm-balanced" \
	"$HPMSTAT" emu bench --arch arm64 --profile arm-balanced --cycles 1000000 --seed 3
grep -q '^workload:   arm-balanced (built-in, seed 3), emulated' "$tap_out" &&
	grep -q '^machine:    Arm PMUv3 emulator, feature profile future, emulated' "$tap_out" &&
	grep -q '^stream:     1000000 cycles in [0-9]* runs' "$tap_out" &&
	grep -q '^fast path:  .* cycles/s' "$tap_out" && grep -q '^reference:  .* cycles/s' "$tap_out" &&
	grep -q '^ratio:      [0-9.]*x' "$tap_out" &&
	grep -q '^check:      equal: every register' "$tap_out"
ok $? "bench --profile prints both rates, the ratio and the check"
# arm-system runs at EL0-EL3 in every security state
run_ok "emu bench --arch arm64 --profile arm-system" \
	"$HPMSTAT" emu bench --arch arm64 --profile arm-system --cycles 500000
grep -q '^check:      equal: every register' "$tap_out"
ok $? "bench --profile arm-system: every register equal"
run_fails_with "bench: unknown profile" "unknown Arm profile 'no-such'" \
	"$HPMSTAT" emu bench --arch arm64 --profile no-such
run_fails_with "bench: unknown --pmu" "--pmu bogus" \
	"$HPMSTAT" emu bench --arch arm64 --profile arm-balanced --pmu bogus
# V2 has 6 counters and no EDGE or TH2: the program cannot be written
run_fails_with "bench: --pmu v2 lacks the counters" "needs 31 event counters" \
	"$HPMSTAT" emu bench --arch arm64 --profile arm-balanced --pmu v2
run_fails_with "bench: --max-run with --profile" "--max-run" \
	"$HPMSTAT" emu bench --arch arm64 --profile arm-balanced --max-run 5

done_testing

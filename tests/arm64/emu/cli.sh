#!/bin/sh
# hpmstat emu profiles --arch arm64 and emu bench --arch arm64.
. "$top_srcdir/tests/lib.sh"

# every built-in Arm profile (profiles/arm64/*.profile) is listed, with its
# declared level 1 in both forms; the four nodes of a form add up to 100 %
run_ok "emu profiles --arch arm64" "$HPMSTAT" emu profiles --arch arm64
for p in arm-backend-memory arm-badspec arm-balanced arm-frontend arm-system; do
	grep -q "^$p: " "$tap_out" || { ok 1 "profile $p listed"; continue; }
	ok 0 "profile $p listed"
done
awk '/^  slots \(8\):|^  cycles:/ { s = $(NF-6) + $(NF-4) + $(NF-2) + $NF; if (s < 99.85 || s > 100.15) bad = 1; n++ }
	END { exit !(n == 10 && !bad) }' "$tap_out"
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

done_testing

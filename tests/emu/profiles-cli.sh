#!/bin/sh
# hpmstat emu profiles: the listing of the workload profiles, text and JSON.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/emu/emu-test.sh"

run_ok "emu profiles exits 0" "$HPMSTAT" emu profiles
head -1 "$tap_out" | grep -q "^Emulated workload profiles"; ok $? "the listing says it is emulated"
# the issue's minimum set of profiles
for p in balanced retiring fetch-latency fetch-bandwidth branch-mispredict machine-clears \
	core-bound l1-bound l2-bound l3-bound dram-bound store-bound phased; do
	grep -q "^$p: " "$tap_out"; ok $? "profile $p is listed"
done
n=$(grep -c '^  level 1: ' "$tap_out"); m=$(grep -c '^  level 3: ' "$tap_out")
[ "$n" -ge 13 ] && [ "$n" -eq "$m" ]; ok $? "every profile shows levels 1-3 ($n profiles)"

run_ok "emu profiles --json exits 0" "$HPMSTAT" emu profiles --json
"$JSONCHECK" <"$tap_out" >/dev/null; ok $? "--json is valid JSON"
count=$("$JSONCHECK" '.#' <"$tap_out")
[ "$count" -eq "$n" ]; ok $? "--json lists the same $n profiles"
names=$("$JSONCHECK" .0.name .0.emulated <"$tap_out")
[ "$names" = "$(printf 'balanced\ntrue')" ]; ok $? "the first profile is balanced, marked emulated"
r=$("$JSONCHECK" .0.declared.level1.retiring .0.declared.level3.dram_bound .0.declared.level2.memory_bound <"$tap_out")
[ "$(echo "$r" | wc -l)" -eq 3 ] && ! echo "$r" | grep -q null; ok $? "declared levels 1-3 are numbers ($(echo $r))"
np=$("$JSONCHECK" '.0.not_produced.#' <"$tap_out")
[ "$np" -gt 0 ]; ok $? "events the model does not produce are listed ($np)"

"$HPMSTAT" emu profiles --frob >/dev/null 2>&1; [ $? -eq 2 ]; ok $? "unknown option: usage error"
run_ok "emu profiles --help" "$HPMSTAT" emu profiles --help
grep -q '^Usage: hpmstat emu' "$tap_out"; ok $? "emu profiles --help prints the usage"

done_testing

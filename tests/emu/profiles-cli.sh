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
r=$("$JSONCHECK" .0.declared.level1.tma_retiring .0.declared.level3.tma_dram_bound .0.declared.level2.tma_memory_bound <"$tap_out")
[ "$(echo "$r" | wc -l)" -eq 3 ] && ! echo "$r" | grep -q null; ok $? "declared levels 1-3 are numbers ($(echo $r))"
np=$("$JSONCHECK" '.0.not_produced.#' <"$tap_out")
[ "$np" -gt 0 ]; ok $? "events the model does not produce are listed ($np)"

# one vocabulary: the nodes are listed by the names stat prints and in its
# order, level by level (text: its tree's names; JSON: its metric names)
"$HPMSTAT" stat --topdown=3 --emu-cycles 1e5 >"$tap_out.std" 2>&1
"$HPMSTAT" stat -j --json-extra --topdown=3 --emu-cycles 1e5 >"$tap_out.json" 2>&1
st=0
for l in 1 2 3; do
	tree=$(awk -v l=$l '/^ Topdown level/ { on = 1; next } on && / % / {
		match($0, /^ +/); if ((RLENGTH - 3) / 2 + 1 == l) printf "%s ", $1 }' "$tap_out.std")
	metrics=$(awk -v l=$l '$0 ~ "\"topdown-level\" : " l "," {
		match($0, /"metric" : "[a-z0-9_]*"/); printf "%s ", substr($0, RSTART + 12, RLENGTH - 13) }' "$tap_out.json")
	listed=$("$HPMSTAT" emu profiles | awk -v l=$l '$0 ~ "^  level " l ": " {
		for (i = 3; i < NF; i += 2) printf "%s ", $i; exit }')
	keys=$("$HPMSTAT" emu profiles --json | awk -v l=$l '$1 == "\"level" l "\":" { on = 1; next }
		on && /}/ { exit } on { gsub(/[":]/, "", $1); printf "%s ", $1 }')
	[ -n "$tree" ] && [ "$listed" = "$tree" ] && [ "$keys" = "$metrics" ] || st=1
	diag "level $l: stat '$tree' / '$metrics', profiles '$listed' / '$keys'"
done
ok $st "profiles name levels 1-3 as stat does, in its order (text and JSON)"
rm -f "$tap_out.std" "$tap_out.json"

"$HPMSTAT" emu profiles --frob >/dev/null 2>&1; [ $? -eq 129 ]; ok $? "unknown option: usage error"
run_ok "emu profiles --help" "$HPMSTAT" emu profiles --help
grep -q '^Usage: hpmstat emu' "$tap_out"; ok $? "emu profiles --help prints the usage"

done_testing

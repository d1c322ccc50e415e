#!/bin/sh
# hpmstat list: every row of the seed TSV, filters, JSON.
. "$top_srcdir/tests/lib.sh"
H=$HPMSTAT
J=$JSONCHECK
tsv="$top_srcdir/tests/data/kunminghu-events.tsv"

$H list > "$tap_out"; ok $? "list exits 0"
# every TSV row appears as BANK:INDEX with its name (or NAME.K)
missing=$(tail -n +2 "$tsv" | while IFS="$(printf '\t')" read -r bank idx name; do
	grep -qE "^  $name(\.[0-9])? +$bank:$idx " "$tap_out" || echo "$bank:$idx:$name"
done)
[ -z "$missing" ]; ok $? "every TSV row is listed ($missing)"
grep -q '^  load_s0_in_fire  *memblock:1+10+19 ' "$tap_out"; ok $? "aliases show the indices they add"
grep -q '^cache events (mhpmcounter27-31):' "$tap_out"; ok $? "bank headers give the counters"

$H list --bank cache > "$tap_out"
[ "$(grep -c '^  ' "$tap_out")" -eq 69 ] && ! grep -q frontend "$tap_out"; ok $? "--bank cache lists the 69 cache events only"
$H list 'ifu_req*' > "$tap_out"
[ "$(grep -c '^  ' "$tap_out")" -eq 5 ]; ok $? "a glob filters names (ifu_req* -> 5)"
$H list 'IFU_MISS' | grep -q '^  ifu_miss '; ok $? "globs ignore case"

$H list --json > "$tap_out"; ok $? "--json exits 0"
n=$($J '#' < "$tap_out"); [ "$n" -eq 393 ]; ok $? "--json: one array of 367 events + 26 aliases ($n)"
v=$($J 0.name 0.bank 0.index 0.counters.# 0.description < "$tap_out" | tr '\n' '|')
[ "$v" = "noEvent|frontend|0|8|No event; delivers 0 every cycle|" ]; ok $? "--json objects carry name, bank, index, counters, description ($v)"
$H list --json --bank memblock load_s0_in_fire > "$tap_out"
v=$($J 0.alias_of 0.indices 0.encoding < "$tap_out" | tr '\n' ' ')
[ "$v" = "add [1,10,19] 0x10040001302801 " ]; ok $? "--json aliases say what they combine ($v)"

run_fails_with "unknown bank" "unknown bank 'l3'" $H list --bank l3
run_fails_with "no match" "no event matches 'zzz*'" $H list 'zzz*'
run_fails_with "--bank without a value" "needs a value" $H list --bank
done_testing

#!/bin/sh
# hpmstat report: golden outputs of every format from the fixed run files of
# this directory, the reliability rules (-o through a temporary file, never
# over an input) and every kind of bad input. Run files: hand.json,
# l1off.json, na.json written by hand (hand.json's numbers are worked out
# in golden/hand.text); dram.json, int.json, rep-a.json, rep-b.json,
# host.json recorded once by hpmstat stat --record and frozen.
. "$top_srcdir/tests/lib.sh"
src="$top_srcdir/tests/report"
g="$src/golden"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$tap_out" "$tap_err"' EXIT
cd "$src" || exit 1

# golden NAME ARGS...: stdout of hpmstat report ARGS is golden/NAME
golden() {
	name=$1; shift
	"$HPMSTAT" report "$@" >"$tmp/out" 2>"$tap_err"; rc=$?
	if [ $rc -eq 0 ] && cmp -s "$tmp/out" "$g/$name"; then
		ok 0 "golden $name: report $*"
	else
		ok 1 "golden $name: report $*"
		diag "exit $rc" "$(head -3 "$tap_err")" "$(diff -u "$g/$name" "$tmp/out" | head -20)"
	fi
}

for f in text csv json md html; do
	golden hand.$f --format $f hand.json
	golden suite.$f --format $f --weights weights.json dram.json int.json hand.json
	golden diff-rep.$f --format $f --diff rep-a.json rep-b.json
done
golden dram.text dram.json
golden dram-level1.text --level 1 dram.json
golden host.text host.json
golden l1off.text l1off.json
golden na.text na.json
golden int.text int.json
golden int.csv --format csv int.json
golden diff-norep.text --diff dram.json int.json
# the default format is text, options may follow the runs
golden hand.text hand.json --format=text

# what the goldens show, checked on their own so a regenerated golden
# cannot hide a regression
grep -q '^   Backend_Bound  *45.00  % slots    <==$' "$g/hand.text"; ok $? "hand: aggregate Backend_Bound 45 % is the bottleneck"
grep -q '^   Frontend_Bound  *30.00  % slots$' "$g/hand.text"; ok $? "hand: hart1 Frontend_Bound recomputed from its multiplexed counts"
grep -q '^       0.050000 hart1  *30.00  *0.00  *50.00  *20.00$' "$g/hand.text"; ok $? "hand: per-hart interval values"
grep -q 'Level 1 sums to 200.00 %, not 100 %  \[level 1 does not add up\]' "$g/l1off.text"; ok $? "l1off: level 1 that does not add up is flagged"
grep -q '120.00  % slots    \[out of range: 20.00 above 100\]' "$g/l1off.text"; ok $? "l1off: out-of-range value is flagged, with how far"
[ "$(grep -c 'n/a  % slots' "$g/na.text")" -eq 5 ]; ok $? "na: hart1 without running time and a null metric are n/a"
grep -q 'Frontend_Bound  *2.94  *49.36  *20.00  *18.81$' "$g/suite.text"; ok $? "suite: weighted mean (2*2.94+49.36+20)/4"
grep -q 'Backend_Bound  *67.07  *61.68  *-5.38  above noise' "$g/diff-rep.text"; ok $? "diff with repeats: above noise"
grep -q 'Fetch_Latency  *1.99  *2.00  *+0.01  within noise' "$g/diff-rep.text"; ok $? "diff with repeats: within noise"
[ "$(grep -c ' no repeats' "$g/diff-norep.text")" -eq 15 ] && ! grep -q 'within noise' "$g/diff-norep.text"; ok $? "diff without repeats: no verdict on any of the 15 nodes"
"$JSONCHECK" .schema .schema_version .runs.0.slices.# .runs.0.slices.1.hart <"$g/hand.json" >"$tmp/j" 2>&1
printf 'hpmstat-report\n1\n9\nhart0\n' | cmp -s - "$tmp/j"; ok $? "json: schema, version, 3 units x 3 periods of slices"
"$JSONCHECK" .diff.nodes.0.noise .diff.nodes.0.se_base <"$g/diff-rep.json" >"$tmp/j" 2>&1
[ "$(head -1 "$tmp/j")" = above ]; ok $? "json diff: noise verdict"
# an emulated run says so in JSON as in the text's head line (one label);
# a host run says it is not
"$JSONCHECK" .runs.0.emulated .runs.0.emulation <"$g/hand.json" >"$tmp/j" 2>&1
[ "$(sed -n 1p "$tmp/j")" = true ] && grep -qF " $(sed -n 2p "$tmp/j"); " "$g/hand.text"
ok $? "json: an emulated run is marked emulated, in the words of the text ($(sed -n 2p "$tmp/j"))"
"$HPMSTAT" report --format json host.json | "$JSONCHECK" .runs.0.emulated >"$tmp/j" 2>&1
[ "$(cat "$tmp/j")" = false ]; ok $? "json: a run of the host is not emulated"

# the locale does not change a number
for loc in de_DE.UTF-8 fr_FR.UTF-8 C.UTF-8; do
	LC_ALL=$loc "$HPMSTAT" report --format csv hand.json >"$tmp/out" 2>/dev/null
	cmp -s "$tmp/out" "$g/hand.csv"; ok $? "csv under LC_ALL=$loc is the same"
done

# -o: through a temporary file renamed into place, never over an input
"$HPMSTAT" report --format html -o "$tmp/r.html" hand.json dram.json; rc=$?
[ $rc -eq 0 ] && [ -s "$tmp/r.html" ] && [ "$(ls "$tmp" | grep -c '^r\.html\.')" -eq 0 ]
ok $? "-o writes the file and leaves no temporary file"
cp hand.json "$tmp/in.json"
run_fails_with "-o equal to an input is refused" "refusing to overwrite" "$HPMSTAT" report -o "$tmp/in.json" "$tmp/in.json"
cmp -s hand.json "$tmp/in.json"; ok $? "... and the input is unchanged"
ln -s in.json "$tmp/link.json"
run_fails_with "-o naming an input through a link is refused" "refusing to overwrite" "$HPMSTAT" report -o "$tmp/link.json" "$tmp/in.json"
(cd "$tmp" && "$HPMSTAT" report -o ./in.json in.json >/dev/null 2>&1); [ $? -eq 1 ] && cmp -s hand.json "$tmp/in.json"
ok $? "-o ./in.json for in.json is refused"
echo '{"in": 1}' >"$tmp/w.json"
run_fails_with "-o equal to the weights file is refused" "weights file" "$HPMSTAT" report -o "$tmp/w.json" --weights "$tmp/w.json" "$tmp/in.json"
echo old >"$tmp/keep.txt"
"$HPMSTAT" report -o "$tmp/keep.txt" "$tmp/missing.json" 2>/dev/null
[ "$(cat "$tmp/keep.txt")" = old ]; ok $? "a failed report leaves an existing -o file alone"
run_fails_with "-o in a missing directory" "cannot write '$tmp/no/r.txt'" "$HPMSTAT" report -o "$tmp/no/r.txt" hand.json

# bad inputs: one line naming the file and what is wrong, exit 1
bad() { # DESC NEEDLE FILE
	run_fails_with "$1" "$2" "$HPMSTAT" report "$3"
	[ "$rc" -eq 1 ] || { ok 1 "$1: exit 1"; diag "exit $rc"; }
}
sed 's/"hpmstat-run"/"perf-stat"/' hand.json >"$tmp/schema.json"
bad "another schema" "$tmp/schema.json: schema is 'perf-stat', not 'hpmstat-run'" "$tmp/schema.json"
sed 's/"schema_version": 1/"schema_version": 2/' hand.json >"$tmp/v2.json"
bad "another schema version" "$tmp/v2.json: schema_version 2 is not supported" "$tmp/v2.json"
head -c 3000 hand.json >"$tmp/trunc.json"
bad "a truncated file" "$tmp/trunc.json: not valid JSON: " "$tmp/trunc.json"
: >"$tmp/empty.json"
bad "an empty file" "$tmp/empty.json: not valid JSON" "$tmp/empty.json"
printf '\000\377garbage' >"$tmp/bin.json"
bad "binary garbage" "$tmp/bin.json: not valid JSON" "$tmp/bin.json"
sed '0,/"running_share"/{/"running_share"/d}' hand.json | sed 's/"value": 2400.0,/"value": 2400.0/' >"$tmp/miss.json"
bad "a missing field" "$tmp/miss.json: events[0].running_share: missing" "$tmp/miss.json"
sed 's/"level": 1,/"level": "one",/' hand.json >"$tmp/type.json"
bad "a field of the wrong type" "$tmp/type.json: metrics[0].level: expected an integer" "$tmp/type.json"
sed 's/"value": 600,/"value": -600,/' hand.json >"$tmp/neg.json"
bad "a negative count" "$tmp/neg.json: events[0].counts[0].value: -600 is out of range" "$tmp/neg.json"
sed 's/"parent": null/"parent": "tma_nowhere"/' hand.json >"$tmp/parent.json"
bad "a parent that is not a metric" "$tmp/parent.json: metrics[0].parent: 'tma_nowhere' is not an earlier metric" "$tmp/parent.json"
echo '[1, 2]' >"$tmp/array.json"
bad "a document that is not an object" "$tmp/array.json: not a run file" "$tmp/array.json"
echo '{"a": 1}' >"$tmp/other.json"
bad "a JSON document that is not a run file" "$tmp/other.json: not a run file: no \"schema\" key" "$tmp/other.json"
bad "a directory" "$tmp: cannot read: Is a directory" "$tmp"
bad "a missing file" "$tmp/none.json: cannot read: No such file or directory" "$tmp/none.json"
sed 's/"schema": "hpmstat-run"/"schema": "a\\nb"/' hand.json >"$tmp/nl.json"
bad "a control character in a message stays on one line" "schema is 'a\\x0ab'" "$tmp/nl.json"
# a kind is "host" or a registered PMU model's name, "-fixed" for its fixed
# counters: a model nobody registered is refused
sed '0,/"kind": "kunminghu"/s//"kind": "nosuchpmu"/' hand.json >"$tmp/kind.json"
bad "a kind that names no PMU model" "$tmp/kind.json: events[0].kind: unknown kind 'nosuchpmu'" "$tmp/kind.json"
sed '0,/"kind": "kunminghu-fixed"/s//"kind": "nosuchpmu-fixed"/' hand.json >"$tmp/kindf.json"
bad "a fixed kind of no PMU model" "kind: unknown kind 'nosuchpmu-fixed'" "$tmp/kindf.json"
sed '0,/"kind": "kunminghu"/s//"kind": "-fixed"/' hand.json >"$tmp/kinde.json"
bad "'-fixed' alone is no kind" "kind: unknown kind '-fixed'" "$tmp/kinde.json"
# counts that cannot produce a metric: the node is n/a, not an error
sed 's/"running": 1000/"running": 0/g; s/"running": 500/"running": 0/g' hand.json >"$tmp/zero.json"
"$HPMSTAT" report "$tmp/zero.json" >"$tmp/out" 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q 'Topdown, hart0' "$tmp/out" && [ "$(grep -c 'n/a  % slots' "$tmp/out")" -ge 8 ]
ok $? "counts that never ran: the per-hart nodes are n/a"

# weights
echo '{"dram": 1}' >"$tmp/w1.json"
run_fails_with "weights: a run without a weight" "no weight for run 'int'" "$HPMSTAT" report --weights "$tmp/w1.json" dram.json int.json
echo '{"dram": 1, "int": 1, "typo": 1}' >"$tmp/w2.json"
run_fails_with "weights: a name that is no run" "'typo' is not the name of a run" "$HPMSTAT" report --weights "$tmp/w2.json" dram.json int.json
echo '{"dram": -1, "int": 1}' >"$tmp/w3.json"
run_fails_with "weights: a negative weight" "the weight of 'dram' must be a number >= 0" "$HPMSTAT" report --weights "$tmp/w3.json" dram.json int.json
echo '{"dram": 0, "int": 0}' >"$tmp/w4.json"
run_fails_with "weights: all zero" "the weights sum to 0" "$HPMSTAT" report --weights "$tmp/w4.json" dram.json int.json
echo '{"dram": 1,' >"$tmp/w5.json"
run_fails_with "weights: bad JSON" "$tmp/w5.json: not valid JSON" "$HPMSTAT" report --weights "$tmp/w5.json" dram.json int.json
run_fails_with "weights: two runs of one name" "two runs are named 'dram'" "$HPMSTAT" report --weights weights.json dram.json ./dram.json

# usage
usage() { # DESC NEEDLE ARGS...
	d=$1; n=$2; shift 2
	run_fails_with "$d" "$n" "$HPMSTAT" report "$@"
	[ "$rc" -eq 129 ] || { ok 1 "$d: exit 129"; diag "exit $rc"; }
}
usage "unknown option" "unknown option '--bogus'" --bogus hand.json
usage "--diff with one file" "--diff needs BASE and NEW" --diff hand.json
usage "--diff and other runs" "give no other run" --diff hand.json dram.json int.json
usage "--format without a value" "option '--format' needs a value" hand.json --format
run_fails_with "unknown format" "--format 'xml': must be text, csv, json, md or html" "$HPMSTAT" report --format xml hand.json
run_fails_with "bad level" "--level '4': must be 1 to 3" "$HPMSTAT" report --level 4 hand.json
"$HPMSTAT" report --help >"$tmp/out" 2>&1; [ $? -eq 0 ] && grep -q '^Usage: hpmstat report' "$tmp/out"; ok $? "--help"
"$HPMSTAT" report hand.json >/dev/full 2>"$tmp/err"; [ $? -ne 0 ] && grep -q 'error writing output' "$tmp/err"; ok $? "a write error is reported"

done_testing

#!/bin/sh
# tests/record/table.sh: the event table a recording's raw events are of.
# Detection cannot tell Kunminghu's two tables apart (both report marchid
# 0x19, mimpid 0), so hpmstat record writes the table it encoded with into
# perf.data (hpmstat's own feature section, which perf passes over by its
# size) and report reads it back:
# - report's header names the table of each recording (kunminghu-v2 and
#   kunminghu-v3, as `record --pmu` chose), --format json as pmu_model,
#   --format csv in a comment line before its header;
# - --pmu of the other table is refused with the reason, --pmu of the same
#   table (any of its names) is not;
# - a table this hpmstat does not know is read with one warning naming it;
# - report --topdown computes with the recorded table's formulas: the v3
#   recording's tree is kunminghu-v3's, though its event names are v2's too;
# - Debian's perf reads the files (report, script, evlist) with nothing on
#   stderr, as it does the same recording's pipe (which carries no table:
#   perf warns of a feature record it does not know);
# - report --diff of run files of two tables, or of two Topdown variants,
#   says in one line that the figures are not comparable; of two runs alike,
#   nothing.
. "$top_srcdir/tests/lib.sh"
H=$HPMSTAT
T=$(mktemp -d)
trap 'main_shell && rm -rf "$T" "$tap_out" "$tap_err"' EXIT
cd "$T" || exit 1
# a cycles proxy leads (mcycle cannot sample), as record's own hint says
GROUP='{me_freelist_1_4_valid+me_freelist_2_4_valid+me_freelist_3_4_valid+me_freelist_4_4_valid,cycles,Front_Bubble,rob_commitInstr,INST_SPEC+RECOVERY_BUBBLE}:S'

run_ok "record --backend emu --pmu kunminghu-v3" \
	"$H" record -q --backend emu --pmu kunminghu-v3 -e "$GROUP" -c 997 --emu-cycles 1e6 -o v3.data
run_ok "record --backend emu (kunminghu-v2, the default)" \
	"$H" record -q --backend emu -e "$GROUP" -c 997 --emu-cycles 1e6 -o v2.data

# the header
"$H" report -i v3.data --stdio >"$tap_out" 2>"$tap_err"
grep -qx '# PMU model: Kunminghu (kunminghu-v3) (the table of the recorded raw events)' "$tap_out"
ok $? "report's header names kunminghu-v3"
"$H" report -i v2.data --stdio >"$tap_out" 2>"$tap_err"
grep -qx '# PMU model: Kunminghu (kunminghu-v2) (the table of the recorded raw events)' "$tap_out"
ok $? "report's header names kunminghu-v2"
"$H" report -i v3.data --format json >"$T/v3.json" 2>"$tap_err"
out_is "report --format json: pmu_model" "kunminghu-v3" "$JSONCHECK" pmu_model <"$T/v3.json"
out_is "report --format json: pmu_table of v3" "kunminghu-v3" "$JSONCHECK" pmu_table <"$T/v3.json"
"$H" report -i v2.data --format json >"$T/v2.json" 2>"$tap_err"
out_is "report --format json: pmu_table of v2 (its model is plain kunminghu)" "kunminghu-v2" "$JSONCHECK" pmu_table <"$T/v2.json"
# the CSV's comment lines before its header name it too (perf's CSV has no
# place for it); every row after them is the table's
for t in v2 v3; do
	"$H" report -i $t.data --format csv >"$tap_out" 2>"$tap_err"
	sed -n '/^event,/q;p' "$tap_out" |
		grep -qx "# PMU model: Kunminghu (kunminghu-$t) (the table of the recorded raw events)"
	ok $? "report --format csv: a comment line before the header names kunminghu-$t"
done

# a table this hpmstat does not know (a newer hpmstat's, or a file edited):
# read, with one warning line naming it; a known table's file has none
LC_ALL=C sed 's/kunminghu-v3/kunminghu-v9/g' v3.data >v9.data
"$H" report -i v9.data --stdio >"$tap_out" 2>"$tap_err"
rc=$?
[ $rc -eq 0 ] && [ -s "$tap_out" ] && [ "$(wc -l <"$tap_err")" -eq 1 ] &&
	grep -qF "v9.data: the raw events are of the 'kunminghu-v9' table, which this hpmstat does not know" "$tap_err"
ok $? "report of a recording of an unknown table: one warning line naming it, exit 0"
[ $rc -eq 0 ] || diag "exit $rc" "$(head -3 "$tap_err")"
"$H" report -i v3.data --stdio >"$tap_out" 2>"$tap_err"
[ $? -eq 0 ] && [ ! -s "$tap_err" ]
ok $? "report of a kunminghu-v3 recording: no warning"

# --pmu of the other table
run_fails_with "report --pmu kunminghu of a kunminghu-v3 recording: refused" \
	"--pmu kunminghu: the perf.data's raw events are of the kunminghu-v3 table" \
	"$H" report -i v3.data --pmu kunminghu
run_fails_with "report --topdown --pmu kunminghu-v3 of a kunminghu-v2 recording: refused" \
	"--pmu kunminghu-v3: the perf.data's raw events are of the kunminghu table" \
	"$H" report -i v2.data --topdown --pmu kunminghu-v3
run_ok "report --pmu kunminghu-v2 (another name of the table) of a kunminghu-v2 recording" \
	"$H" report -i v2.data --pmu kunminghu-v2

# --topdown with the recorded table's formulas
"$H" report -i v3.data --topdown --format json >"$T/td3.json" 2>"$tap_err"
out_is "report --topdown of the kunminghu-v3 recording: kunminghu-v3's formulas" \
	"kunminghu-v3" "$JSONCHECK" topdown_model <"$T/td3.json"
"$H" report -i v2.data --topdown --format json >"$T/td2.json" 2>"$tap_err"
out_is "report --topdown of the kunminghu-v2 recording: kunminghu's formulas" \
	"kunminghu" "$JSONCHECK" topdown_model <"$T/td2.json"
"$H" report -i v3.data --topdown --stdio >"$tap_out" 2>"$tap_err"
grep -q "by the kunminghu-v3 model's formulas" "$tap_out"
ok $? "report --topdown --stdio names kunminghu-v3's formulas"

# Debian's perf reads the files without a word on stderr
if command -v perf >/dev/null 2>&1; then
	for f in v2.data v3.data; do
		for c in "report --stdio" "script" "evlist"; do
			# shellcheck disable=SC2086
			perf $c -i "$f" </dev/null >/dev/null 2>"$tap_err"
			rc=$?
			[ $rc -eq 0 ] && [ ! -s "$tap_err" ]
			ok $? "perf $c -i $f: exit 0, nothing on stderr"
			[ -s "$tap_err" ] && diag "$(head -3 "$tap_err")"
		done
	done
	"$H" record -q --backend emu --pmu kunminghu-v3 -e rob_commitInstr -c 997 \
		--emu-cycles 1e5 -o - >v3.pipe 2>/dev/null
	perf report --stdio -i - <v3.pipe >/dev/null 2>"$tap_err"
	rc=$?
	[ $rc -eq 0 ] && [ ! -s "$tap_err" ]
	ok $? "perf report -i - of a kunminghu-v3 pipe: exit 0, nothing on stderr"
	[ -s "$tap_err" ] && diag "$(head -3 "$tap_err")"
else
	ok 0 "# SKIP perf is not installed"
fi

# report --diff: another table, another variant, or neither
"$H" stat --record a.json --topdown=1 --emu-cycles 1e6 >/dev/null 2>&1 &&
	"$H" stat --record a2.json --topdown=1 --emu-cycles 1e6 --emu-seed 2 >/dev/null 2>&1 &&
	"$H" stat --record b.json --pmu kunminghu-v3 --topdown=1 --emu-cycles 1e6 >/dev/null 2>&1 &&
	"$H" stat --record c.json --topdown=1 --topdown-variant=slots --emu-cycles 1e6 >/dev/null 2>&1
ok $? "stat --record: kunminghu-v2 twice, kunminghu-v3, the slots variant"
# diff_warns DESC NEEDLE BASE NEW: exit 0, a report, one stderr line with NEEDLE
diff_warns() {
	"$H" report --diff "$3" "$4" >"$tap_out" 2>"$tap_err"
	rc=$?
	[ $rc -eq 0 ] && [ -s "$tap_out" ] && [ "$(wc -l <"$tap_err")" -eq 1 ] &&
		grep -qF -- "$2" "$tap_err"
	ok $? "$1"
	[ $rc -eq 0 ] || diag "exit $rc" "$(head -3 "$tap_err")"
}
diff_warns "report --diff of a kunminghu-v2 and a kunminghu-v3 run: one warning" \
	"--diff: a.json counts the kunminghu table's events and b.json the kunminghu-v3 table's: the figures are not comparable" \
	a.json b.json
diff_warns "report --diff of the document's and the slots variant: one warning" \
	"--diff: a.json's Topdown formulas are the document variant and c.json's the slots (--topdown-variant): the figures are not comparable" \
	a.json c.json
"$H" report --diff a.json a2.json >"$tap_out" 2>"$tap_err"
[ $? -eq 0 ] && [ -s "$tap_out" ] && [ ! -s "$tap_err" ]
ok $? "report --diff of two kunminghu-v2 runs of one variant: no warning"
done_testing

#!/bin/sh
# hpmstat report on bad perf.data files, written by gen-perfdata (see its
# header for each mode): a clear line and a non-zero exit where nothing can
# be reported; a file cut short reported as far as it is whole, said
# partial on stderr; what a newer perf writes skipped by size with a note.
# The expected reports are gen-perfdata's samples: cpu-clock, period 100,
# 0x1000 twice and 0x2000 once (66.67 % / 33.33 %).
. "$top_srcdir/tests/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$tap_out" "$tap_err"' EXIT
gen="$top_builddir/tests/samples/gen-perfdata"
for m in simple unknown zero beyond swapped pipe empty; do "$gen" $m "$tmp/$m.data"; done

run_fails_with "missing file" "$tmp/none.data: No such file or directory" \
	"$HPMSTAT" report -i "$tmp/none.data"
run_fails_with "missing --samples file" "No such file or directory" \
	"$HPMSTAT" report --samples "$tmp/none.data"
printf 'hello, not perf\n' >"$tmp/text.data"
run_fails_with "--samples on a text file" "not a perf.data file" \
	"$HPMSTAT" report --samples "$tmp/text.data"
: >"$tmp/zero-len.data"
run_fails_with "--samples on an empty file" "empty file" \
	"$HPMSTAT" report --samples "$tmp/zero-len.data"
run_fails_with "byte-swapped file refused" "other byte order" \
	"$HPMSTAT" report -i "$tmp/swapped.data"
head -c 60 "$tmp/simple.data" >"$tmp/hdr.data"
run_fails_with "header cut short" "truncated perf.data header" \
	"$HPMSTAT" report -i "$tmp/hdr.data"
"$HPMSTAT" report -i "$tmp/empty.data" >"$tap_out" 2>"$tap_err"; rc=$?
[ $rc -ne 0 ] && [ ! -s "$tap_out" ] && grep -q "no sample could be read" "$tap_err"
ok $? "data section cut off: no sample, non-zero exit"

expect() { # DESC FILE EVENT: the three samples' report
	"$HPMSTAT" report -i "$2" >"$tap_out" 2>"$tap_err"; rc=$?
	[ $rc -eq 0 ] && grep -q "66.67%.*0x0000000000001000" "$tap_out" &&
		grep -q "33.33%.*0x0000000000002000" "$tap_out" && grep -q "# Samples: 3  of event '$3'" "$tap_out"
	ok $? "$1"
}
expect "a good file" "$tmp/simple.data" cpu-clock
# no EVENT_DESC: the name perf's evsel__name makes of the attr, which
# excludes nothing, so perf adds H and G (exclude_guest is not its default)
expect "pipe mode (HEADER_ATTR) read" "$tmp/pipe.data" cpu-clock:HG
expect "unknown record type and feature skipped" "$tmp/unknown.data" cpu-clock
grep -q "skipped records of unknown type 200" "$tap_err" && grep -q "skipped feature 40" "$tap_err"
ok $? "the skips are said on stderr"
[ "$(grep -c "unknown type 200" "$tap_err")" -eq 1 ]; ok $? "once"

"$HPMSTAT" report -i "$tmp/zero.data" >"$tap_out" 2>"$tap_err"; rc=$?
[ $rc -eq 0 ] && grep -q "100.00%.*0x0000000000001000" "$tap_out" && grep -q "PARTIAL" "$tap_out" &&
	grep -q "size 0" "$tap_err" && grep -q "partial" "$tap_err"
ok $? "record of size 0: the sample before it, reported as partial"
"$HPMSTAT" report -i "$tmp/beyond.data" >"$tap_out" 2>"$tap_err"; rc=$?
[ $rc -eq 0 ] && grep -q "# Samples: 2 " "$tap_out" && grep -q "beyond the data section" "$tap_err" &&
	grep -q "partial" "$tap_err"
ok $? "record beyond the section: the two before it, partial"
# perf report's default input, a perf.data given as the run, -o (standard
# input not a pipe: a pipe there would be the input, as for perf report)
cp "$tmp/simple.data" "$tmp/perf.data"
(cd "$tmp" && "$HPMSTAT" report) </dev/null >"$tap_out" 2>"$tap_err"
grep -q "66.67%.*0x0000000000001000" "$tap_out"; ok $? "no input: ./perf.data, as perf report"
rm "$tmp/perf.data"
(cd "$tmp" && "$HPMSTAT" report) </dev/null >"$tap_out" 2>"$tap_err"; rc=$?
# perf report's words (perf exits 255 there) and hpmstat's hint, one line
[ $rc -eq 1 ] && [ ! -s "$tap_out" ] && [ "$(wc -l <"$tap_err")" -eq 1 ] &&
	grep -qx "hpmstat report: failed to open perf.data: No such file or directory (try 'hpmstat record' first)" "$tap_err"
ok $? "no input and no ./perf.data: perf's message and a hint to record first, status 1"
if command -v perf >/dev/null 2>&1; then
	(cd "$tmp" && perf report) </dev/null >/dev/null 2>"$tmp/perf.err"
	grep -q "failed to open perf.data: No such file or directory" "$tmp/perf.err"
	ok $? "... the words perf report says there"
else
	skip "perf is not installed"
fi
"$HPMSTAT" report "$tmp/simple.data" >"$tap_out" 2>"$tap_err"
grep -q "66.67%.*0x0000000000001000" "$tap_out"; ok $? "a perf.data given as RUN: its samples"
"$HPMSTAT" report -i "$tmp/simple.data" --format csv -o "$tmp/r.csv" >"$tap_out" 2>"$tap_err"
[ ! -s "$tap_out" ] && grep -q "^cpu-clock,66.67,2,200,prog,,\[unknown\],0x0000000000001000,user$" "$tmp/r.csv"
ok $? "-o FILE: the CSV there"
run_fails_with "-o over the input refused" "refusing to overwrite" \
	"$HPMSTAT" report -i "$tmp/simple.data" -o "$tmp/simple.data"
# hpmstat record's file (a dozen feature sections) cut right after the
# table of feature sections: the samples are reported, and what is lost is
# said in one line for all the sections, then that the report is partial
"$HPMSTAT" record -q -e cpu-clock -o "$tmp/rec.data" -- sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done' 2>/dev/null
cut=$(python3 -c '
import struct, sys
h = open(sys.argv[1], "rb").read(104)
off, size = struct.unpack_from("<QQ", h, 40)
feats = bin(int.from_bytes(h[72:104], "little")).count("1")
print(off + size + 16 * feats)' "$tmp/rec.data")
head -c "$cut" "$tmp/rec.data" >"$tmp/recut.data"
"$HPMSTAT" report -i "$tmp/recut.data" >"$tap_out" 2>"$tap_err"; rc=$?
[ $rc -eq 0 ] && grep -q "^# Samples:" "$tap_out" && [ "$(wc -l <"$tap_err")" -eq 2 ] &&
	grep -q "the feature sections build_id, hostname, .* lie beyond the end of the file: not read" "$tap_err" &&
	grep -q "partial: the report shows what could be read" "$tap_err"
ok $? "features cut off: the samples reported, one line for the lost sections, one for partial"
[ $? -eq 0 ] || diag "exit $rc" "$(cat "$tap_err")"

# every truncation of a good file: never a crash, exit 0 or 1 only
sz=$(wc -c <"$tmp/simple.data"); bad=0; n=0
while [ $n -lt "$sz" ]; do
	head -c $n "$tmp/simple.data" >"$tmp/cut.data"
	"$HPMSTAT" report -i "$tmp/cut.data" >/dev/null 2>&1; rc=$?
	[ $rc -le 1 ] || { bad=1; diag "cut at $n: exit $rc"; }
	n=$((n + 7))
done
ok $bad "every truncation: a report or one error, never a crash"
# run files keep their report and their errors
run_fails_with "--sort on a run file" "--sort applies to a perf.data" \
	"$HPMSTAT" report --sort dso "$top_srcdir/tests/report/hand.json"
run_fails_with "bad --sort key" "unknown key 'bogus'" "$HPMSTAT" report -i "$tmp/simple.data" --sort bogus
done_testing

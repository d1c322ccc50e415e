#!/bin/sh
# hpmstat report --format csv read back by a real CSV parser (python3's csv
# module, RFC 4180 with \r\n row ends): the header, the same number of
# fields in every row, numbers with a '.' decimal point, and names that
# need quoting (a comma, a quote, a line break) read back as they were.
. "$top_srcdir/tests/lib.sh"
src="$top_srcdir/tests/report"
if ! command -v python3 >/dev/null 2>&1; then
	skip_all "python3 is not installed"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$tap_out" "$tap_err"' EXIT

cat >"$tmp/check.py" <<'PY'
import csv, sys
# check.py FILE [KEY=VALUE...]: parse FILE strictly; KEY=VALUE: some row has it
rows = list(csv.reader(open(sys.argv[1], newline=""), strict=True))
head, body = rows[0], rows[1:]
assert len(body) > 0, "no rows"
for r in body:
    assert len(r) == len(head), "row of %d fields, header has %d: %r" % (len(r), len(head), r)
for name in ("value", "rel_stddev", "time", "base", "new", "diff", "se_base", "se_new"):
    if name in head:
        i = head.index(name)
        for r in body:
            if r[i] != "":
                assert "," not in r[i]
                float(r[i])
for kv in sys.argv[2:]:
    k, v = kv.split("=", 1)
    v = v.replace("\\n", "\n")
    assert any(r[head.index(k)] == v for r in body), "no row with %s=%r" % (k, v)
print(len(body))
PY

check() { # DESC EXPECTED-ROWS CSV-FILE [KEY=VALUE...]
	d=$1; n=$2; f=$3; shift 3
	got=$(python3 "$tmp/check.py" "$f" "$@" 2>&1)
	if [ "$got" = "$n" ]; then ok 0 "$d"; else ok 1 "$d"; diag "$got"; fi
}
cd "$src" || exit 1
"$HPMSTAT" report --format csv hand.json >"$tmp/hand.csv"
# 4 nodes x 3 units (all, hart0, hart1) x 3 periods (the run, 2 intervals)
check "hand: 36 rows, per hart and interval" 36 "$tmp/hand.csv" hart=hart1 interval=1 value=30
"$HPMSTAT" report --format csv --weights weights.json dram.json int.json hand.json >"$tmp/suite.csv"
# dram 15 + int 10 x 3 + hand 36 + weighted 15
check "suite: runs and the weighted summary" 96 "$tmp/suite.csv" "run=(weighted)" run=int
"$HPMSTAT" report --format csv --diff rep-a.json rep-b.json >"$tmp/diff.csv"
check "diff: one row per node" 10 "$tmp/diff.csv" noise=above noise=within
"$HPMSTAT" report --format csv --level 1 dram.json >"$tmp/l1.csv"
check "--level 1: the level-1 nodes" 4 "$tmp/l1.csv" level=1
cp hand.json "$tmp/a,b\"c.json"
"$HPMSTAT" report --format csv "$tmp/a,b\"c.json" >"$tmp/q.csv"
check "a run name with a comma and a quote" 36 "$tmp/q.csv" 'run=a,b"c'
nl='x
y'
cp hand.json "$tmp/$nl.json"
"$HPMSTAT" report --format csv "$tmp/$nl.json" >"$tmp/nl.csv"
check "a run name with a line break" 36 "$tmp/nl.csv" 'run=x\ny'
grep -q "$(printf '\r')\$" "$tmp/hand.csv"; ok $? "rows end in CRLF"
# every row of an emulated run says so, as the JSON report's "emulated" key
# and stat's labels do (issue 33 item 2); the weighted summary row leaves it
# empty (it mixes runs)
"$HPMSTAT" report --format json hand.json >"$tmp/hand.json"
e=$(python3 -c 'import json,sys; print(int(json.load(open(sys.argv[1]))["runs"][0]["emulated"]))' "$tmp/hand.json" 2>&1)
col=$(python3 -c 'import csv,sys; r=list(csv.DictReader(open(sys.argv[1], newline=""))); print(",".join(sorted(set(x["emulated"] for x in r))))' "$tmp/hand.csv" 2>&1)
[ "$e" = 1 ] && [ "$col" = 1 ]
ok $? "emulated: every row of an emulated run is 1, as the JSON report's emulated (JSON $e, CSV $col)"
col=$(python3 -c 'import csv,sys; r=list(csv.DictReader(open(sys.argv[1], newline=""))); print(",".join(sorted(set(x["emulated"] for x in r if x["run"] == "(weighted)"))))' "$tmp/suite.csv" 2>&1)
[ "$col" = "" ]; ok $? "the weighted summary's rows leave emulated empty ($col)"
done_testing

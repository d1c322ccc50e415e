#!/bin/sh
# tests/record/report-formats.sh: report's CSV, JSON, Markdown and HTML
# formats of a -g file carry the text's Children and Self (perf's default
# with call chains), entry for entry:
# - identity: each format's rows (Children, Self, command, shared object,
#   symbol) are the text's rows, in the text's order, the callers without
#   samples of their own included;
# - perf: the rows are perf report --stdio --children's on the same file
#   (Debian's perf 6.1 reads hpmstat's file), as a set (perf orders equal
#   Children by its own graph rules; callgraph.sh checks the text's order);
# - --no-children: the formats have no Children and only the functions
#   with samples, as the text;
# - --percent-limit hides in every format the entries the text hides;
# - -q prints perf report -q's lines.
# The program is tests/record/tree.c (main -> a|b -> leaf).
. "$top_srcdir/tests/lib.sh"
R=$top_srcdir/tests/record
# hpm_report: hpmstat report past LeakSanitizer's own failures
. "$R/report-lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 not installed"
tree_scratch
if ! "$HPMSTAT" record -q -g -e cpu-clock -o g.data ./tree 2>rec.err; then
	skip_all "cannot sample here: $(head -1 rec.err)"
fi

# rows FORMAT FILE: "CHILDREN SELF COMM DSO SYM" a row ("-" for no Children)
cat >rows.py <<'PY'
import csv, html, json, re, sys
fmt, path = sys.argv[1], sys.argv[2]
text = open(path).read()
out = []
def pct(v):
    return "%.2f" % float(str(v).rstrip("%"))
if fmt == "text":
    for l in text.splitlines():
        m = re.match(r"^ +([0-9.]+)% +([0-9.]+)% +(\S+) +(\S+) +\[[.k]\] (.*?)\s*$", l)
        if m:
            out.append([m[1], m[2], m[3], m[4], m[5]])
        else:
            m = re.match(r"^ +([0-9.]+)% +(\S+) +(\S+) +\[[.k]\] (.*?)\s*$", l)
            if m:
                out.append(["-", m[1], m[2], m[3], m[4]])
elif fmt == "csv":
    for r in csv.DictReader(text.splitlines()):
        out.append([pct(r["children"]) if "children" in r else "-", pct(r["overhead"]),
                    r["command"], r["shared_object"], r["symbol"]])
elif fmt == "json":
    for e in json.loads(text)["events"][0]["entries"]:
        out.append([pct(e["children"]) if "children" in e else "-", pct(e["overhead"]),
                    e["command"], e["shared_object"], e["symbol"]])
elif fmt in ("md", "html"):
    if fmt == "md":
        lines = [l for l in text.splitlines() if l.startswith("|")]
        cells = [[c.strip().replace("\\", "") for c in l.strip("|").split("|")] for l in lines]
        head, body = cells[0], cells[2:]
    else:
        table = text[text.index("<table>"):text.index("</table>")]
        head = re.findall(r"<th>(.*?)</th>", table)
        body = [[html.unescape(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", r)]
                for r in re.findall(r"<tr>(.*?)</tr>", table)[1:]]
    for c in body:
        d = dict(zip(head, c))
        out.append([pct(d["Children"]) if "Children" in d else "-",
                    pct(d.get("Self", d.get("Overhead"))), d["Command"], d["Shared Object"],
                    re.sub(r"^\[[.k]\] ", "", d["Symbol"])])
for r in out:
    print(" ".join(r))
PY

for mode in children no-children; do
	hpm_report r.text -i g.data --$mode
	python3 rows.py text r.text >t.rows
	for f in csv json md html; do
		hpm_report r.$f -i g.data --$mode --format $f
		python3 rows.py $f r.$f >f.rows 2>rows.err
		[ $rc -eq 0 ] && [ -s t.rows ] && cmp -s t.rows f.rows
		ok $? "--$mode --format $f: the text's rows ($(wc -l <t.rows) entries)"
		[ $rc -eq 0 ] || diag "exit $rc" "$(head -3 rep.err)"
		cmp -s t.rows f.rows || diag "$(diff t.rows f.rows | head -6)" "$(head -2 rows.err)"
	done
	case $mode in
	children) awk '$1 == "-" { bad = 1 } END { exit bad || NR == 0 }' t.rows &&
		awk '$2 == "0.00" { n++ } END { exit !n }' t.rows
		ok $? "--children: every entry has Children, the callers without samples of their own too" ;;
	*) awk '$1 != "-" || $2 == "0.00" { bad = 1 } END { exit bad || NR == 0 }' t.rows
		ok $? "--no-children: no Children, only entries with samples" ;;
	esac
done

# perf report's Children and Self of the same file
if command -v perf >/dev/null 2>&1; then
	hpm_report r.csv -i g.data --format csv
	python3 rows.py csv r.csv | grep -v '@plt' | sort >h.rows
	perf report -i g.data --stdio --children -g none --no-inline </dev/null 2>/dev/null >p.text
	python3 rows.py text p.text | grep -v '@plt' | sort >p.rows
	[ -s p.rows ] && cmp -s p.rows h.rows
	ok $? "CSV: perf report --children's Children and Self, entry for entry ($(wc -l <p.rows) entries)"
	cmp -s p.rows h.rows || diag "$(diff p.rows h.rows | head -6)"
else
	skip "perf not installed"
fi

# -q: perf report -q's lines (its --stdio without the '#' lines), byte for
# byte but for PLT rows (callgraph.sh says why)
if command -v perf >/dev/null 2>&1; then
	for mode in children no-children; do
		perf report -i g.data -q --stdio --no-inline --$mode </dev/null 2>/dev/null | grep -v '@plt' >p.q
		hpm_report h.q.all -i g.data -q --$mode
		grep -v '@plt' h.q.all >h.q
		[ $rc -eq 0 ] && [ -s p.q ] && cmp -s p.q h.q
		ok $? "-q --$mode: perf report -q's lines"
		[ $rc -eq 0 ] || diag "exit $rc" "$(head -3 rep.err)"
		cmp -s p.q h.q || diag "$(diff p.q h.q | head -6)" "$(head -2 rep.err)"
	done
else
	skip "perf not installed"
fi

# --percent-limit: the same entries hidden as in the text
"$HPMSTAT" report -i g.data --percent-limit 50 </dev/null >r.text 2>/dev/null
python3 rows.py text r.text >t.rows
bad=0
for f in csv json md html; do
	"$HPMSTAT" report -i g.data --percent-limit 50 --format $f </dev/null >r.$f 2>/dev/null
	python3 rows.py $f r.$f >f.rows 2>/dev/null
	cmp -s t.rows f.rows || bad=1
done
[ $bad -eq 0 ] && [ -s t.rows ]
ok $? "--percent-limit 50: every format shows the text's $(wc -l <t.rows) entries"
done_testing

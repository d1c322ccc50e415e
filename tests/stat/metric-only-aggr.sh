#!/bin/sh
# tests/stat/metric-only-aggr.sh: --metric-only with an aggregation mode
# prints a row per aggregate, as perf does, in std, CSV and JSON:
# - the default events' metrics (no -M): the rows' ids and their
#   aggregate-number are perf 6.1's for `perf stat --metric-only MODE -a`
#   (--per-core, --per-socket, --per-node, -A), and CSV's header fields
#   before the metrics are perf's ("core,cpus,", "cpu,");
# - Topdown on the emulator (fixed seed, 2 harts) with -A: each hart's row
#   holds the values of that hart's -A metric rows of the same run without
#   --metric-only (an identity), and no total row, as perf prints no total
#   with -A.
. "$top_srcdir/tests/lib.sh"
H=$HPMSTAT
scratch_dir
E="--emu-seed 7 --emu-harts 2 --emu-cycles 200000"

# ---- the default events' metrics, against perf 6.1
# ids FILE FORMAT: "ID NR" of each row (NR: the aggregate-number, or -)
ids() {
	case $2 in
	std) awk '/^(S[0-9]|N[0-9]|CPU[0-9])/ { print $1, ($2 ~ /^[0-9]+$/ ? $2 : "-") }' "$1" ;;
	csv) awk -F, '/^(S[0-9]|N[0-9]|CPU[0-9])/ { print $1, ($2 ~ /^[0-9]+$/ ? $2 : "-") }' "$1" ;;
	# perf 6.1's metric-only JSON is not JSON: its prefix keys by pattern
	json) sed -n 's/^{"\(core\|socket\|node\|cpu\)" : "\([^"]*\)"\(, "aggregate-number" : \([0-9]*\)\)\{0,1\}.*/\2 \4/p' "$1" |
		awk '{ id = $1; if ($1 ~ /^[0-9]+$/) id = "CPU" $1; print id, ($2 == "" ? "-" : $2) }' ;;
	esac
}
if command -v perf >/dev/null 2>&1 && perf stat -a -e task-clock -- true >/dev/null 2>&1; then
	for mode in --per-core --per-socket --per-node -A; do
		for f in std csv json; do
			case $f in std) o= ;; csv) o=-x, ;; json) o=-j ;; esac
			perf stat --metric-only $mode -a $o -- sleep 0.1 </dev/null 2>"$dir/p.$f" >/dev/null
			"$H" stat --metric-only $mode -a $o -- sleep 0.1 2>"$dir/h.$f" >/dev/null
			rc=$?
			ids "$dir/p.$f" $f >"$dir/p.ids"
			ids "$dir/h.$f" $f >"$dir/h.ids"
			[ $rc -eq 0 ] && [ -s "$dir/p.ids" ] && cmp -s "$dir/p.ids" "$dir/h.ids"
			ok $? "--metric-only $mode -a, $f: a row per aggregate, perf's ids ($(tr '\n' ' ' <"$dir/p.ids"))"
			[ -s "$dir/h.ids" ] || diag "$(cat "$dir/h.$f")"
		done
		# CSV's header: the prefix fields' names before the metrics
		# (perf 6.1 writes no metric names after them)
		prefix_fields() { head -1 "$1" | tr ',' '\n' | grep -xE 'core|socket|die|node|cpu|cpus' | paste -sd, -; }
		p=$(prefix_fields "$dir/p.csv") h=$(prefix_fields "$dir/h.csv")
		[ -n "$p" ] && [ "$p" = "$h" ]
		ok $? "--metric-only $mode -x,: the header starts as perf's ($p)"
	done
else
	skip "perf stat -a cannot count here"
fi

# ---- Topdown with -A on the emulator: each hart's own values
"$H" stat $E -A --topdown -x, 2>"$dir/a.csv" >/dev/null
# "hartN VALUE..." in node order, from the plain -A metric rows
grep -v '^#' "$dir/a.csv" | awk -F, '$1 ~ /^hart/ && $(NF-1) != "" { v[$1] = v[$1] " " $(NF-1); if (!($1 in seen)) { seen[$1]; o[++n] = $1 } }
	END { for (i = 1; i <= n; i++) print o[i] v[o[i]] }' >"$dir/a.t"
"$H" stat $E -A --topdown --metric-only 2>"$dir/m.std" >/dev/null
rc=$?
sed 's/ <==//; s/  \[emu\]$//' "$dir/m.std" | awk '/^ *hart[0-9]/ { $1 = $1; print }' >"$dir/m.t"
[ $rc -eq 0 ] && [ "$(wc -l <"$dir/a.t")" -eq 2 ] && cmp -s "$dir/a.t" "$dir/m.t"
ok $? "-A --topdown --metric-only, std: a row per hart, its -A values (exit $rc)"
[ -s "$dir/m.t" ] || diag "$(tail -5 "$dir/m.std")"
"$H" stat $E -A --topdown --metric-only -x, 2>"$dir/m.csv" >/dev/null
rc=$?
grep -v '^#' "$dir/m.csv" | awk -F, 'NR == 1 { ok = $1 == "cpu"; next } { s = $1; for (i = 2; i <= NF; i++) s = s " " $i; print s } END { exit !ok }' >"$dir/m.t"
[ $? -eq 0 ] && [ $rc -eq 0 ] && cmp -s "$dir/a.t" "$dir/m.t"
ok $? "-A --topdown --metric-only -x,: a 'cpu,' header, a row per hart, its -A values (exit $rc)"
"$H" stat $E -A --topdown --metric-only -j 2>"$dir/m.json" >/dev/null
python3 -c '
import json, sys
rows = {}
for l in open(sys.argv[1]):
    r = json.loads(l)
    if "cpu" not in r:
        sys.exit("a row without a cpu: %s" % l.strip())
    rows.setdefault("hart" + r["cpu"], []).append("%.2f" % r["metric-value"])
for h in rows:
    print(h, " ".join(rows[h]))' "$dir/m.json" >"$dir/m.t" 2>"$tap_err"
[ $? -eq 0 ] && cmp -s "$dir/a.t" "$dir/m.t"
ok $? "-A --topdown --metric-only -j: each hart's rows, no total $(cat "$tap_err")"
done_testing

#!/bin/sh
# Topdown and -M metrics under the aggregation modes, as perf prints them:
# per id, no total. Identities on the emulator (fixed seed, 4 harts): the
# --per-core tree of core n is the -A tree of hart n, value for value, in
# std, CSV and JSON; the one --per-socket id's tree is the run's total tree;
# --metric-only rows per id the same; -I intervals per id too (each core's
# IPC against its own counts). CSV metric rows have the event rows' field count and
# perf 6.1's commachecker (stat+csv_output.sh) accepts them; perf 6.1's
# JSON linter accepts the JSON rows. Where metrics cannot be per id (-r),
# the totals and one note line.
. "$top_srcdir/tests/lib.sh"
H=$HPMSTAT
scratch_dir
E="--emu-harts 4 --emu-seed 7 --emu-cycles 1000000"

# perf 6.1's shell tests: unpacked, or from Debian's linux-source-6.1
shell=
for d in "${PERF_SHELL_TESTS:-}" /work/perf-src/linux-source-6.1/tools/perf/tests/shell \
	/usr/src/linux-source-6.1/tools/perf/tests/shell; do
	[ -n "$d" ] && [ -f "$d/lib/perf_json_output_lint.py" ] && [ -f "$d/stat+csv_output.sh" ] &&
		shell=$d && break
done
if [ -z "$shell" ] && [ -f /usr/src/linux-source-6.1.tar.xz ]; then
	tar -xJf /usr/src/linux-source-6.1.tar.xz -C "$dir" \
		linux-source-6.1/tools/perf/tests/shell/lib/perf_json_output_lint.py \
		linux-source-6.1/tools/perf/tests/shell/stat+csv_output.sh 2>/dev/null &&
		shell="$dir/linux-source-6.1/tools/perf/tests/shell"
fi

# "ID NAME VALUE" of each metric row; ID: the hart or core number, "total"
# for a tree under no id header
tree_std() { awk '/^ (hart|S0-D0-C|S)[0-9]+:$/ { id = $1; sub(/^(hart|S0-D0-C|S)/, "", id); sub(/:$/, "", id); next }
	/\[emu\]/ && NF >= 4 && $2 ~ /^[0-9.]+$/ && $1 !~ /^[0-9]/ { print (id == "" ? "total" : id), $1, $2 }' "$1"; }
# CSV: ID (hart or core number, "all" for -A's total), metric name, value
tree_csv() { grep -v '^#' "$1" | awk -F, '$(NF-1) != "" && $3 == "" {
	id = $1; sub(/^(hart|S0-D0-C|S)/, "", id); n = split($NF, u, " "); print id, u[n], $(NF-1) }'; }
# JSON: ID (hart or core number, "total" for a row without one), metric, value
tree_json() { python3 -c '
import json, re, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if "metric" not in r:
        continue
    i = r.get("hart", r.get("core", r.get("socket", "total")))
    print(re.sub(r"^(S0-D0-C|S)", "", str(i)), r["metric"], "%.6f" % r["metric-value"])' "$1" 2>/dev/null; }

# ---- std
$H stat $E -A --topdown=2 2>"$dir/a.std" >/dev/null
$H stat $E --per-core --topdown=2 2>"$dir/c.std" >/dev/null
ok $? "--per-core --topdown=2 exits 0"
grep -v '^total ' "$(tree_std "$dir/a.std" >"$dir/a.t"; echo "$dir/a.t")" >"$dir/a.units"
tree_std "$dir/c.std" >"$dir/c.t"
[ -s "$dir/a.units" ] && [ "$(wc -l <"$dir/a.units")" -eq 40 ] && cmp -s "$dir/a.units" "$dir/c.t"
ok $? "std: each core's tree is its hart's -A tree, value for value ($(wc -l <"$dir/c.t") rows)"
[ -s "$dir/c.t" ] || diag "$(cat "$dir/c.std")"
grep -q '^total ' "$dir/c.t"; [ $? -ne 0 ] && [ "$(grep -c '^ S0-D0-C[0-9]*:$' "$dir/c.std")" -eq 4 ]
ok $? "std: no total tree, one 'S0-D0-Cn:' header per core"

$H stat $E --topdown=2 2>"$dir/t.std" >/dev/null
$H stat $E --per-socket --topdown=2 2>"$dir/s.std" >/dev/null
tree_std "$dir/t.std" | sed 's/^total /0 /' >"$dir/t.t"
tree_std "$dir/s.std" >"$dir/s.t"
[ -s "$dir/t.t" ] && cmp -s "$dir/t.t" "$dir/s.t" && grep -q '^ S0:$' "$dir/s.std"
ok $? "std: the --per-socket tree under 'S0:' is the run's total tree"

# ---- CSV
$H stat $E -A --topdown=2 -x, 2>"$dir/a.csv" >/dev/null
$H stat $E --per-core --topdown=2 -x, 2>"$dir/c.csv" >/dev/null
tree_csv "$dir/a.csv" | grep -v '^all ' >"$dir/a.units"
tree_csv "$dir/c.csv" >"$dir/c.t"
[ "$(wc -l <"$dir/a.units")" -eq 40 ] && cmp -s "$dir/a.units" "$dir/c.t"
ok $? "CSV: each core's metrics are its hart's -A metrics"
grep -v '^#' "$dir/c.csv" | awk -F, '$1 !~ /^S0-D0-C[0-3]$/ || $2 != 1 {bad = 1} END {exit bad || NR != 40}'
ok $? "CSV: every metric row starts with perf's prefix fields, 'S0-D0-Cn,1,'"
$H stat $E --topdown=2 -x, 2>"$dir/t.csv" >/dev/null
$H stat $E --per-socket --topdown=2 -x, 2>"$dir/s.csv" >/dev/null
tree_csv "$dir/t.csv" | sed 's/^[^ ]* //' >"$dir/t.t"
tree_csv "$dir/s.csv" | sed 's/^0 //' >"$dir/s.t"
[ -s "$dir/t.t" ] && cmp -s "$dir/t.t" "$dir/s.t" &&
	grep -v '^#' "$dir/s.csv" | awk -F, '$1 != "S0" || $2 != 4 {bad = 1} END {exit bad}'
ok $? "CSV: the --per-socket metrics (S0,4,) are the run's totals"

# the event rows and the metric rows of one run: one field count
for m in core socket; do
	$H stat $E --per-$m --topdown -e mcycle,minstret -x, 2>"$dir/f.csv" >/dev/null
	grep -v '^#' "$dir/f.csv" | awk -F, '{n[NF]++; if ($3 != "") ev++; else me++}
		END {k = 0; for (f in n) k++; exit !(k == 1 && ev && me)}'
	ok $? "CSV --per-$m: event rows and metric rows have one field count ($(grep -v '^#' "$dir/f.csv" | awk -F, '{print NF}' | sort -u | tr '\n' ' '))"
	if [ -n "$shell" ] && command -v bash >/dev/null 2>&1; then
		# perf's own function, from its script; its readers skip '#' lines
		sed -n '/^function commachecker()/,/^}/p' "$shell/stat+csv_output.sh" >"$dir/cc.sh"
		grep -v '^#' "$dir/f.csv" | bash -c ". '$dir/cc.sh'; commachecker --per-$m" 2>"$tap_err"
		ok $? "perf 6.1's commachecker --per-$m accepts the CSV rows $(cat "$tap_err")"
	else
		skip "no perf 6.1 stat+csv_output.sh (linux-source-6.1) or bash"
	fi
done

# ---- JSON
$H stat $E -A --topdown=2 -j --json-extra 2>"$dir/a.json" >/dev/null
$H stat $E --per-core --topdown=2 -j --json-extra 2>"$dir/c.json" >/dev/null
tree_json "$dir/a.json" | grep -v '^total ' >"$dir/a.units"
tree_json "$dir/c.json" >"$dir/c.t"
[ "$(wc -l <"$dir/a.units")" -eq 40 ] && cmp -s "$dir/a.units" "$dir/c.t"
ok $? "JSON: each core's metrics are its hart's -A metrics"
python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if "metric" in l]
sys.exit(not rows or not all(r.get("core", "").startswith("S0-D0-C") and r.get("aggregate-number") == 1 for r in rows))' "$dir/c.json" 2>/dev/null
ok $? "JSON: every metric row carries \"core\" and \"aggregate-number\" : 1"
$H stat $E --topdown=2 -j --json-extra 2>"$dir/t.json" >/dev/null
$H stat $E --per-socket --topdown=2 -j --json-extra 2>"$dir/s.json" >/dev/null
tree_json "$dir/t.json" | sed 's/^total //' >"$dir/t.t"
tree_json "$dir/s.json" | sed 's/^0 //' >"$dir/s.t"
[ -s "$dir/t.t" ] && cmp -s "$dir/t.t" "$dir/s.t"
ok $? "JSON: the --per-socket metrics are the run's totals"

# perf 6.1's linter, on the rows without the keys hpmstat-stat(1) documents
# beyond perf's (the emulator's and the Topdown ones, which it does not know)
extra=emulated,emu-profile,emu-trace,emu-seed,emu-partial,emu-cycles,emu-cycles-wanted
extra=$extra,metric,topdown-level,bottleneck,out-of-range,out-of-range-by,multiplexed,desc
for m in core socket; do
	$H stat $E --per-$m --topdown -e mcycle,minstret -j 2>"$dir/l.json" >/dev/null
	python3 "$top_srcdir/tests/stat/perf-json-rows.py" --mode $m --extra-keys $extra <"$dir/l.json" >"$tap_err" 2>&1
	ok $? "JSON --per-$m: perf's keys keep perf's row rules $(cat "$tap_err")"
	if [ -n "$shell" ]; then
		python3 -c '
import json, sys
extra = set(sys.argv[1].split(","))
for line in sys.stdin:
    r = json.loads(line)
    print(json.dumps({k: v for k, v in r.items() if k not in extra}))' "$extra" <"$dir/l.json" >"$dir/l2.json" 2>/dev/null
		[ -s "$dir/l2.json" ] && grep -q '"metric-unit": "% slots' "$dir/l2.json" &&
			python3 "$shell/lib/perf_json_output_lint.py" --per-$m <"$dir/l2.json" >"$tap_err" 2>&1
		ok $? "perf 6.1's perf_json_output_lint.py --per-$m accepts the rows $(tail -1 "$tap_err")"
	else
		skip "no perf 6.1 perf_json_output_lint.py (linux-source-6.1)"
	fi
done

# ---- --metric-only: one row per id, its values the hart's -A ones
$H stat $E -A --topdown -x, 2>"$dir/a1.csv" >/dev/null
tree_csv "$dir/a1.csv" | grep -v '^all ' | awk '{print $1, ++c[$1], $3}' >"$dir/a1.t"
$H stat $E --per-core --topdown --metric-only -x, 2>"$dir/mo.csv" >/dev/null
grep -v '^#' "$dir/mo.csv" | awk -F, 'NR == 1 {ok = $1 == "core" && $2 == "cpus"; next}
	{id = $1; sub(/^S0-D0-C/, "", id); for (i = 3; i <= NF; i++) print id, i - 2, $i} END {exit !ok}' >"$dir/mo.t"
[ $? -eq 0 ] && [ "$(wc -l <"$dir/a1.t")" -eq 16 ] && cmp -s "$dir/a1.t" "$dir/mo.t"
ok $? "--metric-only -x,: a 'core,cpus,' header, each core's row its hart's -A values"
$H stat $E --per-core --topdown --metric-only 2>"$dir/mo.std" >/dev/null
grep '^S0-D0-C' "$dir/mo.std" | sed 's/ <==//g' | awk '{id = $1; sub(/^S0-D0-C/, "", id)
	for (i = 3; i <= NF && $i != "[emu]"; i++) print id, i - 2, $i}' >"$dir/mo.t"
cmp -s "$dir/a1.t" "$dir/mo.t"
ok $? "--metric-only std: each core's row (after its prefix columns) its hart's -A values"

# ---- -I: each interval's metrics per core, with the id's prefix columns;
# IPC (-M ipc) of core n is hart n's instructions over its cycles
$H stat $E --emu-freq 10e6 -I 40 --per-core -M ipc -e mcycle,minstret -x, 2>"$dir/i.csv" >/dev/null
awk -F, '!/^#/ && $1 != "" { t = $1; id = $2
	if ($6 == "mcycle") cyc[t, id] = $4
	else if ($6 == "minstret") ins[t, id] = $4
	else if ($NF ~ / ipc$/) { ipc[t, id] = $(NF-1); n++ } }
	END { if (n < 8) exit 1
	for (k in ipc) { w = sprintf("%.2f", ins[k] / cyc[k]); if (w != ipc[k]) exit 1 }; exit 0 }' "$dir/i.csv"
ok $? "-I --per-core -x,: each interval's IPC of a core is its own minstret / mcycle ($(grep -c ' ipc$' "$dir/i.csv") rows)"
grep -v '^#' "$dir/i.csv" | awk -F, '{print NF}' | sort -u >"$tap_err"
[ "$(wc -l <"$tap_err")" -eq 1 ]
ok $? "-I --per-core -x,: event and metric rows have one field count ($(tr '\n' ' ' <"$tap_err"))"
$H stat $E --emu-freq 10e6 -I 40 --per-core --topdown 2>"$dir/i.std" >/dev/null
grep -q 'S0-D0-C3           1    Retiring' "$dir/i.std" && ! grep -q '^ *[0-9.]*    *Retiring' "$dir/i.std"
ok $? "-I --per-core std: every metric row has the id's prefix columns"

# ---- -r: per-unit metrics are one run's: the totals, and a note
$H stat $E -r 2 --per-core --topdown 2>"$dir/r.std" >/dev/null
$H stat $E -r 2 --topdown 2>"$dir/rt.std" >/dev/null
tree_std "$dir/r.std" >"$dir/r.t"
tree_std "$dir/rt.std" >"$dir/rt.t"
[ -s "$dir/r.t" ] && cmp -s "$dir/r.t" "$dir/rt.t" &&
	[ "$(grep -c "metrics are the whole run's" "$dir/r.std")" -eq 1 ]
ok $? "-r 2 --per-core std: the run's total tree and one note line"
$H stat $E -r 2 --per-core --topdown -x, 2>"$dir/r.csv" >/dev/null
[ "$(grep -c "^# metrics are the whole run's" "$dir/r.csv")" -eq 1 ] &&
	grep -v '^#' "$dir/r.csv" | awk -F, '$1 != "all" || $2 != 4 {bad = 1} END {exit bad || NR != 4}'
ok $? "-r 2 --per-core CSV: a '#' note line, the totals' rows 'all,4,'"
$H stat $E -r 2 --per-core --topdown -j 2>"$dir/r.json" >/dev/null
python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
sys.exit(len(rows) != 4 or any("core" in r for r in rows))' "$dir/r.json" 2>/dev/null
ok $? "-r 2 --per-core JSON: the 4 total rows, nothing extra"

done_testing

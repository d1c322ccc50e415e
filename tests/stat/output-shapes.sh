#!/bin/sh
# output-shapes.sh: the shapes of perf stat's output, field by field: JSON
# rows of events that did not count carry perf 6.1's metric keys (its own
# linter, perf_json_output_lint.py, judges), CSV fields hold only what
# perf's hold (the Topdown bottleneck mark is a comment line, not part of
# the unit), and perf's output-shape options: -B/--no-big-num, --summary,
# --no-csv-summary, --table, and the -I column header. Compared with perf
# stat's own output on this machine where it counts.
. "$top_srcdir/tests/lib.sh"
H=$HPMSTAT
T="$top_builddir/tests/stat/touch-pages"
scratch_dir
py() { python3 -c "$@"; }

host=false
$H stat -x, -e task-clock -- true >/dev/null 2>&1 && host=true
have_perf=false
command -v perf >/dev/null 2>&1 && perf stat -x, -e task-clock true >/dev/null 2>&1 && have_perf=true

# perf 6.1's JSON linter: unpacked, or from Debian's linux-source-6.1
lint=
for d in "${PERF_SHELL_TESTS:-}" /work/perf-src/linux-source-6.1/tools/perf/tests/shell \
	/usr/src/linux-source-6.1/tools/perf/tests/shell; do
	[ -n "$d" ] && [ -f "$d/lib/perf_json_output_lint.py" ] && lint="$d/lib/perf_json_output_lint.py" && break
done
if [ -z "$lint" ] && [ -f /usr/src/linux-source-6.1.tar.xz ]; then
	tar -xJf /usr/src/linux-source-6.1.tar.xz -C "$dir" \
		linux-source-6.1/tools/perf/tests/shell/lib/perf_json_output_lint.py 2>/dev/null &&
		lint="$dir/linux-source-6.1/tools/perf/tests/shell/lib/perf_json_output_lint.py"
fi

# ---- defect 2: JSON rows that did not count, judged by perf's linter
if $host && [ -n "$lint" ] && command -v python3 >/dev/null 2>&1; then
	for c in "--no-args|" "--system-wide|-a" "--interval|-I 1000" "--system-wide-no-aggr|-C 0 -A" \
		"--system-wide-no-aggr|-a -A" "--event|-e cpu-clock"; do
		flag=${c%%|*}
		opts=${c#*|}
		# shellcheck disable=SC2086
		$H stat -j $opts true 2>"$tap_out" >/dev/null
		python3 "$lint" $flag <"$tap_out" >"$tap_err" 2>&1
		ok $? "perf 6.1's perf_json_output_lint.py $flag accepts 'stat -j $opts' ($(tail -1 "$tap_err"))"
	done
else
	skip "no host counting, python3 or perf 6.1's perf_json_output_lint.py (linux-source-6.1)"
fi
if $host; then
	$H stat -j -e task-clock,cycles -- true 2>"$dir/ns.json" >/dev/null
	$H stat -x, -e task-clock,cycles -- true 2>"$dir/ns.csv" >/dev/null
	if grep -q '<not supported>' "$dir/ns.csv"; then
		py "
import csv, json, sys
j = {r['event']: r for r in map(json.loads, open('$dir/ns.json'))}['cycles']
c = {r[2]: r for r in csv.reader(open('$dir/ns.csv'))}['cycles']
ok = j['counter-value'] == c[0] == '<not supported>' and float(j['pcnt-running']) == float(c[4])
ok = ok and j['event-runtime'] == int(c[3]) and j['metric-value'] == 0 and j['metric-unit'] == ''
sys.exit(0 if ok else 1)"
		ok $? "JSON <not supported> row: pcnt-running and run time as the CSV row's, metric 0 and '' ($(grep cycles "$dir/ns.json"))"
		if $have_perf; then
			perf stat -j -e task-clock,cycles -- true 2>"$dir/pns.json" >/dev/null
			py "
import json, sys
def row(f):
    return {r['event']: r for r in map(json.loads, open(f))}['cycles']
h, p = row('$dir/ns.json'), row('$dir/pns.json')
sys.exit(0 if list(h) == list(p) and all(float(h[k]) == float(p[k]) for k in ('pcnt-running', 'event-runtime', 'metric-value')) and h['metric-unit'] == p['metric-unit'] else 1)"
			ok $? "... the same keys and values as perf's ($(grep cycles "$dir/pns.json"))"
		fi
	else
		skip "cycles counts here: no <not supported> row"
	fi
	# -r: every row has perf's keys; the run time is the mean of the runs,
	# which for task-clock is its mean count in nanoseconds
	$H stat -j -r 3 -e task-clock,cycles -- "$T" 500 2>"$dir/r.json" >/dev/null
	py "
import json, sys
rows = {r['event']: r for r in map(json.loads, open('$dir/r.json'))}
tc = rows['task-clock']
ok = abs(tc['event-runtime'] - float(tc['counter-value']) * 1e6) <= 2
ok = ok and list(tc) == ['counter-value', 'unit', 'event', 'variance', 'event-runtime', 'pcnt-running', 'metric-value', 'metric-unit']
ok = ok and list(rows['cycles']) == list(tc)
sys.exit(0 if ok else 1)"
	ok $? "-j -r 3: perf's keys on every row, event-runtime the mean ($(tr '\n' ' ' <"$dir/r.json"))"
	if $have_perf; then
		perf stat -j -r 3 -e task-clock,cycles -- "$T" 500 2>"$dir/pr.json" >/dev/null
		py "
import json, sys
h = [list(json.loads(l)) for l in open('$dir/r.json')]
p = [list(json.loads(l)) for l in open('$dir/pr.json')]
sys.exit(0 if h == p else 1)"
		ok $? "... the same keys in the same order as perf's"
	fi
fi

# ---- defect 3: --topdown -x, keeps hpmstat's additions out of perf's fields
$H stat --topdown=2 -x, --emu-cycles 2e6 2>"$dir/td.csv" >/dev/null
py "
import csv, re, sys
rows = [r for r in csv.reader(open('$dir/td.csv')) if r and not r[0].startswith('#')]
ok = len(rows) > 4 and all(len(r) == 7 for r in rows)
ok = ok and all(re.fullmatch(r'% (slots|cycles) tma_[a-z_0-9]+', r[6]) for r in rows)
ok = ok and not any('<==' in f or 'range' in f for r in rows for f in r)
sys.exit(0 if ok else 1)"
ok $? "--topdown -x,: metric rows have perf's 7 fields, the unit field is unit and name only ($(grep -m1 tma_backend "$dir/td.csv"))"
$H stat --topdown=2 --emu-cycles 2e6 2>"$dir/td.std" >/dev/null
want=$(awk '/<==/ && !/Topdown level/ { print $1 }' "$dir/td.std" | tr 'A-Z' 'a-z' | tr '\n' ' ')
got=$(sed -n 's/^# bottleneck <==://p' "$dir/td.csv" | sed 's/tma_//g' | tr ' ' '\n' | grep . | tr '\n' ' ')
[ -n "$want" ] && [ "$want" = "$got" ]
ok $? "... the bottleneck path is a '#' comment line, the same nodes as std's <== ($got)"
$H stat --topdown -j --json-extra --emu-cycles 2e6 2>"$dir/td.json" >/dev/null
py "
import json, sys
rows = list(map(json.loads, open('$dir/td.json')))
ok = rows and all('<==' not in r['metric-unit'] for r in rows) and any(r['bottleneck'] for r in rows)
sys.exit(0 if ok else 1)"
ok $? "JSON: the mark is the extra key bottleneck, never inside metric-unit"

# ---- -B / --no-big-num (std output only; perf refuses -B with -x): std
# counts are grouped as the locale groups numbers, as perf's printf("%'")
# after setlocale(LC_ALL, ""): nothing in C and C.UTF-8, ',' in en_US
. "$top_srcdir/tests/stat/locale.sh"
grouping_locale "$dir"
for l in C C.UTF-8; do
	LC_ALL=$l $H stat -e mcycle --emu-cycles 2e6 2>"$tap_out" >/dev/null
	grep -Eq '^ +2000000 +mcycle' "$tap_out"; ok $? "$l locale: no separators by default, as perf ($(grep mcycle "$tap_out" | tr -s ' '))"
done
LC_ALL=C $H stat -B -e mcycle --emu-cycles 2e6 2>"$tap_out" >/dev/null
grep -Eq '^ +2000000 +mcycle' "$tap_out"; ok $? "C locale -B: the locale has no separator"
if [ -n "$GROUPING_LOCALE" ]; then
	L=$GROUPING_LOCALE
	LC_ALL=$L $H stat -e mcycle --emu-cycles 2e6 2>"$tap_out" >/dev/null
	grep -Eq '^ +2,000,000 +mcycle' "$tap_out"; ok $? "$L: std groups thousands with ',' by default"
	LC_ALL=$L $H stat -B -e mcycle --emu-cycles 2e6 2>"$tap_out" >/dev/null
	grep -Eq '^ +2,000,000 +mcycle' "$tap_out"; ok $? "$L: -B groups thousands"
	LC_ALL=$L $H stat --no-big-num -e mcycle --emu-cycles 2e6 2>"$tap_out" >/dev/null
	grep -Eq '^ +2000000 +mcycle' "$tap_out"; ok $? "$L: --no-big-num: no separators ($(grep mcycle "$tap_out" | tr -s ' '))"
	LC_ALL=$L $H stat --big-num --no-big-num -e mcycle --emu-cycles 2e6 2>"$tap_out" >/dev/null
	grep -Eq '^ +2000000 +mcycle' "$tap_out"; ok $? "the last of -B and --no-big-num wins"
	LC_ALL=C LC_NUMERIC=$L $H stat -e mcycle --emu-cycles 2e6 2>"$tap_out" >/dev/null
	grep -Eq '^ +2000000 +mcycle' "$tap_out"
	ok $? "LC_ALL=C wins over LC_NUMERIC=$L"
	LC_ALL= LANG=C LC_NUMERIC=$L $H stat -e mcycle --emu-cycles 2e6 2>"$tap_out" >/dev/null
	grep -Eq '^ +2,000,000 +mcycle' "$tap_out"
	ok $? "LC_NUMERIC=$L alone groups"
	LC_ALL=$L $H stat -x, -e mcycle --emu-cycles 2e6 2>"$tap_out" >/dev/null
	grep -q '^2000000,,mcycle,' "$tap_out" &&
		LC_ALL=$L $H stat -j -e mcycle --emu-cycles 2e6 2>&1 >/dev/null | grep -q '"counter-value" : "2000000.000000"'
	ok $? "$L: CSV and JSON counts without separators, as perf's"
	if $have_perf && $host; then
		for l in C $L; do
			LC_ALL=$l perf stat -e page-faults -- "$T" 2000 2>"$dir/pl" >/dev/null
			LC_ALL=$l $H stat -e page-faults -- "$T" 2000 2>"$dir/hl" >/dev/null
			p=$(awk '/page-faults/ { gsub(/[0-9]/, "N", $1); print index($0, "page-faults") " " $1 }' "$dir/pl")
			h=$(awk '/page-faults/ { gsub(/[0-9]/, "N", $1); print index($0, "page-faults") " " $1 }' "$dir/hl")
			[ -n "$h" ] && [ "$p" = "$h" ]
			ok $? "LC_ALL=$l: the page-faults count as perf groups it ($h; perf: $p)"
		done
	else
		skip "perf stat does not run here"
		skip "perf stat does not run here"
	fi
else
	for t in 1 2 3 4 5 6 7 8 9; do skip "no locale with grouping can be made here (localedef)"; done
fi
# other grouping rules: en_IN's 3 then 2s, de_DE's '.', fr_FR's U+202F (3
# bytes, one column, as printf pads it); Python's locale module is the truth
for l in en_IN de_DE fr_FR; do
	if ! command -v localedef >/dev/null 2>&1 || ! make_locale "$dir" $l; then
		skip "the $l locale cannot be made here"
		continue
	fi
	LOCPATH="$dir/locale" LC_ALL=$l.UTF-8 $H stat -e mcycle --emu-cycles 1234567 2>"$tap_out" >/dev/null
	LOCPATH="$dir/locale" py "
import locale, sys
locale.setlocale(locale.LC_ALL, '$l.UTF-8')
want = locale.format_string('%d', 1234567, grouping=True)
row = [r for r in open('$tap_out', encoding='utf-8') if 'mcycle' in r][0]
sys.exit(0 if row.startswith(want.rjust(18) + ' ') else 1)"
	ok $? "$l: the count grouped as the locale groups it, in 18 columns ($(grep mcycle "$tap_out" | tr -s ' '))"
done
if $have_perf; then
	perf stat --no-big-num -e page-faults -- "$T" 2000 2>"$dir/pb" >/dev/null
	$H stat --no-big-num -e page-faults -- "$T" 2000 2>"$dir/hb" >/dev/null
	[ "$(awk '/page-faults/ { print index($0, "page-faults") }' "$dir/pb")" = \
		"$(awk '/page-faults/ { print index($0, "page-faults") }' "$dir/hb")" ] &&
		grep -Eq '^ +[0-9]{4,} +page-faults' "$dir/hb"
	ok $? "--no-big-num: the row as perf's ($(grep page-faults "$dir/hb" | tr -s ' '))"
fi
run_fails_with "-B with -x" "-B is not supported with -x" $H stat -B -x, -e mcycle --emu-cycles 1e6

# ---- --summary and --no-csv-summary (perf's stat+csv_summary.sh shapes)
$H stat -x, -I 100 --summary -e mcycle --emu-cycles 5e5 --emu-freq 1e6 2>"$tap_out" >/dev/null
py "
import sys
lines = [l.rstrip('\n') for l in open('$tap_out') if not l.startswith('#')]
iv = [l.split(',') for l in lines[:-1]]
last = lines[-1]
ok = last.startswith('%16s,' % 'summary') and len(iv) == 5
f = last.split(',')
ok = ok and int(f[1]) == sum(int(r[1]) for r in iv) == 500000 and f[3] == 'mcycle'
sys.exit(0 if ok else 1)"
ok $? "-x, -I --summary: the last row is '         summary,' + the total of the intervals ($(tail -1 "$tap_out"))"
$H stat -x' ' -I 100 --summary --no-csv-summary -e mcycle --emu-cycles 5e5 --emu-freq 1e6 2>"$tap_out" >/dev/null
! grep -q summary "$tap_out" && [ "$(tail -1 "$tap_out")" = "500000  mcycle 500000000 100.00  " ]
ok $? "--no-csv-summary: the total without the summary field ($(tail -1 "$tap_out"))"
# perf's stat+csv_summary.sh reads the summary line as 'summary num event run pct'
$H stat -e mcycle -x' ' -I 100 --summary --emu-cycles 2e5 --emu-freq 1e6 2>&1 >/dev/null | grep -e summary |
	(n=0; while read -r summary num event run pct; do [ "$summary" = summary ] || exit 1; n=$((n + 1)); done; [ $n -eq 1 ])
ok $? "perf's stat+csv_summary.sh reading of it: 'summary' first"
LC_ALL=C $H stat -I 100 --summary -e mcycle --emu-cycles 3e5 --emu-freq 1e6 2>"$tap_out" >/dev/null
grep -q 'Performance counter stats for the emulated harts' "$tap_out" && grep -Eq '^ +300000 +mcycle' "$tap_out" &&
	grep -q 'seconds time elapsed' "$tap_out"
ok $? "std -I --summary: the whole run's counts with perf's header and footer after the intervals"
$H stat -j -I 100 --summary -e mcycle --emu-cycles 3e5 --emu-freq 1e6 2>"$tap_out" >/dev/null
py "
import json, sys
rows = [json.loads(l) for l in open('$tap_out')]
ok = all('interval' in r for r in rows[:-1]) and 'interval' not in rows[-1] and rows[-1]['counter-value'] == '300000.000000'
sys.exit(0 if ok else 1)"
ok $? "JSON -I --summary: a last row without interval, the total"
if $host && $have_perf; then
	perf stat -x, --summary -e task-clock -- true 2>"$dir/ps" >/dev/null
	$H stat -x, --summary -e task-clock -- true 2>"$tap_out" >/dev/null
	[ "$(cut -d, -f1,3,4 "$dir/ps")" = "$(cut -d, -f1,3,4 "$tap_out")" ]
	ok $? "-x, --summary without -I: the summary field as perf's ($(cat "$tap_out"); perf $(cat "$dir/ps"))"
fi

# ---- --table (perf: with -r only)
$H stat -r 3 --table -e mcycle --emu-cycles 1e5 2>"$tap_out" >/dev/null
py "
import re, sys
t = open('$tap_out').read().split('\n')
i = [k for k, l in enumerate(t) if l.strip() == '# Table of individual measurements:']
f = [k for k, l in enumerate(t) if l.strip() == '# Final result:']
ok = len(i) == 1 and len(f) == 1 and f[0] == i[0] + 5
runs = [re.fullmatch(r' +([0-9.]+) \(([+-][0-9.]+)\) #+', l) for l in t[i[0] + 1:i[0] + 4]] if ok else []
ok = ok and all(runs)
el = [re.match(r' +([0-9.]+) \+- ([0-9.]+) seconds time elapsed', l) for l in t]
el = [m for m in el if m]
if ok and el:
    mean = float(el[0].group(1))
    dec = len(el[0].group(1).split('.')[1])
    # each run minus its deviation is the mean; the deviations sum to 0
    ok = all(abs(float(r.group(1)) - float(r.group(2)) - mean) <= 1.5 * 10 ** -dec for r in runs)
    ok = ok and abs(sum(float(r.group(2)) for r in runs)) <= 3 * 10 ** -dec
    # aligned as perf's: the '#' of the headings sits over the numbers
    ok = ok and t[i[0]].index('#') == len(t[f[0] + 1]) - len(t[f[0] + 1].lstrip())
sys.exit(0 if ok and el else 1)"
ok $? "--table -r 3: perf's table of the runs, deviations from the mean, then the result"
run_fails_with "--table without -r" "--table is only supported with -r" $H stat --table -e mcycle --emu-cycles 1e5
if $host && $have_perf; then
	perf stat -r 3 --table -e task-clock -- true 2>"$dir/pt" >/dev/null
	$H stat -r 3 --table -e task-clock -- true 2>"$tap_out" >/dev/null
	sh_p=$(sed -n '/# Table/,/# Final/p' "$dir/pt" | sed 's/[0-9][0-9]*/9/g; s/#*$//; s/[+-]9/S9/; s/^ *//' | sort -u | tr '\n' '|')
	sh_h=$(sed -n '/# Table/,/# Final/p' "$tap_out" | sed 's/[0-9][0-9]*/9/g; s/#*$//; s/[+-]9/S9/; s/^ *//' | sort -u | tr '\n' '|')
	[ "$sh_p" = "$sh_h" ]
	ok $? "--table: the same shape as perf's ($sh_h vs perf $sh_p)"
fi

# ---- the -I header: perf's line, at the first interval and every 25th
$H stat -I 10 -e mcycle --emu-cycles 3e5 --emu-freq 1e6 2>"$tap_out" >/dev/null
n_iv=$(grep -c ' mcycle' "$tap_out")
n_hd=$(grep -c '^#           time             counts unit events$' "$tap_out")
first=$(grep -v '^# Kunminghu' "$tap_out" | head -1)
[ "$n_iv" -eq 30 ] && [ "$n_hd" -eq 2 ] && [ "$first" = "#           time             counts unit events" ]
ok $? "-I: the header first and again after 25 intervals ($n_hd headers, $n_iv intervals)"
$H stat -x, -I 100 -e mcycle --emu-cycles 2e5 --emu-freq 1e6 2>"$tap_out" >/dev/null
! grep -q 'counts unit' "$tap_out"; ok $? "-I -x,: no header, as perf"
if $host && $have_perf; then
	perf stat -I 100 -e task-clock -- sleep 0.15 2>"$dir/ph" >/dev/null
	$H stat -I 100 -e task-clock -- sleep 0.15 2>"$tap_out" >/dev/null
	[ "$(head -1 "$dir/ph")" = "$(head -1 "$tap_out")" ]
	ok $? "-I: the header is perf's, byte for byte ($(head -1 "$dir/ph"))"
	perf stat -I 100 -a -A -e cpu-clock -- sleep 0.15 2>"$dir/ph" >/dev/null
	$H stat -I 100 -a -A -e cpu-clock -- sleep 0.15 2>"$tap_out" >/dev/null
	[ "$(head -1 "$dir/ph")" = "$(head -1 "$tap_out")" ]
	ok $? "-I -A: the header with perf's CPU column ($(head -1 "$tap_out"))"
	# and the time stamps have perf's width in CSV
	perf stat -x, -I 100 -e task-clock -- sleep 0.15 2>"$dir/ph" >/dev/null
	$H stat -x, -I 100 -e task-clock -- sleep 0.15 2>"$tap_out" >/dev/null
	[ "$(head -1 "$dir/ph" | cut -d, -f1 | wc -c)" = "$(head -1 "$tap_out" | cut -d, -f1 | wc -c)" ]
	ok $? "-x, -I: the time stamp field padded as perf's ('$(head -1 "$tap_out" | cut -d, -f1)')"
	# -A: the count ends in the column perf's ends in, after "CPU0"
	perf stat -A -C 0 -e cpu-clock -- sleep 0.05 2>"$dir/pa" >/dev/null
	$H stat -A -C 0 -e cpu-clock -- sleep 0.05 2>"$tap_out" >/dev/null
	[ "$(awk '/^CPU0 / { print index($0, " msec") }' "$dir/pa")" = "$(awk '/^CPU0 / { print index($0, " msec") }' "$tap_out")" ]
	ok $? "-A: the CPU column as wide as perf's ($(grep '^CPU0' "$tap_out" | cut -c1-40))"
fi

# the generated locales are done with: glibc's newlocale() leaks a few
# bytes whenever LOCPATH is set, which a sanitizer build reports on stderr
unset LOCPATH

# ---- the end of the block: as many blank lines after it as perf leaves
# (two after the user and sys lines, one after the elapsed line alone)
trailing() { awk 'NF { n = 0; next } { n++ } END { print n + 0 }'; }
if $host && $have_perf; then
	for c in "true" "-a sleep 0.01" "-r 2 true"; do
		# shellcheck disable=SC2086
		want=$(perf stat -e task-clock $c 2>&1 >/dev/null | trailing)
		# shellcheck disable=SC2086
		got=$($H stat -e task-clock $c 2>&1 >/dev/null | trailing)
		[ "$got" = "$want" ] && [ "$want" -ge 1 ]
		ok $? "std output of 'stat -e task-clock $c' ends with perf's $want blank line(s) ($got)"
	done
	# --null: the header, then the elapsed line with one blank line between
	shape() { sed 's/[0-9.][0-9.]*/N/g'; }
	want=$(perf stat --null true 2>&1 >/dev/null | shape)
	got=$($H stat --null true 2>&1 >/dev/null | shape)
	[ "$got" = "$want" ]; ok $? "stat --null true: perf's lines and blank lines, numbers aside"
else
	for i in 1 2 3 4; do skip "std output ends as perf's: no perf here"; done
fi

# ---- JSON rows spaced as perf writes them, with perf's decimals: the same
# bytes but for the digits, so scripts matching perf's text match ours
if $host && $have_perf; then
	digits() { sed 's/[0-9][0-9.]*/N/g'; }
	for c in "-e task-clock,page-faults,cycles true" "-r 2 -e task-clock true" \
		"-I 100 -e task-clock sleep 0.15" "-a --per-core -e cpu-clock sleep 0.02"; do
		# with -I the number of intervals in 0.15 s depends on the load
		# (a late tick adds one): each distinct line, once
		case $c in -I*) once() { sort -u; } ;; *) once() { cat; } ;; esac
		# shellcheck disable=SC2086
		want=$(perf stat -j $c 2>&1 >/dev/null | digits | once)
		# shellcheck disable=SC2086
		got=$($H stat -j $c 2>&1 >/dev/null | digits | once)
		[ -n "$want" ] && [ "$got" = "$want" ]
		ok $? "stat -j $c: perf's bytes, digits aside"
	done
else
	for i in 1 2 3 4; do skip "JSON bytes as perf's: no perf here"; done
fi

done_testing

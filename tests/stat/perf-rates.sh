#!/bin/sh
# perf-rates.sh: the numbers beside perf's counts are perf's. A software
# event's rate is its count per second of the row set's task-clock (or
# cpu-clock), none without a clock; "CPUs utilized" is task time over wall
# time (-I: over each interval's real length, -r: the means); the -r elapsed
# line is "x +- y seconds time elapsed ( +- z% )"; -a counts cpu-clock.
# Each is checked against perf stat's own output on the same program, or
# against the identity that defines it, in std, CSV and JSON.
. "$top_srcdir/tests/lib.sh"
H=$HPMSTAT
T="$top_builddir/tests/stat/touch-pages"
scratch_dir
py() { python3 -c "$@"; }

if ! $H stat -x, -e task-clock -- true >/dev/null 2>&1; then
	skip_all "this kernel does not count task-clock for hpmstat"
fi
have_perf=false
command -v perf >/dev/null 2>&1 && perf stat -x, -e task-clock true >/dev/null 2>&1 && have_perf=true

# A program whose wall time is mostly sleep: a rate per second of wall time
# is several times one per second of task time, so the two cannot be taken
# for each other.
W="$dir/work.sh"
printf '#!/bin/sh\n"%s" 3000\nsleep 0.2\n' "$T" >"$W"
chmod +x "$W"
EV=task-clock,page-faults,context-switches

# ---- CSV: the rate is the count per second of task-clock (the identity)
$H stat -x, -e $EV -- "$W" 2>"$dir/h.csv" >/dev/null
py "
import csv, sys
rows = {r[2]: r for r in csv.reader(open('$dir/h.csv')) if len(r) >= 7}
ms = float(rows['task-clock'][0])
pf = rows['page-faults']
rate = float(pf[5]) * {'/sec': 1, 'K/sec': 1e3, 'M/sec': 1e6}[pf[6]]
want = float(pf[0]) / (ms / 1e3)
sys.exit(0 if abs(rate - want) <= 0.01 * want else 1)"
ok $? "CSV: page-faults rate = count / task-clock ($(grep page-faults "$dir/h.csv"), $(grep task-clock "$dir/h.csv"))"

# ---- the same against perf stat on the same program, row by row
if $have_perf; then
	perf stat -x, -e $EV -- "$W" 2>"$dir/p.csv" >/dev/null
	py "
import csv, sys
def rows(f):
    return {r[2]: r for r in csv.reader(open(f)) if len(r) >= 7}
h, p = rows('$dir/h.csv'), rows('$dir/p.csv')
scale = {'/sec': 1, 'K/sec': 1e3, 'M/sec': 1e6, 'CPUs utilized': 1}
bad = []
for ev in ('task-clock', 'page-faults'):
    hv = float(h[ev][5]) * scale[h[ev][6]]
    pv = float(p[ev][5]) * scale[p[ev][6]]
    # task time and wall time vary from run to run: within a factor 2,
    # where a rate per wall second is 5 or more times lower
    if not (pv / 2 <= hv <= pv * 2) or h[ev][6] != p[ev][6]:
        bad.append((ev, h[ev][5:7], p[ev][5:7]))
# the same fields in the same places
for ev in h:
    if len(h[ev]) != len(p[ev]) or h[ev][1:3] != p[ev][1:3]:
        bad.append((ev, h[ev], p[ev]))
print(bad)
sys.exit(1 if bad else 0)" >"$tap_err"
	ok $? "CSV: the rates of $EV agree with perf's ($(cat "$tap_err"); perf: $(tr '\n' ' ' <"$dir/p.csv"))"
else
	skip "perf stat cannot count task-clock here"
fi

# ---- std and JSON carry the same rate as CSV's definition
$H stat -e $EV -- "$W" 2>"$dir/h.std" >/dev/null
awk '/msec task-clock/ { gsub(",", "", $1); ms = $1 }
     / page-faults / { gsub(",", "", $1); n = $1; r = $4; u = $5 }
     END { m = (u == "K/sec") ? 1e3 : (u == "M/sec") ? 1e6 : 1
           want = n / (ms / 1e3); d = r * m - want; if (d < 0) d = -d
           exit !(ms > 0 && d <= 0.01 * want + 0.001 * m) }' "$dir/h.std"
ok $? "std: page-faults rate = count / task-clock ($(grep -E 'task-clock|page-faults' "$dir/h.std" | tr -s ' ' | tr '\n' '|'))"
$H stat -j -e $EV -- "$W" 2>"$dir/h.json" >/dev/null
py "
import json, sys
rows = {r['event']: r for r in map(json.loads, open('$dir/h.json'))}
ms = float(rows['task-clock']['counter-value'])
pf = rows['page-faults']
rate = pf['metric-value'] * {'/sec': 1, 'K/sec': 1e3, 'M/sec': 1e6}[pf['metric-unit']]
want = float(pf['counter-value']) / (ms / 1e3)
sys.exit(0 if abs(rate - want) <= 1e-6 * want else 1)"
ok $? "JSON: page-faults metric-value = count / task-clock"

# ---- no clock event, no rate (perf prints the metric fields empty)
$H stat -x, -e page-faults -- "$T" 100 2>"$tap_out" >/dev/null
awk -F, '$3 == "page-faults" && NF == 7 && $6 == "" && $7 == "" { f = 1 } END { exit !f }' "$tap_out"
ok $? "CSV without task-clock: no rate ($(cat "$tap_out"))"
if $have_perf; then
	perf stat -x, -e page-faults -- "$T" 100 2>"$dir/p1" >/dev/null
	[ "$(cut -d, -f2,3,6,7 "$dir/p1")" = "$(cut -d, -f2,3,6,7 "$tap_out")" ]
	ok $? "... as perf's ($(cat "$dir/p1"))"
fi
$H stat -e page-faults -- "$T" 100 2>"$tap_out" >/dev/null
grep -q 'page-faults' "$tap_out" && ! grep -q '/sec' "$tap_out"
ok $? "std without task-clock: no /sec"

# ---- -I: "CPUs utilized" over each interval's own length; the last
# interval is short. A CPU-bound command keeps task-clock near the length.
printf '#!/bin/sh\nexec timeout 0.35 sh -c "while :; do :; done"\n' >"$dir/spin.sh"
chmod +x "$dir/spin.sh"
$H stat -x, -I 100 -e task-clock -- "$dir/spin.sh" 2>"$dir/i.csv" >/dev/null
py "
import csv, sys
rows = [r for r in csv.reader(open('$dir/i.csv')) if len(r) >= 8 and r[3] == 'task-clock']
prev, bad, short = 0.0, [], False
for r in rows:
    ts = float(r[0])
    if r[1].startswith('<'):
        prev = ts
        continue
    want = float(r[1]) / 1e3 / (ts - prev)
    if abs(float(r[6]) - want) > 0.02 * want + 0.002:
        bad.append((r[0], r[1], r[6], round(want, 3)))
    short = ts - prev < 0.08
    prev = ts
print(bad, 'last interval short' if short else 'last interval not short')
sys.exit(1 if bad or len(rows) < 3 else 0)" >"$tap_err"
ok $? "-I: CPUs utilized = task-clock / the interval's real length ($(cat "$tap_err"))"

# ---- -r: CPUs utilized from the means; perf's elapsed line
$H stat -r 3 -e task-clock -- "$T" 2000 2>"$dir/r.std" >/dev/null
awk '/msec task-clock/ { gsub(",", "", $1); ms = $1; cpus = $5 }
     /seconds time elapsed/ { el = $1 }
     END { want = ms / 1e3 / el; d = cpus - want; if (d < 0) d = -d
           exit !(el > 0 && d <= 0.02 * want + 0.002) }' "$dir/r.std"
ok $? "-r 3: CPUs utilized = mean task-clock / mean elapsed ($(grep -E 'task-clock|elapsed' "$dir/r.std" | tr -s ' ' | tr '\n' '|'))"
shape='^ +[0-9]+\.[0-9]+ \+- [0-9]+\.[0-9]+ seconds time elapsed  \( \+- *[0-9]+\.[0-9][0-9]% \)$'
grep -Eq "$shape" "$dir/r.std"
ok $? "-r 3: the elapsed line is 'x +- y seconds time elapsed  ( +- z% )'"
awk '/seconds time elapsed/ && $2 == "+-" { x = $1; y = $3; z = $9; sub("%", "", z)
     want = 100 * y / x; d = z - want; if (d < 0) d = -d; exit !(x > 0 && d <= 0.02 * want + 0.01) }' "$dir/r.std"
ok $? "-r 3: z% is y over x"
if $have_perf; then
	perf stat -r 3 -e task-clock -- "$T" 2000 2>"$dir/r.perf" >/dev/null
	grep -Eq "$shape" "$dir/r.perf"
	ok $? "... the line perf prints matches the same shape ($(grep elapsed "$dir/r.perf"))"
fi
$H stat -e task-clock -- true 2>"$tap_out" >/dev/null
grep -Eq '^ {7}0\.[0-9]{9} seconds time elapsed$' "$tap_out"
ok $? "one run: perf's ' %17.9f seconds time elapsed'"

# ---- -a without -e: cpu-clock, 'system wide', no user/sys
$H stat -x, -a -- sleep 0.1 2>"$tap_out" >/dev/null
awk -F, '$3 == "cpu-clock" { c = 1 } $3 == "task-clock" { t = 1 } END { exit !(c && !t) }' "$tap_out"
ok $? "-a without -e counts cpu-clock, not task-clock ($(head -1 "$tap_out"))"
if $have_perf && perf stat -x, -a true >/dev/null 2>&1; then
	perf stat -x, -a -- sleep 0.1 2>"$dir/a.perf" >/dev/null
	[ "$(cut -d, -f3 "$tap_out" | tr '\n' ' ')" = "$(cut -d, -f3 "$dir/a.perf" | tr '\n' ' ')" ]
	ok $? "... the same events as perf -a ($(cut -d, -f3 "$dir/a.perf" | tr '\n' ' '))"
fi
$H stat -a -- sleep 0.1 2>"$tap_out" >/dev/null
grep -q "Performance counter stats for 'system wide':" "$tap_out" && grep -q 'msec cpu-clock' "$tap_out" &&
	! grep -q 'seconds user' "$tap_out"
ok $? "-a: 'system wide', cpu-clock, no user/sys lines (as perf)"

# ---- the task clock written as software/config=1/: perf prints the count
# unscaled (ns) and "CPUs utilized" is still task time over wall time
$H stat -x, -e 'software/config=1/' -- "$W" 2>"$dir/sw.csv" >/dev/null
awk -F, -v W="$W" '$3 == "software/config=1/" { ns = $1; u = $6; t = $7 }
	END { exit !(ns > 0 && t == "CPUs utilized" && u > 0 && u < 1.5) }' "$dir/sw.csv"
ok $? "software/config=1/: a count in ns, CPUs utilized below 1.5 for a mostly sleeping program ($(cat "$dir/sw.csv"))"
if $have_perf; then
	$H stat -e 'software/config=1/' -- "$W" 2>"$dir/sw.std" >/dev/null
	perf stat -e 'software/config=1/' -- "$W" 2>"$dir/sw.perf" >/dev/null
	py "
import re, sys
def util(f):
    m = re.search(r'#\s+([0-9.]+) CPUs utilized', open(f).read())
    return float(m.group(1)) if m else None
h, p = util('$dir/sw.std'), util('$dir/sw.perf')
sys.exit(0 if h is not None and p is not None and abs(h - p) <= 0.5 * max(h, p) + 0.01 else 1)"
	ok $? "... the same CPUs utilized as perf's within run-to-run noise: $(grep -o '[0-9.]* CPUs' "$dir/sw.std") vs $(grep -o '[0-9.]* CPUs' "$dir/sw.perf")"
fi

done_testing

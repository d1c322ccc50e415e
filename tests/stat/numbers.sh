#!/bin/sh
# Numbers that are never silently wrong (issue 9, items 9, 10, 11, 13):
# counts above 2^53 keep every digit in std, CSV, JSON, the run file and
# report; a counter that wrapped past 2^64 - 1 is flagged in every format
# with n/a metrics; zero-valued Topdown nodes are 0.00 without 100% noise;
# the out-of-range flag of a -r mean is judged against its noise; CSV text
# fields holding the separator are quoted.
#
# Truth: Python's integers (2**53 + 1, 2**64 - 1, products, format(n, ',')),
# Python's json and csv modules as the parsers, and the emulator's trace
# semantics (hpmstat-emu(1): a run of C cycles with instret I adds C x I to
# minstret, an event value V adds C x V to its counter).
. "$top_srcdir/tests/lib.sh"
H=$HPMSTAT
scratch_dir
py() { python3 -c "$@"; }
magic='hpmstat-emu-trace 1'
. "$top_srcdir/tests/stat/locale.sh"
grouping_locale "$dir"
# std counts are grouped as the locale groups them (perf's big-num): with
# en_US's ',' where it can be made here, else plain in the C locale
if [ -n "$GROUPING_LOCALE" ]; then std_locale=$GROUPING_LOCALE; else std_locale=C; fi

# --- exact counts (item 10) ---------------------------------------------
p53=$(py 'print(2**53 + 1)')
p64=$(py 'print(2**64 - 1)')
# 2^64 - 1 = 15 x 1229782938247303441 = 51 x 361700864190383365 (a divisor)
c15=$(py 'n = 2**64 - 1; assert n % 15 == 0; print(n // 15)')
c51=$(py 'n = 2**64 - 1; assert n % 51 == 0; print(n // 51)')
printf '%s\n%s HU 1\n' "$magic" "$p53" >"$dir/p53.trace"
printf '%s\n%s HU 15\n' "$magic" "$c15" >"$dir/p64.trace"
printf '%s\n%s HU 1 frontend:2=51\n' "$magic" "$c51" >"$dir/p64ev.trace"

# check_exact LABEL N TRACE CYCLES EVENT: N in every format of stat and report
check_exact() {
	label=$1 n=$2 trace=$3 cycles=$4 ev=$5
	if [ "$std_locale" = C ]; then grouped=$n; else grouped=$(py "print(format($n, ','))"); fi
	LC_ALL=$std_locale $H stat -e "$ev" --emu-trace "$trace" --emu-cycles "$cycles" \
		--record "$dir/$label.json" 2>"$dir/std" >/dev/null
	grep -q "^ *$grouped  *$ev" "$dir/std"
	ok $? "$label std: $grouped"
	[ $? -eq 0 ] || diag "$(cat "$dir/std")"
	$H stat -x, -e "$ev" --emu-trace "$trace" --emu-cycles "$cycles" 2>"$dir/csv" >/dev/null
	py "import csv,sys
rows=[r for r in csv.reader(open('$dir/csv')) if r and not r[0].startswith('#')]
sys.exit(0 if rows[0][0] == '$n' and rows[0][2] == '$ev' else 1)"
	ok $? "$label CSV: $n"
	[ $? -eq 0 ] || diag "$(cat "$dir/csv")"
	$H stat -j -e "$ev" --emu-trace "$trace" --emu-cycles "$cycles" 2>"$dir/json" >/dev/null
	py "import json,sys
o=json.loads(open('$dir/json').readline())
sys.exit(0 if o['counter-value'] == '$n.000000' else 1)"
	ok $? "$label JSON: \"$n.000000\" (perf's %f format, every digit)"
	[ $? -eq 0 ] || diag "$(cat "$dir/json")"
	py "import json,sys
r=json.load(open('$dir/$label.json'))
e=[e for e in r['events'] if e['name'] == '$ev'][0]
v=e['counts'][0]['value']
# an integer up to 2^63-1, a string of digits above (hpmstat-run(5)); never a real
ok = int(v) == $n and not isinstance(v, float) and (isinstance(v, int) or $n > 2**63 - 1)
ok = ok and int(e['value']) == $n and not isinstance(e['value'], float)
sys.exit(0 if ok else 1)"
	ok $? "$label run file: counts and value exact"
	[ $? -eq 0 ] || diag "$(grep -A12 '"counts"' "$dir/$label.json" | head -14)"
	$H report "$dir/$label.json" >"$dir/rep.txt" 2>&1
	grep -q "^ *$ev  *$n " "$dir/rep.txt"
	ok $? "$label report text: $n"
	[ $? -eq 0 ] || diag "$(grep -A3 Counts "$dir/rep.txt")"
	$H report --format json "$dir/$label.json" >"$dir/rep.json" 2>&1
	py "import json,sys
r=json.load(open('$dir/rep.json'))
e=[e for e in r['runs'][0]['events'] if e['name'] == '$ev'][0]
sys.exit(0 if int(e['value']) == $n and int(e['counts'][0]['value']) == $n and not isinstance(e['value'], float) else 1)"
	ok $? "$label report JSON: $n"
	for f in md html; do
		$H report --format $f "$dir/$label.json" 2>&1 | grep -q "$n"
		ok $? "$label report $f: $n"
	done
}
check_exact p53 "$p53" "$dir/p53.trace" "$p53" minstret
check_exact p64 "$p64" "$dir/p64.trace" "$c15" minstret
check_exact p64ev "$p64" "$dir/p64ev.trace" "$c51" ifu_req

# -r: the mean of equal counts is that count, every digit
$H stat -r 3 -x, -e minstret --emu-trace "$dir/p53.trace" --emu-cycles "$p53" \
	--record "$dir/r3.json" 2>"$dir/csv" >/dev/null
grep -q "^$p53,,minstret," "$dir/csv" && py "import json,sys
r=json.load(open('$dir/r3.json'))
e=r['events'][0]
sys.exit(0 if int(e['mean']) == $p53 and not isinstance(e['mean'], float) and all(int(v[0]) == $p53 for v in [x['values'] for x in r['runs']]) else 1)"
ok $? "-r 3: the mean of 2^53+1 counts is 2^53+1 in CSV and the run file"
[ $? -eq 0 ] || diag "$(cat "$dir/csv")"

# a run file written before counts were exact (value a real) still reads,
# and report takes every digit from its counts
py "import json
r=json.load(open('$dir/p53.json'))
for e in r['events']:
    if e['value'] is not None: e['value'] = float(e['value'])
json.dump(r, open('$dir/old.json', 'w'))"
$H report "$dir/old.json" 2>&1 | grep -q "^ *minstret  *$p53 "
ok $? "report of a file with real values shows the exact count"

# --- wrapped counters (item 11) ------------------------------------------
# 63 instret and 63 rob_commitInstr a cycle for 1e18 cycles: 6.3e19 > 2^64
printf '%s\n1000000000000000000 HU 63 backend:53=63\n' "$magic" >"$dir/wrap.trace"
wrapped="$H stat -M ipc -e mcycle,minstret,rob_commitInstr --emu-trace $dir/wrap.trace --emu-cycles 1e18"
LC_ALL=C $wrapped --record "$dir/wrap.json" 2>"$dir/std" >/dev/null
grep -q '^ *<wrapped>  *minstret' "$dir/std" && grep -q '^ *<wrapped>  *rob_commitInstr' "$dir/std" &&
	grep -q '^  *# *n/a per cycle  ipc ' "$dir/std" && ! grep -q 'insn per cycle' "$dir/std" &&
	grep -q '^ *1000000000000000000  *mcycle' "$dir/std"
ok $? "std: <wrapped> rows, ipc n/a, no IPC beside minstret"
[ $? -eq 0 ] || diag "$(cat "$dir/std")"
$wrapped -x, 2>"$dir/csv" >/dev/null
py "import csv,sys
rows={r[2]: r for r in csv.reader(open('$dir/csv')) if len(r) > 2 and not r[0].startswith('#')}
m=[r for r in csv.reader(open('$dir/csv')) if len(r) > 6 and r[6].endswith(' ipc')]
ok = rows['minstret'][0] == '<wrapped>' and rows['rob_commitInstr'][0] == '<wrapped>'
ok = ok and rows['minstret'][5] == '' and m and m[0][5] == 'n/a'
sys.exit(0 if ok else 1)"
ok $? "CSV: <wrapped> value fields, ipc n/a"
[ $? -eq 0 ] || diag "$(cat "$dir/csv")"
$wrapped -j --json-extra 2>"$dir/json" >/dev/null
py "import json,sys
rows=[json.loads(l) for l in open('$dir/json')]
ev={r['event']: r for r in rows if 'event' in r}
m=[r for r in rows if r.get('metric') == 'ipc']
ok = ev['minstret']['counter-value'] == '<wrapped>' and ev['minstret'].get('wrapped') is True
ok = ok and 'metric-value' not in ev['minstret'] and m[0]['metric-value'] is None
sys.exit(0 if ok else 1)"
ok $? "JSON: counter-value <wrapped>, ipc null"
[ $? -eq 0 ] || diag "$(cat "$dir/json")"
py "import json,sys
r=json.load(open('$dir/wrap.json'))
e={e['name']: e for e in r['events']}
m={m['name']: m for m in r['metrics']}
ok = e['minstret']['value'] is None and e['minstret']['counts'][0].get('wrapped') is True
ok = ok and e['mcycle']['value'] == 10**18 and m['ipc']['value'] is None
sys.exit(0 if ok else 1)"
ok $? "run file: wrapped counts, value null, ipc null"
$H report "$dir/wrap.json" >"$dir/rep.txt" 2>&1
grep -q '^ *minstret  *<wrapped>' "$dir/rep.txt" && ! grep -q '7659767778871345152' "$dir/rep.txt"
ok $? "report text: <wrapped>, never the count mod 2^64"
[ $? -eq 0 ] || diag "$(cat "$dir/rep.txt")"
for f in md html; do
	$H report --format $f "$dir/wrap.json" >"$dir/rep.$f" 2>&1
	grep -q 'wrapped' "$dir/rep.$f" && ! grep -q '7659767778871345152' "$dir/rep.$f"
	ok $? "report $f: wrapped flagged"
done
# JSON keeps the raw register value in counts, beside its flag
$H report --format json "$dir/wrap.json" >"$dir/rep.json" 2>&1
py "import json,sys
r=json.load(open('$dir/rep.json'))
e={e['name']: e for e in r['runs'][0]['events']}
ok = e['minstret']['value'] is None and e['minstret'].get('wrapped') is True
ok = ok and e['minstret']['counts'][0].get('wrapped') is True and e['mcycle']['value'] == 10**18
sys.exit(0 if ok else 1)"
ok $? "report json: value null, wrapped true"

# an mhpmcounter preset near 2^64 in an emu script wraps at once and sets OF:
# the same condition the stat back end reads
cat >"$dir/of.script" <<EOS
csrw mhpmevent3 0x0000000000000002
csrw mhpmcounter3 0xfffffffffffffff0
csrw mcountinhibit 0
mode HU
feed 1 ifu_req=63
mode M
csrr mhpmcounter3
expect 0x000000000000002f
csrr scountovf
EOS
$H emu "$dir/of.script" >"$dir/of.out" 2>&1
tail -1 "$dir/of.out" | grep -q '0x0000000000000008'
ok $? "premise: emu, a counter preset near 2^64 wraps and sets OF"
[ $? -eq 0 ] || diag "$(cat "$dir/of.out")"

# --- zero-valued nodes and range flags (item 13) ------------------------------
td="$H stat --topdown=3 -r 5 --emu-profile dram-bound --emu-cycles 1e7"
$td --record "$dir/td.json" 2>"$dir/std" >/dev/null
grep Machine_Clears "$dir/std" | grep -q -- ' 0\.00 .*( +-  0\.00% )'
ok $? "stat: Machine_Clears of dram-bound is 0.00 ( +- 0.00% )"
[ $? -eq 0 ] || diag "$(grep Machine "$dir/std")"
! grep -q -- '-0\.00' "$dir/std" && ! grep -q '100\.00%' "$dir/std"
ok $? "stat: no -0.00 and no 100% noise"
$td -x, 2>"$dir/csv" >/dev/null
! grep -q -E -- '-0\.00|e-1[0-9]' "$dir/csv"
ok $? "CSV: no -0.00 or rounding residue"
$td -j 2>"$dir/json" >/dev/null
py "import json,sys
for l in open('$dir/json'):
    o=json.loads(l)
    v=o.get('metric-value')
    if isinstance(v, float) and v != 0 and abs(v) < 1e-9: sys.exit(1)
    if isinstance(v, float) and v == 0 and str(v).startswith('-'): sys.exit(1)"
ok $? "JSON: no rounding residue, no -0.0"
for f in text csv json md html; do
	$H report --format $f "$dir/td.json" >"$dir/rep" 2>&1
	! grep -q -E -- '-0\.00[^0-9]|-0\.0000|e-1[0-9]|100\.00%' "$dir/rep"
	ok $? "report $f: no -0.00, residue or 100% noise"
done
# a file recorded before zero snapping: the residue and its 100% noise
py "import json
r=json.load(open('$dir/td.json'))
for m in r['metrics']:
    if m['name'] == 'tma_machine_clears':
        m['value'] = -6.938893904e-17; m['raw'] = -6.938893904e-19; m['rel_stddev'] = 100.0
json.dump(r, open('$dir/old-td.json', 'w'))"
for f in text csv md html; do
	$H report --format $f "$dir/old-td.json" 2>&1 | grep -i 'machine.*clears' >"$dir/rep"
	[ -s "$dir/rep" ] && ! grep -q -E -- '-0\.00[^0-9]|-0\.0000|e-1[0-9]|100\.00|100,' "$dir/rep"
	ok $? "report $f of an old file: its residue is 0, without noise"
	[ $? -eq 0 ] || diag "$(cut -c1-200 "$dir/rep")"
done
# one repeat of fetch-latency goes below 0 through multiplex scaling; the
# mean of five is within its noise of the range, so it is not flagged
$H stat --topdown=3 -r 5 --emu-profile fetch-latency --emu-cycles 1e7 2>"$dir/std" >/dev/null
for s in 1 2 3 4 5; do
	$H stat --topdown=3 --emu-seed $s --emu-profile fetch-latency --emu-cycles 1e7 2>&1
done | grep -q 'L1_Bound  *-'
ok $? "premise: a repeat's L1_Bound is negative"
grep L1_Bound "$dir/std" | grep -q -v 'out of range'
ok $? "a -r mean within its noise of the range is not flagged"
[ $? -eq 0 ] || diag "$(grep L1_Bound "$dir/std")"

# --- CSV fields holding the separator (item 9) -------------------------------
ev='kunminghu/event0=2,bank=frontend/'
ncols() { # FILE SEP: the distinct column counts of its data rows
	py "import csv
rows=[r for r in csv.reader(open('$1'), delimiter='$2') if r and not r[0].startswith('#')]
print(' '.join(sorted({str(len(r)) for r in rows})))"
}
$H stat -x, -e "$ev,mcycle" --emu-cycles 1e6 2>"$dir/csv" >/dev/null
[ "$(ncols "$dir/csv" ,)" = 7 ] && py "import csv,sys
r=[r for r in csv.reader(open('$dir/csv')) if r and not r[0].startswith('#')]
sys.exit(0 if r[0][2] == '$ev' and r[1][2] == 'mcycle' else 1)"
ok $? "-x, with a comma in the event: every row 7 columns, name intact"
[ $? -eq 0 ] || diag "$(cat "$dir/csv")"
$H stat -x';' -e "$ev,mcycle" --emu-cycles 1e6 2>"$dir/csv" >/dev/null
[ "$(ncols "$dir/csv" ';')" = 7 ] && grep -q "$ev" "$dir/csv"
ok $? "-x';': the comma needs no quotes, rows still 7 columns"
$H stat -x, -A --emu-harts 2 -r 2 -e "$ev,mcycle" --emu-cycles 1e6 2>"$dir/csv" >/dev/null
[ "$(ncols "$dir/csv" ,)" = 9 ]
ok $? "-x, -A -r 2: every row 9 columns"
[ $? -eq 0 ] || diag "$(cat "$dir/csv")"
$H stat -x, -I 100 -e "$ev" --emu-cycles 2e6 --emu-freq 1e7 2>"$dir/csv" >/dev/null
[ "$(ncols "$dir/csv" ,)" = 8 ]
ok $? "-x, -I: every row 8 columns"
[ $? -eq 0 ] || diag "$(cat "$dir/csv")"

done_testing

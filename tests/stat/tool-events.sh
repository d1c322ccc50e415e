#!/bin/sh
# tool-events.sh: perf's tool events duration_time, user_time and
# system_time, counted as perf 6.1 counts them: the elapsed time stat reports
# and the workload's rusage, in ns; a zero time is <not counted>; -I
# intervals give duration_time each interval's length and nothing for the
# rusage ones (it is known at the end only). Checked against perf stat's own
# output on the same program (the same fields, units and identities) and
# against independent figures (sleep's length, task-clock).
. "$top_srcdir/tests/lib.sh"
H=$HPMSTAT
scratch_dir
py() { python3 -c "$@"; }
TE=duration_time,user_time,system_time

if ! command -v python3 >/dev/null 2>&1; then
	skip_all "python3 not installed"
fi
have_perf=false
command -v perf >/dev/null 2>&1 && perf stat -x, -e duration_time true >/dev/null 2>&1 && have_perf=true
# about 0.15 s of user time in the shell itself
BUSY='i=0; while [ $i -lt 150000 ]; do i=$((i+1)); done'

# ---- std: duration_time is the elapsed line, user/system_time the rusage
# lines, to the nanosecond (perf's identity: both come from one figure)
ident='
import re, sys
t = open(sys.argv[1]).read()
def row(name):
    m = re.search(r"^\s*([\d,]+|<not counted>) ns\s+" + name + r"\b", t, re.M)
    return None if not m else (0 if m.group(1) == "<not counted>" else int(m.group(1).replace(",", "")))
def line(what):
    return round(float(re.search(r"^\s*([\d.]+) seconds " + what + r"\b", t, re.M).group(1)) * 1e9)
ok = row("duration_time") == line("time elapsed") and row("user_time") == line("user") \
    and row("system_time") == line("sys") and row("duration_time") > 0
print(row("duration_time"), line("time elapsed"), row("user_time"), line("user"), row("system_time"), line("sys"))
sys.exit(0 if ok else 1)'
$H stat -e $TE -- sh -c "$BUSY" 2>"$dir/h.txt" >/dev/null
v=$(py "$ident" "$dir/h.txt"); ok $? "std: duration_time, user_time, system_time are the elapsed, user and sys lines ($v)"
if $have_perf; then
	perf stat -e $TE -- sh -c "$BUSY" 2>"$dir/p.txt" >/dev/null
	v=$(py "$ident" "$dir/p.txt"); ok $? "perf's own output has the same identity ($v)"
else
	skip "perf stat does not count duration_time here"
fi

# ---- CSV: perf's fields (value, unit ns, name, run time = value, 100.00)
# and independent truth: sleep 0.2's wall time, a busy loop's user time
# against its task-clock
$H stat -x, -e task-clock,$TE -- sh -c "$BUSY; sleep 0.2" 2>"$dir/h.csv" >/dev/null
py "
import csv, sys
rows = {r[2]: r for r in csv.reader(open('$dir/h.csv')) if len(r) >= 5}
d, u, s = (rows[n] for n in ('duration_time', 'user_time', 'system_time'))
tc = float(rows['task-clock'][0]) * 1e6
shape = all(r[1] == 'ns' and r[4] == '100.00' and (r[3] == r[0] or r[0] == '<not counted>' and r[3] == '0')
            for r in (d, u, s))
cpu = int(u[0]) + (0 if s[0] == '<not counted>' else int(s[0]))
ok = shape and 0.2e9 <= int(d[0]) < 0.2e9 + tc + 10e9 and abs(cpu - tc) <= 0.2 * tc + 20e6
print(d[0], u[0], s[0], tc)
sys.exit(0 if ok else 1)" > "$tap_out"
ok $? "CSV: ns, run time = the count, 100.00; duration >= sleep 0.2, user + sys = task-clock ($(cat "$tap_out"))"
# the rate beside them per second of task-clock, as perf's
py "
import csv, sys
rows = {r[2]: r for r in csv.reader(open('$dir/h.csv')) if len(r) >= 7}
tc = float(rows['task-clock'][0]) / 1e3
d = rows['duration_time']
r = float(d[5]) * {'/sec': 1, 'K/sec': 1e3, 'M/sec': 1e6, 'G/sec': 1e9}[d[6]]
sys.exit(0 if abs(r - int(d[0]) / tc) <= 0.01 * r else 1)"
ok $? "with task-clock, a rate per second of task time, as perf prints one"
if $have_perf; then
	perf stat -x, -e task-clock,$TE -- sh -c "$BUSY; sleep 0.2" 2>"$dir/p.csv" >/dev/null
	# (system_time is 0 in some runs of the loop, so not compared)
	shape() { awk -F, '$3 ~ /^(duration|user)_time$/ { print $2, $3, NF, ($1 == $4 || $1 == "<not counted>"), $5, ($7 != "") }' "$1"; }
	shape "$dir/p.csv" > "$tap_err"; shape "$dir/h.csv" > "$tap_out"
	cmp -s "$tap_err" "$tap_out"; ok $? "CSV rows have perf's shape: unit, name, fields, run time, rate"
	[ $? -eq 0 ] || diag "perf: $(cat "$tap_err")" "hpmstat: $(cat "$tap_out")"
	# Two runs of the loop may take very different CPU time on a loaded
	# machine (a busy SMT sibling halves the speed), so the runs are not
	# compared with each other: in each, user + sys is the loop's task-clock
	# (the same rusage, by a second clock), to the same tolerance in both.
	py "
import csv, sys
def agrees(f):
    rows = {r[2]: r for r in csv.reader(open(f)) if len(r) >= 5}
    t = lambda n: 0 if rows[n][0] == '<not counted>' else int(rows[n][0])
    cpu, tc = t('user_time') + t('system_time'), float(rows['task-clock'][0]) * 1e6
    print(cpu, int(tc), end=' ')
    return abs(cpu - tc) <= 0.2 * tc + 20e6
ok = agrees('$dir/p.csv') & agrees('$dir/h.csv')
sys.exit(0 if ok else 1)" > "$tap_out"
	ok $? "user_time + system_time is the loop's task-clock, in perf's run and in ours ($(cat "$tap_out"))"
else
	for i in 1 2; do skip "perf stat does not count duration_time here"; done
fi

# ---- JSON: perf's keys, unit ns, <not counted> for a zero time
$H stat -j -e $TE -- sleep 0.05 2>"$dir/h.json" >/dev/null
keys='
import json, sys
for l in open(sys.argv[1]):
    if l.startswith("{"):
        o = json.loads(l)
        if o.get("event", "").endswith("_time"):
            print(o["event"], o["unit"], " ".join(sorted(o)))'
py "$keys" "$dir/h.json" > "$tap_out"
[ "$(wc -l < "$tap_out")" -eq 3 ] && ! grep -qv ' ns ' "$tap_out"
ok $? "-j: three rows in ns"
if $have_perf; then
	perf stat -j -e $TE -- sleep 0.05 2>"$dir/p.json" >/dev/null
	py "$keys" "$dir/p.json" > "$tap_err"
	cmp -s "$tap_err" "$tap_out"; ok $? "-j: the keys of perf's rows"
	[ $? -eq 0 ] || diag "perf: $(cat "$tap_err")" "hpmstat: $(cat "$tap_out")"
else
	skip "perf stat does not count duration_time here"
fi
# sleep spends (next to) no time in user mode: where a rusage time is 0 the
# row says <not counted>, as perf's (its enabled and running times are the
# time itself)
py "
import json, sys
n = 0
for l in open('$dir/h.json'):
    if l.startswith('{'):
        o = json.loads(l)
        if o['event'] in ('user_time', 'system_time'):
            n += 1
            v = o['counter-value']
            if (v == '<not counted>') != (o['event-runtime'] == 0) or v != '<not counted>' and float(v) != o['event-runtime']:
                sys.exit(1)
sys.exit(0 if n == 2 else 1)"
ok $? "-j: event-runtime is the time, and <not counted> exactly when it is 0"

# ---- -I: duration_time is each interval's length (the timestamps' step);
# user_time and system_time are known at the end only: <not counted>
$H stat -x, -I 100 -e $TE -- sh -c "$BUSY; sleep 0.1" 2>"$dir/hi.csv" >/dev/null
iv='
import csv, sys
prev, n, bad = 0.0, 0, []
for r in csv.reader(open(sys.argv[1])):
    if len(r) < 6 or r[0].startswith("#"):
        continue
    ts = float(r[0])
    if r[3] == "duration_time":
        n += 1
        if abs(int(r[1]) - (ts - prev) * 1e9) > 5e6:
            bad.append("%s:%s" % (r[0].strip(), r[1]))
        prev = ts
    elif r[1] != "<not counted>":
        bad.append(r[3])
print(n, " ".join(bad))
sys.exit(0 if n >= 2 and not bad else 1)'
v=$(py "$iv" "$dir/hi.csv"); ok $? "-I: duration_time is each interval's length, the rusage rows <not counted> ($v)"
if $have_perf; then
	perf stat -x, -I 100 -e $TE -- sh -c "$BUSY; sleep 0.1" 2>"$dir/pi.csv" >/dev/null
	v=$(py "$iv" "$dir/pi.csv"); ok $? "perf's -I output is the same ($v)"
else
	skip "perf stat does not count duration_time here"
fi

# ---- -r: the mean and its variance field, as perf's CSV
$H stat -r 3 -x, -e duration_time -- sleep 0.05 2>"$dir/hr.csv" >/dev/null
py "
import csv, sys
r = [r for r in csv.reader(open('$dir/hr.csv')) if len(r) > 3 and r[2] == 'duration_time'][0]
sys.exit(0 if r[1] == 'ns' and r[3].endswith('%') and 0.05e9 <= int(r[0]) < 0.5e9 and r[4] == r[0] else 1)"
ok $? "-r 3: mean duration_time, then perf's variance field"

# ---- -a: the workload's times under 'system wide', as perf's
$H stat -a -e $TE -- sleep 0.05 2>"$dir/ha.txt" >/dev/null
grep -q "for 'system wide'" "$dir/ha.txt" && grep -qE '^ +[0-9,]+ ns +duration_time' "$dir/ha.txt"
ok $? "-a: counted, under 'system wide'"

# ---- modifiers: perf's letters change nothing and stay in the name; others
# are refused, naming the event
$H stat -x, -e duration_time:u -- true 2>"$tap_out" >/dev/null
grep -qE '^[0-9]+,ns,duration_time:u,' "$tap_out"; ok $? "duration_time:u counts, named as written"
run_fails_with "duration_time:x is refused, naming it and the letter" "'duration_time:x': modifier 'x'" \
	$H stat -e duration_time:x -- true

# ---- --dry-run and -v say how they are counted
$H stat --dry-run -e $TE -- true > "$tap_out" 2>&1
[ "$(grep -c 'tool event' "$tap_out")" -eq 3 ]; ok $? "--dry-run: one line each, no perf_event_attr"
done_testing

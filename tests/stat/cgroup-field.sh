#!/bin/sh
# cgroup-field.sh: -G prints perf's cgroup field: a column after the event
# name in std output, a CSV field after the event (before the variance of
# -r), a JSON "cgroup" key after "event"; none without -G. Rates divide by
# the clock of the same cgroup, as perf's per-cgroup shadow statistics.
# Judged against perf stat on this machine (system-wide counting needs
# root or a permissive perf_event_paranoid).
. "$top_srcdir/tests/lib.sh"
H=$HPMSTAT
scratch_dir
N=9

# an emulated event has no cgroup to count in: one line, exit 1, whatever
# the host; a tool event beside it is not what is refused
$H stat -a --backend emu -e duration_time,rob_commitInstr -G /,/ -- true >"$dir/out" 2>"$dir/err"
rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <"$dir/err")" -eq 1 ] && grep -q "'rob_commitInstr' is emulated" "$dir/err" && [ ! -s "$dir/out" ]
ok $? "-G with an emulated event: refused in one line naming it ($(cat "$dir/err"))"

if ! perf stat -a -x, -e cpu-clock -G / true >/dev/null 2>&1; then
	for t in $(seq $N); do skip "system-wide -G does not count here (or no perf)"; done
	done_testing
	exit
fi

# the shape of a CSV row: its fields, numbers replaced by N (each distinct
# shape once: -I may end with one more, partial, interval than perf; a rate
# of few events per CPU is /sec where another run has K/sec)
csv_shape() { sed 's/[0-9][0-9.]*%\{0,1\}/N/g; s#,[KMG]/sec$#,/sec#' "$1"; }
ev='cycles,cpu-clock,page-faults'

for f in "" "-r 2" "-I 100" "-A"; do
	# shellcheck disable=SC2086
	$H stat -a -x, $f -e $ev -G / -- sleep 0.15 2>"$dir/h.csv" >/dev/null
	# shellcheck disable=SC2086
	perf stat -a -x, $f -e $ev -G / sleep 0.15 2>"$dir/p.csv" >/dev/null
	csv_shape "$dir/h.csv" | grep -v "^#" | sort -u >"$dir/h.shape"
	csv_shape "$dir/p.csv" | sort -u >"$dir/p.shape"
	cmp -s "$dir/h.shape" "$dir/p.shape"
	ok $? "-x, $f -G /: perf's CSV fields, the cgroup after the event"
	cmp -s "$dir/h.shape" "$dir/p.shape" || diag "hpmstat: $(head -3 "$dir/h.shape")" "perf:    $(head -3 "$dir/p.shape")"
done

# perf's tool events under -G: counted (the session's clock, not
# filtered), the cgroup beside them as beside every row, the rate over the
# cgroup's clock; hpmstat called duration_time "emulated" and refused it
$H stat -a -x, -e duration_time,cpu-clock -G /,/ -- sleep 0.15 2>"$dir/h.csv" >/dev/null
rc=$?
perf stat -a -x, -e duration_time,cpu-clock -G /,/ sleep 0.15 2>"$dir/p.csv" >/dev/null
csv_shape "$dir/h.csv" | grep -v "^#" >"$dir/h.shape"
csv_shape "$dir/p.csv" >"$dir/p.shape"
[ $rc -eq 0 ] && cmp -s "$dir/h.shape" "$dir/p.shape"
ok $? "-e duration_time,cpu-clock -G /,/: counted, perf's fields (exit $rc)"
cmp -s "$dir/h.shape" "$dir/p.shape" || diag "hpmstat: $(cat "$dir/h.shape" "$dir/h.csv" | head -3)" "perf:    $(head -3 "$dir/p.shape")"

# JSON: the same keys in the same order
key_order() { python3 -c '
import json, sys
for line in open(sys.argv[1]):
    line = line.strip()
    if line.startswith("{"):
        print(" ".join(json.loads(line).keys()))' "$1"; }
$H stat -a -j -e $ev -G / -- sleep 0.1 2>"$dir/h.json" >/dev/null
perf stat -a -j -e $ev -G / sleep 0.1 2>"$dir/p.json" >/dev/null
key_order "$dir/h.json" >"$dir/h.keys"
key_order "$dir/p.json" >"$dir/p.keys"
cmp -s "$dir/h.keys" "$dir/p.keys" && grep -q '"cgroup" : "/"' "$dir/h.json"
ok $? "-j -G /: perf's keys, \"cgroup\" after \"event\""
cmp -s "$dir/h.keys" "$dir/p.keys" || diag "hpmstat: $(cat "$dir/h.keys")" "perf:    $(cat "$dir/p.keys")"

# std: the cgroup in perf's column, on every row; the metric after it
col() { awk -v name="$2" '$0 ~ " " name " " && match($0, / \/( |$)/) { print RSTART }' "$1"; }
$H stat -a --no-big-num -e $ev -G / -- sleep 0.1 2>"$dir/h.std" >/dev/null
perf stat -a -e $ev -G / sleep 0.1 2>"$dir/p.std" >/dev/null
same=0
for e in cycles cpu-clock page-faults; do
	[ -n "$(col "$dir/h.std" $e)" ] && [ "$(col "$dir/h.std" $e)" = "$(col "$dir/p.std" $e)" ] || same=1
done
ok $same "std -G /: the cgroup in perf's column on each row"
[ $same = 0 ] || diag "$(cat "$dir/h.std")" "$(cat "$dir/p.std")"

# the rate of an event in another cgroup than the clock: none, as perf
$H stat -a -x, -e cpu-clock,page-faults -G ,/ -- sleep 0.1 2>"$dir/h2.csv" >/dev/null
perf stat -a -x, -e cpu-clock,page-faults -G ,/ sleep 0.1 2>"$dir/p2.csv" >/dev/null
csv_shape "$dir/h2.csv" >"$dir/h2.shape"
csv_shape "$dir/p2.csv" >"$dir/p2.shape"
cmp -s "$dir/h2.shape" "$dir/p2.shape" && grep -q '^N,,page-faults,/,N,N,,$' "$dir/h2.shape"
ok $? "-G ,/: an empty field for the event without a cgroup, no rate across cgroups"
cmp -s "$dir/h2.shape" "$dir/p2.shape" || diag "hpmstat: $(cat "$dir/h2.shape")" "perf:    $(cat "$dir/p2.shape")"

# without -G there is no field (run only here, where -G counts: the same rows)
$H stat -a -x, -e cpu-clock -- sleep 0.05 2>"$dir/h3.csv" >/dev/null
perf stat -a -x, -e cpu-clock sleep 0.05 2>"$dir/p3.csv" >/dev/null
[ "$(csv_shape "$dir/h3.csv")" = "$(csv_shape "$dir/p3.csv")" ]
ok $? "no -G: no cgroup field"

done_testing

#!/bin/sh
# perf 6.12's stat spellings (issue 32): a target counted for as long as a
# command runs (-p PID -- CMD, -t, --per-thread -p) against perf 6.1, which
# has it; -j -o FILE holding only JSON lines (perf 6.12 writes no "#
# started on" line then; its linter reads every line as JSON); perf 6.12's
# --per-cluster and --per-cache[=L<n>] (perf 6.1 has neither) on a fake
# sysfs worked by hand: ids, CPU counts, std, CSV and JSON prefixes, as
# perf 6.12's stat-display.c prints them; perf's refusals of bad levels;
# --metric-only without -M (the default events' ratios, worked from the
# counts), -M Default, --td-level, --metric-no-group/--metric-no-merge.
. "$top_srcdir/tests/lib.sh"
H=$HPMSTAT
real_perf=${PERF:-perf}
dir=$(mktemp -d)
spin=
trap 'main_shell || exit; [ -n "$spin" ] && kill $spin 2>/dev/null; rm -rf "$dir" "$tap_out" "$tap_err"' EXIT
have_perf=false
if command -v "$real_perf" >/dev/null 2>&1 && "$real_perf" stat -e task-clock true >/dev/null 2>&1; then
	have_perf=true
fi

# ------------------------------------------------ -p PID -- CMD and -t
# a process that spins until killed: counted while `sleep` runs
sh -c 'while :; do :; done' &
spin=$!
csv_val() { awk -F, -v e="$2" '$3 == e || $4 == e { print $1; exit }' "$1"; }
$H stat -x, -e task-clock,context-switches -p $spin -- sleep 0.3 2>"$dir/h.csv" >/dev/null
hrc=$?
t=$(csv_val "$dir/h.csv" task-clock)
[ $hrc -eq 0 ] && awk -v t="$t" 'BEGIN { exit !(t > 0 && t < 2 * 1000 * 0.3 * 4) }'
ok $? "-p PID -- sleep 0.3: exit 0, the spinning PID's task-clock counted ($t msec)"
[ $hrc -eq 0 ] || diag "$(head -3 "$dir/h.csv")"
$H stat -e task-clock -p $spin -- sleep 0.1 2>"$dir/h.std" >/dev/null
if $have_perf; then
	"$real_perf" stat -e task-clock -p $spin -- sleep 0.1 2>"$dir/p.std" >/dev/null
	[ "$(grep 'counter stats' "$dir/h.std")" = "$(grep 'counter stats' "$dir/p.std")" ]
	ok $? "-p PID -- CMD: perf's header ($(grep 'counter stats' "$dir/h.std"))"
	"$real_perf" stat -e task-clock -p $spin -- sh -c 'exit 3' >/dev/null 2>&1
	prc=$?
	$H stat -e task-clock -p $spin -- sh -c 'exit 3' >/dev/null 2>&1
	hrc=$?
	[ $hrc -eq $prc ]
	ok $? "-p PID -- CMD: the exit status is perf's (perf $prc, hpmstat $hrc)"
	"$real_perf" stat -e task-clock -t $spin -- sleep 0.1 2>"$dir/p.std" >/dev/null
	$H stat -e task-clock -t $spin -- sleep 0.1 2>"$dir/h.std" >/dev/null
	hrc=$?
	[ $hrc -eq 0 ] && [ "$(grep 'counter stats' "$dir/h.std")" = "$(grep 'counter stats' "$dir/p.std")" ] &&
		grep -q 'msec task-clock' "$dir/h.std"
	ok $? "-t TID -- CMD: counted, perf's header ($(grep 'counter stats' "$dir/h.std"))"
	"$real_perf" stat -x, --per-thread -e task-clock -p $spin -- sleep 0.1 2>"$dir/p.csv" >/dev/null
	$H stat -x, --per-thread -e task-clock -p $spin -- sleep 0.1 2>"$dir/h.csv" >/dev/null
	[ "$(cut -d, -f1 "$dir/h.csv")" = "$(cut -d, -f1 "$dir/p.csv")" ] &&
		[ "$(cut -d, -f1 "$dir/h.csv")" = "sh-$spin" ]
	ok $? "--per-thread -p PID -- CMD: perf's comm-tid prefix ($(cut -d, -f1 "$dir/h.csv"))"
else
	for n in 1 2 3 4; do skip "no perf that counts task-clock here"; done
fi
kill $spin
wait $spin 2>/dev/null
spin=
$H stat -e task-clock -p 999999999 -- true >/dev/null 2>"$tap_err"
[ $? -ne 0 ] && [ "$(wc -l <"$tap_err")" -eq 1 ]
ok $? "-p of no process with a command: one line, non-zero ($(cat "$tap_err"))"

# ------------------------------------------------ -j -o FILE
f=$dir/out.json
$H stat -j -o "$f" -e task-clock true
rc=$?
python3 -c '
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert lines, "no lines"
for l in lines:
    json.loads(l)
' "$f" 2>"$tap_err" && [ $rc -eq 0 ]
ok $? "-j -o FILE: every line is a JSON object, no '# started on' ($(head -c 80 "$f" | head -1))"
$H stat -o "$dir/out.txt" -e task-clock true
head -1 "$dir/out.txt" | grep -q '^# started on '
ok $? "-o FILE without -j keeps perf's '# started on' line"
$H stat -j -x, -o "$f" true >/dev/null 2>&1
[ $? -ne 0 ]; ok $? "-j and -x still exclude each other"

# ------------------------------------------------ --per-cluster, --per-cache
# A fake sysfs for the two CPUs 0 and 1, worked by hand: clusters 3 and 5;
# each CPU has its own L1d (index0) and L1i (index1), both share an L2
# (index2: 0-1), no L3. perf 6.12: a cache's id is the lowest CPU of its
# shared_cpu_list, the default level the highest (L2), a level sysfs lacks
# is L-1-ID-1.
ncpu=$(getconf _NPROCESSORS_ONLN)
fake=$dir/sys
for c in 0 1; do
	d=$fake/devices/system/cpu/cpu$c
	mkdir -p "$d/topology" "$d/cache/index0" "$d/cache/index1" "$d/cache/index2" \
		"$fake/devices/system/node/node0"
	echo 0 >"$d/topology/physical_package_id"
	echo 0 >"$d/topology/die_id"
	echo $c >"$d/topology/core_id"
	echo $((3 + 2 * c)) >"$d/topology/cluster_id"
	echo 1 >"$d/cache/index0/level"
	echo $c >"$d/cache/index0/shared_cpu_list"
	echo 1 >"$d/cache/index1/level"
	echo $c >"$d/cache/index1/shared_cpu_list"
	echo 2 >"$d/cache/index2/level"
	echo 0-1 >"$d/cache/index2/shared_cpu_list"
done
echo 0-1 >"$fake/devices/system/node/node0/cpulist"
echo 0-1 >"$fake/devices/system/cpu/online"
# mode ARGS -- WANT: the "id,CPUs" pairs of a CSV run on the fake sysfs
mode() {
	args=
	while [ "$1" != -- ]; do
		args="$args $1"
		shift
	done
	shift
	HPMSTAT_SYSFS=$fake $H stat -C 0-1 $args -x, -e cpu-clock sleep 0.05 2>"$dir/f.csv" >/dev/null
	got=$(awk -F, '{ print $1 "," $2 }' "$dir/f.csv" | tr '\n' ' ')
	[ "$got" = "$1" ]
	ok $? "fake sysfs$args: $1(got $got)"
}
if [ "$ncpu" -ge 2 ]; then
	mode --per-cluster -- "S0-D0-CLS3,1 S0-D0-CLS5,1 "
	mode --per-cache -- "S0-D0-L2-ID0,2 "
	mode --per-cache=L2 -- "S0-D0-L2-ID0,2 "
	mode --per-cache=l1 -- "S0-D0-L1-ID0,1 S0-D0-L1-ID1,1 "
	mode --per-cache=L3 -- "S0-D0-L-1-ID-1,2 "
	# std: the id padded to 22 (cache) or 20 (cluster), the CPUs in 4
	HPMSTAT_SYSFS=$fake $H stat -C 0-1 --per-cache -e cpu-clock sleep 0.05 2>"$dir/f.std" >/dev/null
	grep -qF "$(printf '%-22s %4d ' S0-D0-L2-ID0 2)" "$dir/f.std" &&
		grep -q '^S0-D0-L2-ID0  *2  *[0-9.]* msec cpu-clock' "$dir/f.std"
	ok $? "--per-cache std: perf 6.12's '%-22s %4d ' prefix"
	[ $? -eq 0 ] || diag "$(cat "$dir/f.std")"
	HPMSTAT_SYSFS=$fake $H stat -C 0-1 --per-cluster -e cpu-clock sleep 0.05 2>"$dir/f.std" >/dev/null
	grep -qF "$(printf '%-20s %4d ' S0-D0-CLS3 1)" "$dir/f.std" &&
		grep -qF "$(printf '%-20s %4d ' S0-D0-CLS5 1)" "$dir/f.std" &&
		[ "$(grep -c '^S0-D0-CLS[35]  *1  *[0-9.]* msec cpu-clock' "$dir/f.std")" -eq 2 ]
	ok $? "--per-cluster std: perf 6.12's '%-20s %4d ' prefix"
	HPMSTAT_SYSFS=$fake $H stat -C 0-1 --per-cache=L1 -j -e cpu-clock sleep 0.05 2>"$dir/f.json" >/dev/null
	[ "$(grep -c '^{"cache" : "S0-D0-L1-ID[01]", "aggregate-number" : 1, "counter-value" : ' "$dir/f.json")" -eq 2 ]
	ok $? "--per-cache=L1 JSON: perf 6.12's \"cache\" and \"aggregate-number\" keys first"
	HPMSTAT_SYSFS=$fake $H stat -C 0-1 --per-cluster -j -e cpu-clock sleep 0.05 2>"$dir/f.json" >/dev/null
	[ "$(grep -c '^{"cluster" : "S0-D0-CLS[35]", "aggregate-number" : 1, "counter-value" : ' "$dir/f.json")" -eq 2 ]
	ok $? "--per-cluster JSON: perf 6.12's \"cluster\" and \"aggregate-number\" keys first"
else
	for n in 1 2 3 4 5 6 7 8 9; do skip "one CPU: the fake two-CPU topology cannot be counted"; done
fi
# this machine's own sysfs: the ids from its files, worked out here
c0=/sys/devices/system/cpu/cpu0
cl=$(cat $c0/topology/cluster_id 2>/dev/null || echo 0)
[ "$cl" = -1 ] && cl=0
want="S$(cat $c0/topology/physical_package_id)-D$(cat $c0/topology/die_id 2>/dev/null || echo 0)-CLS$cl"
$H stat -C 0 --per-cluster -x, -e cpu-clock true 2>"$dir/c.csv" >/dev/null
[ "$(cut -d, -f1,2 "$dir/c.csv")" = "$want,1" ]
ok $? "--per-cluster -C 0 on this machine: $want from its sysfs ($(cut -d, -f1,2 "$dir/c.csv"))"

# perf 6.12 itself, when it is the peer (perf612_peer in tests/lib.sh):
# the same modes on this machine's sysfs, the prefixes and CPU counts of
# CSV, std and JSON beside perf 6.12's
perf612_peer
for m in --per-cluster --per-cache --per-cache=L1 --per-cache=L2 --per-cache=L3 --per-cache=L4; do
	if ! $peer_is_612; then
		skip "$m -a beside perf 6.12" "no perf 6.12 peer in the test cache (make perf612-peer)"
		continue
	fi
	"$peer" stat -a $m -x, -e cpu-clock sleep 0.05 2>"$dir/p.csv" >/dev/null
	$H stat -a $m -x, -e cpu-clock sleep 0.05 2>"$dir/h.csv" >/dev/null
	"$peer" stat -a $m -e cpu-clock sleep 0.05 2>"$dir/p.std" >/dev/null
	$H stat -a $m -e cpu-clock sleep 0.05 2>"$dir/h.std" >/dev/null
	"$peer" stat -a $m -j -e cpu-clock sleep 0.05 2>"$dir/p.json" >/dev/null
	$H stat -a $m -j -e cpu-clock sleep 0.05 2>"$dir/h.json" >/dev/null
	# std: everything before the count (the id padded as perf pads it)
	std_prefix() { sed -n 's/^\([^ ].* \)  *[0-9.,]* msec cpu-clock.*/\1/p' "$1"; }
	json_prefix() { sed 's/"counter-value" : .*//' "$1"; }
	[ -s "$dir/p.csv" ] && [ "$(cut -d, -f1,2 "$dir/h.csv")" = "$(cut -d, -f1,2 "$dir/p.csv")" ] &&
		[ "$(std_prefix "$dir/h.std")" = "$(std_prefix "$dir/p.std")" ] &&
		[ "$(json_prefix "$dir/h.json")" = "$(json_prefix "$dir/p.json")" ]
	ok $? "$m -a: CSV, std and JSON prefixes are perf 6.12's ($(cut -d, -f1,2 "$dir/p.csv" | tr '\n' ' '))"
	[ $? -eq 0 ] || diag "perf:" "$(cat "$dir/p.csv" "$dir/p.std" "$dir/p.json")" "hpmstat:" "$(cat "$dir/h.csv" "$dir/h.std" "$dir/h.json")"
done

# ------------------------------------------------ metric spellings
# --metric-only without -M or --topdown: perf's table of the default
# events' ratios; the emulated Arm harts count the same for the same
# --emu-cycles, so the table's figures are the event run's, worked here
# from its counts (IPC to 2 decimals, misses in % of branches)
E="--pmu neoverse-v2 --emu-cycles 1000000 -e cycles,instructions,branches,branch-misses"
$H stat $E -x, 2>"$dir/ev.csv" >/dev/null
$H stat $E -x, --metric-only 2>"$dir/mo.csv" >/dev/null
rc=$?
want=$(awk -F, '{ v[$3] = $1 } END { printf "%.2f,%.2f", v["instructions"] / v["cycles"],
	100 * v["branch-misses"] / v["branches"] }' "$dir/ev.csv")
[ $rc -eq 0 ] && [ "$(grep -v '^#' "$dir/mo.csv" | sed -n 1p)" = "insn per cycle,branch-misses of all branches" ] &&
	[ "$(grep -v '^#' "$dir/mo.csv" | sed -n 2p)" = "$want" ]
ok $? "--metric-only alone -x,: perf's headers ('EVENT of all branches') and the rows' quotients ($want)"
[ $? -eq 0 ] || diag "$(cat "$dir/mo.csv")"
$H stat $E --metric-only 2>"$dir/mo.std" >/dev/null
grep -qE '^ +insn per cycle branch-misses of all branches$' "$dir/mo.std" &&
	grep -qE "^ +${want%,*} +${want#*,}%\$" "$dir/mo.std"
ok $? "--metric-only alone, std: the headers, then IPC and the share with perf's %"
[ $? -eq 0 ] || diag "$(cat "$dir/mo.std")"
$H stat $E -j --metric-only 2>"$dir/mo.json" >/dev/null
[ "$(cat "$dir/mo.json")" = "{\"insn per cycle\" : \"${want%,*}\", \"branch-misses of all branches\" : \"${want#*,}\"}" ]
ok $? "--metric-only alone, JSON: perf 6.12's one object of strings ($(cat "$dir/mo.json"))"
# the rates and CPUs utilized are not in perf's table (valid_only_metric)
$H stat -e task-clock,page-faults --metric-only -x, true 2>"$dir/mo2.csv" >/dev/null
rc=$?
[ $rc -eq 0 ] && [ -z "$(grep -v '^#' "$dir/mo2.csv" | tr -d ',\n')" ]
ok $? "--metric-only -e task-clock,page-faults: no column (perf leaves out /sec and CPUs utilized)"
# a row without a value: perf 6.12's print_metric_end writes
# "metric-value" : "none" (never an empty object), after the row's keys
$H stat -j --metric-only -e task-clock true 2>"$dir/none.json" >/dev/null
rc=$?
[ $rc -eq 0 ] && [ "$(cat "$dir/none.json")" = '{"metric-value" : "none"}' ]
ok $? "--metric-only -j without a value: perf 6.12's {\"metric-value\" : \"none\"} ($(cat "$dir/none.json"))"
$H stat -j --metric-only -a -A -e cpu-clock sleep 0.05 2>"$dir/none.json" >/dev/null
want=$(for c in $(seq 0 $((ncpu - 1))); do printf '{"cpu" : "%s", "metric-value" : "none"}\n' $c; done)
[ "$(cat "$dir/none.json")" = "$want" ]
ok $? "--metric-only -j -A without a value: the cpu key, then \"metric-value\" : \"none\""
[ $? -eq 0 ] || diag "$(cat "$dir/none.json")"
$H stat -j --metric-only -I 100 -e task-clock sleep 0.25 2>"$dir/none.json" >/dev/null
[ -s "$dir/none.json" ] && ! grep -vqE '^\{"interval" : [0-9.]+, "metric-value" : "none"\}$' "$dir/none.json"
ok $? "--metric-only -j -I without a value: the interval key, then \"metric-value\" : \"none\""
[ $? -eq 0 ] || diag "$(cat "$dir/none.json")"
# the same runs beside perf 6.12 itself, the times and numbers blanked
for m in "-e task-clock true" "-a --per-core -e cpu-clock sleep 0.05" "-a -A -e cpu-clock sleep 0.05" \
	"-I 100 -e task-clock sleep 0.25"; do
	if ! $peer_is_612; then
		skip "--metric-only -j $m beside perf 6.12" "no perf 6.12 peer in the test cache (make perf612-peer)"
		continue
	fi
	# shellcheck disable=SC2086 # the options split as typed
	"$peer" stat -j --metric-only $m 2>"$dir/p.json" >/dev/null
	# shellcheck disable=SC2086
	$H stat -j --metric-only $m 2>"$dir/h.json" >/dev/null
	blank() { sed 's/[0-9][0-9]*\.[0-9]*/N/g' "$1" | sort -u; }
	[ -s "$dir/p.json" ] && [ "$(blank "$dir/h.json")" = "$(blank "$dir/p.json")" ]
	ok $? "--metric-only -j $m: perf 6.12's rows ($(blank "$dir/p.json" | head -1))"
	[ $? -eq 0 ] || diag "perf:" "$(cat "$dir/p.json")" "hpmstat:" "$(cat "$dir/h.json")"
done
# -M Default is perf 6.12's default metric group: Topdown level 1
K="--emu-cycles 200000 -x,"
$H stat -M Default $K 2>"$dir/d.csv" >/dev/null
rc=$?
$H stat -M TopdownL1 $K 2>"$dir/t.csv" >/dev/null
[ $rc -eq 0 ] && grep -q 'tma_retiring' "$dir/d.csv" && cmp -s "$dir/d.csv" "$dir/t.csv"
ok $? "-M Default: the TopdownL1 group, the same output"
[ $? -eq 0 ] || diag "$(head -5 "$dir/d.csv")"
for l in 1 2 3; do
	$H stat --td-level $l $K 2>"$dir/d.csv" >/dev/null
	rc=$?
	$H stat --topdown=$l $K 2>"$dir/t.csv" >/dev/null
	[ $rc -eq 0 ] && [ -s "$dir/d.csv" ] && cmp -s "$dir/d.csv" "$dir/t.csv"
	ok $? "--td-level $l is --topdown=$l"
done
$H stat --td-level 0 $K 2>"$dir/d.csv" >/dev/null
rc=$?
$H stat --topdown=3 $K 2>"$dir/t.csv" >/dev/null
[ $rc -eq 0 ] && cmp -s "$dir/d.csv" "$dir/t.csv"
ok $? "--td-level 0: the deepest level (--topdown=3)"
run_fails_with "--td-level 4: refused in one line" "--td-level" $H stat --td-level 4 $K
$H stat -M TopdownL1 --metric-no-group --metric-no-merge $K 2>"$dir/d.csv" >/dev/null
rc=$?
$H stat -M TopdownL1 $K 2>"$dir/t.csv" >/dev/null
[ $rc -eq 0 ] && [ -s "$dir/d.csv" ] && cmp -s "$dir/d.csv" "$dir/t.csv"
ok $? "--metric-no-group --metric-no-merge: accepted, the same output"

run_fails_with "--per-cache=L5: perf's refusal" "perf only supports max cache level of 4" \
	$H stat -a --per-cache=L5 true
run_fails_with "--per-cache=X2: perf's form" "Cache level must be of form L[1-4], or l[1-4]" \
	$H stat -a --per-cache=X2 true
run_fails_with "--per-cache=L0: perf's form" "Cache level must be of form L[1-4], or l[1-4]" \
	$H stat -a --per-cache=L0 true
run_fails_with "--per-cluster with a command alone: system-wide only, as perf" "system-wide" \
	$H stat --per-cluster true

done_testing

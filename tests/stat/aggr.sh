#!/bin/sh
# perf stat's aggregation modes: --per-socket, --per-die, --per-core,
# --per-node (ids and CPU counts against perf's own output on this machine,
# and against a fake sysfs topology worked by hand), their prefix columns in
# std, CSV and JSON (perf's byte shape), sums, the emulated harts as cores,
# --per-thread and -t against perf on a two-thread program, and perf's
# errors.
. "$top_srcdir/tests/lib.sh"
H=$HPMSTAT
S="$top_builddir/tests/stat/spin-threads"
dir=$(mktemp -d)
spin=
trap 'main_shell || exit; [ -n "$spin" ] && kill $spin 2>/dev/null; rm -rf "$dir" "$tap_out" "$tap_err"' EXIT

have_perf=false
if command -v perf >/dev/null 2>&1 && perf stat -a -x, -e cpu-clock true >/dev/null 2>&1; then
	have_perf=true
fi

# the (id, CPU count) pairs of a CSV run, sorted
ids_csv() { awk -F, '$4=="cpu-clock" || $5=="cpu-clock" {print $1 "," $2}' "$1" | sort; }
ids_json() { tr -d ' ' <"$1" | grep '"event":"cpu-clock"' |
	sed -n 's/.*"\(core\|die\|socket\|node\)":"\([^"]*\)","aggregate-number":\([0-9]*\).*/\1 \2 \3/p' | sort; }
# std: each row's prefix (up to the count) and the column where "msec" starts
shape_std() { grep 'msec cpu-clock' "$1" | sed 's/ *[0-9][0-9.,]* msec cpu-clock.*//' | sort -u
	grep 'msec cpu-clock' "$1" | awk '{print index($0, "msec")}' | sort -u; }

for m in core die socket node; do
	$H stat -a --per-$m -x, -e cpu-clock sleep 0.1 2>"$dir/h.csv" >/dev/null
	ok $? "--per-$m -a -x, exits 0"
	$H stat -a --per-$m -j -e cpu-clock sleep 0.1 2>"$dir/h.json" >/dev/null
	$H stat -a --per-$m -e cpu-clock sleep 0.1 2>"$dir/h.std" >/dev/null
	if $have_perf; then
		perf stat -a --per-$m -x, -e cpu-clock sleep 0.1 2>"$dir/p.csv" >/dev/null
		perf stat -a --per-$m -j -e cpu-clock sleep 0.1 2>"$dir/p.json" >/dev/null
		perf stat -a --per-$m -e cpu-clock sleep 0.1 2>"$dir/p.std" >/dev/null
		[ -n "$(ids_csv "$dir/p.csv")" ] && [ "$(ids_csv "$dir/h.csv")" = "$(ids_csv "$dir/p.csv")" ]
		ok $? "--per-$m CSV: the ids and CPU counts perf prints ($(ids_csv "$dir/h.csv" | tr '\n' ' '))"
		[ -n "$(ids_json "$dir/p.json")" ] && [ "$(ids_json "$dir/h.json")" = "$(ids_json "$dir/p.json")" ]
		ok $? "--per-$m JSON: perf's key, id and aggregate-number ($(ids_json "$dir/h.json" | tr '\n' ' '))"
		[ "$(shape_std "$dir/h.std")" = "$(shape_std "$dir/p.std")" ]
		ok $? "--per-$m std: perf's prefix columns, the count in the same column"
		[ -n "$(shape_std "$dir/h.std")" ] || diag "$(cat "$dir/h.std")"
	else
		skip "perf stat -a cannot count cpu-clock here"
		skip "perf stat -a cannot count cpu-clock here"
		skip "perf stat -a cannot count cpu-clock here"
	fi
	# every CSV row: id, CPU count, then perf's 7 fields
	awk -F, 'NF!=9{bad=1} END{exit bad || NR==0}' "$dir/h.csv"; ok $? "--per-$m CSV rows have 2 + 7 fields"
done

# the CPU counts of one socket add up to the CPUs counted, and per-core
# cpu-clock sums to what one -a row counts (the same span, within noise)
ncpu=$(getconf _NPROCESSORS_ONLN)
$H stat -a --per-socket -x, -e cpu-clock sleep 0.2 2>"$dir/s.csv" >/dev/null
n=$(awk -F, '{n+=$2} END{print n}' "$dir/s.csv")
[ "$n" = "$ncpu" ]; ok $? "--per-socket counts every online CPU once ($n of $ncpu)"
# one run (separate runs differ on a loaded machine): on every CPU cpu-clock
# counts the whole span, so the cores' sum is the CPUs x the elapsed time
$H stat -a --per-core -e cpu-clock sleep 0.2 2>"$dir/c.std" >/dev/null
sum=$(grep 'msec cpu-clock' "$dir/c.std" | awk '{v=$3; gsub(",", "", v); s+=v} END{print s}')
el=$(awk '/seconds time elapsed/{print $1 * 1000}' "$dir/c.std")
awk -v s="$sum" -v e="$el" -v n="$ncpu" 'BEGIN{t=n*e; d=s-t; if(d<0)d=-d; exit !(t>0 && d <= 0.1*t)}'
ok $? "per-core cpu-clock sums to the CPUs x elapsed of the run ($sum msec, $ncpu x $el)"
# -C: only the CPUs asked for
$H stat -C 0 --per-core -x, -e cpu-clock sleep 0.05 2>"$dir/c0.csv" >/dev/null
[ "$(wc -l <"$dir/c0.csv")" -eq 1 ] && grep -q '^S[0-9]*-D[0-9]*-C[0-9]*,1,' "$dir/c0.csv"
ok $? "-C 0 --per-core: one core of one CPU ($(cat "$dir/c0.csv"))"

# A fake topology, worked by hand: CPU0 on die 0 and node 0, CPU1 on die 1
# of the same socket and node 1, both core 0 of their die
fake="$dir/sys"
for c in 0 1; do
	mkdir -p "$fake/devices/system/cpu/cpu$c/topology" "$fake/devices/system/node/node$c"
	echo 0 >"$fake/devices/system/cpu/cpu$c/topology/physical_package_id"
	echo $c >"$fake/devices/system/cpu/cpu$c/topology/die_id"
	echo 0 >"$fake/devices/system/cpu/cpu$c/topology/core_id"
	echo $c >"$fake/devices/system/node/node$c/cpulist"
done
echo 0-1 >"$fake/devices/system/cpu/online"
if [ "$ncpu" -ge 2 ]; then
	for mw in "socket:S0,2" "die:S0-D0,1 S0-D1,1" "core:S0-D0-C0,1 S0-D1-C0,1" "node:N0,1 N1,1"; do
		m=${mw%%:*} want=${mw#*:}
		HPMSTAT_SYSFS=$fake $H stat -C 0-1 --per-$m -x, -e cpu-clock sleep 0.05 2>"$dir/f.csv" >/dev/null
		got=$(ids_csv "$dir/f.csv" | tr '\n' ' ' | sed 's/ $//')
		[ "$got" = "$want" ]; ok $? "fake sysfs --per-$m: $want (got $got)"
	done
else
	for m in socket die core node; do skip "one CPU: the fake two-CPU topology cannot be counted"; done
fi

# The emulated harts are the cores of one socket, die and node
E="--backend emu --emu-harts 4 --emu-cycles 100000"
$H stat $E --per-core -x, -e mcycle 2>"$dir/e.csv" >/dev/null
got=$(grep -v '^#' "$dir/e.csv" | cut -d, -f1-3 | tr '\n' ' ')
[ "$got" = "S0-D0-C0,1,100000 S0-D0-C1,1,100000 S0-D0-C2,1,100000 S0-D0-C3,1,100000 " ]
ok $? "--emu-harts 4 --per-core: one core per hart ($got)"
for mw in "socket:S0,4,400000" "die:S0-D0,4,400000" "node:N0,4,400000"; do
	m=${mw%%:*} want=${mw#*:}
	got=$($H stat $E --per-$m -x, -e mcycle 2>&1 >/dev/null | grep -v '^#' | cut -d, -f1-3)
	[ "$got" = "$want" ]; ok $? "--emu-harts 4 --per-$m: $want (got $got)"
done
$H stat $E --per-core -e mcycle,minstret 2>"$dir/e.std" >/dev/null
[ "$(grep -c '^S0-D0-C[0-3]           1 ' "$dir/e.std")" -eq 8 ]
ok $? "--per-core std: every event of a core together, perf's prefix"
sed -n 's/^\(S0-D0-C[0-9]\) .* \(mcycle\|minstret\) .*/\1 \2/p' "$dir/e.std" | tr '\n' ' ' >"$dir/order"
[ "$(cat "$dir/order")" = "S0-D0-C0 mcycle S0-D0-C0 minstret S0-D0-C1 mcycle S0-D0-C1 minstret S0-D0-C2 mcycle S0-D0-C2 minstret S0-D0-C3 mcycle S0-D0-C3 minstret " ]
ok $? "--per-core: id by id, as perf prints them"
# the last aggregation option wins, as in perf
$H stat $E --per-core -A -x, -e mcycle 2>&1 >/dev/null | grep -v '^#' | cut -d, -f1 | tr '\n' ' ' >"$dir/last"
[ "$(cat "$dir/last")" = "hart0 hart1 hart2 hart3 " ]; ok $? "--per-core -A: -A wins ($(cat "$dir/last"))"

# --per-thread and -t on a program with two busy threads and a sleeping one
rm -f "$dir/tids"
"$S" 20 "$dir/tids" & spin=$!
i=0; while [ ! -s "$dir/tids" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
read main t1 t2 <"$dir/tids"
$H stat --per-thread -p $spin -x, -e cpu-clock -I 300 2>"$dir/t.csv" >/dev/null &
hp=$!; sleep 0.7; kill -INT $hp; wait $hp
got=$(awk -F, '$5=="cpu-clock"{print $2}' "$dir/t.csv" | sort -u | tr '\n' ' ')
[ "$got" = "$(printf '%s\n' "spin-threads-$main" "spin1-$t1" "spin2-$t2" | cut -c1-40 | sort | tr '\n' ' ')" ] ||
	[ "$got" = "$(printf '%s\n' "spin-threa-$main" "spin1-$t1" "spin2-$t2" | sort | tr '\n' ' ')" ]
ok $? "--per-thread -p: one row per thread, comm-tid ($got)"
$H stat --per-thread -p $spin -e cpu-clock,page-faults -I 200 2>"$dir/t.std" >/dev/null &
hp=$!; sleep 0.6; kill -INT $hp; wait $hp
grep -q "^ *[0-9.]* *spin1-$t1 *[ 0-9.,]* msec cpu-clock" "$dir/t.std"
ok $? "--per-thread std: the thread's row"
awk -v t="spin1-$t1" 'index($0, t) && /msec cpu-clock/ {print index($0, t) + length(t) - 1; exit}' "$dir/t.std" >"$dir/col"
# perf: the comm right-aligned in 16 columns, '-', the tid in 8 (after the timestamp)
[ "$(cat "$dir/col")" -eq $((17 + 16 + 1 + ${#t1})) ]; ok $? "--per-thread std: comm in 16 columns, as perf ($(cat "$dir/col"))"
if $have_perf; then
	perf stat --per-thread -p $spin -x, -e cpu-clock sleep 0.2 2>"$dir/pt.csv" >/dev/null
	pt=$(awk -F, '$4=="cpu-clock"{print $1}' "$dir/pt.csv" | sort | tr '\n' ' ')
	$H stat --per-thread -p $spin -x, -e cpu-clock -I 200 2>"$dir/ht.csv" >/dev/null &
	hp=$!; sleep 0.6; kill -INT $hp; wait $hp
	ht=$(awk -F, '$5=="cpu-clock"{print $2}' "$dir/ht.csv" | sort -u | tr '\n' ' ')
	[ -n "$pt" ] && [ "$pt" = "$ht" ]; ok $? "--per-thread -p: the threads perf names ($pt)"
	perf stat --per-thread -p $spin -j -e cpu-clock sleep 0.2 2>"$dir/pt.json" >/dev/null
	$H stat --per-thread -p $spin -j -e cpu-clock -I 200 2>"$dir/ht.json" >/dev/null &
	hp=$!; sleep 0.6; kill -INT $hp; wait $hp
	pk=$(tr -d ' ' <"$dir/pt.json" | sed -n 's/.*"thread":"\([^"]*\)".*/\1/p' | sort | tr '\n' ' ')
	hk=$(tr -d ' ' <"$dir/ht.json" | sed -n 's/.*"thread":"\([^"]*\)".*/\1/p' | sort -u | tr '\n' ' ')
	[ -n "$pk" ] && [ "$pk" = "$hk" ]; ok $? "--per-thread -j: perf's \"thread\" key and values ($hk)"
else
	skip "perf stat cannot count cpu-clock here"
	skip "perf stat cannot count cpu-clock here"
fi
# the busiest thread first, as perf sorts them
first=$(awk -F, '$5=="cpu-clock"{print $2; exit}' "$dir/t.csv")
case $first in spin1-* | spin2-*) ok 0 "--per-thread: a busy thread first ($first)" ;; *) ok 1 "--per-thread: a busy thread first ($first)" ;; esac
# -t: that thread only, and the header names it
$H stat -t $t1 -e cpu-clock -I 200 2>"$dir/tid.std" >/dev/null &
hp=$!; sleep 0.6; kill -INT $hp; wait $hp
$H stat -t "$t1,$main" --per-thread -x, -e cpu-clock -I 200 2>"$dir/tid.csv" >/dev/null &
hp=$!; sleep 0.6; kill -INT $hp; wait $hp
got=$(awk -F, '$5=="cpu-clock"{print $2}' "$dir/tid.csv" | sort -u | tr '\n' ' ')
case $got in *"spin1-$t1"*) case $got in *"spin2"*) r=1 ;; *) r=0 ;; esac ;; *) r=1 ;; esac
ok $r "-t TID,TID --per-thread: those threads only ($got)"
grep -q 'msec cpu-clock' "$dir/tid.std"; ok $? "-t TID counts the thread"
# perf: -t TID -- CMD counts the thread for as long as CMD runs
$H stat -t $t1 -e cpu-clock sleep 0.2 2>"$dir/tidcmd.std" >/dev/null
[ $? -eq 0 ] && grep -q "for thread id '$t1'" "$dir/tidcmd.std" && grep -q 'msec cpu-clock' "$dir/tidcmd.std"
ok $? "-t TID with a command: the thread counted while it runs, as perf"
# -a --per-thread: every thread of the system, those that counted nothing left out
$H stat -a --per-thread -x, -e cpu-clock sleep 0.2 2>"$dir/at.csv" >/dev/null
ok $? "-a --per-thread exits 0"
grep -q "^spin1-$t1,[0-9.]*,msec,cpu-clock," "$dir/at.csv"; ok $? "-a --per-thread: the busy thread's row (spin1-$t1)"
# (a thread that ran a few ns prints 0.00 msec: only a raw 0, printed "0",
# is a row perf leaves out)
awk -F, 'NF!=8 || $2=="0" {bad=1} END{exit bad || NR==0}' "$dir/at.csv"; r=$?
ok $r "-a --per-thread: perf's 8 fields, no zero row ($(wc -l <"$dir/at.csv") threads)"
[ $r -eq 0 ] || diag "$(awk -F, 'NF!=8 || $2=="0"' "$dir/at.csv" | head -3)"
kill $spin 2>/dev/null; wait $spin 2>/dev/null; spin=

# perf's errors
run_fails_with "--per-core with a command and no -a" "only available in system-wide mode" $H stat --per-core -e cpu-clock true
run_fails_with "--per-socket with -p" "only available in system-wide mode" $H stat --per-socket -p $$ -e cpu-clock
run_fails_with "--per-thread with a command" "The --per-thread option is only available" $H stat --per-thread -e cpu-clock true
run_fails_with "--per-thread with -C" "The --per-thread option is only available" $H stat --per-thread -C 0 -e cpu-clock true
run_fails_with "--per-thread on the emulated harts" "--per-thread: emulated events" $H stat --backend emu --per-thread -e mcycle
run_fails_with "-t with a bad id" "-t 'x'" $H stat -t x -e cpu-clock
run_fails_with "--per-thread --metric-only" "--metric-only is not supported with --per-thread" $H stat --per-thread -p $$ --metric-only --topdown

# --no-merge: accepted, and the rows are the same (one PMU per name here)
a=$($H stat --no-merge -x, -e cpu-clock,page-faults true 2>&1 >/dev/null | cut -d, -f3 | tr '\n' ' ')
[ "$a" = "cpu-clock page-faults " ]; ok $? "--no-merge: the same rows ($a)"

done_testing

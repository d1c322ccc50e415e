#!/bin/sh
# hpmstat stat -j against the rules of perf's JSON linter, the one of current
# Linux (tools/perf/tests/shell/lib/perf_json_output_lint.py) and perf 6.1's,
# written down independently in perf-json-rows.py: for each aggregation mode
# of perf's JSON test, the rules must first accept the real perf's output of
# the same command on this machine (so they are perf's rules, not ours), then
# hpmstat's. perf 6.1 prints metric-value and metric-unit on every counter
# row (its linter counts 6 commas); where perf's output does so, hpmstat's
# must too. Emulated rows are checked with hpmstat's documented extra keys.
. "$top_srcdir/tests/lib.sh"
if ! command -v python3 >/dev/null 2>&1; then
	skip_all "python3 is not installed"
fi
H=$HPMSTAT
real_perf=${PERF:-/usr/bin/perf}
rows="python3 $top_srcdir/tests/stat/perf-json-rows.py"
scratch_dir
has_perf=0
"$real_perf" stat -j -e task-clock true >/dev/null 2>&1 && has_perf=1

# json WHO OUT ARGS...: `WHO stat -j ARGS` (WHO: perf or hpmstat), its JSON
# in OUT, its status in $rc; a failure runs up to 3 times (--per-thread -a
# races with processes that exit while it reads /proc, perf 6.1 included)
json() {
	who=$1
	out=$2
	shift 2
	[ "$who" = perf ] && bin=$real_perf || bin=$H
	for try in 1 2 3; do
		timeout -k 5 30 "$bin" stat -j "$@" 2>"$out" >/dev/null
		rc=$?
		[ $rc -eq 0 ] && return
	done
}

# mode DESC FLAGS -- ARGS...: one aggregation mode; FLAGS for the rules
mode() {
	d=$1
	shift
	flags=
	while [ "$1" != -- ]; do
		flags="$flags $1"
		shift
	done
	shift
	p_ok=
	if [ $has_perf = 1 ]; then
		json perf "$dir/perf.json" "$@"
		# perf 6.1's own --per-thread -a output now and then holds a row
		# of a thread that exited while it was read: up to three runs
		for try in 2 3; do
			[ $rc -ne 0 ] || $rows $flags <"$dir/perf.json" >/dev/null 2>&1 && break
			json perf "$dir/perf.json" "$@"
		done
		if [ $rc -ne 0 ]; then
			skip "$d: perf stat -j $* exits $rc here ($(head -c 100 "$dir/perf.json" | head -1))"
		elif $rows $flags <"$dir/perf.json" >"$tap_err"; then
			p_ok=1
			ok 0 "$d: the rules accept perf's own output ($(cat "$tap_err"))"
		else
			ok 1 "$d: the rules accept perf's own output"
			diag "$(cat "$tap_err" | head -3)" "$(head -c 300 "$dir/perf.json")"
			diag "$(cat "$tap_err")"
		fi
	else
		skip "$d: no perf here to check the rules against"
	fi
	json hpmstat "$dir/hpm.json" "$@"
	if [ $rc -ne 0 ] && [ -z "$p_ok" ]; then
		skip "$d: hpmstat stat -j $* exits $rc, and perf cannot run it either"
		return
	fi
	$rows $flags <"$dir/hpm.json" >"$tap_err"
	ok $? "$d: hpmstat's output keeps them ($(cat "$tap_err"))"
	[ $rc -eq 0 ] || diag "hpmstat exits $rc: $(head -3 "$dir/hpm.json")"
	# perf 6.1's stricter shape, where perf itself keeps it here
	if [ -n "$p_ok" ] && $rows $flags --metric-pair <"$dir/perf.json" >/dev/null; then
		$rows $flags --metric-pair <"$dir/hpm.json" >"$tap_err"
		ok $? "$d: every counter row has perf 6.1's metric pair, as perf's ($(cat "$tap_err"))"
	fi
}

mode "-j" -- true
mode "-j -e cpu-clock" -- -e cpu-clock true
mode "-j -a" -- -a true
mode "-j -I 100" --interval -- -I 100 sleep 0.25
mode "-j -r 2" --repeat -- -r 2 true
mode "-j -a -A" --mode cpu -- -a -A true
mode "-j -C 0 -A" --mode cpu -- -C 0 -A true
mode "-j --per-thread -a" --mode thread -- --per-thread -a true
for a in core socket die node; do
	mode "-j --per-$a -a" --mode $a -- --per-$a -a true
done
mode "-j -I 100 --per-core -a" --interval --mode core -- -I 100 --per-core -a sleep 0.25

# emulated rows: perf's keys as perf's, and the extra keys hpmstat-stat(1)
# documents under JSON (nothing else)
extra=emulated,emu-profile,emu-trace,emu-seed,emu-partial,emu-cycles,emu-cycles-wanted
extra=$extra,metric,topdown-level,bottleneck,out-of-range,out-of-range-by,multiplexed,hart,wrapped
$H stat -j --topdown -e mcycle,minstret --emu-cycles 1000000 2>"$dir/hpm.json" >/dev/null
rc=$?
$rows --extra-keys $extra <"$dir/hpm.json" >"$tap_err"
ok $? "emulated -j --topdown -e mcycle,minstret: perf's keys keep the rules (exit $rc, $(cat "$tap_err"))"
# a hart's row carries -A's "cpu" key (its number), as perf's CPU rows
$H stat -j -A --emu-harts 2 -e mcycle --emu-cycles 1000000 2>"$dir/hpm.json" >/dev/null
rc=$?
$rows --mode cpu --extra-keys $extra <"$dir/hpm.json" >"$tap_err"
ok $? "emulated -j -A --emu-harts 2: perf's keys, -A's cpu, keep the rules (exit $rc, $(cat "$tap_err"))"

done_testing

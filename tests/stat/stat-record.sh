#!/bin/sh
# stat-record.sh: perf's `stat record` and `stat report`: perf 6.1's own
# check (stat.sh: "stat record -o - true | stat report -i -" says "for
# 'pipe'"), the round trip (report prints what stat printed, in std, CSV
# and JSON, with -r, -I, -A and the emulator), perf's perf.data default and
# its perf.data.old, -o - and the command's standard output, the errors.
# perf's behaviour is checked on this machine where perf runs.
. "$top_srcdir/tests/lib.sh"
H=$HPMSTAT
dir=$(mktemp -d)
trap 'rm -rf "$dir" "$tap_out" "$tap_err"' EXIT
skip() { echo "ok $((tap_n = tap_n + 1)) # SKIP $1"; }

host=false
$H stat -x, -e task-clock -- true >/dev/null 2>&1 && host=true
have_perf=false
command -v perf >/dev/null 2>&1 && perf stat -x, -e task-clock true >/dev/null 2>&1 && have_perf=true

# ---- perf 6.1 tests/shell/stat.sh, "stat record and report test"
if $host; then
	$H stat record -o - true >"$dir/pipe.json" 2>"$dir/rec.err"
	rc1=$?
	$H stat report -i - <"$dir/pipe.json" 2>"$dir/rep.err"
	rc2=$?
	grep -q "Performance counter stats for 'pipe':" "$dir/rep.err"
	ok $(($? + rc1 + rc2)) "stat record -o - true | stat report -i -: for 'pipe', exit 0"
	[ "$rc1$rc2" = 00 ] || diag "exit $rc1 $rc2" "$(head -3 "$dir/rec.err" "$dir/rep.err")"
	# perf prints nothing when it records to a pipe
	test ! -s "$dir/rec.err"
	ok $? "stat record -o -: nothing on standard error"
	# the same rows as perf's report of the same recording
	if $have_perf; then
		perf stat record -o - -e task-clock,page-faults true 2>/dev/null |
			perf stat report -i - 2>"$dir/perf.rep"
		$H stat record -o - -e task-clock,page-faults true 2>/dev/null |
			$H stat report -i - 2>"$dir/hpm.rep"
		# the header, each row's event, the elapsed line
		shape() { awk '/Performance counter stats/ { print; next } /seconds time elapsed/ { print "elapsed"; next } !/seconds/ && /^ *[0-9][0-9.,]* +(msec +)?[a-z-]+/ { print ($2 == "msec" ? $3 : $2) }' "$1"; }
		shape "$dir/perf.rep" >"$dir/perf.shape"
		shape "$dir/hpm.rep" >"$dir/hpm.shape"
		cmp -s "$dir/perf.shape" "$dir/hpm.shape"
		ok $? "stat report from a pipe: perf's header, rows and elapsed line"
		cmp -s "$dir/perf.shape" "$dir/hpm.shape" || diag "perf: $(cat "$dir/perf.shape")" "hpmstat: $(cat "$dir/hpm.shape")"
	else
		skip "perf stat does not run here"
	fi
	# a pipe on standard input is read without -i, as perf does
	mkdir "$dir/empty"
	cd "$dir/empty" || exit 1
	run_fails_with "stat report: a file on standard input is not read: perf.data is" \
		"cannot read 'perf.data'" $H stat report <"$dir/pipe.json"
	cd - >/dev/null || exit 1
	cat "$dir/pipe.json" | $H stat report 2>"$dir/rep3.err"
	grep -q "for 'pipe':" "$dir/rep3.err"
	ok $? "stat report: a pipe on standard input is read without -i"
	# ... and stat record writes a pipe on standard output without -o, as perf
	cd "$dir/empty" || exit 1
	$H stat record -e task-clock true 2>/dev/null | $H stat report 2>"$dir/rep4.err"
	grep -q "for 'pipe':" "$dir/rep4.err" && test ! -e perf.data
	ok $? "stat record | stat report: no -o and no -i, through the pipe"
	if $have_perf; then
		perf stat record -e task-clock true 2>/dev/null | perf stat report 2>"$dir/rep5.err"
		grep -q "for 'pipe':" "$dir/rep5.err" && test ! -e perf.data
		ok $? "perf stat record | perf stat report does the same"
	else
		skip "perf stat does not run here"
	fi
	cd - >/dev/null || exit 1
else
	for t in 1 2 3 4 5 6 7; do skip "perf_event_open does not count here"; done
fi

# ---- the round trip: report prints what stat printed (stderr, byte for byte)
roundtrip() { # desc format-opts stat-args...
	d=$1
	f=$2
	shift 2
	# shellcheck disable=SC2086
	(cd "$dir" && $H stat $f record -o rt.data "$@" >/dev/null 2>live.out)
	rc1=$?
	# shellcheck disable=SC2086
	(cd "$dir" && $H stat $f report -i rt.data 2>report.out)
	rc2=$?
	cmp -s "$dir/live.out" "$dir/report.out"
	ok $(($? + rc1 + rc2)) "round trip: $d"
	cmp -s "$dir/live.out" "$dir/report.out" || diag "exit $rc1 $rc2" "$(diff "$dir/live.out" "$dir/report.out" | head -6)"
}
roundtrip "Topdown of the emulated harts" "" --topdown=3 --emu-cycles 1e6
roundtrip "-A, 2 harts, CSV" "-x," -A --topdown --emu-harts 2 --emu-cycles 1e6
roundtrip "-A, 2 harts, JSON" "-j" -A --topdown --emu-harts 2 --emu-cycles 1e6
roundtrip "-I on the emulator" "" -I 100 --topdown --emu-cycles 5e7
roundtrip "-v placement" "" -v -e ifu_req,mcycle --emu-cycles 1e6
if $host; then
	roundtrip "a command, std" "" -e task-clock,page-faults -- true
	roundtrip "a command, -x;" "-x;" -e task-clock,page-faults -- true
	roundtrip "a command, -j" "-j" -e task-clock,page-faults -- true
	roundtrip "-I with a command" "" -I 100 -e task-clock -- sleep 0.25
	roundtrip "-a -A" "" -a -A -e cpu-clock -- sleep 0.05
	roundtrip "-G, CSV" "-x," -a -e cpu-clock,page-faults -G ,/ -- sleep 0.05
else
	for t in 1 2 3 4 5 6; do skip "perf_event_open does not count here"; done
fi
# -r is refused by stat record (as perf); --record keeps it, and report shows it
(cd "$dir" && $H stat --record r.json -r 3 --table --topdown --emu-cycles 1e6 >/dev/null 2>live.out &&
	$H stat report -i r.json 2>report.out) && cmp -s "$dir/live.out" "$dir/report.out"
ok $? "round trip: --record with -r 3 --table (means, spreads, the table)"

# the header of a file names the command, as stat printed it
if $host; then
	(cd "$dir" && $H stat record -o cmd.data -e task-clock -- sh -c true 2>/dev/null &&
		$H stat report -i cmd.data 2>cmd.out)
	grep -q "Performance counter stats for 'sh -c true':" "$dir/cmd.out"
	ok $? "stat report -i FILE: the header names the command"
else
	skip "perf_event_open does not count here"
fi

# ---- perf.data, the default, and perf.data.old
mkdir "$dir/cwd"
(cd "$dir/cwd" && $H stat record --emu-cycles 1e5 >/dev/null 2>first.out) &&
	test -s "$dir/cwd/perf.data"
ok $? "stat record: perf.data by default"
(cd "$dir/cwd" && cp perf.data first.data && $H stat record --emu-cycles 2e5 >/dev/null 2>/dev/null) &&
	cmp -s "$dir/cwd/first.data" "$dir/cwd/perf.data.old" && ! cmp -s "$dir/cwd/first.data" "$dir/cwd/perf.data"
ok $? "stat record: the old perf.data becomes perf.data.old, as perf's does"
# (standard input not a pipe: a pipe would be read instead, as perf does)
(cd "$dir/cwd" && $H stat report </dev/null 2>report.out) && grep -q '200000 cycles' "$dir/cwd/report.out"
ok $? "stat report: reads perf.data by default"
(cd "$dir/cwd" && $H report perf.data >/dev/null 2>&1)
ok $? "hpmstat report reads the file of stat record"
if $have_perf; then
	mkdir "$dir/perf"
	(cd "$dir/perf" && perf stat record true >/dev/null 2>&1 && perf stat record true >/dev/null 2>&1) &&
		test -s "$dir/perf/perf.data.old"
	ok $? "perf stat record keeps perf.data.old too"
else
	skip "perf stat does not run here"
fi

# ---- -o -: the run file alone on standard output; the command's goes to stderr
if $host; then
	$H stat record -o - -e task-clock -- sh -c 'echo from-the-command' >"$dir/o.json" 2>"$dir/o.err"
	python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$dir/o.json" &&
		grep -qx from-the-command "$dir/o.err"
	ok $? "stat record -o -: standard output is the run file, the command writes to stderr"
else
	skip "perf_event_open does not count here"
fi

# ---- errors
run_fails_with "stat record -r: refused, as perf" "-r cannot be used with stat record" \
	$H stat record -r 2 -o "$dir/x.data" --emu-cycles 1e5
run_fails_with "stat report -i missing" "cannot read '$dir/missing'" $H stat report -i "$dir/missing"
printf '{"schema": "hpmstat-run"' >"$dir/half.json"
run_fails_with "stat report of half a file" "half.json: not valid JSON" $H stat report -i "$dir/half.json"
if $have_perf; then
	(cd "$dir" && perf stat record -o perf.real true 2>/dev/null)
	run_fails_with "stat report of perf's own perf.data" "a perf.data file of perf" \
		$H stat report -i "$dir/perf.real"
else
	skip "perf stat does not run here"
fi
run_fails_with "stat report: an unknown option" "unknown option '--bogus'" $H stat report --bogus
run_fails_with "stat report: -x with -j" "-x and -j exclude each other" \
	$H stat -x, report -j -i "$dir/cwd/perf.data"

done_testing

#!/bin/sh
# stat-record.sh: perf's `stat record` and `stat report`: perf 6.1's own
# check (stat.sh: "stat record -o - true | stat report -i -" says "for
# 'pipe'"), the round trip (report prints what stat printed, in std, CSV
# and JSON, with -r, -I, -A and the emulator), perf's perf.data default and
# its perf.data.old, -o - and the command's standard output, the errors.
# The file is perf's stat format: perf stat report prints the counts stat
# printed (host events, emulated ones, -I, -a -A), and hpmstat stat report
# prints perf's own files as perf stat report does.
# perf's behaviour is checked on this machine where perf runs.
. "$top_srcdir/tests/lib.sh"
H=$HPMSTAT
scratch_dir

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
		# perf 6.12's stat.sh "stat record and script test": perf script
		# prints the STAT records of a stream (it checks the attrs of events
		# that sample; stat record's sample nothing)
		$H stat record -e task-clock -o - true 2>/dev/null | perf script -i - >"$dir/script.out" 2>&1
		grep -Eq 'CPU[[:space:]]+THREAD[[:space:]]+VAL[[:space:]]+ENA[[:space:]]+RUN[[:space:]]+TIME[[:space:]]+EVENT' "$dir/script.out" &&
			grep -q ' task-clock$' "$dir/script.out"
		ok $? "stat record -o - | perf script -i -: the STAT records, as perf stat record's"
	else
		skip "perf stat does not run here"
		skip "perf stat does not run here"
	fi
	cd - >/dev/null || exit 1
else
	for t in 1 2 3 4 5 6 7 8; do skip "perf_event_open does not count here"; done
fi

# ---- the round trip: report prints what stat printed (stderr, byte for byte)
roundtrip() { # desc format-opts stat-args...
	d=$1
	f=$2
	shift 2
	# shellcheck disable=SC2086
	(cd "$dir" && $H stat $f record -o rt.data "$@" >/dev/null 2>live.out)
	rc1=$?
	# the live run's sampling hint (and its blank line) is advice for that
	# run, which stat report does not repeat
	sed -i '/^ Sample /,+1d' "$dir/live.out"
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
	sed -i '/^ Sample /,+1d' live.out &&
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
(cd "$dir/cwd" && $H report perf.data >report2.out 2>&1) && grep -q '^ *cycles  *200000 ' "$dir/cwd/report2.out"
ok $? "hpmstat report reads the file of stat record (its run file)"
if $have_perf; then
	mkdir "$dir/perf"
	(cd "$dir/perf" && perf stat record true >/dev/null 2>&1 && perf stat record true >/dev/null 2>&1) &&
		test -s "$dir/perf/perf.data.old"
	ok $? "perf stat record keeps perf.data.old too"
else
	skip "perf stat does not run here"
fi

# ---- -o -: perf's pipe format alone on standard output; the command's goes to stderr
if $host; then
	$H stat record -o - -e task-clock -- sh -c 'echo from-the-command' >"$dir/o.pipe" 2>"$dir/o.err"
	[ "$(head -c 8 "$dir/o.pipe")" = PERFILE2 ] && grep -qx from-the-command "$dir/o.err"
	ok $? "stat record -o -: standard output is perf's stream, the command writes to stderr"
else
	skip "perf_event_open does not count here"
fi

# ---- the file is perf's: perf stat report prints the counts stat printed
# rows(): the count rows and the elapsed line, without perf's derived
# column (its rates differ where hpmstat's do, e.g. an emulated event per
# msec of host time) and the [emu] tag, blanks squeezed
rows() { grep -E '^ *([0-9][0-9.,]*|<not counted>|<not supported>|CPU[0-9]+) ' "$1" | grep -v 'seconds user$\|seconds sys$' | sed 's/#.*//; s/\[emu\]//' | awk '{ $1 = $1; print }'; }
perf_reads() { # desc perf-report-opts stat-record-args...
	d=$1
	po=$2
	shift 2
	(cd "$dir" && $H stat record -o pr.data "$@" >/dev/null 2>pr.live)
	rc1=$?
	# shellcheck disable=SC2086
	perf stat report $po -i "$dir/pr.data" >/dev/null 2>"$dir/pr.perf"
	rc2=$?
	rows "$dir/pr.live" >"$dir/pr.live.rows"
	rows "$dir/pr.perf" >"$dir/pr.perf.rows"
	[ -s "$dir/pr.live.rows" ] && cmp -s "$dir/pr.live.rows" "$dir/pr.perf.rows"
	ok $(($? + rc1 + rc2)) "perf stat report ${po:+$po }of stat record $*: the counts stat printed ($d)"
	cmp -s "$dir/pr.live.rows" "$dir/pr.perf.rows" || diag "exit $rc1 $rc2" "$(diff "$dir/pr.live.rows" "$dir/pr.perf.rows" | head -8)"
}
if $have_perf; then
	if $host; then
		perf_reads "software events" "" -e task-clock,page-faults,context-switches -- true
		perf_reads "a tool event" "" -e duration_time,task-clock -- true
		perf_reads "intervals, each as perf's INTERVAL round" "" -I 100 -e task-clock,page-faults -- sleep 0.25
		perf_reads "per CPU" "-A" -a -A -e cpu-clock,page-faults -- sleep 0.05
	else
		for t in 1 2 3 4; do skip "perf_event_open does not count here"; done
	fi
	perf_reads "emulated: raw, fixed and not supported" "" -e mcycle,minstret,ifu_req,r4000000000000035 --emu-cycles 1e6
	grep -q 'insn per cycle' "$dir/pr.perf"
	ok $? "perf stat report: an emulated cycles/instret pair is perf's cycles/instructions (insn per cycle)"
	# stat prints the Topdown metrics, perf the counts they are made of:
	# those of the run file (hpmstat report's counts section)
	(cd "$dir" && $H stat record -o td.data --topdown --emu-harts 2 --emu-cycles 1e6 2>/dev/null &&
		perf stat report -i td.data 2>td.perf && $H report td.data >td.report)
	rows "$dir/td.perf" | grep -v 'time elapsed' >"$dir/td.perf.rows"
	awk '/^ Counts/ { on = 1; next } on && NF >= 2 && $1 !~ /^hart[0-9]+$/ { print $2, $1 }' "$dir/td.report" >"$dir/td.run.rows"
	[ "$(wc -l <"$dir/td.perf.rows")" -ge 4 ] && cmp -s "$dir/td.perf.rows" "$dir/td.run.rows"
	ok $? "perf stat report of stat record --topdown on 2 harts: the counts of the run file, summed over the harts"
	cmp -s "$dir/td.perf.rows" "$dir/td.run.rows" || diag "$(diff "$dir/td.perf.rows" "$dir/td.run.rows" | head -8)"
	perf_reads "emulated, -I" "" -I 50 -e mcycle,ifu_req --emu-cycles 1e6
	# perf's own default name, and perf.data.old as perf keeps it (perf stat
	# report reads a pipe on its standard input instead of perf.data: the
	# harness's may be one)
	mkdir "$dir/pd"
	(cd "$dir/pd" && $H stat record --emu-cycles 1e5 -e mcycle >/dev/null 2>record.err &&
		perf stat report 2>report.out </dev/null) && grep -q '100000 *mcycle' "$dir/pd/report.out"
	rc=$?
	ok $rc "perf stat report reads stat record's perf.data"
	[ $rc -eq 0 ] || diag "stat record: $(head -5 "$dir/pd/record.err")" "perf stat report: $(head -8 "$dir/pd/report.out")"
else
	for t in 1 2 3 4 5 6 7 8 9; do skip "perf stat does not run here"; done
fi

# ---- hpmstat stat report of perf's files prints what perf stat report does
same_report() { # desc file
	perf stat report -i "$2" >/dev/null 2>"$dir/sr.perf"
	rc1=$?
	$H stat report -i "$2" 2>"$dir/sr.hpm"
	rc2=$?
	[ -s "$dir/sr.perf" ] && cmp -s "$dir/sr.perf" "$dir/sr.hpm"
	ok $(($? + rc1 + rc2)) "stat report of $1: perf stat report's output, byte for byte"
	cmp -s "$dir/sr.perf" "$dir/sr.hpm" || diag "exit $rc1 $rc2" "$(diff "$dir/sr.perf" "$dir/sr.hpm" | head -8)"
}
if $have_perf; then
	(cd "$dir" && perf stat record -o perf.real -e task-clock,page-faults,duration_time true 2>/dev/null)
	same_report "perf stat record's file" "$dir/perf.real"
	# perf stat report keeps no wall time of an interval (no CPUs utilized
	# beside task-clock there): the intervals' counts are compared
	(cd "$dir" && perf stat record -o perf.iv -I 100 -e task-clock,page-faults -- sleep 0.25 2>/dev/null &&
		perf stat report -i perf.iv 2>iv.perf && $H stat report -i perf.iv 2>iv.hpm)
	rows "$dir/iv.perf" >"$dir/iv.perf.rows"
	rows "$dir/iv.hpm" >"$dir/iv.hpm.rows"
	[ "$(wc -l <"$dir/iv.perf.rows")" -ge 4 ] && cmp -s "$dir/iv.perf.rows" "$dir/iv.hpm.rows"
	ok $? "stat report of perf stat record -I's file: perf stat report's intervals"
	cmp -s "$dir/iv.perf.rows" "$dir/iv.hpm.rows" || diag "$(diff "$dir/iv.perf.rows" "$dir/iv.hpm.rows" | head -8)"
	perf stat record -o - -e task-clock,page-faults true 2>/dev/null >"$dir/perf.pipe"
	same_report "perf stat record -o -'s stream" "$dir/perf.pipe"
	if $host; then
		$H stat record -o - -e task-clock,page-faults,duration_time true 2>/dev/null >"$dir/hpm.pipe"
		same_report "stat record -o -'s stream (perf's records alone)" "$dir/hpm.pipe"
	else
		skip "perf_event_open does not count here"
	fi
	(cd "$dir" && $H report perf.real >report.out 2>&1) && grep -q 'page-faults' "$dir/report.out"
	ok $? "hpmstat report reads perf stat record's file as a run"
else
	for t in 1 2 3 4 5; do skip "perf stat does not run here"; done
fi

# ---- errors
run_fails_with "stat record -r: refused, as perf" "-r cannot be used with stat record" \
	$H stat record -r 2 -o "$dir/x.data" --emu-cycles 1e5
run_fails_with "stat report -i missing" "cannot read '$dir/missing'" $H stat report -i "$dir/missing"
printf '{"schema": "hpmstat-run"' >"$dir/half.json"
run_fails_with "stat report of half a file" "half.json: not valid JSON" $H stat report -i "$dir/half.json"
run_fails_with "stat record --record: refused, the file is -o's" \
	"stat record writes perf's perf.data (-o)" $H stat record --record "$dir/x.json" --emu-cycles 1e5
if $host; then
	(cd "$dir" && $H record -o samples.data -e cpu-clock -- true >/dev/null 2>&1)
	run_fails_with "stat report of a perf.data of samples" "not of perf stat record" \
		$H stat report -i "$dir/samples.data"
else
	skip "perf_event_open does not count here"
fi
head -c 200 "$dir/cwd/perf.data" >"$dir/cut.data"
run_fails_with "stat report of a cut perf.data" "cut.data:" $H stat report -i "$dir/cut.data"
# crafted files of perf's stat records (stat-file.py): one line, at once
if command -v python3 >/dev/null 2>&1; then
	mk() { python3 "$top_srcdir/tests/stat/stat-file.py" "$dir/$1.data" "$1"; }
	mk ok && $H stat report -i "$dir/ok.data" 2>"$dir/ok.out" && grep -q '^ *20  *task-clock' "$dir/ok.out"
	ok $? "stat report of a crafted file: the counts of its CPUs summed"
	mk badid
	run_fails_with "stat report: a count of an id no attr has" "a count of id 99, which no event" \
		timeout 20 $H stat report -i "$dir/badid.data"
	mk cpus
	run_fails_with "stat report: counts on 5000 CPUs" "counts of more than 4096 CPUs" \
		timeout 20 $H stat report -i "$dir/cpus.data"
	mk ivs
	run_fails_with "stat report: 2100 intervals of 4096 CPUs" "more counts than stat report reads" \
		timeout 20 $H stat report -i "$dir/ivs.data"
	mk noround
	run_fails_with "stat report: counts and no round" "no round of counts" \
		timeout 20 $H stat report -i "$dir/noround.data"
else
	for t in 1 2 3 4 5; do skip "python3 is needed to write the crafted files"; done
fi
# a run file whose interval lists fewer harts than its run: the others
# read as not counted, never past the interval's counts (ASan/UBSan)
if command -v python3 >/dev/null 2>&1; then
	(cd "$dir" && $H stat --record iv2.json -I 100 -A --emu-harts 2 -e mcycle --emu-cycles 1e6 2>/dev/null)
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
d["intervals"][0]["events"][0] = d["intervals"][0]["events"][0][:1]
json.dump(d, open(sys.argv[2], "w"))' "$dir/iv2.json" "$dir/ivshort.json"
	$H stat report -i "$dir/ivshort.json" 2>"$dir/ivshort.out"
	rc=$?
	[ $rc -eq 0 ] && ! grep -q 'runtime error\|Sanitizer' "$dir/ivshort.out" &&
		grep -q '^ *0.100000000 hart1 *<not counted> *mcycle' "$dir/ivshort.out"
	ok $? "stat report: an interval of fewer harts than the run shows the others not counted"
else
	skip "python3 is needed to write the crafted file"
fi
run_fails_with "stat report: an unknown option" "unknown option '--bogus'" $H stat report --bogus
run_fails_with "stat report: -x with -j" "-x and -j exclude each other" \
	$H stat -x, report -j -i "$dir/cwd/perf.data"

done_testing

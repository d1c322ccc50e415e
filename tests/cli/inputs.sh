#!/bin/sh
# Inputs, checked as a user meets them (issue 9, items 6, 7 and 9): every
# input is bounded (a "line" of /dev/zero has no newline), every character
# of -e is an event or an error that names its column, and the small input
# checks of top, decode, report and emu name what is wrong, before any
# output.
. "$top_srcdir/tests/lib.sh"
H=$HPMSTAT
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$tap_out" "$tap_err"' EXIT
export XDG_CONFIG_HOME="$tmp/xdg" # no user's top.conf

# A regression here must not take the machine down: each unbounded read
# runs under a 1 GB memory limit and a time limit. A sanitizer build
# reserves terabytes of address space, so there the limit is ASan's own
# (resident memory) instead of ulimit -v.
if sanitized "$H"; then
	guarded() {
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}hard_rss_limit_mb=1024" timeout 60 "$@"
	}
else
	guarded() { (ulimit -v 1048576 && exec timeout 60 "$@"); }
fi

# ---- 6: bounded inputs
run_fails_with "stat --emu-trace /dev/zero: refused, naming the file and line" \
	"--emu-trace /dev/zero:1: line longer than 65536 bytes" \
	guarded $H stat -e ifu_req --emu-trace /dev/zero
run_fails_with "emu /dev/zero: refused, naming the file and line" \
	"/dev/zero:1: line longer than 65536 bytes" guarded $H emu /dev/zero
echo 'replay /dev/zero' >"$tmp/replay.emu"
run_fails_with "emu: replay /dev/zero: refused, naming the script line and the trace" \
	"replay.emu:1: /dev/zero:1: line longer than 65536 bytes" guarded $H emu "$tmp/replay.emu"
run_fails_with "top --config /dev/zero: refused, naming the file and line" \
	"/dev/zero:1: line longer than 4096 bytes" guarded $H top -b -n 1 --backend emu --config /dev/zero
# a config file that never ends (but has short lines) stops at 1 MiB
yes 'delay = 1' | head -c 2000000 >"$tmp/big.conf"
run_fails_with "top --config: a file over 1 MiB is refused" "larger than 1048576 bytes" \
	guarded $H top -b -n 1 --backend emu --config "$tmp/big.conf"
# a trace line just at the limit is read, one byte more is refused
{
	echo 'hpmstat-emu-trace 1'
	printf '5 M 1'
	head -c $((65536 - 5)) /dev/zero | tr '\0' ' '
	echo
	echo '7 HU 2'
} >"$tmp/long.trace"
out=$(printf 'replay %s\ncsrr minstret\n' "$tmp/long.trace" | guarded $H emu 2>&1)
[ "$out" = "0x0000000000000013" ]; ok $? "a trace line of 65536 bytes is read (5 x 1 + 7 x 2 = 19 instret; got $out)"
{
	echo 'hpmstat-emu-trace 1'
	printf '5 M 1'
	head -c $((65536 - 5 + 1)) /dev/zero | tr '\0' ' '
	echo
} >"$tmp/long1.trace"
run_fails_with "a trace line of 65537 bytes is refused with its line" \
	"long1.trace:2: line longer than 65536 bytes" $H stat -e ifu_req --emu-trace "$tmp/long1.trace"

# report: a weights file over 1 MiB (valid JSON, padded) is refused
{ printf '{"hand": 1'; head -c 1100000 /dev/zero | tr '\0' ' '; printf '}'; } >"$tmp/w.json"
run_fails_with "report --weights: a file over 1 MiB is refused" \
	"w.json: cannot read: larger than 1048576 bytes" \
	guarded $H report --weights "$tmp/w.json" "$top_srcdir/tests/report/hand.json"

# ---- 7: -e never drops an event
for e in 'task-clock,(ifu_req,page-faults|column 12: the '"'('"' is never closed' \
	'mcycle,kunminghu/event0=0x7,ifu_miss|column 17: the '"'/'"' is never closed' \
	'ifu_req((|column 9: the '"'('"' is never closed' \
	'ifu_req),mcycle|column 8: '"')'"' without a matching '"'('"'' \
	'{mcycle,ifu_req|column 1: the '"'{'"' is never closed' \
	'mcycle,,ifu_req|column 8: empty event'; do
	ev=${e%%|*}
	msg=${e#*|}
	run_fails_with "stat -e '$ev': an error naming the column" "'$ev': $msg" \
		$H stat --backend emu --emu-cycles 1000 -e "$ev" -- true
	run_fails_with "top -e '$ev': the same error" "'$ev': $msg" \
		$H top -b -n 1 -d 0.1 --backend emu -e "$ev"
done
# valid lists still count every event: commas inside terms, parentheses and groups
$H stat -x';' --backend emu --emu-cycles 100000 \
	-e '{mcycle,minstret},kunminghu/event0=0x2,event1=0x3/,(ifu_req | ifu_miss):u,cycles' -- true \
	>"$tmp/valid.out" 2>&1
[ "$(grep -v "^#" "$tmp/valid.out" | grep -c ";")" -eq 5 ]; ok $? "a valid list with a group, a term and parentheses gives 5 rows"
[ $? -eq 0 ] || diag "$(cat "$tmp/valid.out")"

# ---- 9: top.conf warnings, --config, -s
printf 'foo\nbar = 1\n' >"$tmp/warn.conf"
$H top -b -n 1 -d 0.1 --backend emu --config "$tmp/warn.conf" >/dev/null 2>"$tmp/warn.err"
grep -qF 'warn.conf:1:' "$tmp/warn.err" && grep -qF 'warn.conf:2:' "$tmp/warn.err" &&
	[ "$(grep -c 'warning: .*warn.conf:[12]:' "$tmp/warn.err")" -eq 2 ] && ! grep -qF '\x0a' "$tmp/warn.err"
ok $? "top.conf warnings: one line each, no literal \\x0a"
[ $? -eq 0 ] || diag "$(cat "$tmp/warn.err")"
printf '# events\n\nevents = nosuch_event\n' >"$tmp/ev.conf"
run_fails_with "top.conf: a bad events line names the file and line" \
	"ev.conf:3: events: unknown event 'nosuch_event'" \
	$H top -b -n 1 -d 0.1 --backend emu --config "$tmp/ev.conf"
run_fails_with "top --config DIRECTORY is an error" "cannot read '$tmp': Is a directory" \
	$H top -b -n 1 -d 0.1 --backend emu --config "$tmp"
run_fails_with "top --config MISSING is an error" "cannot read '$tmp/none.conf': No such file" \
	$H top -b -n 1 -d 0.1 --backend emu --config "$tmp/none.conf"
run_ok "a missing default top.conf is fine" $H top -b -n 1 -d 0.1 --backend emu
# issue 27 item 5: a FIFO nobody writes to is refused at once, never
# waited on (perf report -i FIFO waits for a writer forever); a pipe comes
# in as -i -
mkfifo "$tmp/fifo"
run_fails_with "top --config FIFO: refused, not waited on" "cannot read '$tmp/fifo': a FIFO, not a file" \
	timeout 20 $H top -b -n 1 -d 0.1 --backend emu --config "$tmp/fifo"
run_fails_with "report -i FIFO: refused, not waited on" "'$tmp/fifo': a FIFO, not a file" \
	timeout 20 $H report -i "$tmp/fifo"
run_fails_with "report FIFO (a run file): refused, not waited on" "'$tmp/fifo': a FIFO, not a file" \
	timeout 20 $H report "$tmp/fifo"
run_fails_with "report --samples FIFO: refused, not waited on" "'$tmp/fifo': a FIFO, not a file" \
	timeout 20 $H report --samples "$tmp/fifo"
run_fails_with "top -s NOSUCH lists the columns" "-s 'NOSUCH': not a column to sort by (CYCLES, INSTR, IPC, WORKLOAD, pid)" \
	$H top -b -n 1 -d 0.1 --backend emu -s NOSUCH
run_ok "top -s ipc (any case) still sorts" $H top -b -n 1 -d 0.1 --backend emu -s ipc

# ---- 9: decode checks everything before printing
run_fails_with "decode VALUE --bank X: only the bank error" "unknown bank 'X'" $H decode 0x123 --bank X
run_fails_with "decode GOOD BAD: only the error, no value printed" "'zz' is not a number" $H decode 0x1 zz
out=$($H decode 0x6800010000000c02 --bank frontend)
case "$out" in "0x6800010000000c02  (ifu_req & ifu_miss):u  "*) r=0 ;; *) r=1 ;; esac
ok $r "decode VALUE --bank frontend: the option after the value applies"

# ---- 9: report -outfile writes no surprise file
run=$top_srcdir/tests/report/hand.json
(cd "$tmp" && $H report -outfile x.txt "$run" >"$tap_out" 2>"$tap_err"); rc=$?
[ $rc -eq 129 ] && grep -qF "unknown option '-outfile' (did you mean --output?)" "$tap_err" &&
	[ ! -e "$tmp/utfile" ] && [ ! -e "$tmp/x.txt" ]
ok $? "report -outfile: refused (exit 129), no ./utfile"
(cd "$tmp" && $H report -format text "$run" >/dev/null 2>"$tap_err"); rc=$?
[ $rc -eq 129 ] && grep -qF "did you mean --format?" "$tap_err"; ok $? "report -format: did you mean --format"
(cd "$tmp" && $H report -orep.txt "$run" >/dev/null 2>&1) && [ -s "$tmp/rep.txt" ]
ok $? "report -oFILE still writes FILE"

# ---- top on the emulator: what the user asked for that cannot run is one
# error line before any screen, as stat refuses it (it showed an empty
# screen with a note and exit 0)
run_fails_with "top --emu-profile NOSUCH: refused in one line" \
	"hpmstat top: --emu-profile: unknown profile 'nosuch'" \
	$H top -b -n 1 -d 0.1 --backend emu --emu-profile nosuch
run_fails_with "top --pmu neoverse-v2 with a Kunminghu profile: refused, naming Arm's" \
	"unknown Arm profile 'tasks-mixed' (known: arm-" \
	$H top -b -n 1 -d 0.1 --pmu neoverse-v2 --emu-profile tasks-mixed
run_fails_with "top --emu-trace MISSING: refused in one line" \
	"--emu-trace $tmp/none.trace: cannot open trace" \
	$H top -b -n 1 -d 0.1 --emu-trace "$tmp/none.trace"

# ---- 9: an emu script line with a NUL byte
printf 'csrr minstret\ncsrw mhpmevent3 1\0junk\n' >"$tmp/nul.emu"
$H emu "$tmp/nul.emu" >"$tap_out" 2>"$tap_err"; rc=$?
[ $rc -ne 0 ] && grep -qF "nul.emu:2: column 18: NUL byte in the line" "$tap_err"
ok $? "emu: a NUL byte is an error naming the line and column"
[ $? -eq 0 ] || diag "exit $rc: $(cat "$tap_err")"
done_testing

#!/bin/sh
# outfiles.sh: every output path (stat -o and --record, report -o, emu
# --trace-out) is written as perf writes it: a regular file is replaced
# through a temporary file that keeps its mode, owner and links, anything
# else (devices, /dev/stdout, FIFOs, hard links) is written in place, '-'
# is standard output, every failed write is an error, and no temporary
# file survives a signal. (top's W: tests/top/top-tui.sh.)
#
# The devices are private nodes made with mknod when root (a broken
# hpmstat would otherwise replace the system's /dev/null); as another user
# /dev/null and /dev/full cannot be replaced anyway and are used directly.
. "$top_srcdir/tests/lib.sh"
H=$HPMSTAT
tmp=$(mktemp -d)
reader=
cleanup() {
	main_shell || return 0 # (tests/lib.sh)
	[ -n "$reader" ] && kill "$reader" 2>/dev/null
	[ -n "$mnt" ] && umount "$mnt" 2>/dev/null
	rm -rf "$tmp" "$tap_out" "$tap_err"
}
trap cleanup EXIT
cd "$tmp" || exit 1
ulimit -c 0 2>/dev/null

root=false
[ "$(id -u)" = 0 ] && root=true
if $root && mknod "$tmp/null" c 1 3 2>/dev/null && mknod "$tmp/full" c 1 7 2>/dev/null; then
	devnull=$tmp/null devfull=$tmp/full
else
	devnull=/dev/null devfull=/dev/full
fi
enospc=$(printf 'No space left on device')

# a short emulated run: no counter of the host needed
STAT="$H stat -e mcycle --emu-cycles 1e6"
has_counts() { grep -q 'Performance counter stats' "$1" && grep -q 'mcycle' "$1"; }
inode() { stat -c %i "$1"; }
no_temp() { ! ls "$1".?????? >/dev/null 2>&1; }

# -------------------------------------------------- devices, links, FIFOs
$STAT -o "$devnull" 2>"$tap_err"; rc=$?
[ $rc -eq 0 ] && [ -c "$devnull" ]; ok $? "-o $devnull: exit 0 and it stays a character device"

$STAT -o "$devfull" 2>"$tap_err"; rc=$?
[ $rc -ne 0 ] && grep -qF "cannot write '$devfull': $enospc" "$tap_err" && [ -c "$devfull" ]
ok $? "-o $devfull: non-zero, 'cannot write ... $enospc', still a device"
[ $rc -ne 0 ] || diag "exit $rc: $(cat "$tap_err")"

# /dev/stdout is this link; a private one keeps a broken build off /dev
ln -s /proc/self/fd/1 "$tmp/stdout"
$STAT -o "$tmp/stdout" >"$tmp/so.txt" 2>"$tap_err"; rc=$?
[ $rc -eq 0 ] && has_counts "$tmp/so.txt" && [ -L "$tmp/stdout" ] &&
	[ "$(readlink "$tmp/stdout")" = /proc/self/fd/1 ]
ok $? "-o a link to /proc/self/fd/1 (as /dev/stdout): the counts on stdout, the link stays"
$STAT -o "$tmp/stdout" 2>"$tap_err" | cat >"$tmp/so2.txt"
has_counts "$tmp/so2.txt" && [ -L "$tmp/stdout" ]; ok $? "-o /proc/self/fd/1 into a pipe"

mkfifo "$tmp/fifo"
cat "$tmp/fifo" >"$tmp/fifo.out" &
reader=$!
timeout 30 $STAT -o "$tmp/fifo" 2>"$tap_err"; rc=$?
# a build that replaced the FIFO left its reader waiting
i=0; while kill -0 "$reader" 2>/dev/null && [ $i -lt 30 ]; do sleep 0.1; i=$((i + 1)); done
kill "$reader" 2>/dev/null; wait "$reader" 2>/dev/null; reader=
[ $rc -eq 0 ] && [ -p "$tmp/fifo" ] && has_counts "$tmp/fifo.out"
ok $? "-o FIFO: its reader gets the counts, it stays a FIFO"

echo old >"$tmp/h1"
ln "$tmp/h1" "$tmp/h2"
ino=$(inode "$tmp/h1")
$STAT -o "$tmp/h1" 2>"$tap_err"
[ "$(inode "$tmp/h1")" = "$ino" ] && [ "$(inode "$tmp/h2")" = "$ino" ] && has_counts "$tmp/h2"
ok $? "-o a file with two hard links: written in place, both names see it"

echo old >"$tmp/real.txt"
chmod 640 "$tmp/real.txt"
ln -s real.txt "$tmp/link.txt"
$STAT -o "$tmp/link.txt" 2>"$tap_err"
[ -L "$tmp/link.txt" ] && [ "$(readlink "$tmp/link.txt")" = real.txt ] && has_counts "$tmp/real.txt" &&
	[ "$(stat -c %a "$tmp/real.txt")" = 640 ]
ok $? "-o a symlink: the link stays, its target gets the counts and keeps mode 640"
ln -s dangling.txt "$tmp/dlink.txt"
$STAT -o "$tmp/dlink.txt" 2>"$tap_err"
[ -L "$tmp/dlink.txt" ] && has_counts "$tmp/dangling.txt"; ok $? "-o a dangling symlink creates its target"
mkdir "$tmp/d" && ln -s ../real.txt "$tmp/d/up.txt" && echo x >"$tmp/real.txt"
$STAT -o "$tmp/d/up.txt" 2>"$tap_err"
[ -L "$tmp/d/up.txt" ] && has_counts "$tmp/real.txt" && no_temp "$tmp/real.txt" && no_temp "$tmp/d/up.txt"
ok $? "-o a relative link in another directory: its target, no temporary file left"

# ------------------------------------------------------- mode and owner
echo old >"$tmp/m600"
chmod 600 "$tmp/m600"
$STAT -o "$tmp/m600" 2>"$tap_err"
[ "$(stat -c %a "$tmp/m600")" = 600 ] && has_counts "$tmp/m600"; ok $? "an existing 0600 file stays 0600"
(umask 077 && $STAT -o "$tmp/new077" 2>"$tap_err")
[ "$(stat -c %a "$tmp/new077")" = 600 ]; ok $? "a new file under umask 077 is 0600 (got $(stat -c %a "$tmp/new077"))"
(umask 027 && $STAT -o "$tmp/new027" --record "$tmp/new027.json" 2>"$tap_err")
[ "$(stat -c %a "$tmp/new027")" = 640 ] && [ "$(stat -c %a "$tmp/new027.json")" = 640 ]
ok $? "umask 027: 0640 for -o and --record, as fopen"
if $root; then
	echo old >"$tmp/owned"
	chown 4321:4322 "$tmp/owned"
	$STAT -o "$tmp/owned" 2>"$tap_err"
	[ "$(stat -c %u:%g "$tmp/owned")" = 4321:4322 ] && has_counts "$tmp/owned"
	ok $? "the owner and group of an existing file are kept"
else
	skip "owner: needs root"
fi

# ------------------------------------------------ '-', '' and the same file
rm -f ./-
$STAT -o - >"$tmp/dash.out" 2>"$tap_err"; rc=$?
[ $rc -eq 0 ] && has_counts "$tmp/dash.out" && ! has_counts "$tap_err" && [ ! -e ./- ]
ok $? "-o - is standard output (no file named '-')"

rm -f marker
run_fails_with "-o '' is refused" "-o: the file name is empty" $H stat -e mcycle -o '' -- touch marker
[ ! -e marker ]; ok $? "-o '': the workload never ran"
run_fails_with "--record '' is refused" "--record: the file name is empty" $H stat -e mcycle --record '' -- touch marker
[ ! -e marker ]; ok $? "--record '': the workload never ran"
run_fails_with "-o X --record X is refused" "are the same file" $H stat -e mcycle -o same --record same -- touch marker
[ ! -e marker ] && [ ! -e same ]; ok $? "-o X --record X: the workload never ran, nothing written"
echo keep >"$tmp/rec.json"
ln -s rec.json "$tmp/rec-link"
run_fails_with "-o LINK --record ITS-TARGET is refused" "are the same file" $H stat -e mcycle -o "$tmp/rec-link" --record "$tmp/rec.json" -- touch marker
[ ! -e marker ] && [ "$(cat "$tmp/rec.json")" = keep ]; ok $? "... the target untouched, the workload never ran"
run_fails_with "-o ./new --record new (neither exists) is refused" "are the same file" $H stat -e mcycle -o ./brandnew --record brandnew -- touch marker

# ---------------------------------------------------------- failed writes
$STAT 2>"$devfull"; rc=$?
[ $rc -ne 0 ]; ok $? "stat 2>/dev/full (counts on stderr): non-zero exit (got $rc)"
$STAT -x, 2>"$devfull"; rc=$?
[ $rc -ne 0 ]; ok $? "stat -x, 2>/dev/full: non-zero exit (got $rc)"
$STAT --record "$devfull" 2>"$tap_err"; rc=$?
[ $rc -ne 0 ] && grep -qF "cannot write '$devfull': $enospc" "$tap_err"; ok $? "--record /dev/full: non-zero, $enospc"

$STAT --topdown --record "$tmp/r.json" 2>/dev/null
run_fails_with "report -o /dev/full: $enospc" "cannot write '$devfull': $enospc" $H report -o "$devfull" "$tmp/r.json"
[ -c "$devfull" ]; ok $? "report -o /dev/full: still a device"
$H report -o - "$tmp/r.json" >"$tmp/rep.out" 2>"$tap_err"
grep -q '^Run r ' "$tmp/rep.out" && [ ! -e ./- ]; ok $? "report -o - is standard output"
echo old >"$tmp/rep.txt"; chmod 604 "$tmp/rep.txt"
$H report -o "$tmp/rep.txt" "$tmp/r.json" 2>"$tap_err"
grep -q '^Run r ' "$tmp/rep.txt" && [ "$(stat -c %a "$tmp/rep.txt")" = 604 ]; ok $? "report -o keeps the file's mode"

printf 'feed 10 instret=1\n' >"$tmp/s.emu"
run_fails_with "emu --trace-out /dev/full: $enospc" "cannot write '$devfull': $enospc" $H emu --trace-out "$devfull" "$tmp/s.emu"
$H emu --trace-out "$tmp/tl" "$tmp/s.emu" >/dev/null 2>&1
ln -s tl "$tmp/tlink"
$H emu --trace-out "$tmp/tlink" "$tmp/s.emu" >/dev/null 2>&1
[ -L "$tmp/tlink" ] && grep -q '^hpmstat-emu-trace 1' "$tmp/tl"; ok $? "emu --trace-out through a symlink keeps the link"
mnt=
if $root && mkdir "$tmp/mnt" && mount -t tmpfs -o size=64k tmpfs "$tmp/mnt" 2>/dev/null; then
	mnt=$tmp/mnt
	echo old >"$mnt/kept"
	dd if=/dev/zero of="$mnt/fill" bs=1k count=128 2>/dev/null
	$H emu --trace-out "$mnt/t.trace" "$tmp/s.emu" >/dev/null 2>"$tap_err"; rc=$?
	[ $rc -ne 0 ] && grep -qF "cannot write '$mnt/t.trace': $enospc" "$tap_err" && [ ! -e "$mnt/t.trace" ] &&
		no_temp "$mnt/t.trace"
	ok $? "emu --trace-out on a full file system: non-zero, $enospc, no 0-byte trace"
	[ $rc -ne 0 ] || diag "exit $rc: $(cat "$tap_err")" "$(ls -l "$mnt")"
	$STAT -o "$mnt/kept" 2>"$tap_err"; rc=$?
	[ $rc -ne 0 ] && grep -qF "$enospc" "$tap_err" && [ "$(cat "$mnt/kept")" = old ] && no_temp "$mnt/kept"
	ok $? "-o on a full file system: non-zero, the old file intact, no temporary file"
	umount "$mnt" && mnt=
else
	skip "full tmpfs: needs root and mount"
	skip "full tmpfs: needs root and mount"
fi

# -------------------------------------------------------------- signals
# wait_temp NAME: until NAME's temporary file exists (5 s at most):
# NAME.XXXXXX, or the unnamed one (O_TMPFILE) a process holds open in its
# directory, which /proc shows as DIR/#INODE (deleted)
# The signal runs below start hpmstat with every signal at its default
# action: a test run under nohup or from a harness that ignores SIGHUP
# would pass that SIG_IGN on, and hpmstat rightly keeps an inherited
# SIG_IGN (nohup's promise), so the SIGHUP would do nothing. Where env
# cannot reset them, the points run as they are.
dfl=
env --default-signal true 2>/dev/null && dfl="env --default-signal"
# bounded_wait PID: its exit status, killing it after 60 s, so that a
# signal that did not work fails one point instead of hanging the suite.
# The watchdog ends by itself once PID is gone and is never signalled: a
# shell forked to run it and stopped before its exec would run this
# script's EXIT trap and remove $tmp.
bounded_wait() {
	sh -c 'i=0
		while kill -0 "$1" 2>/dev/null; do
			[ $i -ge 600 ] && { kill -KILL "$1"; exit; }
			sleep 0.1; i=$((i + 1))
		done' watchdog "$1" >/dev/null 2>&1 &
	wait "$1"
}
has_temp() {
	! no_temp "$1" || ls -l /proc/[0-9]*/fd 2>/dev/null | grep -qF -- "-> $(dirname "$1")/#"
}
wait_temp() {
	i=0
	while ! has_temp "$1" && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
	has_temp "$1"
}

# SIGINT the moment report's temporary file exists: strace delivers it on
# return from the open() that creates it (O_TMPFILE, unnamed until commit;
# else O_EXCL), before any code of hpmstat's can note the name
if command -v strace >/dev/null 2>&1 && strace -o /dev/null true 2>/dev/null; then
	rm -f "$tmp/sig.html"*
	strace -e trace=openat -o "$tmp/st.log" $H report --format html -o "$tmp/sig.html" "$tmp/r.json" 2>/dev/null
	k=$(grep -n 'openat(' "$tmp/st.log" | grep -n 'sig\.html\..*O_EXCL\|O_TMPFILE' | head -1 | cut -d: -f1)
	if [ -n "$k" ]; then
		rm -f "$tmp/sig.html"*
		$dfl strace -e trace=openat -e inject=openat:signal=SIGINT:when="$k" -o /dev/null \
			$H report --format html -o "$tmp/sig.html" "$tmp/r.json" 2>/dev/null; rc=$?
		no_temp "$tmp/sig.html" && [ ! -e "$tmp/sig.html" ]
		ok $? "SIGINT right as report -o creates its temporary file: nothing left (exit $rc)"
		[ $rc -ne 0 ]; ok $? "... and the run ends by the signal (exit $rc)"
	else
		ok 1 "the report's temporary file is created with O_TMPFILE or O_EXCL"
		diag "$(cat "$tmp/st.log" | tail -5)"
	fi
else
	skip "strace cannot trace here"
	skip "strace cannot trace here"
fi

# the same by timing, across the window: ~20 runs, SIGINT after 0-9 ms
rm -f "$tmp/loop.html"*
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	$H report --format html -o "$tmp/loop.html" "$tmp/r.json" "$tmp/new027.json" 2>/dev/null &
	p=$!
	sleep "0.00$((i % 10))"
	kill -INT $p 2>/dev/null
	wait $p 2>/dev/null
done
no_temp "$tmp/loop.html"; ok $? "20 SIGINTs right after report -o starts: no loop.html.XXXXXX left"

# signals nobody handles (HUP, PIPE, ...) unlink the temporary file and
# end the run by that signal; stat's own SIGINT still writes the counts
$dfl $H stat -e mcycle -o "$tmp/hup.txt" -- sleep 20 2>/dev/null &
p=$!
wait_temp "$tmp/hup.txt"; had=$?
child=$(pgrep -P $p)
kill -HUP $p; bounded_wait $p; rc=$?
[ -n "$child" ] && kill $child 2>/dev/null
[ $had -eq 0 ] && [ $rc -eq $((128 + 1)) ] && no_temp "$tmp/hup.txt" && [ ! -e "$tmp/hup.txt" ]
ok $? "stat -o, SIGHUP during the run: no temporary file, no half file, killed by SIGHUP (exit $rc)"

$dfl $H stat -e mcycle -o "$tmp/int.txt" --record "$tmp/int.json" -- sleep 20 2>"$tmp/int.err" &
p=$!
wait_temp "$tmp/int.json"
kill -INT $p; bounded_wait $p; rc=$?
no_temp "$tmp/int.txt" && no_temp "$tmp/int.json" && has_counts "$tmp/int.txt" && [ -s "$tmp/int.json" ]
r=$?; ok $r "stat -o --record, SIGINT: the counts and run file in place, no temporary file (exit $rc)"
[ $r -eq 0 ] || diag "stderr: $(head -3 "$tmp/int.err")" "$(ls "$tmp" | grep '^int')" "$(head -5 "$tmp/int.txt" 2>&1)"

printf 'run 100000000000 balanced\n' >"$tmp/long.emu"
$dfl $H emu --trace-out "$tmp/long.trace" "$tmp/long.emu" >/dev/null 2>"$tmp/long.err" &
p=$!
wait_temp "$tmp/long.trace"; had=$?
kill -HUP $p; bounded_wait $p; rc=$?
[ $had -eq 0 ] && [ $rc -eq $((128 + 1)) ] && no_temp "$tmp/long.trace" && [ ! -e "$tmp/long.trace" ]
r=$?; ok $r "emu --trace-out, SIGHUP: no temporary file, no half trace (exit $rc)"
[ $r -eq 0 ] || diag "temporary file seen: $had" "stderr: $(head -3 "$tmp/long.err")" "$(ls "$tmp" | grep '^long')"

done_testing

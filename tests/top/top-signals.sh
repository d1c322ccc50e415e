#!/bin/sh
# top-signals.sh: hpmstat top ends at once on SIGINT and SIGTERM, gives the
# terminal back and dies of the signal, as perf top and hpmstat stat do:
# 128+N for the shell (130, 143); q still exits 0. Real signals are sent to
# the real process, in batch mode and in the full-screen view (tmux).
. "$top_srcdir/tests/lib.sh"
H=${HPMSTAT:-$top_builddir/src/hpmstat}
. "$top_srcdir/tests/top/tmux.sh"
tmp=$(mktemp -d)
trap 'main_shell || exit; tmux_end; rm -rf "$tmp" "$tap_out" "$tap_err"' EXIT
export XDG_CONFIG_HOME="$tmp/none"

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# batch SIG DELAY: -b with SIG sent once two frames are out (DELAY 0.2) or
# while it sleeps before the first one (DELAY 30); sets rc, ms (signal to exit)
batch() {
	"$H" top -b -n 1000 -d "$2" --backend emu >"$tmp/b.out" 2>"$tmp/b.err" &
	pid=$!
	i=0
	if [ "$2" = 0.2 ]; then
		until [ "$(grep -c '^hpmstat top - frame' "$tmp/b.out")" -ge 2 ] || [ $i -ge 200 ]; do
			sleep 0.1; i=$((i + 1))
		done
	else
		sleep 0.5
	fi
	t0=$(now_ms)
	kill -"$1" $pid
	wait $pid
	rc=$?
	ms=$(($(now_ms) - t0))
}

batch INT 0.2
[ $rc = 130 ]; ok $? "batch: SIGINT exits 130, as perf top (got $rc)"
[ $ms -lt 2000 ]; ok $? "batch: SIGINT ends it at once (${ms} ms)"
# the frames before the signal are whole: the last line ends with a newline
[ "$(tail -c 1 "$tmp/b.out" | od -An -c | tr -d ' ')" = '\n' ] && grep -q 'hart0' "$tmp/b.out"
ok $? "batch: the frames printed are whole"
[ ! -s "$tmp/b.err" ]; ok $? "batch: nothing on stderr"
batch TERM 0.2
[ $rc = 143 ]; ok $? "batch: SIGTERM exits 143 (got $rc)"
batch TERM 30
[ $rc = 143 ] && [ $ms -lt 2000 ]; ok $? "batch: SIGTERM during a 30 s wait ends it at once ($rc, ${ms} ms)"
batch INT 30
[ $rc = 130 ] && [ $ms -lt 2000 ]; ok $? "batch: SIGINT during a 30 s wait ends it at once ($rc, ${ms} ms)"
"$H" top -b -n 2 -d 0.1 --backend emu >/dev/null; ok $? "batch: -n 2 without a signal still exits 0"

why=$(tmux_why_not)
if [ -n "$why" ]; then
	diag "$why: the full-screen view is not checked"
	done_testing
	exit 0
fi

# view DELAY: a pane running top (its pid in $tmp/pid); the shell traps
# SIGINT so that a Ctrl-C from the terminal ends top alone, then prints its
# status and the terminal modes it was given back
view() {
	rm -f "$tmp/pid" "$tmp/stty"
	session 120 40 "trap : INT; sh -c 'echo \$\$ >$tmp/pid; exec env NO_COLOR=1 $H top -d $1 --backend emu'; echo EXITED \$?; stty -a >$tmp/stty; sleep 30"
}
# the pane's status line once top has gone; sets ms (signal to exit)
ended() {
	t0=$(now_ms)
	wait_for "EXITED" 10
	ms=$(($(now_ms) - t0))
	st=$(cap | sed -n 's/^EXITED \([0-9]*\)$/\1/p')
}
# the terminal given back: the normal screen, and echo and canonical input
# on again (curses turns both off)
restored() {
	i=0
	until [ -s "$tmp/stty" ] || [ $i -ge 50 ]; do sleep 0.1; i=$((i + 1)); done
	[ "$(T display-message -p -t "s$n" '#{alternate_on}')" = 0 ] &&
		grep -Eq '(^| )echo( |$)' "$tmp/stty" && grep -Eq '(^| )icanon( |$)' "$tmp/stty"
}

view 0.2
wait_for "frame 2"; ok $? "view: it starts"
kill -TERM "$(cat "$tmp/pid")"
ended
[ "$st" = 143 ]; ok $? "view: SIGTERM exits 143 (got '$st')"
[ $ms -lt 3000 ]; ok $? "view: SIGTERM ends it at once (${ms} ms)"
restored; rc=$?
ok $rc "view: SIGTERM gives the terminal back"
[ $rc -eq 0 ] || diag "$(cat "$tmp/stty")" "$(cap)"

view 0.2
wait_for "frame 2"
key C-c
ended
[ "$st" = 130 ]; ok $? "view: Ctrl-C exits 130 (got '$st')"
restored; ok $? "view: Ctrl-C gives the terminal back"

# a signal while it waits 30 s for the next frame (and for a key)
view 30
wait_for "hpmstat top"
sleep 0.3
kill -INT "$(cat "$tmp/pid")"
ended
[ "$st" = 130 ] && [ $ms -lt 3000 ]; ok $? "view: SIGINT during a 30 s wait ends it at once ('$st', ${ms} ms)"
restored; ok $? "view: the terminal is given back"

view 0.2
wait_for "frame 2"
key q
ended
[ "$st" = 0 ]; ok $? "view: q still exits 0 (got '$st')"

# the terminal goes away and no SIGHUP comes: top in a session of its own
# (setsid), its terminal the pane's (fd 3: an asynchronous command's stdin
# is /dev/null), whose shell ignores SIGHUP and waits for it; killing the
# session closes the terminal. top dies of SIGHUP as if it had come (129),
# at once, never spinning on a dead terminal.
rm -f "$tmp/hpid" "$tmp/hst"
session 120 40 "trap '' HUP; exec 3<&0; setsid sh -c 'echo \$\$ >$tmp/hpid; exec env NO_COLOR=1 $H top -d 0.2 --backend emu' <&3 & wait \$!; echo \$? >$tmp/hst"
wait_for "frame 2"; ok $? "hang-up: top runs in a session of its own"
hpid=$(cat "$tmp/hpid" 2>/dev/null)
t0=$(now_ms)
T kill-session -t "s$n" 2>/dev/null
i=0
until [ -s "$tmp/hst" ] || [ $i -ge 100 ]; do sleep 0.05; i=$((i + 1)); done
ms=$(($(now_ms) - t0))
st=$(cat "$tmp/hst" 2>/dev/null)
[ "$st" = 129 ] && [ $ms -lt 3000 ]; ok $? "hang-up: dies of SIGHUP (129) without one ('$st', ${ms} ms)"
[ -n "$hpid" ] && ! kill -0 "$hpid" 2>/dev/null; ok $? "hang-up: the process is gone (pid $hpid)"
[ -n "$hpid" ] && kill -9 "$hpid" 2>/dev/null
done_testing

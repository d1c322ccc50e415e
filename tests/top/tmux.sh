# tmux.sh: what the top tests share to drive hpmstat top's full-screen view
# (sourced after tests/lib.sh, with H the hpmstat under test): a private
# tmux server, a session per view, the pane's text, keys, and waiting for
# text to show or go. Every wait polls the pane and returns as soon as the
# text is there, so a generous limit costs time only when a check fails: a
# sanitizer build under make -j2 can take seconds to draw a frame, and a
# key sent before the view is up is lost. Never a fixed sleep before a
# check.

# tmux_why_not: why the view cannot be driven here, "" when it can
tmux_why_not() {
	if ! command -v tmux >/dev/null 2>&1; then
		echo "tmux not installed"
	elif ! "$H" top --help | grep -q 'Keys:'; then
		echo "hpmstat top not built"
	# a build without ncurses (./configure --without-ncurses) has no view
	elif TERM=xterm "$H" top -n 1 -d 0.1 --backend emu </dev/null 2>&1 >/dev/null |
		grep -q 'built without ncurses'; then
		echo "built without ncurses"
	fi
}

# the test's own server: a socket per test and process, no user config
tmux_sock="hpmtop-${0##*/}-$$"
T() { tmux -L "$tmux_sock" -f /dev/null "$@"; }
# tmux_end: the server and its sessions go (for the test's EXIT trap)
tmux_end() { T kill-server 2>/dev/null; }

# session W H SHELL-COMMAND: a fresh session s<n> of W x H running it.
# Each gets its own name, and the old one is killed only once the new one
# is up: killing a server's last session ends the server, and a
# new-session sent while it is going away is lost (seen on a fast machine,
# where the next view then never appeared).
n=0
session() {
	n=$((n + 1))
	T new-session -d -s "s$n" -x "$1" -y "$2" "$3" ||
		echo "# tmux new-session s$n failed" >&2
	[ $n -gt 1 ] && T kill-session -t "s$((n - 1))" 2>/dev/null
	return 0
}
# start CMD...: CMD in a fresh 120x40 session, then "EXITED <status>" and a
# sleep, so the pane stays for capture after CMD exits
start() { session 120 40 "$* ; echo EXITED \$?; sleep 60"; }

# cap [OPTION...]: the pane's text (-e: with its attributes)
cap() { T capture-pane -p "$@" -t "s$n"; }
key() { T send-keys -t "s$n" "$@"; }

# until_ok SECONDS CMD...: until CMD succeeds, tried every 0.1 s; status 1 if
# it never does in SECONDS
until_ok() {
	_i=0 _lim=$(($1 * 10))
	shift
	while [ $_i -lt $_lim ]; do
		"$@" && return 0
		sleep 0.1; _i=$((_i + 1))
	done
	return 1
}
pane_has() { cap | grep -q"$1" -- "$2"; }
pane_lacks() { ! pane_has F "$1"; }
# wait_for NEEDLE [SECONDS]: until the pane shows NEEDLE (a fixed string;
# 20 s at most by default); status 1 if it never does
wait_for() { until_ok "${2:-20}" pane_has F "$1"; }
# wait_re REGEX [SECONDS]: until a line of the pane matches REGEX (grep -E)
wait_re() { until_ok "${2:-20}" pane_has E "$1"; }
# wait_gone NEEDLE [SECONDS]: until the pane no longer shows it
wait_gone() { until_ok "${2:-20}" pane_lacks "$1"; }

# frame: the number of the frame on screen ("frame N" in the header)
frame() { cap | sed -n 's/.*frame \([0-9]*\).*/\1/p' | head -1; }
# next_frames K: until K more frames are drawn (10 s at most)
next_frames() {
	_f0=$(frame)
	until_ok 10 frames_since "$1"
}
frames_since() {
	_f=$(frame)
	[ -n "$_f" ] && [ -n "$_f0" ] && [ "$_f" -ge $((_f0 + $1)) ]
}

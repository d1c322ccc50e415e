#!/bin/sh
# top-batch.sh: hpmstat top without a terminal: batch text, JSON frames,
# options, the config file, processes that come and go (perf back end).
. "$top_srcdir/tests/lib.sh"
H=${HPMSTAT:-$top_builddir/src/hpmstat}
J=${JSONCHECK:-$top_builddir/tests/jsoncheck}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$tap_out" "$tap_err"; [ -n "$busy$low" ] && kill $busy $low 2>/dev/null' EXIT
export XDG_CONFIG_HOME="$tmp/cfg"
E="--backend emu --emu-harts 2"
# kill_after_frames K FILE PID: once FILE has K lines (JSON frames), or
# top has ended (20 s at most), PID is killed and reaped
kill_after_frames() {
	_i=0
	until [ "$(wc -l <"$2")" -ge "$1" ] || [ $_i -ge 200 ]; do sleep 0.1; _i=$((_i + 1)); done
	kill "$3"
	wait "$3" 2>/dev/null
}

"$H" top -b -n 2 -d 0.1 $E >"$tmp/b" 2>"$tmp/e"; rc=$?
[ $rc -eq 0 ] && [ "$(grep -c '^hpmstat top - frame' "$tmp/b")" -eq 2 ]; ok $? "-b -n 2 prints two frames"
grep -q 'profile balanced' "$tmp/b" && grep -q '^hart1 ' "$tmp/b"; ok $? "batch: source line and one row per hart"
grep -Eq '^hart0 .*R+F+B+K+$' "$tmp/b"; ok $? "batch: level-1 bar in letters R F B K"
grep -q 'hart1: balanced seed 2' "$tmp/b"; ok $? "batch: the emulated workloads per hart"
[ ! -s "$tmp/e" ]; ok $? "batch: nothing on stderr"

"$H" top --json -n 3 -d 0.1 $E >"$tmp/j"; rc=$?
[ $rc -eq 0 ] && [ "$(wc -l <"$tmp/j")" -eq 3 ]; ok $? "--json -n 3: three lines"
out=$("$J" --lines .frame .backend .units.# .units.1.unit .topdown.# <"$tmp/j" | tr '\n' ' ')
[ "$out" = "3 emu 2 hart1 4 " ]; ok $? "--json frames parse (got: $out)"
r=$("$J" --lines .units.0.topdown.tma_retiring <"$tmp/j")
awk -v r="$r" 'BEGIN { exit !(r > 0 && r < 100) }'; ok $? "--json: tma_retiring is a percentage ($r)"

# one vocabulary (issue 33 item 7): the bar's legend names the level-1
# nodes as stat's tree does, and the JSON keys are stat -j's metric names
"$H" stat --backend emu --topdown -- true 2>&1 >/dev/null |
	awk '/Topdown level 1/ { on = 1; next } on && NF == 0 { exit } on { print $1 }' |
	sort >"$tmp/stat-names"
sed -n 's/^Topdown level 1.*(bar: \(.*\))$/\1/p' "$tmp/b" | sed 1q | tr ',' '\n' |
	awk '{ print $2 }' | sort >"$tmp/top-names"
[ "$(wc -l <"$tmp/stat-names")" -eq 4 ] && cmp -s "$tmp/stat-names" "$tmp/top-names"
ok $? "batch: the bar's legend names stat's level-1 nodes ($(tr '\n' ' ' <"$tmp/top-names"))"
"$H" stat -j --backend emu --topdown -- true 2>&1 >/dev/null |
	sed -n 's/.*"metric-unit" : "[^"]* \(tma_[a-z_]*\)".*/\1/p' | sort >"$tmp/stat-keys"
"$J" --lines .units.0.topdown <"$tmp/j" | grep -o '"[a-z_]*"' | tr -d '"' | sort >"$tmp/top-keys"
[ "$(wc -l <"$tmp/stat-keys")" -eq 4 ] && cmp -s "$tmp/stat-keys" "$tmp/top-keys"
ok $? "--json: units[].topdown keys are stat -j's metric names ($(tr '\n' ' ' <"$tmp/top-keys"))"

"$H" top --json -n 1 -d 0.1 --backend emu -t 3 -e 'ifu_req,mcycle' >"$tmp/j3"
out=$("$J" .topdown.# .level .units.0.columns.ifu_req.share <"$tmp/j3" | tr '\n' ' ')
[ "$out" = "15 3 1.0 " ]; ok $? "-t 3 gives 15 nodes, -e columns with their share (got: $out)"

# bad input
run_fails_with "-d 0 refused" "hpmstat top: -d '0'" "$H" top -b -n 1 -d 0
run_fails_with "-t 4 refused" "hpmstat top: -t '4'" "$H" top -b -n 1 -t 4
run_fails_with "--backend bogus refused" "--backend 'bogus'" "$H" top -b -n 1 --backend bogus
run_fails_with "unknown event refused" "unknown event" "$H" top -b -n 1 --backend emu -e nosuchevent
"$H" top --bogus >/dev/null 2>&1; [ $? -eq 129 ]; ok $? "unknown option: exit 129"
"$H" top -b -n 1 --backend emu -C 1 >/dev/null 2>"$tmp/ce"; [ $? -eq 129 ] && grep -q 'need the perf back end' "$tmp/ce"; ok $? "-C on the emulator: usage error"
"$H" top --help | grep -q 'Usage: hpmstat top'; ok $? "--help"

# hpmtop is top
ln -s "$H" "$tmp/hpmtop"
"$tmp/hpmtop" -b -n 1 -d 0.1 --backend emu | grep -q '^hpmstat top - frame 1'; ok $? "argv[0] hpmtop runs top"

# config file: a bad line is reported with its number, the rest loads
mkdir -p "$XDG_CONFIG_HOME/hpmstat"
printf '# test\ndelay = 0.2\nbogus = 1\nlevel 2\nlevel = 2\n' >"$XDG_CONFIG_HOME/hpmstat/top.conf"
"$H" top --json -n 1 --backend emu >"$tmp/c" 2>"$tmp/ce"
grep -q "top.conf:3: unknown key 'bogus'" "$tmp/ce" && grep -q 'top.conf:4: expected' "$tmp/ce"; ok $? "config: bad lines reported with their line numbers"
out=$("$J" .delay .level <"$tmp/c" | awk '{ printf "%g ", $1 }')
[ "$out" = "0.2 2 " ]; ok $? "config: the good lines still load (got: $out)"
out=$("$H" top --json -n 1 -d 0.1 -t 1 --backend emu 2>/dev/null | "$J" .delay .level | awk '{ printf "%g ", $1 }')
[ "$out" = "0.1 1 " ]; ok $? "options override the config file (got: $out)"
"$H" top --json -n 1 -d 0.1 --no-config --backend emu 2>"$tmp/ce2" >/dev/null
[ ! -s "$tmp/ce2" ]; ok $? "--no-config ignores it"
rm -f "$XDG_CONFIG_HOME/hpmstat/top.conf"

# not a terminal: the interactive mode falls back to batch
"$H" top -n 1 -d 0.1 --backend emu </dev/null >"$tmp/nt" 2>"$tmp/nte"
grep -qE 'not a terminal: batch mode|built without ncurses: batch mode' "$tmp/nte" && grep -q '^hpmstat top - frame 1' "$tmp/nt"; ok $? "no terminal (or no ncurses): batch mode with a message"

# perf back end: a process started and killed during the run disappears
if "$H" top --json -n 1 -d 0.1 --backend perf -N 3 >"$tmp/p" 2>/dev/null && "$J" .backend <"$tmp/p" | grep -q perf; then
	ok 0 "perf back end runs"
	# the busy loop ends once top has printed 3 frames, not after a fixed
	# time: a loaded machine can take longer than that to start top and
	# draw them (the loop was then gone before the frame read as the one
	# that lists it); the busiest 20, as other busy processes run there
	sh -c 'while :; do :; done' &
	busy=$!
	"$H" top --json -n 8 -d 0.3 --backend perf -N 20 >"$tmp/pk" 2>"$tmp/pke" &
	tpid=$!
	kill_after_frames 3 "$tmp/pk" $busy
	wait $tpid; rc=$?
	first=$(sed -n 3p "$tmp/pk"); last=$(tail -n 1 "$tmp/pk")
	"$J" --lines . <"$tmp/pk" >/dev/null; ok $? "perf: JSON frames parse"
	[ $rc -eq 0 ] && printf '%s' "$first" | grep -q "\"pid\":$busy,"; ok $? "perf: the busy process is listed"
	printf '%s' "$first" | grep -Eq "\"pid\":$busy,\"name\":\"sh\",\"%CPU\":[0-9.]+,\"TASK-MS\":[0-9.]+"; ok $? "perf: with %CPU and its task-clock"
	! printf '%s' "$last" | grep -q "\"pid\":$busy,"; ok $? "perf: once killed it disappears"
	[ ! -s "$tmp/pke" ]; ok $? "perf: no error when it exits"
	# --sticky keeps a listed process that exits although its last
	# interval (killed just after a frame) is too short to rank among the
	# -N busiest: three niced loops outrank it then (a loaded machine's
	# busy processes did in CI, and the row was lost)
	low=
	for _ in 1 2 3; do
		nice -n 10 sh -c 'while :; do :; done' &
		low="$low $!"
	done
	sh -c 'while :; do :; done' &
	busy=$!
	"$H" top --json -n 8 -d 0.3 --backend perf -N 2 --sticky >"$tmp/ps" 2>/dev/null &
	tpid=$!
	kill_after_frames 3 "$tmp/ps" $busy
	wait $tpid
	kill $low
	wait $low 2>/dev/null
	low=
	tail -n 1 "$tmp/ps" | grep -q "\"pid\":$busy,.*\"exited\":true"; ok $? "perf --sticky: marked exited"
	busy=
	"$H" top -b -n 1 -d 0.1 --backend perf -C 0 -N 1 >"$tmp/pc" 2>/dev/null
	grep -q '^CPU0 ' "$tmp/pc" && ! grep -q '^CPU1 ' "$tmp/pc"; ok $? "perf -C 0: one row, CPU0"
	# a process whose counters cannot be opened (it is not there): '-'
	# (the per-task groups, which read <proc>; BPF sees the kernel's tasks)
	mkdir -p "$tmp/proc/999999"
	echo '999999 (ghost) R 1 1 1 0 -1 0 0 0 0 0 50 50 0 0 20 0 1 0 1 0 0' >"$tmp/proc/999999/stat"
	HPMSTAT_PROCFS="$tmp/proc" "$H" top --json -n 2 -d 0.1 --backend perf --no-bpf >"$tmp/pg" 2>"$tmp/pge"
	tail -n 1 "$tmp/pg" | grep -q '"pid":999999,"name":"ghost","%CPU":0.0,"TASK-MS":null,"CSW":null,"FAULTS":null'; ok $? "counters that cannot be opened: null / '-', no error"
	HPMSTAT_PROCFS="$tmp/proc" "$H" top -b -n 2 -d 0.1 --backend perf --no-bpf | grep -Eq '^ *999999 ghost +0 +- +- +-'; ok $? "batch: '-' for them"
	sleep 30 &
	sp=$!
	"$H" top --json -n 2 -d 0.2 --backend perf -p $sp >"$tmp/pp" 2>/dev/null
	out=$(tail -n 1 "$tmp/pp" | "$J" .processes.# .processes.0.pid | tr '\n' ' ')
	kill $sp
	[ "$out" = "1 $sp " ]; ok $? "perf -p: only that process (got: $out)"
else
	skip "perf_event_open unavailable"
fi
done_testing

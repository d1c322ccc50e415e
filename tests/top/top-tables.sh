#!/bin/sh
# top-tables.sh: what hpmstat top's tables say, in batch and full-screen
# alike: the process table's header names what its rows are (PID COMMAND
# over a task schedule's tasks, HART WORKLOAD over the emulator's
# workloads), the sort column carries the same mark in both views (v, ^
# reversed; h explains it), both views show the same columns and no name
# is cut; a narrow terminal keeps the emulator's "not this host", drops a
# table's last columns whole (names with values), and breaks the legend's
# and h's lines rather than cut them; a
# Topdown share below 0 or over 100 % is flagged as hpmstat stat flags it
# ("[out of range: X below 0]", out_of_range in JSON), never a plain number.
. "$top_srcdir/tests/lib.sh"
H=${HPMSTAT:-$top_builddir/src/hpmstat}
. "$top_srcdir/tests/top/tmux.sh"
tmp=$(mktemp -d)
trap 'tmux_end; rm -rf "$tmp" "$tap_out" "$tap_err"' EXIT
export XDG_CONFIG_HOME="$tmp/cfg"
# an event name longer than a value's column (21 characters)
LONG=me_freelist_1_4_valid
TASKS="--backend emu --emu-harts 2 --emu-profile tasks-mixed --no-config -e $LONG"
WORK="--backend emu --emu-harts 2 --no-config"

# batch: the tables' headers
"$H" top -b -n 1 -d 0.1 $TASKS >"$tmp/tb" 2>"$tap_err"
ok $? "batch frame of an emulated task schedule"
th=$(grep -E '^ +PID ' "$tmp/tb")
printf '%s\n' "$th" | grep -Eq '^ +PID COMMAND +CYCLESv +INSTR +IPC '
ok $? "tasks: PID COMMAND, the sort column marked v ($th)"
grep -q 'HART\|WORKLOAD' "$tmp/tb"; [ $? -ne 0 ]
ok $? "tasks: no HART or WORKLOAD over task rows"
printf '%s\n' "$th" | grep -q " $LONG TOPDOWN "
ok $? "tasks: the event's whole name heads its column"
grep -Eq "^UNIT .* $LONG  TOPDOWN$" "$tmp/tb"
ok $? "units: the event's whole name heads its column"
"$H" top -b -n 1 -d 0.1 $TASKS -r | grep -Eq '^ +PID COMMAND +CYCLES\^ '
ok $? "-r: the sort column marked ^"
"$H" top -b -n 1 -d 0.1 $WORK >"$tmp/wb"
grep -Eq '^ +HARTv WORKLOAD +CYCLES +INSTR +IPC BOTTLENECK$' "$tmp/wb"
ok $? "workloads: HART WORKLOAD, sorted by hart ($(grep HART "$tmp/wb"))"
# -s takes a table's names for either kind of emulated row
"$H" top -b -n 1 -d 0.1 $TASKS -s workload | grep -Eq '^ +PID COMMANDv '
ok $? "-s WORKLOAD on a task schedule sorts by COMMAND"

# Topdown shares out of range: the hotspots profile at level 3 multiplexes
# its counters, and a scaled L1_Bound (the difference of two stall counts
# read in different slices) can fall below 0. Every node is checked: one
# outside 0 to 100 is flagged, one inside never.
"$H" top --json -n 20 -d 0.1 -t 3 --backend emu --emu-profile hotspots --no-config >"$tmp/oj" 2>"$tap_err"
out=$(python3 -c '
import json, sys
flagged = wrong = 0
for l in open(sys.argv[1]):
    for n in json.loads(l)["topdown"]:
        v = n["value"]
        out = v is not None and (v < -1e-7 or v > 100 + 1e-7)
        flagged += out
        wrong += out != bool(n.get("out_of_range"))
print(flagged, wrong)' "$tmp/oj")
set -- $out
if [ "${1:-0}" -gt 0 ]; then
	[ "$2" = 0 ]; ok $? "JSON: each of $1 shares out of 0-100 flagged out_of_range, no other ($2 wrong)"
else
	skip "no share fell out of range in 20 frames"
fi
"$H" top -b -n 20 -d 0.1 -t 3 --backend emu --emu-profile hotspots --no-config >"$tmp/ob" 2>"$tap_err"
# a tree line: name, value, then the flag: "below 0" for a negative value,
# "above 100" over 100, none in between
bad=$(awk '/^Topdown \(/ { t = 1; next } /^(Processes|Workloads)/ { t = 0 }
	t && $2 ~ /^-?[0-9.]+$/ {
		# -0.0: a share just below 0, shown to one decimal
		v = $2 + 0; neg = $2 ~ /^-/; n += neg || v > 100
		if (neg && index($0, "[out of range: ") && index($0, " below 0]")) next
		if (v > 100 && index($0, "[out of range: ") && index($0, " above 100]")) next
		if (!neg && v <= 100 && !index($0, "out of range")) next
		print
	} END { print "n=" n + 0 }' "$tmp/ob")
n=$(printf '%s\n' "$bad" | sed -n 's/^n=//p')
if [ "$n" -gt 0 ]; then
	[ "$(printf '%s\n' "$bad" | grep -vc '^n=')" -eq 0 ]
	r=$?
	ok $r "batch: each of $n shares out of 0-100 flagged [out of range: ...], no other"
	[ $r -eq 0 ] || diag "$bad"
else
	skip "no share fell out of range in 20 frames"
fi

why=$(tmux_why_not)
if [ -n "$why" ]; then
	for i in 1 2 3 4 5 6 7 8 9; do skip "full-screen view" "$why"; done
	done_testing
	exit 0
fi
# header: the pane's header line without the table's position
pane_header() { cap | grep -E "$1" | head -1 | sed 's/   rows [0-9].*//; s/ *$//'; }
session 200 40 "env NO_COLOR=1 XDG_CONFIG_HOME=$XDG_CONFIG_HOME $H top -d 0.2 $TASKS; sleep 60"
wait_for "frame 2"
sh=$(pane_header '^ +PID ')
[ "$sh" = "$th" ]
ok $? "full-screen: the task table's header as batch's ($sh)"
[ "$(pane_header '^UNIT ')" = "$(grep '^UNIT ' "$tmp/tb")" ]
ok $? "full-screen: the unit table's header as batch's"
cap | grep -Eq '^ +1200 stream .* [RFBK-]{20} '
ok $? "full-screen: task rows with their Topdown bar, as batch's"
key h; wait_for "hpmstat top keys"
cap | grep -q "v ^ .*sorted by it"
ok $? "h explains the sort mark"
key x; wait_for "back end emu"

# a narrow terminal: the source line keeps "not this host"
session 60 20 "env NO_COLOR=1 XDG_CONFIG_HOME=$XDG_CONFIG_HOME $H top -d 0.2 $WORK; sleep 60"
wait_for "frame 2"
cap | sed -n 2p >"$tmp/src"
grep -q '^emulated .*(synthetic workload, not this host)$' "$tmp/src"
ok $? "60 columns: the source line still says emulated, not this host ($(cat "$tmp/src"))"
[ "$(awk '{ print length($0) }' "$tmp/src")" -le 60 ]
ok $? "... within the 60 columns"
# the bar's legend names all four letters, on a second row if need be
cap >"$tmp/narrow"
for l in "R Retiring" "F Frontend_Bound" "B Bad_Speculation" "K Backend_Bound"; do
	grep -q "$l" "$tmp/narrow" || echo "$l"
done >"$tmp/miss"
[ ! -s "$tmp/miss" ]
ok $? "60 columns: the legend explains every letter (missing: $(cat "$tmp/miss"))"
# the workload table loses its last columns whole: no row reaches past
# its header's last name (the position "1-2/2" aside), and the last value
# a row shows is whole (IPC cut to "2." read as a number)
bad=$(awk '/^ +HART/ { sub(/ +[0-9]+-[0-9]+\/[0-9]+$/, ""); sub(/ +rows .*/, "")
		w = length($0); t = 1; print "header " $0 >"/dev/stderr"; next }
	t && /^ +[0-9]+ hart/ { n++
		if (length($0) > w || $NF !~ /^([0-9]+(\.[0-9]+)?[KMG]?|[A-Z][A-Za-z_]+)$/) print }
	t && /^$/ { t = 0 } END { if (!n) print "no rows" }' "$tmp/narrow" 2>/dev/null)
[ -z "$bad" ]
ok $? "60 columns: the workload rows' columns are whole and headed${bad:+ ($bad)}"
# h: a key's explanation wider than the terminal goes on to the next row
key h; wait_for "hpmstat top keys"
cap >"$tmp/help"
grep -q "v in its own" "$tmp/help" && [ "$(awk '{ print length($0) }' "$tmp/help" | sort -n | tail -1)" -le 60 ]
ok $? "60 columns: h's lines are broken, not cut (the sort mark's explained whole)"
done_testing

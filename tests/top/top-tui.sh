#!/bin/sh
# top-tui.sh: the full-screen view of hpmstat top, driven through tmux:
# keys are sent to a 120x40 pane and the pane's text is checked.
. "$top_srcdir/tests/lib.sh"
H=${HPMSTAT:-$top_builddir/src/hpmstat}
. "$top_srcdir/tests/top/tmux.sh"
why=$(tmux_why_not)
[ -z "$why" ] || skip_all "$why"
tmp=$(mktemp -d)
trap 'tmux_end; rm -rf "$tmp" "$tap_out" "$tap_err"' EXIT
export XDG_CONFIG_HOME="$tmp/cfg"

TOP="env NO_COLOR=1 XDG_CONFIG_HOME=$XDG_CONFIG_HOME $H top -d 0.2 --backend emu --emu-harts 2"
start "$TOP"
wait_for "frame 2"; ok $? "the view starts"
cap >"$tmp/s1"
grep -q 'hpmstat top - .*back end emu' "$tmp/s1" && grep -q 'emulated Kunminghu (kunminghu-v2): profile balanced' "$tmp/s1"; ok $? "header: back end, table and emulator profile"
grep -q 'every 0.2s' "$tmp/s1"; ok $? "header: refresh interval"
grep -Eq '^hart0 .* R+F+B+K+' "$tmp/s1" && grep -Eq '^hart1 ' "$tmp/s1"; ok $? "a row per hart with its R F B K bar"
grep -q 'CYCLES' "$tmp/s1" && grep -q 'IPC' "$tmp/s1"; ok $? "cycles, instructions, IPC columns"
grep -q 'hart1: balanced seed 2' "$tmp/s1"; ok $? "workload table"
grep -q 'Backend_Bound' "$tmp/s1" && grep -q 'Retiring' "$tmp/s1"; ok $? "Topdown level-1 tree"

key h; wait_for "hpmstat top keys"; ok $? "h: help"
key x; wait_for "back end emu"; ok $? "any key closes the help"
key '?'; wait_for "hpmstat top keys"; ok $? "?: help"
key x; wait_for "back end emu"
key '>'; wait_for "CYCLESv"; ok $? "> sorts by the next column"
key '>'; wait_for "INSTRv"; ok $? "> again: the one after"
key '<'; wait_for "CYCLESv"; ok $? "< goes back"
key s; wait_for "INSTRv"; ok $? "s: next sort column"
key r; wait_for "INSTR^"; ok $? "r reverses the order"
key r; wait_for "INSTRv"
key p; wait_for "[paused]"; ok $? "p pauses"
f1=$(cap | sed -n 's/.*frame \([0-9]*\).*/\1/p'); sleep 0.7
f2=$(cap | sed -n 's/.*frame \([0-9]*\).*/\1/p')
[ "$f1" = "$f2" ]; ok $? "paused: no new frames ($f1 $f2)"
key p; wait_gone "[paused]"; ok $? "p resumes"
key +; wait_for "every 0.4s"; ok $? "+ doubles the interval"
key -; wait_for "every 0.2s"; ok $? "- halves it"
key t; wait_for "Topdown level 2"; wait_for "Fetch_Latency"; ok $? "t: level 2 nodes"
key t; wait_for "Topdown level 3"; wait_for "L1_Bound"; ok $? "t: level 3 nodes"
key t; wait_for "Topdown level 1"; wait_gone "Fetch_Latency"; ok $? "t: back to level 1"
key d; wait_for "drill: Backend_Bound"; ok $? "d drills into the bottleneck"
wait_for ">>  Memory_Bound" && cap | grep -A1 'Backend_Bound' | grep -q '>>  Core_Bound'; ok $? "drill-down shows the level-2 children"
key d; wait_for "drill: Backend_Bound > Memory_Bound"; wait_for "DRAM_Bound"; ok $? "d again: level 3 children"
key u; wait_gone "> Memory_Bound"; ok $? "u backs up"
key u; wait_gone "drill:"; ok $? "u to the top"
key u; wait_for "already at the top"; ok $? "u at the top says so"
key e; wait_for "events:"; ok $? "e: the prompt"
key -l "ifu_req"; key Enter; wait_for "events: ifu_req"; wait_for "     ifu_req"; ok $? "e: the new column appears"
key e; wait_for "events: ifu_req"; key C-u; key -l "nosuch_ev"; key Enter
wait_for "unknown event 'nosuch_ev'"; ok $? "e: a bad event is refused with a message"
cap | grep -q '     ifu_req'; ok $? "e: the old columns stay"
key W; wait_for "wrote $XDG_CONFIG_HOME/hpmstat/top.conf"; ok $? "W writes the config file"
grep -q '^events = ifu_req' "$XDG_CONFIG_HOME/hpmstat/top.conf" && grep -q '^sort = INSTR' "$XDG_CONFIG_HOME/hpmstat/top.conf"; ok $? "W: it holds the settings"
T resize-window -t "s$n" -x 50 -y 10 2>/dev/null || T resize-pane -t "s$n" -x 50 -y 10
wait_for "terminal too small"; ok $? "resize to 50x10: too-small message"
cap | tr -s '\n ' '  ' | grep -q 'terminal too small (50x10): hpmstat top needs 60x15'; ok $? "resize to 50x10: the whole message, 60x15"
T resize-window -t "s$n" -x 100 -y 30 2>/dev/null || T resize-pane -t "s$n" -x 100 -y 30
wait_for "back end emu"; ok $? "resize back: the view again"
cap | awk 'length > 100 { bad = 1 } END { exit bad }'; ok $? "resized: lines fit 100 columns"
key q; wait_for "EXITED 0"; ok $? "q quits with status 0"

# the written config is loaded next time; a bad line is reported
printf 'delay = 0.3\nwhat = ever\n' >>"$XDG_CONFIG_HOME/hpmstat/top.conf"
start "$TOP -d 0.3"
wait_for "top.conf:13: unknown key 'what'" || wait_for "unknown key 'what'"; ok $? "config: bad line reported with its number"
wait_for "     ifu_req"; ok $? "config: the rest still loads"
key q; wait_for "EXITED 0"

# W keeps the file a user keeps: a symlinked top.conf (a dotfiles setup)
# stays a link and its target gets the new values; every key W does not
# save (emu-seed, color, emu-freq, unknown ones) and every comment stays
wcfg=$tmp/wcfg
mkdir -p "$wcfg/hpmstat" "$tmp/dotfiles"
printf '%s\n' '# my hpmstat settings' 'emu-seed = 7' '' 'color = no' 'delay = 0.5' \
	'# the clock' 'emu-freq = 2000000' 'future-key = 1' 'level = 2' >"$tmp/dotfiles/top.conf"
chmod 600 "$tmp/dotfiles/top.conf"
ln -s ../../dotfiles/top.conf "$wcfg/hpmstat/top.conf"
start "env NO_COLOR=1 XDG_CONFIG_HOME=$wcfg $H top -d 0.2 --backend emu"
wait_for "frame 2" || diag "no frame 2 yet" "$(cap | head -5)"
key t; wait_for "Topdown level 3" || diag "t: no level 3 yet" "$(cap | head -5)"
key W; wait_for "wrote $wcfg/hpmstat/top.conf"; rc=$?
ok $rc "W with a symlinked top.conf"
[ $rc -eq 0 ] || diag "the pane:" "$(cap)" "the file:" "$(cat "$tmp/dotfiles/top.conf")"
[ -L "$wcfg/hpmstat/top.conf" ] && [ "$(readlink "$wcfg/hpmstat/top.conf")" = ../../dotfiles/top.conf ]
ok $? "W: top.conf is still the symlink"
c=$tmp/dotfiles/top.conf
grep -qx 'level = 3' "$c" && grep -qx 'delay = 0.2' "$c" && [ "$(grep -c '^level' "$c")" = 1 ]
ok $? "W: its target has the new values"
l=$wcfg/hpmstat/top.conf
grep -qx 'emu-seed = 7' "$l" && grep -qx 'color = no' "$l" && grep -qx 'emu-freq = 2000000' "$l" &&
	grep -qx 'future-key = 1' "$l" && grep -qx 'level = 3' "$l"
ok $? "W: emu-seed, color, emu-freq and an unknown key kept"
[ "$(sed -n 1p "$c")" = '# my hpmstat settings' ] && [ "$(sed -n 6p "$c")" = '# the clock' ] &&
	[ "$(sed -n 5p "$c")" = 'delay = 0.2' ] && [ "$(sed -n 9p "$c")" = 'level = 3' ]
ok $? "W: comments and the order of the lines kept, values changed in place"
[ "$(stat -c %a "$c")" = 600 ] && ! ls "$c".?????? >/dev/null 2>&1; ok $? "W: mode 0600 kept, no temporary file"
key q; wait_for "EXITED 0"

# W never writes a file its reader refuses whole: exactly 1 MiB of
# "level=1" lines loads, but each rewritten as "level = 1" would make it
# 1.25 MiB, past the reader's bound; W says so and the file stays
bcfg=$tmp/bcfg
mkdir -p "$bcfg/hpmstat"
awk 'BEGIN { for (i = 0; i < 131072; i++) print "level=1" }' >"$bcfg/hpmstat/top.conf"
cp "$bcfg/hpmstat/top.conf" "$tmp/big.orig"
start "env NO_COLOR=1 XDG_CONFIG_HOME=$bcfg $H top -d 0.2 --backend emu"
wait_for "frame 2" || diag "no frame 2 yet" "$(cap | head -5)"
key W; wait_for "cannot write '$bcfg/hpmstat/top.conf': File too large"; rc=$?
ok $rc "W: a file that would pass the reader's 1 MiB bound is refused with a message"
[ $rc -eq 0 ] || diag "the pane:" "$(cap | tail -3)"
cmp -s "$bcfg/hpmstat/top.conf" "$tmp/big.orig" && ! ls "$bcfg/hpmstat/top.conf".?????? >/dev/null 2>&1
ok $? "W: that file stays as it was, no temporary file"
key q; wait_for "EXITED 0"

# colours: on unless NO_COLOR
start "env -u NO_COLOR XDG_CONFIG_HOME=$tmp/none $H top -d 0.2 --backend emu"
wait_for "frame 2"
esc=$(printf '\033')
i=0
until cap -e | grep -Eq "$esc\[([0-9]+;)*4[0-7]m" || [ $i -ge 30 ]; do sleep 0.1; i=$((i + 1)); done
cap -e | grep -Eq "$esc\[([0-9]+;)*4[0-7]m"; ok $? "colours by default"
[ $i -lt 30 ] || diag "$(cap -e | head -8 | od -c | head -20)"
key q; wait_for "EXITED 0"
start "env NO_COLOR=1 XDG_CONFIG_HOME=$tmp/none $H top -d 0.2 --backend emu"
wait_for "frame 2"
! cap -e | grep -Eq "$esc\[([0-9]+;)*4[0-7]m"; ok $? "NO_COLOR: no colours"
key q; wait_for "EXITED 0"

# TERM unset or unknown: batch mode with a message
start "env -u TERM XDG_CONFIG_HOME=$tmp/none $H top -n 1 -d 0.2 --backend emu 2>$tmp/term.err"
wait_for "EXITED 0"; rc=$?
ok $rc "TERM unset: runs to the end"
[ $rc -eq 0 ] || diag "the pane:" "$(cap | grep -v '^$' | tail -8)" "stderr:" "$(cat "$tmp/term.err")"
cap | grep -q '^hpmstat top - frame 1' && grep -q 'TERM is not set: batch mode' "$tmp/term.err"; ok $? "TERM unset: batch frame and a message"
start "env TERM=no-such-term XDG_CONFIG_HOME=$tmp/none $H top -n 1 -d 0.2 --backend emu 2>$tmp/term.err"
wait_for "EXITED 0"
grep -q "unknown terminal type 'no-such-term': batch mode" "$tmp/term.err"; ok $? "TERM unknown: batch mode with a message"

# started in a terminal too small
session 40 8 "env NO_COLOR=1 XDG_CONFIG_HOME=$tmp/none $H top -d 0.2 --backend emu; sleep 30"
wait_for "terminal too small"; ok $? "too small from the start: the message"
# wrapped to the 40 columns, never cut: the size it needs is all there
cap | awk 'length > 40 { bad = 1 } END { exit bad }' && cap | tr -s '\n ' '  ' | grep -q 'hpmstat top needs 60x15'
ok $? "too small: the message says 60x15 and fits 40 columns"
[ $? -eq 0 ] || diag "$(cap | head -4)"
done_testing

#!/bin/sh
# child-start.sh: the command stat counts starts as a forked one would
# (workload.c starts it sharing hpmstat's memory until its exec, as
# posix_spawn does, with every signal blocked while it waits for the
# counters): it runs with the signal mask and the ignored signals it would
# have had run directly, none blocked by hpmstat; its exec is counted (the
# enable_on_exec counters see its own start); a command that cannot be run
# is perf's 127; its exit status and a signal that ends it come back.
# Independent truth: /proc/self/status of the same command run directly and
# under perf stat; perf's exit codes.
. "$top_srcdir/tests/lib.sh"
H=$HPMSTAT
dir=$(mktemp -d)
trap 'rm -rf "$dir" "$tap_out" "$tap_err"' EXIT
have_perf=false
command -v perf >/dev/null 2>&1 && perf stat -e task-clock true >/dev/null 2>&1 && have_perf=true
sigs() { grep -E '^Sig(Blk|Ign|Cgt):' "$1" | tr '\n' ' '; }

# the signal state the command sees: as run directly, as under perf stat
# SIGINT and SIGTERM are the two stat catches (to pass them on): after the
# exec they are at their default, as under perf stat, even where this test
# runs with them ignored (a background job of a non-interactive shell, as
# CI may be): the direct run's SigIgn without those two bits is the truth
grep -E '^Sig' /proc/self/status | awk '/^SigIgn:/ {
	v = 0; h = $2
	for (i = 1; i <= length(h); i++) v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
	# bit 1 is SIGINT, bit 14 SIGTERM (bit n: signal n + 1)
	if (int(v / 2) % 2) v -= 2
	if (int(v / 16384) % 2) v -= 16384
	s = ""; for (i = 0; i < 16; i++) { s = substr("0123456789abcdef", v % 16 + 1, 1) s; v = int(v / 16) }
	print "SigIgn:\t" s; next } { print }' >"$dir/direct"
"$H" stat -e task-clock -o "$dir/counts" -- grep -E '^Sig' /proc/self/status >"$dir/hpm"
[ "$(sigs "$dir/hpm")" = "$(sigs "$dir/direct")" ]
ok $? "the command's blocked, ignored and caught signals are as run directly ($(sigs "$dir/hpm"))"
[ $? = 0 ] || diag "direct: $(sigs "$dir/direct")"
if $have_perf; then
	# perf 6.1's child has SIGWINCH blocked (perf's own mask): Ign and Cgt
	perf stat -e task-clock -o "$dir/pcounts" -- grep -E '^Sig' /proc/self/status >"$dir/perf"
	[ "$(grep -E '^Sig(Ign|Cgt)' "$dir/hpm")" = "$(grep -E '^Sig(Ign|Cgt)' "$dir/perf")" ]
	ok $? "ignored and caught as under perf stat ($(sigs "$dir/perf"))"
else
	ok 0 "# SKIP perf not installed"
fi

# a shell ignoring SIGTERM and SIGQUIT: SIGQUIT stays ignored in the
# command; SIGTERM is one stat catches (to pass it on), so the command gets
# it at its default, as under perf stat (SigIgn 0x4: SIGQUIT alone)
(trap '' TERM QUIT; exec "$H" stat -e task-clock -o "$dir/counts" -- grep -E '^Sig' /proc/self/status >"$dir/hpm2")
want=0000000000000004
if $have_perf; then
	(trap '' TERM QUIT; exec perf stat -e task-clock -o "$dir/pcounts" -- grep -E '^Sig' /proc/self/status >"$dir/perf2")
	want=$(awk '$1 == "SigIgn:" { print $2 }' "$dir/perf2")
fi
[ "$(awk '$1 == "SigIgn:" { print $2 }' "$dir/hpm2")" = "$want" ] &&
	[ "$(awk '$1 == "SigBlk:" { print $2 }' "$dir/hpm2")" = 0000000000000000 ]
ok $? "ignored signals as under perf stat ($want), none blocked ($(sigs "$dir/hpm2"))"

# many starts in one run (-r): each exec counted from its start, the
# counters of the command and not of hpmstat: task-clock of true is a
# fraction of a ms, context-switches small
"$H" stat -r 20 -x, -e task-clock,page-faults -- true 2>"$dir/r20"
rc=$?
pf=$(awk -F, '$3 ~ /page-faults/ { print $1 }' "$dir/r20")
[ $rc = 0 ] && [ -n "$pf" ] && awk -v p="$pf" 'BEGIN { exit !(p > 10 && p < 400) }'
ok $? "-r 20 -- true: each run counts true's own page faults from its exec ($pf)"

# exit status, a signal, exec failures as perf's
"$H" stat -e task-clock -o /dev/null -- sh -c 'exit 7'
ok $([ $? = 7 ] && echo 0 || echo 1) "the command's exit status is hpmstat's (7)"
"$H" stat -e task-clock -o /dev/null -- sh -c 'kill -TERM $$' 2>"$dir/err"
rc=$?
[ $rc = 143 ] && grep -q '^sh: Terminated' "$dir/err"
ok $? "a command a signal ends: 128 + the signal and perf's 'sh: Terminated' ($rc)"
"$H" stat -e task-clock -- /nonexistent/cmd 2>"$dir/err"
rc=$?
[ $rc = 127 ] && grep -q "No such file or directory" "$dir/err" && [ "$(wc -l <"$dir/err")" = 1 ]
ok $? "a command that does not exist: one line, exit 127 ($(cat "$dir/err"))"
printf 'x' >"$dir/noexec"
chmod -x "$dir/noexec"
"$H" stat -e task-clock -- "$dir/noexec" 2>"$dir/err"
rc=$?
[ $rc = 127 ] && grep -q "Permission denied" "$dir/err"
ok $? "a file that is not executable: exit 127 with EACCES's words ($rc)"
# a script without #! runs through /bin/sh, as execvp does it
printf 'exit 5\n' >"$dir/script"
chmod +x "$dir/script"
"$H" stat -e task-clock -o /dev/null -- "$dir/script"
ok $([ $? = 5 ] && echo 0 || echo 1) "a script without #! runs under /bin/sh (execvp's ENOEXEC rule): exit 5"

# the descriptors the command has: those it has run directly (ls's own
# directory among them), none of hpmstat's (its go pipe's two ends were
# once left open), in stat and in record. Not perf's: perf stat 6.1 leaves
# its -o file open in the command.
ls /proc/self/fd >"$dir/fd-direct"
"$H" stat -e task-clock -o "$dir/counts" -- ls /proc/self/fd >"$dir/fd-stat"
cmp -s "$dir/fd-direct" "$dir/fd-stat"
ok $? "stat: the command's descriptors are as run directly ($(tr '\n' ' ' <"$dir/fd-stat"))"
[ $? = 0 ] || diag "direct: $(tr '\n' ' ' <"$dir/fd-direct")"
"$H" record -e task-clock -o "$dir/perf.data" -- ls /proc/self/fd >"$dir/fd-record" 2>/dev/null
cmp -s "$dir/fd-direct" "$dir/fd-record"
ok $? "record: the command's descriptors are as run directly ($(tr '\n' ' ' <"$dir/fd-record"))"
done_testing

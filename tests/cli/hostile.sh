#!/bin/sh
# hostile.sh: what a hostile or mistaken environment does to hpmstat: each
# bad value is refused in one line naming it, with exit 1, before anything
# is counted, never taken for some other value.
. "$top_srcdir/tests/lib.sh"
H=$HPMSTAT

# HPMSTAT_BPF_MAX_TASKS sizes the BPF task map of -a --per-thread (and
# --bpf-counters, --per-task): a whole number from 1 to 4194304 (the
# kernel's PID_MAX_LIMIT). It was read with strtoul: "abc" and "" alike
# gave the default, "1e9" a map of 1 task, "-1" a map of 2^32-1 (ENOMEM).
# The check comes before any counter opens, so it needs no permission.
for v in abc 1e9 -1 0 4194305 99999999999999999999 '8 tasks'; do
	HPMSTAT_BPF_MAX_TASKS=$v "$H" stat -a --per-thread -e cpu-clock -- true >"$tap_out" 2>"$tap_err"
	rc=$?
	[ $rc -eq 1 ] && [ "$(wc -l <"$tap_err")" -eq 1 ] && [ ! -s "$tap_out" ] &&
		grep -qxF "hpmstat stat: HPMSTAT_BPF_MAX_TASKS '$v': must be 1 to 4194304" "$tap_err"
	ok $? "HPMSTAT_BPF_MAX_TASKS='$v': one line naming it, exit 1"
	[ $rc -eq 1 ] || diag "exit $rc: $(head -3 "$tap_err")"
done
# a run that counts nothing through BPF has no map to size: the variable
# is not read (a stale one in the environment breaks no other run)
HPMSTAT_BPF_MAX_TASKS=abc "$H" stat -e cpu-clock -- true >"$tap_out" 2>"$tap_err"
ok $? "HPMSTAT_BPF_MAX_TASKS='abc' without BPF: not read, the run counts"

# stat report reads its whole input before parsing it (a run file or a
# perf.data, up to 1 GiB): an endless device was read to that bound, a
# gigabyte of memory and many seconds for an input its first bytes show
# is neither. Both are refused in one line at once (perf: "zero-sized
# data ... nothing to do!").
for dev in /dev/zero /dev/urandom; do
	timeout 10 "$H" stat report -i $dev >"$tap_out" 2>"$tap_err"
	rc=$?
	[ $rc -eq 1 ] && [ "$(wc -l <"$tap_err")" -eq 1 ] && [ ! -s "$tap_out" ] &&
		grep -qF "hpmstat stat: $dev: not valid JSON" "$tap_err"
	ok $? "stat report -i $dev: one line at once, exit 1 (exit $rc)"
done
timeout 10 "$H" stat report -i - </dev/zero >"$tap_out" 2>"$tap_err"
[ $? -eq 1 ] && grep -qF "hpmstat stat: standard input: not valid JSON" "$tap_err"
ok $? "stat report -i - </dev/zero: one line at once, exit 1"
# one /dev/urandom in a hundred begins with '{' or '[', as a run file
# does, and was read to the bound (CI: exit 124 after 10 s): a run file
# holds no control byte but blanks, so random bytes end the reading at
# the first block. report -i - reads perf.data's pipe format, which
# begins with its magic: anything else is read no further either.
for pfx in '{' '[' ' ['; do
	{ printf '%s' "$pfx"; cat /dev/urandom; } 2>/dev/null |
		timeout 10 "$H" stat report -i - >"$tap_out" 2>"$tap_err"
	rc=$?
	[ $rc -eq 1 ] && [ "$(wc -l <"$tap_err")" -eq 1 ] &&
		grep -qF "hpmstat stat: standard input: not valid JSON" "$tap_err"
	ok $? "stat report -i - of '$pfx' and random bytes: one line at once, exit 1 (exit $rc)"
done
for pfx in '' '{'; do
	{ printf '%s' "$pfx"; cat /dev/urandom; } 2>/dev/null |
		timeout 10 "$H" report -i - >"$tap_out" 2>"$tap_err"
	rc=$?
	[ $rc -eq 1 ] && [ "$(wc -l <"$tap_err")" -eq 1 ] && grep -qF "not a perf.data file" "$tap_err"
	ok $? "report -i - of '$pfx' and random bytes: one line at once, exit 1 (exit $rc)"
done
done_testing

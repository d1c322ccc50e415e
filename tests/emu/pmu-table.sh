#!/bin/sh
# hpmstat emu --pmu kunminghu|kunminghu-v2|kunminghu-v3: the script machine
# reads mhpmevent's EVENTn fields and feed's event names in that table, as
# stat --backend emu --pmu kunminghu-v3's machine does: v3's events count
# the signals of v2's events of the same names (rob_commitInstr is backend
# 53 in v2 and 51 in v3). The values programmed are encode's, never written
# here; the counts are those of the feeds (CYCLES x VALUE).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/emu/emu-test.sh"

# code PMU EVENT: encode's value of EVENT in PMU's table
code() { "$HPMSTAT" encode --pmu "$1" "$2" | awk 'NR == 1 { print $1 }'; }
# index PMU EVENT: its E0 index, as encode decodes it
index() { "$HPMSTAT" encode --pmu "$1" "$2" | sed -n '1s/.* E0=\([0-9]*\):.*/\1/p'; }
hex() { printf '0x%016x' "$1"; }

V2=$(code kunminghu-v2 rob_commitInstr)
V3=$(code kunminghu-v3 rob_commitInstr)
I3=$(index kunminghu-v3 rob_commitInstr)
[ -n "$V2" ] && [ -n "$V3" ] && [ -n "$I3" ] && [ "$V2" != "$V3" ]
ok $? "rob_commitInstr's index differs between the tables (v2 $V2, v3 $V3, v3 index $I3)"

# counter 11 counts v3's encoding, counter 12 v2's; both count outside M
prog() {
	printf 'csrw mhpmevent11 %s\ncsrw mhpmevent12 %s\ncsrw mcountinhibit 0\n' "$V3" "$V2"
}
feed_script() {
	prog
	printf 'mode HS\nfeed 10 %s=3\nmode M\n' "$1"
	printf 'csrr mhpmcounter11\ncsrr mhpmcounter12\ncsrr mhpmevent11\n'
}

# (from a file: script_is must run in this shell, to count its test point)
feed_script rob_commitInstr >"$EMU_TMP/name"
feed_script "backend:$I3" >"$EMU_TMP/index"
script_is \
	"--pmu kunminghu-v3: v3's rob_commitInstr counts a feed of rob_commitInstr, v2's index does not" \
	"ok
ok
ok
$(hex 30)
$(hex 0)
$V3" --pmu kunminghu-v3 <"$EMU_TMP/name"
script_is \
	"--pmu kunminghu-v3: BANK:INDEX is v3's index" \
	"ok
ok
ok
$(hex 30)
$(hex 0)
$V3" --pmu kunminghu-v3 <"$EMU_TMP/index"
for p in kunminghu kunminghu-v2; do
	script_is \
		"--pmu $p: v2's rob_commitInstr counts the feed, v3's index does not" \
		"ok
ok
ok
$(hex 0)
$(hex 30)
$V3" --pmu $p <"$EMU_TMP/name"
done
script_is "no --pmu is kunminghu's table" \
	"ok
ok
ok
$(hex 0)
$(hex 30)
$V3" <"$EMU_TMP/name"

# run: the same profile and seed through each table's encoding count the same
run_count() { # PMU VALUE: mhpmcounter11 after a run, counting VALUE
	printf 'csrw mhpmevent11 %s\ncsrw mcountinhibit 0\nrun 20000 balanced seed=5\ncsrr mhpmcounter11\n' "$2" |
		"$HPMSTAT" emu --pmu "$1" - 2>"$tap_err" | tail -1
}
c3=$(run_count kunminghu-v3 "$V3")
c2=$(run_count kunminghu "$V2")
[ -n "$c3" ] && [ "$c3" = "$c2" ] && [ "$c3" != "$(hex 0)" ]
ok $? "run: v3's rob_commitInstr on kunminghu-v3 counts what v2's does on kunminghu ($c3, $c2)"

# a recording holds the signals: the same file from either table's names
printf 'trace %s/v3.trace\nfeed 7 rob_commitInstr=2 instret=1\ntrace off\n' "$EMU_TMP" |
	"$HPMSTAT" emu --pmu kunminghu-v3 - >/dev/null 2>"$tap_err"
printf 'trace %s/v2.trace\nfeed 7 rob_commitInstr=2 instret=1\ntrace off\n' "$EMU_TMP" |
	"$HPMSTAT" emu --pmu kunminghu - >/dev/null 2>>"$tap_err"
[ -s "$EMU_TMP/v3.trace" ] && cmp -s "$EMU_TMP/v3.trace" "$EMU_TMP/v2.trace"
ok $? "a trace recorded under either table holds the same signals"

# dispatch_stall_cycle_iq is v3's only: a name there, with no signal to feed
printf 'feed 1 dispatch_stall_cycle_iq=1\n' | "$HPMSTAT" emu --pmu kunminghu-v3 - >"$tap_out" 2>"$tap_err"
rc=$?
[ $rc -eq 1 ] && [ "$(cat "$tap_err")" = "hpmstat emu: -:1: backend:dispatch_stall_cycle_iq of kunminghu-v3 has no signal in the emulator: kunminghu-v2, whose signals it emulates, has no event of that name" ]
ok $? "--pmu kunminghu-v3: feeding v3-only dispatch_stall_cycle_iq says it has no signal (exit $rc)"
printf 'feed 1 dispatch_stall_cycle_iq=1\n' | "$HPMSTAT" emu --pmu kunminghu - >"$tap_out" 2>"$tap_err"
rc=$?
[ $rc -eq 1 ] && [ "$(cat "$tap_err")" = "hpmstat emu: -:1: unknown event 'dispatch_stall_cycle_iq'" ]
ok $? "--pmu kunminghu: dispatch_stall_cycle_iq is no event (exit $rc)"

# another --pmu: a usage error naming the choices
refusal="the Kunminghu emulator's event tables are kunminghu (also kunminghu-v2, the default) and kunminghu-v3"
for p in n2 neoverse-v2 nosuch; do
	"$HPMSTAT" emu --pmu "$p" - </dev/null >"$tap_out" 2>"$tap_err"
	rc=$?
	[ $rc -eq 129 ] && [ "$(cat "$tap_err")" = "hpmstat emu: --pmu $p: $refusal" ] && [ ! -s "$tap_out" ]
	ok $? "--pmu $p is refused in one line (exit $rc)"
done
"$HPMSTAT" emu bench --pmu n2 --cycles 1000 >"$tap_out" 2>"$tap_err"
rc=$?
[ $rc -eq 129 ] && grep -qF "bench: --pmu n2: $refusal" "$tap_err" && [ "$(wc -l <"$tap_err")" -eq 1 ]
ok $? "bench --pmu n2 is refused in one line (exit $rc)"
"$HPMSTAT" emu bench --pmu kunminghu-v3 --cycles 20000 >"$tap_out" 2>"$tap_err"
rc=$?
[ $rc -eq 0 ] && grep -q "^check: *equal" "$tap_out"
ok $? "bench --pmu kunminghu-v3 runs and checks (exit $rc)"

done_testing

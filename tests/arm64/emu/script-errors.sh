#!/bin/sh
# hpmstat emu --arch arm64: bad scripts stop at their first bad line with
# "hpmstat emu: FILE:LINE: reason" and exit 1; nothing after it runs.
. "$top_srcdir/tests/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$tap_out" "$tap_err"' EXIT

# bad DESC MESSAGE [OPTIONS...] <<SCRIPT
bad() {
	d=$1; m=$2; shift 2
	cat >"$tmp/s.arm"
	"$HPMSTAT" emu --arch arm64 "$@" "$tmp/s.arm" >"$tap_out" 2>"$tap_err"
	rc=$?
	[ $rc -eq 1 ] && [ "$(wc -l <"$tap_err")" -eq 1 ] && grep -qF "hpmstat emu: $tmp/s.arm:$m" "$tap_err"
	st=$?
	ok $st "$d"
	[ $st -eq 0 ] || diag "exit $rc" "$(cat "$tap_err")"
}

bad "unknown command" "2: unknown command 'csrr' (pe, el, state" <<'S'
mrs PMCR_EL0
csrr mcycle
S
bad "unknown register" "1: unknown register 'PMFOO_EL0'" <<'S'
mrs PMFOO_EL0
S
bad "counter index out of range" "1: 'PMEVCNTR31_EL0': PMEVCNTR<n>_EL0 takes n from 0 to 30" <<'S'
mrs PMEVCNTR31_EL0
S
bad "bad exception level" "3: bad exception level '4' (0, 1, 2 or 3)" <<'S'
el 0
# a comment
el 4
S
bad "bad security state" "1: bad security state 'nonsecure' (ns, s, realm or root)" <<'S'
state nonsecure
S
bad "bad streaming mode" "1: bad streaming mode 'yes' (on or off)" <<'S'
streaming yes
S
bad "no such PE" "1: no PE 2: there are 2 (0..1; see --pes)" --pes 2 <<'S'
pe 2
S
bad "unknown event in feed, with its column" "1: column 19: unknown event 'FOO'" <<'S'
feed 10 OP_SPEC=1 FOO=2
S
bad "a VB above PMMIR_EL1.SLOTS" "1: column 9: STALL_SLOT_FRONTEND=9 is more than PMMIR_EL1.SLOTS (8) per cycle" <<'S'
feed 10 STALL_SLOT_FRONTEND=9
S
bad "a cycle event above 1" "1: column 9: STALL_FRONTEND=2 is more than 1 per cycle: it counts cycles" <<'S'
feed 10 STALL_FRONTEND=2
S
bad "Realm state on a PMU without FEAT_RME" "2: " --pmu v2 <<'S'
state realm
feed 10 OP_SPEC=1
S
bad "msr without a value" "1: usage: msr REG VALUE" <<'S'
msr PMCR_EL0
S
bad "a bad value" "1: bad value 'x1'" <<'S'
msr PMCR_EL0 x1
S
bad "expect REG VALUE that differs" "4: expected PMEVCNTR0_EL0 = 0x0000000000000005 (5), got 0x0000000000000000 (0)" <<'S'
msr PMEVTYPER0_EL0 0x3b
msr PMCR_EL0 1
feed 5 OP_SPEC=1
expect PMEVCNTR0_EL0 5
S
bad "expect of an access that raised an exception" "2: expected PMCCNTR_EL0 = 0, but its read raised trap-to-EL1" <<'S'
el 0
expect PMCCNTR_EL0 0
S
bad "expect TEXT against the previous line" "2: expected 'ok', got '0x0000000000000000'" <<'S'
mrs PMCCNTR_EL0
expect ok
S
bad "an unknown profile" "1: unknown Arm profile 'nosuch' (known: " <<'S'
run 100 nosuch
S
printf 'hpmstat-arm-emu-trace 1\n10 9 ns 0 0 0 0\n' >"$tmp/bad.trace"
bad "a bad trace: its own FILE:LINE inside the script's" "1: $tmp/bad.trace:2: bad exception level '9' (0..3)" <<S
replay $tmp/bad.trace
S
bad "a missing trace" "1: cannot open trace '$tmp/none'" <<S
replay $tmp/none
S

# options
run_fails_with "--pmu of no profile" "--pmu foo: no Arm emulator profile of that name" \
	"$HPMSTAT" emu --arch arm64 --pmu foo /dev/null
run_fails_with "--pes not a multiple of --pes-per-core" "--pes 3 is not a multiple of --pes-per-core 2" \
	"$HPMSTAT" emu --arch arm64 --pes 3 --pes-per-core 2 /dev/null
run_fails_with "--harts is Kunminghu's" "option '--harts' is Kunminghu's" \
	"$HPMSTAT" emu --arch arm64 --harts 2 /dev/null
run_fails_with "an unknown --arch" "--arch sparc: the emulators are of arm64" \
	"$HPMSTAT" emu --arch sparc /dev/null
run_fails_with "a missing script" "cannot open script '$tmp/none.arm'" \
	"$HPMSTAT" emu --arch arm64 "$tmp/none.arm"

done_testing

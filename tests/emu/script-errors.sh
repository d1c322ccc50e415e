#!/bin/sh
# hpmstat emu: bad scripts and bad arguments. A script error names the file
# and line, says why, and stops the script (exit 1): nothing after it runs.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/emu/emu-test.sh"

script_fails "the error names the line; earlier output stays, later lines do not run" 1 \
"hpmstat emu: -:4: unknown CSR 'mhpmcounter32'" \
"0x0000000000000000" <<'S'
# line 1
csrr mcycle

csrr mhpmcounter32
csrr mcycle
S

script_fails "unknown CSR name in csrw" 1 "hpmstat emu: -:1: unknown CSR 'foo'" <<'S'
csrw foo 1
S
script_fails "a CSR number wider than 12 bits" 1 \
"hpmstat emu: -:1: CSR number '0x1000' is wider than 12 bits" <<'S'
csrr 0x1000
S
script_fails "unknown command" 1 \
"hpmstat emu: -:2: unknown command 'csrx' (hart, mode, csrr, csrw, csrs, csrc, feed, run, replay, time, pending, expect, trace, reset)" <<'S'

csrx mcycle
S
script_fails "missing argument" 1 "hpmstat emu: -:1: usage: csrw CSR VALUE" <<'S'
csrw mcycle
S
script_fails "extra argument" 1 "hpmstat emu: -:1: usage: csrr CSR" <<'S'
csrr mcycle 1
S
for v in 12abc -1 0x 0x1_0000_0000_0000_0000 18446744073709551616 1__0 _1 1_ 0b2; do
	printf 'csrw mcycle %s\n' "$v" | "$HPMSTAT" emu - >"$tap_out" 2>"$tap_err"; rc=$?
	[ $rc -eq 1 ] && [ "$(cat "$tap_err")" = "hpmstat emu: -:1: bad value '$v' (decimal, 0x hex or 0b binary, up to 2^64-1)" ] && [ ! -s "$tap_out" ]
	ok $? "bad value '$v' is a script error"
done
out_is "2^64-1 is the largest value" "0xffffffffffffffff" sh -c "printf 'csrw mcycle 18446744073709551615\ncsrr mcycle\n' | \"$HPMSTAT\" emu - | tail -1"

script_fails "event value over 63" 1 \
"hpmstat emu: -:1: event value 64 is out of range (0..63: events are 6 bits)" <<'S'
feed 1 frontend:ifu_req=64
S
script_fails "noEvent cannot be fed" 1 "hpmstat emu: -:1: frontend:0 is noEvent, which always delivers 0" <<'S'
feed 1 frontend:0=1
S
script_fails "event index past the table" 1 \
"hpmstat emu: -:1: event index 58 is outside the frontend table (1..57)" <<'S'
feed 1 frontend:58=1
S
script_fails "unknown event" 1 "hpmstat emu: -:1: unknown event 'no_such_event'" <<'S'
feed 1 no_such_event=1
S
script_fails "unknown event in a bank" 1 "hpmstat emu: -:1: unknown event 'ifu_req' in the backend bank" <<'S'
feed 1 backend:ifu_req=1
S
script_fails "unknown bank" 1 \
"hpmstat emu: -:1: unknown bank 'fronted' (banks: frontend, backend, memblock, cache)" <<'S'
feed 1 fronted:2=1
S
script_fails "a repeated name is several events" 1 \
"hpmstat emu: -:1: 'load_s0_in_fire' names 3 events of the memblock bank (load_s0_in_fire.0 .. load_s0_in_fire.2); give one of them" <<'S'
feed 1 load_s0_in_fire=1
S
script_fails "instret over 63" 1 "hpmstat emu: -:1: instret 64 is out of range (0..63 per cycle)" <<'S'
feed 1 instret=64
S
script_fails "not an assignment" 1 "hpmstat emu: -:1: bad assignment 'frontend:2': expected EVENT=VALUE" <<'S'
feed 1 frontend:2
S
script_fails "bad cycle count" 1 \
"hpmstat emu: -:1: bad cycle count 'ten' (decimal, 0x hex or 0b binary, up to 2^64-1)" <<'S'
feed ten
S
script_fails "unknown mode" 1 "hpmstat emu: -:1: unknown mode 'HV' (M, HS, HU, VS, VU, S, U)" <<'S'
mode HV
S
script_fails "no such hart" 1 "hpmstat emu: -:2: no hart 1: there are 1 (0..0; see --harts)" <<'S'
hart 0
hart 1
S
printf 'hart 2\n' | "$HPMSTAT" emu --harts 3 - >/dev/null 2>"$tap_err"; ok $? "--harts 3 has hart 2"

script_fails "expect: a different line" 1 \
"hpmstat emu: -:2: expected '0x0000000000000001', got '0x0000000000000000'" \
"0x0000000000000000" <<'S'
csrr mcycle
expect 0x0000000000000001
csrr mcycle
S
script_fails "expect: nothing printed yet" 1 "hpmstat emu: -:1: expected 'ok', got no output yet" <<'S'
expect ok
S
script_fails "expect compares the whole line" 1 \
"hpmstat emu: -:2: expected 'mip=0x0000000000000000 LCOFIP', got 'mip=0x0000000000000000'" \
"mip=0x0000000000000000" <<'S'
pending
expect mip=0x0000000000000000 LCOFIP
S

printf 'csrr mcycle\nrun 100 no-such-profile\n' | "$HPMSTAT" emu - 2>"$tap_err" >/dev/null; rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <"$tap_err")" -eq 1 ] &&
	grep -q "^hpmstat emu: -:2: unknown profile 'no-such-profile'" "$tap_err" &&
	grep -q "balanced" "$tap_err" && grep -q "dram-bound" "$tap_err" && grep -q "phased" "$tap_err"
ok $? "an unknown profile is a script error that lists the known ones: $(cat "$tap_err")"
script_fails "run: bad seed" 1 \
"hpmstat emu: -:1: bad seed 'x' (decimal, 0x hex or 0b binary, up to 2^64-1)" <<'S'
run 100 balanced seed=x
S
script_fails "run: not seed=" 1 "hpmstat emu: -:1: expected seed=N, got 'speed=1'" <<'S'
run 100 balanced speed=1
S
script_fails "replay: missing file" 1 \
"hpmstat emu: -:1: cannot open trace '/nonexistent/t': No such file or directory" <<'S'
replay /nonexistent/t
S
script_fails "trace: cannot create" 1 \
"hpmstat emu: -:1: cannot write '/nonexistent/t': No such file or directory" <<'S'
trace /nonexistent/t
S

# usage errors: exit 129
for args in "--harts 0" "--harts 1025" "--harts x" "--frob" "a b" "--harts"; do
	"$HPMSTAT" emu $args </dev/null >/dev/null 2>"$tap_err"; rc=$?
	[ $rc -eq 129 ] && [ "$(wc -l <"$tap_err")" -eq 1 ] && grep -q "^hpmstat emu: .*hpmstat emu --help" "$tap_err"
	ok $? "usage error (exit 129): emu $args"
done
"$HPMSTAT" emu /nonexistent/script >/dev/null 2>"$tap_err"; rc=$?
[ $rc -eq 1 ] && [ "$(cat "$tap_err")" = "hpmstat emu: cannot open script '/nonexistent/script': No such file or directory" ]
ok $? "a missing script file: exit 1"
printf 'csrr cycle\nfoo\n' >"$EMU_TMP/bad.emu"
"$HPMSTAT" emu "$EMU_TMP/bad.emu" >/dev/null 2>"$tap_err"
[ "$(cat "$tap_err")" = "hpmstat emu: $EMU_TMP/bad.emu:2: unknown command 'foo' (hart, mode, csrr, csrw, csrs, csrc, feed, run, replay, time, pending, expect, trace, reset)" ]
ok $? "a script file's errors name the file"

done_testing

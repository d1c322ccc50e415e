#!/bin/sh
# hpmstat emu traces: the written format, replay reproducing the counts of
# the original runs, and malformed traces refused whole.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/emu/emu-test.sh"
T=$EMU_TMP

# the text the writer produces, for stimulus runs (hpmstat-emu(1) TRACE FORMAT)
script_ok "trace FILE records feeds" <<S
trace $T/feed.trace
mode VS
feed 10 frontend:ifu_req=5 backend:53=3 cache:68=63 instret=3
mode M
feed 4
trace off
feed 1 frontend:2=1
S
printf '%s\n' "hpmstat-emu-trace 1" "# CYCLES MODE INSTRET [BANK:INDEX=VALUE ...]" \
	"10 VS 3 frontend:2=5 backend:53=3 cache:68=63" "4 M 0" >"$T/feed.want"
cmp -s "$T/feed.want" "$T/feed.trace"; ok $? "the trace text is the documented format"
[ $? -eq 0 ] || diag "$(cat "$T/feed.trace")"

# a hand-written trace, replayed: counts computed by hand
cat >"$T/hand.trace" <<'X'
# written by hand
hpmstat-emu-trace 1
100 HU 2 frontend:2=3 frontend:3=5
50 HS 0 frontend:2=1
7 VU 6 backend:53=6
X
script_ok "replay of a hand-written trace" <<S
csrw mhpmevent3 0x0000000000000c02       # frontend 2 | 3
csrw mhpmevent4 0x1000000000000002       # frontend 2, UINH
csrw mhpmevent11 53
replay $T/hand.trace
csrr mhpmcounter3                        # 100 x (3|5 = 7) + 50 x 1 = 750
expect 0x00000000000002ee
csrr mhpmcounter4                        # HU inhibited: 50 x 1
expect 0x0000000000000032
csrr mhpmcounter11                       # 7 x 6
expect 0x000000000000002a
csrr minstret                            # 100 x 2 + 7 x 6
expect 0x00000000000000f2
csrr mcycle
expect 0x000000000000009d
S

# round trip: a profile run recorded with --trace-out, then replayed with the
# same program, prints the same counters
cat >"$T/prog.emu" <<'X'
csrw mhpmevent3 0x0000000000000c02
csrw mhpmevent4 0x0004210100100c02
csrw mhpmevent11 0x4000000000000035
csrw mhpmevent12 0x0000080000000c07
csrw mhpmevent19 0x000004000000280a
csrw mhpmevent27 0x0000020000000c02
csrw mhpmcounter5 0xffffffffffffff00
csrw mhpmevent5 0x0000040000000c02
X
{ cat "$T/prog.emu"; echo "run 200000 balanced seed=3"; echo "feed 7 frontend:2=9"; echo "run 100000 phased seed=4"; } >"$T/orig.emu"
{ cat "$T/prog.emu"; echo "replay $T/rt.trace"; } >"$T/replay.emu"
dump='csrr mcycle
csrr minstret
csrr scountovf
pending'
for n in 3 4 5 11 12 19 27; do dump="$dump
csrr mhpmcounter$n"; done
echo "$dump" >>"$T/orig.emu"
echo "$dump" >>"$T/replay.emu"
"$HPMSTAT" emu --trace-out "$T/rt.trace" "$T/orig.emu" >"$T/orig.out" 2>"$T/orig.err"
ok $? "a recorded run exits 0"
"$HPMSTAT" emu "$T/replay.emu" >"$T/replay.out" 2>"$T/replay.err"
ok $? "its replay exits 0"
cmp -s "$T/orig.out" "$T/replay.out"; ok $? "replay reproduces every count (counters, OF, LCOFIP, mcycle, minstret)"
grep -q "^0x00000000000493e7$" "$T/orig.out"; ok $? "the recording covered 300007 cycles"
grep -q "LCOFIP" "$T/orig.out"; ok $? "the round trip includes an overflow"

# replaying the recording of a replay gives the same file
{ cat "$T/prog.emu"; echo "trace $T/rt2.trace"; echo "replay $T/rt.trace"; } >"$T/re.emu"
"$HPMSTAT" emu "$T/re.emu" >/dev/null 2>&1
cmp -s "$T/rt.trace" "$T/rt2.trace"; ok $? "a replay records the same trace again"

# malformed traces: error with the trace's line number, nothing counted
printf '%s\n' "hpmstat-emu-trace 1" "10 HU 0 frontend:2=1" "10 HU 0 frontend:2=1" "10 XU 0" "10 HU 0" >"$T/bad.trace"
script_fails "a malformed trace line names the trace's line" 1 \
"hpmstat emu: -:2: $T/bad.trace:4: bad mode 'XU' (M, HS, HU, VS or VU)" "ok" <<S
csrw mhpmevent3 2
replay $T/bad.trace
S
printf 'csrw mhpmevent3 2\nreplay %s\n' "$T/bad.trace" >"$T/bad.emu"
"$HPMSTAT" emu --trace-out "$T/after-bad.trace" "$T/bad.emu" >/dev/null 2>&1
printf '%s\n' "hpmstat-emu-trace 1" "# CYCLES MODE INSTRET [BANK:INDEX=VALUE ...]" >"$T/empty.want"
cmp -s "$T/empty.want" "$T/after-bad.trace"; ok $? "nothing of a malformed trace was counted (the recording is empty)"
for bad in "10 HU 0 frontend:2=64" "10 HU 0 frontend:0=1" "10 HU 0 frontend:58=1" "0 HU 0" "10 HU 64" \
	"10 HU 0 frontend:2=1 frontend:2=1" "10 HU" "ten HU 0" "10 HU 0 bank:2=1"; do
	printf '%s\n' "hpmstat-emu-trace 1" "1 M 0" "$bad" >"$T/b.trace"
	printf 'replay %s\n' "$T/b.trace" | "$HPMSTAT" emu - >/dev/null 2>"$tap_err"; rc=$?
	[ $rc -eq 1 ] && grep -q "^hpmstat emu: -:1: $T/b.trace:3: " "$tap_err"
	ok $? "malformed trace line '$bad': $(sed "s|.*b.trace:3: ||" "$tap_err")"
done
printf '10 HU 0\n' >"$T/nohdr.trace"
script_fails "a trace without its header" 1 \
"hpmstat emu: -:1: $T/nohdr.trace:1: not a trace: expected 'hpmstat-emu-trace 1' as the first line" <<S
replay $T/nohdr.trace
S

done_testing

#!/bin/sh
# hpmstat emu bench: all 29 counters programmed, fast path and reference on
# the same stream agree (a small stream: this is a correctness test, the
# speed figures come from `make bench`).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/emu/emu-test.sh"

for p in balanced phased dram-bound; do
	run_ok "emu bench --profile $p exits 0" "$HPMSTAT" emu bench --cycles 300000 --profile $p
	grep -q "^check: *equal" "$tap_out"; ok $? "$p: every counter equal in both paths"
	grep -q "^fast path: .* cycles/s" "$tap_out" && grep -q "^reference: .* cycles/s" "$tap_out" &&
		grep -q "^ratio: .*x$" "$tap_out"
	ok $? "$p: prints cycles/s of both and the ratio"
done
grep -q "^stream: *300000 cycles" "$tap_out"; ok $? "the stream has the cycles asked for"
"$HPMSTAT" emu bench --cycles 0 >/dev/null 2>&1; [ $? -eq 129 ]; ok $? "--cycles 0: usage error"
"$HPMSTAT" emu bench --cycles >/dev/null 2>&1; [ $? -eq 129 ]; ok $? "--cycles without value: usage error"
"$HPMSTAT" emu bench --profile nope --cycles 10 >/dev/null 2>"$tap_err"; rc=$?
[ $rc -eq 1 ] && grep -q "unknown profile 'nope'" "$tap_err"; ok $? "an unknown profile: exit 1"

done_testing

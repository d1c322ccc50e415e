#!/bin/sh
# RECOVERY_BUBBLE as XiangShan's RTL produces it (../shared/xiangshan:
# backend 8 is a 1-bit flag a cycle, set on a redirect and cleared at the
# first decode fire): on every built-in profile, through both Kunminghu
# tables' machines (kunminghu, kunminghu-v3), the emulator's
# RECOVERY_BUBBLE never exceeds the cycles counted beside it, and no
# Topdown node of levels 1-2 (no multiplexing: every node from exact
# counts) is flagged out of range, neither under the document's formulas
# nor under --topdown-variant=slots (which weighs each recovery cycle as
# its 6 slots).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/stat/profiles-lib.sh"
CYCLES=2000000
profiles_start
profiles=$(awk '/^    "name":/ { gsub(/[",]/, "", $2); print $2 }' "$dir/profiles.json")
[ -n "$profiles" ]
ok $? "the built-in profiles: $(echo $profiles)"

for pmu in kunminghu kunminghu-v3; do
	for p in $profiles; do
		"$H" stat --pmu $pmu -x, -e mcycle,RECOVERY_BUBBLE --emu-profile "$p" \
			--emu-cycles $CYCLES -o "$dir/raw.csv" 2>"$tap_err"
		rc=$?
		got=$(awk -F, '$3 == "mcycle" { c = $1 } $3 == "RECOVERY_BUBBLE" { r = $1 }
			END { print r + 0, c + 0 }' "$dir/raw.csv")
		[ $rc -eq 0 ] && awk -v r="${got% *}" -v c="${got#* }" \
			'BEGIN { exit !(c > 0 && r <= c) }'
		ok $? "$pmu $p: RECOVERY_BUBBLE <= cycles (RECOVERY_BUBBLE, cycles: $got)"
		for v in document slots; do
			"$H" stat --pmu $pmu --topdown=2 --topdown-variant=$v --emu-profile "$p" \
				--emu-cycles $CYCLES -o "$dir/td" 2>"$tap_err"
			rc=$?
			flagged=$(grep "out of range" "$dir/td" | awk '{ print $1 }' | tr '\n' ' ')
			[ $rc -eq 0 ] && grep -q Bad_Speculation "$dir/td" && [ -z "$flagged" ]
			ok $? "$pmu $p --topdown-variant=$v: no node out of range ${flagged:+(flagged: $flagged)}"
		done
	done
done
done_testing

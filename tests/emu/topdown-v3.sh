#!/bin/sh
# Topdown on kunminghu-v3 through its emulated machine: v3's renumbered
# events (Front_Bubble frontend 21, rob_commitInstr backend 51, BR_MIS_PRED
# 63, MEMSTALL_* 65-69, MEMSTALL_ANY_LOAD memblock 41 ...) are fed by the
# workload model's signals of the same names. The truth is each profile's
# declared Topdown (`hpmstat emu profiles --json`, computed by the profile
# library from its declarations): stat --pmu kunminghu-v3 --topdown=2 must
# give levels 1 and 2 back within 0.5 points. And the identity: the same
# profile and seed counted through kunminghu (v2's indices) and through
# kunminghu-v3 (v3's) are the same stream, so the figures are equal.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/stat/profiles-lib.sh"
CYCLES=30000000
profiles_start

# declared_pct PROFILE KEY: the declared fraction, in percent (by name, where
# profiles-lib.sh's declared takes an index)
declared_pct() {
	awk -v p="$1" -v n="$2" '
		/^  {/ { name = "" }
		/^    "name":/ { gsub(/[",]/, "", $2); name = $2 }
		name == p && $1 == "\"" n "\":" { gsub(/,/, "", $2); printf "%.4f\n", 100 * $2 }
	' "$dir/profiles.json"
}
# counted FILE NODE: the node's figure in stat's output
counted() {
	awk -v n="$2" '$1 == n { print $2 }' "$1"
}
# close A B: |A - B| <= 0.5
close() {
	awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && b != "" && d <= 0.5) }'
}

for p in balanced branch-mispredict core-bound dram-bound fetch-bandwidth fetch-latency \
	machine-clears retiring store-bound; do
	"$H" stat --pmu kunminghu-v3 --topdown=2 --emu-profile "$p" --emu-cycles $CYCLES \
		>"$dir/v3" 2>&1
	rc=$?
	st=$rc
	msg=
	for pair in tma_frontend_bound:Frontend_Bound tma_backend_bound:Backend_Bound \
		tma_retiring:Retiring tma_bad_speculation:Bad_Speculation \
		tma_fetch_latency:Fetch_Latency tma_fetch_bandwidth:Fetch_Bandwidth \
		tma_branch_mispredicts:Branch_Mispredicts tma_machine_clears:Machine_Clears \
		tma_core_bound:Core_Bound tma_memory_bound:Memory_Bound; do
		key=${pair%%:*}; node=${pair#*:}
		d=$(declared_pct "$p" "$key"); c=$(counted "$dir/v3" "$node")
		close "$d" "$c" || st=1
		msg="$msg $node $c/$d"
	done
	ok $st "kunminghu-v3 --emu-profile $p: levels 1-2 (counted/declared %)$msg"
	[ $st -eq 0 ] || diag "exit $rc" "$(cat "$dir/v3")"
	"$H" stat --pmu kunminghu --topdown=2 --emu-profile "$p" --emu-cycles $CYCLES \
		>"$dir/v2" 2>&1
	fig() { awk '/ % (slots|cycles) / { print $1, $2 }' "$1"; }
	out_is "kunminghu-v3 and kunminghu count the same figures on $p" "$(fig "$dir/v2")" \
		fig "$dir/v3"
done
# the header names the table
"$H" stat --pmu kunminghu-v3 -e rob_commitInstr --emu-cycles 100000 >"$dir/out" 2>&1
grep -q "emulated Kunminghu (kunminghu-v3)" "$dir/out"
ok $? "stat's header names kunminghu-v3"
# a v3 event no profile produces (v2 has no signal of its name) is reported,
# never counted as 0
"$H" stat --pmu kunminghu-v3 -e dispatch_stall_cycle_iq,rob_commitInstr --emu-cycles 100000 \
	>"$dir/out" 2>&1
grep -q "<not modelled> *dispatch_stall_cycle_iq" "$dir/out"
ok $? "dispatch_stall_cycle_iq (v3 only) is <not modelled>"
done_testing

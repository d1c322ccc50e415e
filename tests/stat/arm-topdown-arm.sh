#!/bin/sh
# Arm's own Topdown (issue 29): on the same emulated counts, every level-1
# value stat prints equals Arm's formula for that core, computed here from
# the raw counts printed in the same run (to 0.01 points); --topdown=2
# descends from each level-1 node into the stage-2 groups Arm hangs under
# it, with the bottleneck path on level 1 only; fake sysfs hosts with
# MIDR 0x410fd490 (N2 r0p0) and 0x410fd493 (N2 r0p3) pick the two N2
# formulas; the old tma_* names stay aliases.
#
# Arm's formulas (Arm's telemetry specifications for each core, as Linux
# 6.12's tools/perf/pmu-events/arch/arm64/arm/neoverse-*/metrics.json
# carry them; events/arm64/README.md), with C = CPU_CYCLES, BM =
# BR_MIS_PRED, S the core's slots:
#   V1 (S 8): FE = SSF/(S C) - 4 BM/C, BE = SSB/(S C),
#             BS = (1 - OR/OS)(1 - SS/(S C)) + 4 BM/C, RET = OR/OS (1 - SS/(S C))
#   N2 (S 5), V2 (S 8): FE = SSF/(S C) - BM/C, BE = SSB/(S C) - 3 BM/C,
#             BS and RET as V1's
#   N2 r0p0-r0p2: the same with SSF - C and SS - C (the erratum workaround)
#   N1: its cycle accounting, STALL_FRONTEND/C and STALL_BACKEND/C
# (SSF STALL_SLOT_FRONTEND, SSB STALL_SLOT_BACKEND, SS STALL_SLOT, OR
# OP_RETIRED, OS OP_SPEC.) The emulator's profiles do not produce
# BR_MIS_PRED yet, so a trace drives the counts (a trace produces what it
# lists, per cycle).
. "$top_srcdir/tests/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$tap_out" "$tap_err"' EXIT
H=$HPMSTAT

# 6000 cycles at EL0 in three phases, one with a mispredicted branch every
# cycle (BM / C = 2 %) (events by number, Arm ARM):
# BR_MIS_PRED 0x10, STALL_FRONTEND 0x23, STALL_BACKEND 0x24, OP_RETIRED
# 0x3A, OP_SPEC 0x3B, STALL_SLOT_BACKEND 0x3D, STALL_SLOT_FRONTEND 0x3E,
# STALL_SLOT 0x3F; and for stage 2 INST_RETIRED 0x08, BR_RETIRED 0x21,
# BR_MIS_PRED_RETIRED 0x22, L1D_CACHE 0x04, L1D_CACHE_REFILL 0x03.
trace="$tmp/arm.trace"
printf '%s\n' 'hpmstat-arm-emu-trace 1' \
	'3000 0 ns 0 0x0 0x0 0 0x0008=3 0x0021=1 0x0004=2 0x0003=1 0x0023=1 0x003a=3 0x003b=4 0x003d=1 0x003e=2 0x003f=3' \
	'120 0 ns 0 0x0 0x0 0 0x0008=1 0x0021=1 0x0022=1 0x0010=1 0x0023=1 0x003a=1 0x003b=2 0x003e=5 0x003f=5' \
	'2880 0 ns 0 0x0 0x0 0 0x0008=2 0x0004=3 0x0003=2 0x0024=1 0x003a=3 0x003b=3 0x003d=4 0x003f=4' >"$trace"
SLOT_RAW=CPU_CYCLES,BR_MIS_PRED,STALL_SLOT,STALL_SLOT_FRONTEND,STALL_SLOT_BACKEND,OP_RETIRED,OP_SPEC
CYCLE_RAW=CPU_CYCLES,STALL_FRONTEND,STALL_BACKEND

# arm_level1 FILE FORM: from stat -x, output, "NAME WANT GOT" for every
# level-1 metric, WANT Arm's formula of FORM on the printed counts (in
# percent), GOT the printed figure; then "bottleneck NAME" as the
# thresholds pick it (frontend > 15 %, bad speculation > 15 %, backend >
# 20 %, retiring > 70 %; N1's two stall shares 15 % and 20 %; the largest
# over its threshold).
arm_level1() {
	awk -F, -v form="$2" '
		/^#/ { next }
		$1 ~ /^[0-9]+$/ { c[toupper($3)] = $1; next }
		$6 != "" { n = split($7, w, " "); got[w[n]] = $6 }
		END {
			C = c["CPU_CYCLES"]; BM = c["BR_MIS_PRED"]
			if (form == "n1") {
				v["frontend_stalled_cycles"] = c["STALL_FRONTEND"] / C
				v["backend_stalled_cycles"] = c["STALL_BACKEND"] / C
				t["frontend_stalled_cycles"] = 0.15; t["backend_stalled_cycles"] = 0.2
			} else {
				S = form == "v1" || form == "v2" ? 8 : 5
				fix = form == "n2r0" ? C : 0
				ssf = c["STALL_SLOT_FRONTEND"] - fix; ss = c["STALL_SLOT"] - fix
				used = 1 - ss / (S * C); r = c["OP_RETIRED"] / c["OP_SPEC"]
				if (form == "v1") {
					v["frontend_bound"] = ssf / (S * C) - 4 * BM / C
					v["backend_bound"] = c["STALL_SLOT_BACKEND"] / (S * C)
				} else {
					v["frontend_bound"] = ssf / (S * C) - BM / C
					v["backend_bound"] = c["STALL_SLOT_BACKEND"] / (S * C) - 3 * BM / C
				}
				v["bad_speculation"] = (1 - r) * used + 4 * BM / C
				v["retiring"] = r * used
				t["frontend_bound"] = 0.15; t["bad_speculation"] = 0.15
				t["backend_bound"] = 0.2; t["retiring"] = 0.7
			}
			best = ""
			for (k in v) {
				printf "%s %.4f %s\n", k, 100 * v[k], (k in got) ? got[k] : "missing"
				if (v[k] > t[k] && (best == "" || v[k] > v[best]))
					best = k
			}
			print "bottleneck", best
		}' "$1"
}

for pair in neoverse-n1:n1 neoverse-n2:n2 neoverse-n2-r0p0:n2r0 neoverse-v1:v1 neoverse-v2:v2; do
	m=${pair%%:*} form=${pair#*:}
	raw=$SLOT_RAW
	[ $form = n1 ] && raw=$CYCLE_RAW
	"$H" stat -x, --pmu $m --emu-trace "$trace" --emu-cycles 6000 --topdown -e $raw true \
		>"$tmp/$form.csv" 2>&1
	rc=$?
	arm_level1 "$tmp/$form.csv" $form >"$tmp/$form.want"
	# every level-1 figure within 0.01 points of Arm's formula
	awk -v rc=$rc '$1 != "bottleneck" {
			n++; d = $2 - $3; if (d < 0) d = -d
			if ($3 == "missing" || d > 0.01) bad++
		} END { exit !(rc == 0 && n >= 2 && !bad) }' "$tmp/$form.want"
	st=$?
	ok $st "$m: every level-1 value is Arm's formula on the printed counts ($(grep -v bottleneck "$tmp/$form.want" | sort | tr '\n' ' '))"
	[ $st -eq 0 ] || diag "exit $rc" "$(cat "$tmp/$form.csv")"

	# --topdown=2: Arm's tree, the bottleneck on level 1
	"$H" stat --pmu $m --emu-trace "$trace" --emu-cycles 6000 --topdown=2 --no-multiplex true >"$tmp/$form.tree" 2>&1
	rc=$?
	best=$(sed -n 's/^bottleneck //p' "$tmp/$form.want")
	bestd=$(echo "$best" | awk -F_ '{ for (i = 1; i <= NF; i++) $i = toupper(substr($i, 1, 1)) substr($i, 2); print }' OFS=_)
	[ $rc -eq 0 ] && [ -n "$best" ] && grep -Eq "^   $bestd .*<==\$" "$tmp/$form.tree" &&
		[ "$(grep -c '<==$' "$tmp/$form.tree")" -eq 1 ] && ! grep -q '^     .*<==$' "$tmp/$form.tree"
	st=$?
	ok $st "$m --topdown=2: the bottleneck path is $bestd, on level 1 only"
	[ $st -eq 0 ] || diag "exit $rc" "$(cat "$tmp/$form.tree")"
	# each level-1 node followed by the metrics of its stage-2 groups,
	# one step in: the frontend node by Branch_Effectiveness's
	# branch_mpki, the backend node by L1D_Cache_Effectiveness's
	# l1d_cache_miss_ratio and Operation_Mix's load_percentage
	fe=Frontend_Bound be=Backend_Bound
	[ $form = n1 ] && fe=Frontend_Stalled_Cycles be=Backend_Stalled_Cycles
	awk -v fe=$fe -v be=$be '
		/^   [A-Z]/ { node = $1; next }
		/^     [a-z]/ { under[$1] = node }
		END { exit !(under["branch_mpki"] == fe && under["l1d_cache_miss_ratio"] == be &&
		             under["load_percentage"] == be) }' "$tmp/$form.tree"
	ok $? "$m --topdown=2: branch_mpki under $fe, l1d_cache_miss_ratio and load_percentage under $be"
done

# the stage-2 figures are Arm's ratios, not shares of the node: from the
# trace, l1d_cache_miss_ratio = L1D_CACHE_REFILL / L1D_CACHE =
# (3000 + 5760) / (6000 + 8640) = 8760 / 14640 = 59.84 %; -M alone prints
# it as perf does, in the '#' column of its first event with perf's "%8.1f"
# of a metric with a ScaleUnit: 59.8
"$H" stat --pmu neoverse-v2 --emu-trace "$trace" --emu-cycles 6000 -M l1d_cache_miss_ratio true \
	>"$tmp/l1d" 2>&1
grep -Eq '^ +8760 +L1D_CACHE_REFILL +# +59\.8 %  l1d_cache_miss_ratio ' "$tmp/l1d"
ok $? "l1d_cache_miss_ratio 59.8 % (8760 / 14640) beside L1D_CACHE_REFILL"
grep -Eq '^ +l1d_cache_miss_ratio +59\.84 +% ' "$tmp/v2.tree"
ok $? "... and the same figure under Backend_Bound in --topdown=2"

# the old names are aliases wherever a metric name is typed
"$H" stat --pmu neoverse-v2 --emu-trace "$trace" --emu-cycles 6000 -M tma_backend_bound,tma_retiring true \
	>"$tmp/alias" 2>&1
grep -q ' # .* backend_bound ' "$tmp/alias" && grep -q ' # .* retiring ' "$tmp/alias" &&
	! grep -qi 'frontend_bound' "$tmp/alias"
ok $? "-M tma_backend_bound,tma_retiring: Arm's backend_bound and retiring"
"$H" stat --pmu neoverse-v2 --emu-trace "$trace" --emu-cycles 6000 --nodes '!tma_frontend_bound' true \
	>"$tmp/nodes" 2>&1
grep -q '^ *Frontend_Bound ' "$tmp/nodes" && ! grep -q 'Backend_Bound' "$tmp/nodes"
ok $? "--nodes '!tma_frontend_bound': Arm's frontend_bound alone"
run_fails_with "a name that is no metric and no alias" "unknown metric or metric group 'tma_nosuch'" \
	"$H" stat --pmu neoverse-v2 -M tma_nosuch --dry-run true

# fake sysfs hosts (as tests/stat/arm-perf.sh builds them): the MIDR's
# revision picks the model and so the formula list --details shows and
# stat uses
host() { # ROOT MIDR
	d="$1/sys/bus/event_source/devices/armv8_pmuv3_0"
	mkdir -p "$d/format" "$d/caps" "$1/proc/sys/kernel"
	echo 8 >"$d/type"
	echo 0-1 >"$d/cpus"
	echo config:0-15 >"$d/format/event"
	echo config1:0 >"$d/format/long"
	echo 0x00000005 >"$d/caps/slots"
	for c in 0 1; do
		mkdir -p "$1/sys/devices/system/cpu/cpu$c/regs/identification"
		echo "$2" >"$1/sys/devices/system/cpu/cpu$c/regs/identification/midr_el1"
	done
	echo 6.1.0-27-arm64 >"$1/proc/sys/kernel/osrelease"
	printf 'processor\t: 0\nCPU implementer\t: 0x41\n' >"$1/proc/cpuinfo"
}
on() { r=$1; shift; HPMSTAT_SYSFS="$r/sys" HPMSTAT_PROCFS="$r/proc" "$H" "$@"; }
formula() { # ROOT: the MetricExpr list --details gives frontend_bound
	on "$1" list --no-pager --details frontend_bound 2>&1 |
		awk '/^  frontend_bound$/ { f = 1; next } f && /^ +\[/ { n++; if (n == 2) { print; exit } }'
}
host "$tmp/r0p0" 0x00000000410fd490
host "$tmp/r0p3" 0x00000000410fd493
out_is "MIDR 0x410fd490 (N2 r0p0): the erratum's formula" \
	"       [(STALL_SLOT_FRONTEND - CPU_CYCLES) / (5 * CPU_CYCLES) - BR_MIS_PRED / CPU_CYCLES]" \
	formula "$tmp/r0p0"
out_is "MIDR 0x410fd493 (N2 r0p3): Arm's plain formula" \
	"       [STALL_SLOT_FRONTEND / (5 * CPU_CYCLES) - BR_MIS_PRED / CPU_CYCLES]" \
	formula "$tmp/r0p3"
# and the model stat counts with on each host: the one it names when an
# event is another model's
on "$tmp/r0p0" stat -e op_spec,rob_commitInstr --dry-run true >"$tmp/d0" 2>&1
on "$tmp/r0p3" stat -e op_spec,rob_commitInstr --dry-run true >"$tmp/d3" 2>&1
grep -q 'not of Neoverse N2 r0p0-r0p2, whose events this run counts' "$tmp/d0" &&
	grep -q 'not of Neoverse N2, whose events this run counts' "$tmp/d3"
ok $? "stat on the two hosts counts Neoverse N2 r0p0-r0p2 and Neoverse N2 (r0p3)"
[ $? -eq 0 ] || diag "$(cat "$tmp/d0" "$tmp/d3")"

done_testing

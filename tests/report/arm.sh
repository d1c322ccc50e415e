#!/bin/sh
# hpmstat report on Arm runs: run files of the four Neoverse cores written
# here (no back end on the build host counts an Arm core yet), each with
# two CPUs, so that report computes every CPU's Topdown level 1 from its
# counts through the core's metric table; every value is compared with the
# one worked out by hand below (Arm's formulas, events/arm64/README.md:
# N1's first stage is its cycle accounting; on the others no branch is
# mispredicted here, BR_MIS_PRED 0, so Arm's per-misprediction terms are 0;
# N2 is an r0p0-r0p2 core, whose formulas take CPU_CYCLES off
# STALL_SLOT_FRONTEND and STALL_SLOT).
# Then every format, a diff of two Arm runs (differences by hand), and the
# refusals: a diff of Kunminghu against Arm, a run that mixes both.
. "$top_srcdir/tests/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$tap_out" "$tap_err"' EXIT

# runfile MODEL "EVENT:CPU0:CPU1 ..." "METRIC:DISPLAY:UNIT:RAW:BOTTLENECK:OVER ...":
# a run file of hpmstat-run(5) as `stat --record --pmu MODEL --topdown -a`
# writes it on a host with that core (UNIT with _ for blanks; RAW the
# whole run's value, a fraction).
runfile() {
	model=$1 evs=$2 mets=$3
	printf '{"schema":"hpmstat-run","schema_version":1,"tool":{"name":"hpmstat","version":"0.1.0"},'
	printf '"created":"2026-12-03T12:00:00Z","argv":["stat","--record","r.json","--pmu","%s","--topdown","-a"],' "$model"
	printf '"command":null,"backend":{"%s":"perf","emulator":false,"perf":true},"emulated":null,' "$model"
	printf '"elapsed_ns":1000000.0,"user_s":0.0,"sys_s":0.0,"repeat":1,"interval_ms":0,"topdown_level":1,"events":['
	sep= vals=
	for ev in $evs; do
		name=${ev%%:*} rest=${ev#*:}
		c0=${rest%%:*} c1=${rest#*:}
		# CPU_CYCLES is counted by the cycle counter: a fixed-counter row
		kind=$model
		[ "$name" = CPU_CYCLES ] && kind=$model-fixed
		printf '%s{"name":"%s","spec":"%s","kind":"%s","backend":"perf","emulated":false,"metric_only":true,"group":null,"state":"ok","unit":"","scale":1.0,' \
			"$sep" "$name" "$name" "$kind"
		printf '"counts":[{"unit":"CPU0","value":%s,"enabled":1000,"running":1000},{"unit":"CPU1","value":%s,"enabled":1000,"running":1000}],' "$c0" "$c1"
		printf '"value":%s.0,"running_share":1.0}' $((c0 + c1))
		vals="$vals${vals:+,}$((c0 + c1)).0"
		sep=,
	done
	printf '],"metrics":['
	sep=
	for m in $mets; do
		IFS=: read -r name disp unit raw bn over <<EOT
$m
EOT
		printf '%s{"name":"%s","display":"%s","unit":"%s","level":1,"parent":null,"value":%s,"raw":%s,"bottleneck":%s,"out_of_range":false,"over_threshold":%s,"multiplexed":false}' \
			"$sep" "$name" "$disp" "$(echo "$unit" | tr _ ' ')" \
			"$(awk "BEGIN{printf \"%.6f\", $raw * 100}")" "$raw" "$bn" "$over"
		sep=,
	done
	printf '],"runs":[{"elapsed_ns":1000000.0,"values":[%s]}],"intervals":[]}\n' "$vals"
}

# level1 FE BS BE RET UNIT: the whole run's four level-1 metrics (no
# bottleneck claimed: the per-CPU values are what is checked)
level1() {
	echo "tma_frontend_bound:Frontend_Bound:$5:$1:false:false" \
		"tma_bad_speculation:Bad_Speculation:$5:$2:false:false" \
		"tma_backend_bound:Backend_Bound:$5:$3:false:false" \
		"tma_retiring:Retiring:$5:$4:false:false"
}

# cpu_is FILE CPU NODE VALUE [<==]: the text report's line of NODE in CPU's
# tree shows VALUE (and the marker)
cpu_is() {
	f=$1 cpu=$2 node=$3 want=$4 mark=${5:-}
	got=$(awk -v cpu="$cpu" -v node="$node" '
		/^ Topdown, / { in_cpu = ($2 == cpu ",") || ($2 == cpu) }
		in_cpu && $1 == node { print $2 ($5 == "<==" ? " <==" : ""); exit }' "$f")
	exp="$want${mark:+ $mark}"
	[ "$got" = "$exp" ]; ok $? "$(basename "$f" .text) $cpu: $node $exp"
	[ "$got" = "$exp" ] || diag "got '$got'"
}

# ---------------------------------------------------------------- N1
# Arm's first stage, cycle accounting: shares of cycles. CPU0: C 1024,
# STALL_FRONTEND 512, STALL_BACKEND 256:
#   Frontend_Stalled_Cycles 512 / 1024 = 50.00 % (over 15 %: the bottleneck)
#   Backend_Stalled_Cycles  256 / 1024 = 25.00 %
# CPU1: C 1000, STALL_FRONTEND 100, STALL_BACKEND 600:
#   Frontend_Stalled_Cycles 100 / 1000 = 10.00 %
#   Backend_Stalled_Cycles  600 / 1000 = 60.00 % (over 20 %: the bottleneck)
runfile neoverse-n1 "CPU_CYCLES:1024:1000 STALL_FRONTEND:512:100 STALL_BACKEND:256:600" \
	"frontend_stalled_cycles:Frontend_Stalled_Cycles:%_cycles:0.3:false:false backend_stalled_cycles:Backend_Stalled_Cycles:%_cycles:0.4:false:false" >"$tmp/n1.json"
"$HPMSTAT" report "$tmp/n1.json" >"$tmp/n1.text" 2>"$tap_err"; ok $? "report of a Neoverse N1 run"
cpu_is "$tmp/n1.text" CPU0 Frontend_Stalled_Cycles 50.00 "<=="
cpu_is "$tmp/n1.text" CPU0 Backend_Stalled_Cycles 25.00
cpu_is "$tmp/n1.text" CPU1 Frontend_Stalled_Cycles 10.00
cpu_is "$tmp/n1.text" CPU1 Backend_Stalled_Cycles 60.00 "<=="
grep -q 'Frontend_Stalled_Cycles .* % cycles' "$tmp/n1.text"; ok $? "n1: level 1 is a share of cycles"

# ---------------------------------------------------------------- N2
# r0p0-r0p2 (model neoverse-n2-r0p0). Slots = 5, the erratum's correction
# (CPU_CYCLES off STALL_SLOT_FRONTEND and STALL_SLOT), BR_MIS_PRED 0. CPU0: C 1024, STALL_SLOT_FRONTEND 2304, STALL_SLOT_BACKEND
# 2560, STALL_SLOT 4864, OP_SPEC 4096, OP_RETIRED 3072:
#   Frontend_Bound  (2304 - 1024) / 5120 = 25.00 %
#   Backend_Bound   2560 / 5120 = 50.00 %      (the bottleneck)
#   not stalled     1 - (4864 - 1024) / 5120 = 0.25
#   Retiring        0.75 * 0.25 = 18.75 %
#   Bad_Speculation 0.25 * 0.25 = 6.25 %
# CPU1: C 1000, STALL_SLOT_FRONTEND 3000, STALL_SLOT_BACKEND 500,
# STALL_SLOT 3500, OP_SPEC 1000, OP_RETIRED 800:
#   Frontend_Bound  (3000 - 1000) / 5000 = 40.00 %   (the bottleneck)
#   Backend_Bound   500 / 5000 = 10.00 %
#   not stalled     1 - (3500 - 1000) / 5000 = 0.5
#   Retiring        0.8 * 0.5 = 40.00 %
#   Bad_Speculation 0.2 * 0.5 = 10.00 %
runfile neoverse-n2-r0p0 "BR_MIS_PRED:0:0 CPU_CYCLES:1024:1000 STALL_SLOT_FRONTEND:2304:3000 STALL_SLOT_BACKEND:2560:500 STALL_SLOT:4864:3500 OP_SPEC:4096:1000 OP_RETIRED:3072:800" \
	"$(level1 0.3 0.1 0.3 0.3 %_slots)" >"$tmp/n2.json"
"$HPMSTAT" report "$tmp/n2.json" >"$tmp/n2.text" 2>"$tap_err"; ok $? "report of a Neoverse N2 run"
cpu_is "$tmp/n2.text" CPU0 Frontend_Bound 25.00
cpu_is "$tmp/n2.text" CPU0 Backend_Bound 50.00 "<=="
cpu_is "$tmp/n2.text" CPU0 Retiring 18.75
cpu_is "$tmp/n2.text" CPU0 Bad_Speculation 6.25
cpu_is "$tmp/n2.text" CPU1 Frontend_Bound 40.00 "<=="
cpu_is "$tmp/n2.text" CPU1 Backend_Bound 10.00
cpu_is "$tmp/n2.text" CPU1 Retiring 40.00
cpu_is "$tmp/n2.text" CPU1 Bad_Speculation 10.00
grep -q 'Frontend_Bound .* % slots' "$tmp/n2.text"; ok $? "n2: level 1 is a share of slots"

# ---------------------------------------------------------------- V1
# Slots = 8, BR_MIS_PRED 0. CPU0: C 512, STALL_SLOT_FRONTEND 1024, STALL_SLOT_BACKEND 512,
# STALL_SLOT 1536, OP_SPEC 4096, OP_RETIRED 2048:
#   Frontend_Bound  1024 / 4096 = 25.00 %
#   Backend_Bound   512 / 4096 = 12.50 %
#   not stalled     1 - 1536 / 4096 = 0.625
#   Retiring        0.5 * 0.625 = 31.25 %
#   Bad_Speculation 0.5 * 0.625 = 31.25 %  (over 15 %, larger than FE: <==)
# CPU1: C 1000, STALL_SLOT_FRONTEND 800, STALL_SLOT_BACKEND 4000,
# STALL_SLOT 4800, OP_SPEC 1000, OP_RETIRED 1000:
#   Frontend_Bound  800 / 8000 = 10.00 %
#   Backend_Bound   4000 / 8000 = 50.00 %  (the bottleneck)
#   not stalled     1 - 4800 / 8000 = 0.4
#   Retiring        1 * 0.4 = 40.00 %
#   Bad_Speculation 0 * 0.4 = 0.00 %
runfile neoverse-v1 "BR_MIS_PRED:0:0 CPU_CYCLES:512:1000 STALL_SLOT_FRONTEND:1024:800 STALL_SLOT_BACKEND:512:4000 STALL_SLOT:1536:4800 OP_SPEC:4096:1000 OP_RETIRED:2048:1000" \
	"$(level1 0.2 0.2 0.3 0.3 %_slots)" >"$tmp/v1.json"
"$HPMSTAT" report "$tmp/v1.json" >"$tmp/v1.text" 2>"$tap_err"; ok $? "report of a Neoverse V1 run"
cpu_is "$tmp/v1.text" CPU0 Frontend_Bound 25.00
cpu_is "$tmp/v1.text" CPU0 Backend_Bound 12.50
cpu_is "$tmp/v1.text" CPU0 Retiring 31.25
cpu_is "$tmp/v1.text" CPU0 Bad_Speculation 31.25 "<=="
cpu_is "$tmp/v1.text" CPU1 Frontend_Bound 10.00
cpu_is "$tmp/v1.text" CPU1 Backend_Bound 50.00 "<=="
cpu_is "$tmp/v1.text" CPU1 Retiring 40.00
cpu_is "$tmp/v1.text" CPU1 Bad_Speculation 0.00

# ---------------------------------------------------------------- V2
# Slots = 8, BR_MIS_PRED 0. CPU0: C 1024, STALL_SLOT_FRONTEND 2048, STALL_SLOT_BACKEND
# 3072, STALL_SLOT 5120, OP_SPEC 4096, OP_RETIRED 3072:
#   Frontend_Bound  2048 / 8192 = 25.00 %
#   Backend_Bound   3072 / 8192 = 37.50 %  (the bottleneck)
#   not stalled     1 - 5120 / 8192 = 0.375
#   Retiring        0.75 * 0.375 = 0.28125 = 28.12 % (printf's %.2f of 28.125,
#                   a tie, rounds to even)
#   Bad_Speculation 0.25 * 0.375 = 0.09375 = 9.38 % (9.375, to even: 9.38)
# CPU1: C 1024, STALL_SLOT_FRONTEND 4096, STALL_SLOT_BACKEND 1024,
# STALL_SLOT 5120, OP_SPEC 4096, OP_RETIRED 2048:
#   Frontend_Bound  4096 / 8192 = 50.00 %  (the bottleneck)
#   Backend_Bound   1024 / 8192 = 12.50 %
#   Retiring        0.5 * 0.375 = 18.75 %
#   Bad_Speculation 0.5 * 0.375 = 18.75 %
# The whole run (the file's metrics, summed counts): C 2048, 8C 16384,
# FE 6144 / 16384 = 37.5 %, BE 4096 / 16384 = 25 %, not stalled
# 1 - 10240 / 16384 = 0.375, OP 5120 / 8192 = 0.625: Retiring 23.4375 %,
# Bad_Speculation 14.0625 %.
V2EV="BR_MIS_PRED:0:0 STALL_SLOT_FRONTEND:2048:4096 CPU_CYCLES:1024:1024 OP_RETIRED:3072:2048 OP_SPEC:4096:4096 STALL_SLOT:5120:5120 STALL_SLOT_BACKEND:3072:1024"
runfile neoverse-v2 "$V2EV" "tma_frontend_bound:Frontend_Bound:%_slots:0.375:true:true tma_bad_speculation:Bad_Speculation:%_slots:0.140625:false:false tma_backend_bound:Backend_Bound:%_slots:0.25:false:true tma_retiring:Retiring:%_slots:0.234375:false:false" >"$tmp/v2a.json"
"$HPMSTAT" report "$tmp/v2a.json" >"$tmp/v2a.text" 2>"$tap_err"; ok $? "report of a Neoverse V2 run"
cpu_is "$tmp/v2a.text" CPU0 Frontend_Bound 25.00
cpu_is "$tmp/v2a.text" CPU0 Backend_Bound 37.50 "<=="
cpu_is "$tmp/v2a.text" CPU0 Retiring 28.12
cpu_is "$tmp/v2a.text" CPU0 Bad_Speculation 9.38
cpu_is "$tmp/v2a.text" CPU1 Frontend_Bound 50.00 "<=="
cpu_is "$tmp/v2a.text" CPU1 Backend_Bound 12.50
cpu_is "$tmp/v2a.text" CPU1 Retiring 18.75
cpu_is "$tmp/v2a.text" CPU1 Bad_Speculation 18.75
grep -q '^   Frontend_Bound  *37.50  % slots    <==$' "$tmp/v2a.text"; ok $? "v2: the whole run as the file has it, with <=="
grep -q 'Level 1 sums to 100.00 %' "$tmp/v2a.text"; ok $? "v2: level 1 sums to 100 %"

# every format renders the Arm run
"$HPMSTAT" report --format csv "$tmp/v2a.json" >"$tmp/v2a.csv" 2>"$tap_err"
tr -d '\r' <"$tmp/v2a.csv" | grep -q '^v2a,[^,]*v2a.json,CPU1,,,tma_frontend_bound,Frontend_Bound,1,,% slots,50,,1,0,1,0$'; ok $? "csv (CRLF rows): CPU1 Frontend_Bound 50 %, bottleneck, over threshold, not emulated"
"$HPMSTAT" report --format json "$tmp/v2a.json" >"$tmp/v2a.rj" 2>"$tap_err"
"$JSONCHECK" .schema .runs.0.slices.# <"$tmp/v2a.rj" >"$tmp/j" 2>&1
printf 'hpmstat-report\n3\n' | cmp -s - "$tmp/j"; ok $? "json: the whole run and two CPUs"
"$HPMSTAT" report --format md "$tmp/v2a.json" >"$tmp/v2a.md" 2>"$tap_err"
grep -qF '| Backend\_Bound | 25.00 | 37.50 &lt;== | 12.50 | % slots |' "$tmp/v2a.md"; ok $? "md: Backend_Bound per CPU"
"$HPMSTAT" report --format html "$tmp/v2a.json" >"$tmp/v2a.html" 2>"$tap_err"
[ $? -eq 0 ] && grep -q 'Frontend_Bound' "$tmp/v2a.html" && grep -q '</html>' "$tmp/v2a.html"; ok $? "html: rendered"

# --diff of two V2 runs. NEW: CPU0 as before, CPU1 with STALL_SLOT_FRONTEND
# 2048 and STALL_SLOT_BACKEND 3072 (CPU0's); its file says FE 25 %, BS
# 9.375 %, BE 37.5 %, RET 28.125 %. NEW - BASE: FE 25 - 37.5 = -12.50,
# BS 9.375 - 14.0625 = -4.6875 (-4.69), BE 37.5 - 25 = +12.50,
# RET 28.125 - 23.4375 = +4.6875 (+4.69).
runfile neoverse-v2 "BR_MIS_PRED:0:0 STALL_SLOT_FRONTEND:2048:2048 CPU_CYCLES:1024:1024 OP_RETIRED:3072:3072 OP_SPEC:4096:4096 STALL_SLOT:5120:5120 STALL_SLOT_BACKEND:3072:3072" \
	"tma_frontend_bound:Frontend_Bound:%_slots:0.25:false:true tma_bad_speculation:Bad_Speculation:%_slots:0.09375:false:false tma_backend_bound:Backend_Bound:%_slots:0.375:true:true tma_retiring:Retiring:%_slots:0.28125:false:false" >"$tmp/v2b.json"
"$HPMSTAT" report --diff "$tmp/v2a.json" "$tmp/v2b.json" >"$tmp/diff.text" 2>"$tap_err"; ok $? "diff of two Neoverse V2 runs"
grep -q '^   Frontend_Bound  *37.50  *25.00  *-12.50  no repeats' "$tmp/diff.text"; ok $? "diff: Frontend_Bound -12.50"
grep -q '^   Bad_Speculation  *14.06  *9.38  *-4.69 ' "$tmp/diff.text"; ok $? "diff: Bad_Speculation -4.69"
grep -q '^   Backend_Bound  *25.00  *37.50  *+12.50 ' "$tmp/diff.text"; ok $? "diff: Backend_Bound +12.50"
grep -q '^   Retiring  *23.44  *28.12  *+4.69 ' "$tmp/diff.text"; ok $? "diff: Retiring +4.69"
for f in csv json md html; do
	"$HPMSTAT" report --format $f --diff "$tmp/v2a.json" "$tmp/v2b.json" >/dev/null 2>"$tap_err"; ok $? "diff of two Neoverse V2 runs as $f"
done

# Kunminghu against Arm: no node-by-node diff, one line naming both
run_fails_with "diff of a Kunminghu run against a Neoverse V2 run is refused" \
	"counts Kunminghu (kunminghu-v2) events and $tmp/v2a.json Neoverse V2 events" \
	"$HPMSTAT" report --diff "$top_srcdir/tests/report/hand.json" "$tmp/v2a.json"
run_fails_with "and the other way round" "counts Neoverse V2 events and" \
	"$HPMSTAT" report --diff "$tmp/v2a.json" "$top_srcdir/tests/report/hand.json"
# side by side (no diff) is allowed
run_ok "report of a Kunminghu and an Arm run side by side" \
	"$HPMSTAT" report "$top_srcdir/tests/report/hand.json" "$tmp/v2a.json"
# a run that mixes two models' rows: the first row made Kunminghu's
sed '0,/"kind":"neoverse-v2"/s//"kind":"kunminghu"/' "$tmp/v2a.json" >"$tmp/mix.json"
run_fails_with "a run file with Kunminghu and Neoverse V2 rows is refused" \
	"events[1].kind: a Neoverse V2 event in a run of Kunminghu (kunminghu-v2) events (one run counts one PMU model)" \
	"$HPMSTAT" report "$tmp/mix.json"

done_testing

#!/bin/sh
# hpmstat stat on the emulator: Topdown of every profile against its
# declaration, exact identities through stat, multiplexing, labels, the run
# file, intervals, and --dry-run against fake sysfs roots of both widths.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/stat/profiles-lib.sh"
H=$HPMSTAT
J=$JSONCHECK
scratch_dir

# every profile's --topdown=3 within 0.5 points of what it declares (but a
# profile with a task schedule: mix_profiles)
profiles_json >/dev/null
for i in $(mix_profiles); do
	name=$(profile_name $i)
	declared $i declared.level1 declared.level2 declared.level3 >"$dir/declared"
	$H stat -j --json-extra --topdown=3 --emu-profile "$name" --emu-cycles 1e8 2>"$dir/stat.json" >/dev/null
	# the profile declares its nodes by stat's metric names
	worst=$(awk -v decl="$dir/declared" '
		BEGIN { while ((getline l < decl) > 0) { split(l, a, " "); d[a[1]] = a[2] } }
		/"metric" : / {
			match($0, /"metric" : "[a-z0-9_]*"/); m = substr($0, RSTART + 12, RLENGTH - 13)
			match($0, /"metric-value" : [-0-9.e]*/); v = substr($0, RSTART + 17, RLENGTH - 17)
			if (!(m in d)) next
			want = d[m] * 100; diff = v - want; if (diff < 0) diff = -diff
			if (diff > worst) { worst = diff; which = m }
			seen++ }
		END { if (seen != 15) print "missing"; else printf "%.3f %s\n", worst, which }' "$dir/stat.json")
	w=${worst%% *}
	awk -v w="$w" 'BEGIN{exit !(w != "missing" && w <= 0.5)}'
	ok $? "$name: --topdown=3 matches the declaration within 0.5 points (worst $worst)"
done

# count(a|b) + count(a&b) == count(a) + count(b), exactly, through stat
$H stat -x, --emu-cycles 2e7 --emu-profile fetch-latency -e 'ifu_req|ifu_miss,ifu_req&ifu_miss,ifu_req,ifu_miss' 2>"$tap_out" >/dev/null
awk -F, '!/^#/{v[NR]=$1} END{exit !(v[2]+v[3]==v[4]+v[5] && v[4]>0)}' "$tap_out"
ok $? "count(a|b) + count(a&b) == count(a) + count(b) exactly ($(grep -v '^#' "$tap_out" | cut -d, -f1 | tr '\n' ' '))"
$H stat -x, --emu-cycles 2e7 -e 'BpRight^BpWrong,BpRight|BpWrong,BpRight&BpWrong' 2>"$tap_out" >/dev/null
awk -F, '!/^#/{v[NR]=$1} END{exit !(v[2]==v[3]-v[4])}' "$tap_out"
ok $? "count(a^b) == count(a|b) - count(a&b) exactly"
# x:u + x:k == x: U and VU, S and VS, the four default modes
$H stat -x, --emu-cycles 2e7 --emu-profile l3-bound -e 'rob_commitInstr:u,rob_commitInstr:k,rob_commitInstr' 2>"$tap_out" >/dev/null
awk -F, '!/^#/{v[NR]=$1} END{exit !(v[2]+v[3]==v[4] && v[2]>0 && v[3]>0)}' "$tap_out"
ok $? "x:u + x:k == x exactly ($(grep -v '^#' "$tap_out" | cut -d, -f1 | tr '\n' ' '))"
# INST_SPEC + RECOVERY_BUBBLE in one ADD counter is the sum of the two
$H stat -x, --emu-cycles 2e7 -e 'INST_SPEC+RECOVERY_BUBBLE,INST_SPEC,RECOVERY_BUBBLE' 2>"$tap_out" >/dev/null
awk -F, '!/^#/{v[NR]=$1} END{exit !(v[2]==v[3]+v[4])}' "$tap_out"; ok $? "the ADD counter of INST_SPEC and RECOVERY_BUBBLE is their sum"

# multiplexed and unmultiplexed totals agree within their scaling error
ev=rob_commitInstr,INST_SPEC,RECOVERY_BUBBLE,BR_MIS_PRED,TOTAL_FLUSH,EXEC_STALL_CYCLE,MEMSTALL_STORE,MEMSTALL_L1MISS,MEMSTALL_L2MISS,MEMSTALL_L3MISS
$H stat -x, --emu-cycles 1e8 -e $ev 2>"$dir/mux" >/dev/null
for e in $(echo $ev | tr ',' ' '); do $H stat -x, --emu-cycles 1e8 -e $e 2>&1 >/dev/null | grep -v '^#'; done > "$dir/alone"
grep -v '^#' "$dir/mux" | awk -F, '$5 < 100 {m++} END{exit !(m > 0)}'; ok $? "10 backend events on 8 counters run multiplexed (pcnt-running < 100)"
paste -d, "$dir/alone" "$(printf '%s' "$dir/mux")" > /dev/null 2>&1
grep -v '^#' "$dir/mux" > "$dir/mux2"
awk -F, 'NR==FNR{a[FNR]=$1; next} { d = $1 - a[FNR]; if (d < 0) d = -d; if (a[FNR] > 0 && d / a[FNR] > 0.01) bad++ } END{exit bad > 0}' "$dir/alone" "$dir/mux2"
ok $? "multiplexed totals are within 1% of the unmultiplexed ones"
$H stat --emu-cycles 1e7 --topdown=3 2>"$tap_out" >/dev/null
grep -q 'multiplexed' "$tap_out"; ok $? "a multiplexed --topdown=3 says so"
$H stat --emu-cycles 1e7 --topdown=3 --topdown-retired=minstret -x, 2>"$tap_out" >/dev/null
grep -v '^#' "$tap_out" | grep -q 'multiplexed'; [ $? -ne 0 ]; ok $? "--topdown-retired=minstret fits the counters: no multiplexing"
head -1 "$tap_out" | grep -qv 'multiplexed'; ok $? "... and the label does not say multiplexed"

# emulated figures are labelled in every format
$H stat --emu-cycles 1e6 -e rob_commitInstr 2>"$tap_out" >/dev/null
grep -q 'emulated Kunminghu (kunminghu-v2): profile balanced, seed 1' "$tap_out"; ok $? "std output names the table, the profile and the seed"
$H stat -x, --emu-cycles 1e6 --emu-seed 7 -e rob_commitInstr 2>"$tap_out" >/dev/null
head -1 "$tap_out" | grep -q '^# emulated Kunminghu (kunminghu-v2): profile balanced, seed 7'; ok $? "CSV starts with a '#' label naming the table"
$H stat -j --json-extra --emu-cycles 1e6 --emu-profile dram-bound -e rob_commitInstr 2>"$tap_out" >/dev/null
v=$($J emulated emu-profile emu-seed < "$tap_out" | tr '\n' ' ')
[ "$v" = "true dram-bound 1 " ]; ok $? "JSON rows say emulated, profile and seed ($v)"

# intervals in emulated time: 1e7 cycles at 10 MHz are 1 s, 10 intervals of 100 ms
$H stat -I 100 -x, --emu-cycles 1e7 --emu-freq 10000000 -e mcycle 2>"$tap_out" >/dev/null
[ "$(grep -c ',mcycle,' "$tap_out")" -eq 10 ]; ok $? "-I 100 over 1 s of emulated time: 10 intervals"
awk -F, '/,mcycle,/{if ($2 != 1000000) bad++} END{exit bad > 0}' "$tap_out"; ok $? "each interval counts 1e6 cycles"

# repeats: mean and ( +- x% ) with a seed per repeat
$H stat -r 3 --emu-cycles 1e6 -e rob_commitInstr -x, 2>"$tap_out" >/dev/null
grep -v '^#' "$tap_out" | awk -F, '$4 ~ /%$/ {f=1} END{exit !f}'; ok $? "-r 3 prints the variance field"

# -r's spread where perf puts it: the same column on event rows and on
# Topdown rows (past perf's metric column), the [emu] mark after it on both
$H stat -r 3 --topdown=2 --emu-cycles 1e6 -e minstret 2>"$tap_out" >/dev/null
awk '/\( \+-/ && !/seconds time elapsed/ { c[index($0, "( +-")]++; rows++
		if (index($0, "[emu]") < index($0, "( +-")) late++ }
	END { n = 0; for (k in c) n++; exit !(rows == 11 && n == 1 && !late) }' "$tap_out"
ok $? "-r 3: ( +- x% ) in one column on the event row and the 10 Topdown rows, before [emu]"

# -M: the rows named as -M takes them (perf's names), one vocabulary in
# the block; a node alone is no bottleneck (toplev compares siblings), a
# level of them still has one
$H stat -M tma_backend_bound,ipc --emu-cycles 1e6 2>"$tap_out" >/dev/null
[ "$(sed -n 's/.* # .* \(% slots\|per cycle\)  \([a-z_]*\) .*/\2/p' "$tap_out" | tr '\n' ' ')" = "tma_backend_bound ipc " ]
ok $? "-M tma_backend_bound,ipc: named tma_backend_bound and ipc in perf's # column"
! grep -q '<==' "$tap_out"
ok $? "-M tma_backend_bound: a node alone is not marked <=="
$H stat -j --json-extra -M tma_backend_bound --emu-cycles 1e6 2>"$tap_out" >/dev/null
grep -q '"metric" : "tma_backend_bound".*"bottleneck" : false' "$tap_out"
ok $? "... nor in JSON"
$H stat -M TopdownL1 --emu-cycles 1e6 2>"$tap_out" >/dev/null
[ "$(grep -c '<==' "$tap_out")" = 1 ] && grep -q ' # .* tma_backend_bound .*<==' "$tap_out"
ok $? "-M TopdownL1: the level's bottleneck is marked"

# -A: per-hart counts and per-hart Topdown trees
$H stat -A -x, --emu-harts 2 --topdown --emu-cycles 2e6 -e mcycle 2>"$tap_out" >/dev/null
[ "$(grep -c '^hart[01],2000000,,mcycle,' "$tap_out")" -eq 2 ]; ok $? "-A: one mcycle row per hart"
[ "$(grep -c '^hart[01],.*tma_retiring' "$tap_out")" -eq 2 ] && grep -q '^all,.*tma_retiring' "$tap_out"; ok $? "-A: the Topdown level 1 of each hart and of all"

# the run file
$H stat --record "$dir/run.json" --topdown=2 -I 500 --emu-cycles 1e7 --emu-freq 10000000 --emu-harts 2 2>/dev/null >/dev/null; ok $? "--record writes a run file"
v=$($J schema schema_version emulated.profile emulated.harts events.0.counts.# intervals.# metrics.# < "$dir/run.json" | tr '\n' ' ')
[ "$v" = "hpmstat-run 1 balanced 2 2 2 10 " ]; ok $? "run file: schema, version, emulator, per-hart counts, intervals, metrics ($v)"
ls "$dir" | grep -q 'run.json\.' ; [ $? -ne 0 ]; ok $? "no temporary file is left beside it"

# --dry-run against fake Kunminghu sysfs roots, 48- and 56-bit config
for w in 47 55; do
	root="$dir/fake$w"
	mkdir -p "$root/sys/bus/event_source/devices/cpu/format" "$root/proc"
	echo 4 > "$root/sys/bus/event_source/devices/cpu/type"
	echo "config:0-$w" > "$root/sys/bus/event_source/devices/cpu/format/event"
	printf 'processor\t: 0\nhart\t\t: 0\nisa\t\t: rv64imafdch_zicsr_zifencei_sscofpmf\nmvendorid\t: 0x0\nmarchid\t\t: 0x19\nmimpid\t\t: 0x0\n\n' > "$root/proc/cpuinfo"
	HPMSTAT_SYSFS="$root/sys" HPMSTAT_PROCFS="$root/proc" $H stat --dry-run -e 'INST_SPEC+RECOVERY_BUBBLE' -- true > "$tap_out" 2>&1
	grep -q 'type=4 config=0x40000002007 ' "$tap_out"; ok $? "config:0-$w: INST_SPEC+RECOVERY_BUBBLE is a raw config 0x40000002007 ($(head -1 "$tap_out"))"
done
HPMSTAT_SYSFS="$dir/fake55/sys" HPMSTAT_PROCFS="$dir/fake55/proc" $H stat --dry-run -e 'ifu_req&ifu_miss&itlb_miss' -- true > "$tap_out" 2>&1
grep -q 'config=0x4010003900c02 ' "$tap_out"; ok $? "config:0-55 carries OP_TYPE2 ($(head -1 "$tap_out"))"
HPMSTAT_SYSFS="$dir/fake47/sys" HPMSTAT_PROCFS="$dir/fake47/proc" run_fails_with "config:0-47 refuses an expression that needs OP_TYPE2" "OP_TYPE2" $H stat --dry-run -e 'ifu_req&ifu_miss&itlb_miss' -- true
HPMSTAT_SYSFS="$dir/fake55/sys" HPMSTAT_PROCFS="$dir/fake55/proc" $H stat --dry-run -e 'rob_commitInstr:u' -- true > "$tap_out" 2>&1
grep -q 'exclude_kernel=1' "$tap_out"; ok $? "modifiers become exclude_* flags"
$H stat --dry-run --emu-cycles 1e6 -e rob_commitInstr > "$tap_out" 2>&1
grep -q 'csrw mhpmevent11 0x4000000000000035' "$tap_out"; ok $? "--dry-run on the emulator prints the CSR writes"

# A raw value carries no bank, and only the bank says which counters see an
# event: r4000000000000035 is rob_commitInstr's mhpmevent value (the dry run
# above writes it to backend counter 11), yet the emulator cannot place it.
# Its <not supported> row says why on stderr, once; the same value with its
# bank counts exactly what rob_commitInstr counts, and says nothing.
$H stat -x, --emu-cycles 1e6 -e r4000000000000035,rob_commitInstr,kunminghu/event0=53,bank=backend/ >/dev/null 2>"$tap_out"
grep -q '^<not supported>,,r4000000000000035,' "$tap_out"; ok $? "r4000000000000035 on the emulator is <not supported>"
[ "$(grep -c "warning: 'r4000000000000035' is <not supported>: no bank known: the emulator places an event by its bank" "$tap_out")" -eq 1 ]
ok $? "... and one line says why: no bank ($(grep -m1 r4000000000000035 "$tap_out"))"
a=$(awk -F, '$3 == "rob_commitInstr" { print $1 }' "$tap_out")
b=$(grep -F ',"kunminghu/event0=53,bank=backend/",' "$tap_out" | cut -d, -f1)
[ -n "$a" ] && [ "$a" = "$b" ] && [ "$(grep -c warning "$tap_out")" -eq 1 ]
ok $? "the value with bank=backend counts as rob_commitInstr ($b = $a), without a warning"
$H stat -x, --emu-cycles 1e5 -r 3 -e r4000000000000035 >/dev/null 2>"$tap_out"
[ "$(grep -c 'no bank known' "$tap_out")" -eq 1 ]; ok $? "-r 3: the reason is said once"

# bad input
run_fails_with "unknown profile lists the known ones" "known: balanced" $H stat --emu-profile nosuch --emu-cycles 1e6 -e mcycle
run_fails_with "--emu-cycles abc" "--emu-cycles 'abc'" $H stat --emu-cycles abc
run_fails_with "--emu-harts 0" "must be 1 to 1024" $H stat --emu-harts 0
run_fails_with "--topdown=4" "--topdown '4'" $H stat --topdown=4
run_fails_with "unknown metric" "tma_frontend" $H stat -M tma_frontend_bond --emu-cycles 1e6
done_testing

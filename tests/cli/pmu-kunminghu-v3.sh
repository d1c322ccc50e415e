#!/bin/sh
# --pmu kunminghu-v3 (XiangShan afe3818's renumbered events) and
# kunminghu-v2 (v2's explicit name) in the commands that take --pmu, and
# their bad input (issue 28 item 6). Values hand-worked from
# tests/data/kunminghu-v3-afe3818-events.tsv and SPEC §1: MINH (bit 62) |
# the bank-local index in EVENT0.
. "$top_srcdir/tests/lib.sh"
H=$HPMSTAT
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$tap_out" "$tap_err"' EXIT

first() { "$@" | awk '{ print $1 }'; }
# rob_commitInstr: backend 51 on v3, 53 on v2 (kunminghu and kunminghu-v2)
out_is "encode --pmu kunminghu-v3 rob_commitInstr = backend 51" 0x4000000000000033 \
	first $H encode --pmu kunminghu-v3 rob_commitInstr
out_is "encode --pmu kunminghu-v2 rob_commitInstr = backend 53" 0x4000000000000035 \
	first $H encode --pmu kunminghu-v2 rob_commitInstr
out_is "encode --pmu kunminghu rob_commitInstr = backend 53" 0x4000000000000035 \
	first $H encode --pmu kunminghu rob_commitInstr
# MEMSTALL_ANY_LOAD memblock 41 = 0x29; perf-style term with v3's name
out_is "encode --pmu kunminghu-v3 MEMSTALL_ANY_LOAD = memblock 41" 0x4000000000000029 \
	first $H encode --pmu kunminghu-v3 MEMSTALL_ANY_LOAD
out_is "encode --pmu kunminghu-v3 kunminghu-v3/event0=63,bank=backend/" 0x400000000000003f \
	first $H encode --pmu kunminghu-v3 kunminghu-v3/event0=63,bank=backend/
# decode names v3's event of that index
$H decode --pmu kunminghu-v3 --bank backend 0x4000000000000033 >"$tap_out" 2>"$tap_err"
grep -q "E0=51:rob_commitInstr" "$tap_out"; ok $? "decode --pmu kunminghu-v3 --bank backend: 51 is rob_commitInstr"
$H decode --pmu kunminghu-v3 --bank backend 0x4000000000000035 >"$tap_out" 2>"$tap_err"
grep -q "E0=53:rob_commitInstrLoad " "$tap_out"
ok $? "decode --pmu kunminghu-v3: backend 53 is rob_commitInstrLoad on v3"
# list: the table's own events, its header naming it
$H list --pmu kunminghu-v3 >"$tmp/list" 2>&1
grep -q "dispatch_stall_cycle_iq *backend:45" "$tmp/list"; ok $? "list --pmu kunminghu-v3 lists backend:45 dispatch_stall_cycle_iq"
! grep -qE "^ +BpWrong +[a-z]+:[0-9]" "$tmp/list"; ok $? "list --pmu kunminghu-v3 has no BpWrong event"
$H list --pmu kunminghu-v3 --json >"$tmp/list.json" 2>&1
grep -q '"kind": "kunminghu-v3"' "$tmp/list.json"; ok $? "list --json names the table in kind"
# a name of the other table: nothing listed, exit 0 (perf's), and the one
# line on stderr says which table has it
for c in "kunminghu-v3 BpWrong kunminghu-v2" "kunminghu dispatch_stall_cycle_iq kunminghu-v3"; do
	set -- $c
	$H list --pmu $1 $2 >"$tap_out" 2>"$tap_err"
	rc=$?
	[ $rc -eq 0 ] && [ ! -s "$tap_out" ] && [ "$(wc -l <"$tap_err")" -eq 1 ] &&
		grep -qF "'$2' matches no event of Kunminghu (" "$tap_err" &&
		grep -qF "it is an event of Kunminghu ($3)" "$tap_err"
	ok $? "list --pmu $1 $2: says $3 has it"
done

# bad input: one line, non-zero, nothing on stdout
run_fails_with "a v2-only event under kunminghu-v3 says which table has it" \
	"'BpWrong' is a kunminghu-v2 event; kunminghu-v3 has no such event" \
	$H encode --pmu kunminghu-v3 BpWrong
run_fails_with "a v3-only event under kunminghu says which table has it" \
	"'dispatch_stall_cycle_iq' is a kunminghu-v3 event; kunminghu-v2 has no such event" \
	$H encode --pmu kunminghu dispatch_stall_cycle_iq
run_fails_with "stat -e of a v2-only event under kunminghu-v3" \
	"'BpWrong' is an event of Kunminghu (kunminghu-v2), not of Kunminghu (kunminghu-v3)" \
	$H stat --pmu kunminghu-v3 -e BpWrong --emu-cycles 1000
run_fails_with "--pmu kunminghu-v4 offers the closest names" \
	"--pmu 'kunminghu-v4': no such PMU model; did you mean kunminghu-v3, kunminghu-v2, kunminghu?" \
	$H encode --pmu kunminghu-v4 rob_commitInstr
run_fails_with "list --pmu with a typo offers the closest name" "did you mean kunminghu-v3" \
	$H list --pmu kunminghuv3
run_fails_with "stat --pmu with a typo offers the closest name" "did you mean kunminghu" \
	$H stat --pmu kunmnghu -e cycles --emu-cycles 1000

# perf's generic names: v3 has no BpInstr/BpWrong
$H stat --pmu kunminghu-v3 -e branches,branch-misses,rob_commitInstr --emu-cycles 200000 -x, \
	>"$tmp/out" 2>&1
ok $? "stat --pmu kunminghu-v3 -e branches,branch-misses"
# branches is backend BRANCH_JUMP (62), branch-misses BR_MIS_PRED (63)
$H stat --pmu kunminghu-v3 -e BRANCH_JUMP,BR_MIS_PRED,rob_commitInstr --emu-cycles 200000 -x, \
	>"$tmp/named" 2>&1
out_is "branches and branch-misses count BRANCH_JUMP and BR_MIS_PRED" \
	"$(cut -d, -f1 "$tmp/named" | head -3)" sh -c "cut -d, -f1 '$tmp/out' | head -3"

# a run file keeps its table: stat record writes kunminghu-v3, report reads it
$H stat --pmu kunminghu-v3 --record "$tmp/v3.json" --topdown -e rob_commitInstr \
	--emu-cycles 200000 >/dev/null 2>&1
grep -q '"kind": "kunminghu-v3"' "$tmp/v3.json"; ok $? "the run file names kunminghu-v3"
$H stat --pmu kunminghu --record "$tmp/v2.json" --topdown -e rob_commitInstr \
	--emu-cycles 200000 >/dev/null 2>&1
# two tables of one core: compared (two RTL versions side by side), with
# one warning line that an event may count something else in each
$H report --diff "$tmp/v2.json" "$tmp/v3.json" >"$tmp/diff" 2>"$tmp/diff.err"
ok $? "report --diff of a kunminghu run and a kunminghu-v3 run shows the diff"
grep -q 'kunminghu table.*kunminghu-v3 table.*not comparable' "$tmp/diff.err"
ok $? "report --diff of the two tables warns that the figures are not comparable"
# a run file of one table read as the other (its kind relabelled): refused
# with the reason, since rob_commitInstr's recorded mhpmevent (backend 51 on
# v3, 53 on v2) is the other table's encoding
sed 's/"kind": "kunminghu-v3"/"kind": "kunminghu"/' "$tmp/v3.json" >"$tmp/v3as2.json"
run_fails_with "a kunminghu-v3 run file labelled kunminghu is refused with the reason" \
	"kind 'kunminghu' (the kunminghu-v2 table), but mhpmevent 0x4000000000000033 is the kunminghu-v3 table's encoding of 'rob_commitInstr': a run of one table read as the other's" \
	$H report "$tmp/v3as2.json"
sed 's/"kind": "kunminghu"/"kind": "kunminghu-v3"/' "$tmp/v2.json" >"$tmp/v2as3.json"
run_fails_with "a kunminghu-v2 run file labelled kunminghu-v3 is refused with the reason" \
	"mhpmevent 0x4000000000000035 is the kunminghu-v2 table's encoding of 'rob_commitInstr'" \
	$H report "$tmp/v2as3.json"
run_ok "the kunminghu-v3 run file as written is read" $H report "$tmp/v3.json"
# which table the figures are of (detection cannot tell the two apart):
# -j --json-extra's pmu-table on each model row (none on a host event's),
# the exposition's hpm_build_info table label; plain -j keeps perf's keys
for t in kunminghu-v2 kunminghu-v3; do
	$H stat --pmu $t -j --json-extra -e rob_commitInstr,cycles,task-clock --emu-cycles 100000 \
		--openmetrics "$tmp/$t.om" -- true >"$tmp/$t.jx" 2>&1
	[ "$(grep -c '"event" : "rob_commitInstr".*"pmu-table" : "'$t'"' "$tmp/$t.jx")" = 1 ] &&
		[ "$(grep -c '"event" : "cycles".*"pmu-table" : "'$t'"' "$tmp/$t.jx")" = 1 ] &&
		! grep '"event" : "task-clock"' "$tmp/$t.jx" | grep -q pmu-table
	ok $? "stat --pmu $t -j --json-extra: pmu-table $t on the model's rows, none on task-clock"
	grep -q '^hpm_build_info{.*,table="'$t'",' "$tmp/$t.om"
	ok $? "stat --pmu $t --openmetrics: hpm_build_info's table is $t"
done
$H stat --pmu kunminghu-v3 -j -e rob_commitInstr --emu-cycles 100000 -- true >"$tmp/j" 2>&1
! grep -q pmu-table "$tmp/j"; ok $? "stat -j without --json-extra: no pmu-table (perf's keys only)"

# record --backend emu --pmu kunminghu-v3: the attr perf reads back carries
# v3's encoding (perf evlist prints the config as perf reads it)
run_ok "record --backend emu --pmu kunminghu-v3" $H record --backend emu --pmu kunminghu-v3 \
	-e rob_commitInstr -c 100000 -o "$tmp/p3.data" --emu-cycles 1000000
if command -v perf >/dev/null 2>&1; then
	perf evlist -v -i "$tmp/p3.data" </dev/null >"$tmp/evlist" 2>&1
	grep -q "^rob_commitInstr: .*config: 0x4000000000000033," "$tmp/evlist"
	ok $? "perf evlist: rob_commitInstr's config is v3's 0x4000000000000033"
else
	skip "perf evlist" "no perf"
fi
run_fails_with "record --pmu without --backend emu is refused" \
	"--pmu kunminghu-v3 needs --backend emu" $H record --pmu kunminghu-v3 -e cycles true
run_fails_with "record --backend emu --pmu kunminghu-v3 -e BpWrong" \
	"'BpWrong' is a kunminghu-v2 event; kunminghu-v3 has no such event" \
	$H record --backend emu --pmu kunminghu-v3 -e BpWrong -c 1000 -o "$tmp/p4.data" --emu-cycles 1000
done_testing

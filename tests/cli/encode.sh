#!/bin/sh
# hpmstat encode: output format, JSON, and every bad input of issue 2.
. "$top_srcdir/tests/lib.sh"
H=$HPMSTAT
J=$JSONCHECK

# first token: 0x and 16 hex digits; values from SPEC §1 by hand
out=$($H encode rob_commitInstr 'INST_SPEC + RECOVERY_BUBBLE' Front_Bubble:u)
first=$(printf '%s\n' "$out" | awk '{print $1}' | tr '\n' ' ')
[ "$first" = "0x4000000000000035 0x4000040000002007 0x6800000000000015 " ]; ok $? "one line per expression, value first ($first)"
printf '%s\n' "$out" | awk '{print $1}' | grep -qvE '^0x[0-9a-f]{16}$'; [ $? -ne 0 ]; ok $? "every first token is 0x + 16 hex digits"
printf '%s\n' "$out" | sed -n 2p | grep -q 'E0=7:INST_SPEC E1=8:RECOVERY_BUBBLE.*op0=add'; ok $? "the breakdown names events and ops"
printf '%s\n' "$out" | sed -n 3p | grep -q 'modes=U,VU'; ok $? "the breakdown shows the counted modes"

# the Topdown events of SPEC §3, as README's quick start encodes them
run_ok "the Topdown events encode" $H encode rob_commitInstr INST_SPEC RECOVERY_BUBBLE BR_MIS_PRED TOTAL_FLUSH EXEC_STALL_CYCLE MEMSTALL_STORE MEMSTALL_L1MISS MEMSTALL_L2MISS MEMSTALL_L3MISS MEMSTALL_ANY_LOAD Front_Bubble Fetch_Latency_Bound
[ "$(wc -l < "$tap_out")" -eq 13 ]; ok $? "13 Topdown lines"

# JSON
$H encode --json 'ifu_req & ifu_miss' 'load_s0_in_fire:k' > "$tap_out"; ok $? "--json exits 0"
$J --lines < "$tap_out" >/dev/null; ok $? "--json is one valid JSON object per line"
v=$(head -1 "$tap_out" | $J value ops.0.name events.1.name bank | tr '\n' ' ')
[ "$v" = "0x4000010000000c02 and ifu_miss frontend " ]; ok $? "JSON fields: value, ops, events, bank ($v)"
v=$(tail -1 "$tap_out" | $J modifiers modes.# inh.UINH expression | tr '\n' ' ')
[ "$v" = "k 2 true load_s0_in_fire:k " ]; ok $? "JSON modes and INH ($v)"

# bad input: non-zero, one line naming the problem, nothing on stdout
run_fails_with "unknown event, closest names" "did you mean ifu_miss" $H encode ifu_mis
run_fails_with "unknown bank" "unknown bank 'fronted'" $H encode fronted:ifu_miss
run_fails_with "index out of range" "bank frontend has events 0-57" $H encode frontend:58
run_fails_with "two banks" "one counter sees one bank" $H encode 'ifu_miss + rob_commitInstr'
run_fails_with "more than four events" "at most 4" $H encode 'ifu_req+ifu_miss+itlb_access+itlb_miss+BpInstr'
run_fails_with "the tree cannot express it" "(E0 op0 E1) op2 (E2 op1 E3)" $H encode '(ifu_req|ifu_miss|itlb_miss)&itlb_access'
run_fails_with "unbalanced parentheses, with position" "unbalanced parentheses: the '(' at column 1 is never closed" $H encode '(ifu_req'
run_fails_with "stray ')', with position" "column 8: unbalanced" $H encode 'ifu_req)'
run_fails_with "syntax error position" "column 9: expected an event after '+'" $H encode 'ifu_req + '
run_fails_with "empty expression" "empty event expression" $H encode ''
run_fails_with "unknown modifier" "unknown modifier 'z'" $H encode ifu_req:z
run_fails_with "contradictory modifier" "contradictory" $H encode ifu_req:mG
run_fails_with "modifiers that disagree" "contradict" $H encode 'ifu_req:u | ifu_miss:k'
run_fails_with "raw wider than 64 bits" "wider than 64 bits" $H encode r10000000000000000
run_fails_with "no expression" "no expression given" $H encode
# a bad item among good ones: the good ones print, the bad one does not
$H encode ifu_req nosuch ifu_miss > "$tap_out" 2> "$tap_err"; rc=$?
[ $rc -eq 1 ] && [ "$(wc -l < "$tap_out")" -eq 2 ] && [ "$(wc -l < "$tap_err")" -eq 1 ]; ok $? "bad item skipped, others printed, exit 1"
$H encode --json ifu_req nosuch > "$tap_out" 2>/dev/null
$J --lines < "$tap_out" > /dev/null && [ "$(wc -l < "$tap_out")" -eq 1 ]; ok $? "--json stays valid when an item fails"
done_testing

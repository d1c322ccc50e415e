#!/bin/sh
# Kunminghu events as XiangShan's RTL builds them (shared/xiangshan/README.md),
# seen from the command line: the undefined cache index is refused, the
# misleading events are marked in list --details and noted when a run
# programs one, the design document's old name still counts, and the
# emulator counts what the RTL counts (0 for a wired-0 event, the twin's
# count for a duplicate).
. "$top_srcdir/tests/lib.sh"
H=$HPMSTAT
notes=$(mktemp)
trap 'main_shell && rm -f "$tap_out" "$tap_err" "$notes"' EXIT

run_fails_with "encode refuses cache 68 (the CSR copies 68 entries)" "undefined" $H encode Slice3_l2_cache_inv
run_fails_with "stat refuses an expression that uses it" "undefined" \
	$H stat -e 'Slice0_l2_cache_inv + Slice3_l2_cache_inv' --emu-cycles 1e5
out=$($H encode icache_miss_cnt)
case "$out" in "0x4000000000000017  icache_miss_bubble  "*) r=0 ;; *) r=1 ;; esac
ok $r "the design document's icache_miss_cnt encodes to icache_miss_bubble ($out)"
out=$($H list --details 2>&1)
printf '%s\n' "$out" | grep -A2 '^  IBuffer_full ' | grep -q 'note: frontend:20 IBuffer_full always reads 0'
ok $? "list --details marks IBuffer_full as never counting"
printf '%s\n' "$out" | grep -A2 '^  Slice3_l2_cache_inv ' | grep -q 'note: cache:68 .*undefined'
ok $? "list --details marks cache 68 undefined"
printf '%s\n' "$out" | grep -q '^  icache_miss_cnt  *frontend:23 '
ok $? "list shows icache_miss_cnt, the document's name, at frontend:23"
# the events whose document reading the RTL contradicts, by
# shared/xiangshan/README.md's words: list's own line says what the RTL counts
desc() { printf '%s\n' "$out" | grep "^  $1 " | head -1; }
desc MEMSTALL_STORE | grep -q 'no store issued and the store queue not empty, however many other micro-ops issued'
ok $? "list: MEMSTALL_STORE counts cycles with no store issued, the store queue not empty"
desc EXEC_STALL_CYCLE | grep -q 'fewer than 4 micro-ops issued'
ok $? "list: EXEC_STALL_CYCLE is fewer than 4 micro-ops issued"
desc MEMSTALL_ANY_LOAD | grep -q 'from the load queue'
ok $? "list: MEMSTALL_ANY_LOAD comes from the load queue, unlike the L1MISS-L3MISS terms"
r=0
for k in 0 1 2 3; do
	desc Slice${k}_l2_cache_long_miss | grep -q 'MSHRs freed more than 200 cycles after their allocation' || r=1
done
ok $r "list: SliceN_l2_cache_long_miss counts MSHRs freed more than 200 cycles after allocation"
# kunminghu-v3's copies of these v2 readings say whose RTL was read
desc3=$($H list --pmu kunminghu-v3 2>&1 | grep -E '^  (MEMSTALL_STORE|MEMSTALL_ANY_LOAD|EXEC_STALL_CYCLE|Slice[0-3]_l2_cache_long_miss) ')
[ "$(printf '%s\n' "$desc3" | wc -l)" = 7 ] &&
	! printf '%s\n' "$desc3" | grep -v -q "what kunminghu-v2's RTL does; not re-read on kunminghu-v3"
ok $? "list --pmu kunminghu-v3: the 7 RTL readings say they are kunminghu-v2's"

# one emulated run: each misleading event is noted once, on stderr
$H stat -x, -e IBuffer_full,ifu_req_cacheline_0_hit,ifu_req_cacheline_1_hit,IBuffer_full \
	-e Slice0_l2_cache_rd_refill,Slice0_l2_cache_refill,Slice0_l2_cache_wr_refill \
	--emu-cycles 2e5 -o "$tap_out" 2>"$notes"
ok $? "stat counts them"
out_is "one note per distinct misleading event" "4" sh -c "grep -c '^hpmstat stat: note: ' '$notes'"
grep -q "note: 'IBuffer_full': frontend:20 IBuffer_full always reads 0" "$notes"; ok $? "the note says IBuffer_full reads 0"
count() { grep ",$1," "$tap_out" | head -1 | cut -d, -f1; }
out_is "IBuffer_full counts 0" "0" count IBuffer_full
[ "$(count ifu_req_cacheline_0_hit)" = "$(count ifu_req_cacheline_1_hit)" ] && [ "$(count ifu_req_cacheline_1_hit)" -gt 0 ]
ok $? "ifu_req_cacheline_0_hit counts what ifu_req_cacheline_1_hit counts ($(count ifu_req_cacheline_0_hit))"
[ "$(count Slice0_l2_cache_rd_refill)" = "$(count Slice0_l2_cache_refill)" ] && [ "$(count Slice0_l2_cache_refill)" -gt 0 ]
ok $? "Slice0_l2_cache_rd_refill counts every refill ($(count Slice0_l2_cache_refill))"
out_is "Slice0_l2_cache_wr_refill counts 0" "0" count Slice0_l2_cache_wr_refill
$H stat -e r4400000000000044 --emu-cycles 1e5 >/dev/null 2>"$tap_err"
grep -q "warning: 'r4400000000000044': EVENT0 = 68 .*mhpmcounter27-31.*undefined" "$tap_err"
ok $? "a raw value with EVENTn = 68 warns that a cache counter's count is undefined"
done_testing

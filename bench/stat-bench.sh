#!/bin/sh
# stat-bench.sh: the performance targets of hpmstat stat (issue 4), measured
# and printed. Usage: sh bench/stat-bench.sh [HPMSTAT] [BENCH_RUNTIME]
#  1. `hpmstat stat -e task-clock -- true`: median wall time at most half of
#     `perf stat -e task-clock -- true` in the same run, and no more peak RSS;
#  2. -I 100 with 29 Kunminghu events on the emulator plus 4 software events
#     while a command sleeps 10 s: hpmstat's own CPU at most 1% of one core;
#  3. --topdown=3 over 1e9 emulated cycles in under 2 s wall.
H=${1:-src/hpmstat}
R=${2:-bench/bench-runtime}
N=${STAT_BENCH_RUNS:-101}
fail=0

echo "hpmstat stat benchmarks on $(uname -m), $(nproc) cores, $(perf --version 2>/dev/null)"

# 1. start-up cost against perf, same machine, same run
h=$($R $N "$H" stat -e task-clock -- true) || exit 1
p=$($R $N perf stat -e task-clock -- true) || exit 1
hm=${h#median_us=}; hm=${hm%% *}; hr=${h#*peak_rss_kb=}; hr=${hr%% *}
pm=${p#median_us=}; pm=${pm%% *}; pr=${p#*peak_rss_kb=}; pr=${pr%% *}
ratio=$(awk -v a="$hm" -v b="$pm" 'BEGIN{printf "%.2f", a / b}')
printf '1. -e task-clock -- true, %s runs: hpmstat median %s us, peak RSS %s KiB; perf median %s us, peak RSS %s KiB; ratio %s (target <= 0.50, RSS <= perf)\n' \
	"$N" "$hm" "$hr" "$pm" "$pr" "$ratio"
awk -v r="$ratio" -v a="$hr" -v b="$pr" 'BEGIN{exit !(r <= 0.5 && a <= b)}' || fail=1

# 2. interval mode, 29 Kunminghu events (every counter) + 4 software events
ev="ifu_req,ifu_miss,Front_Bubble,Fetch_Latency_Bound,BpInstr,BpWrong,itlb_access,itlb_miss"
ev="$ev,rob_commitInstr,INST_SPEC,RECOVERY_BUBBLE,BR_MIS_PRED,TOTAL_FLUSH,EXEC_STALL_CYCLE,MEMSTALL_STORE,MEMSTALL_L1MISS"
ev="$ev,MEMSTALL_ANY_LOAD,load_s0_in_fire.0,load_s0_in_fire.1,load_s0_in_fire.2,dtlb_ld_access,dtlb_ld_miss,sbuffer_req_valid,sbuffer_req_fire"
ev="$ev,Slice0_l2_cache_access,Slice1_l2_cache_access,Slice2_l2_cache_access,Slice3_l2_cache_access,Slice0_l2_cache_miss"
ev="$ev,task-clock,page-faults,context-switches,cpu-migrations"
secs=${STAT_BENCH_SECONDS:-10}
/usr/bin/time -f '%U %S' -o /tmp/stat-bench.$$ "$H" stat -I 100 -x, -e "$ev" -- sleep "$secs" 2>/dev/null
cpu=$(awk -v s="$secs" '{printf "%.3f", 100 * ($1 + $2) / s}' /tmp/stat-bench.$$)
rm -f /tmp/stat-bench.$$
printf '2. -I 100, 29 emulated + 4 software events, %s s of sleep: hpmstat CPU %s%% of one core (target <= 1%%)\n' "$secs" "$cpu"
awk -v c="$cpu" 'BEGIN{exit !(c <= 1)}' || fail=1

# 3. Topdown level 3 over 1e9 emulated cycles
t=$($R 3 "$H" stat --topdown=3 --emu-cycles 1e9) || exit 1
tm=${t#median_us=}; tm=${tm%% *}
printf '3. --topdown=3 over 1e9 emulated cycles: median %s s wall of 3 runs (target < 2 s)\n' "$(awk -v u="$tm" 'BEGIN{printf "%.3f", u / 1e6}')"
awk -v u="$tm" 'BEGIN{exit !(u < 2e6)}' || fail=1

[ $fail -eq 0 ] && echo "targets: met" || echo "targets: NOT met"
exit $fail

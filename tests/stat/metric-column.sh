#!/bin/sh
# metric-column.sh: -M's metrics where perf prints them (issue 33 item 8):
# perf 6.1's printout and perf_stat__print_shadow_stats put a metric in the
# '#' column of the first event it reads, further metrics of that event on
# lines of their own with blank count columns (new_line_std), "%8.1f" and
# "unit  name" for a metric with a ScaleUnit (generic_metric); CSV puts
# its metric-value and metric-unit fields on the event's row (further ones
# after empty counter fields), JSON its keys in the event's object. The
# column is checked against perf's own '#' column (task-clock here), the
# figure against the printed counts. --topdown keeps its tree.
. "$top_srcdir/tests/lib.sh"
H=$HPMSTAT
J=$JSONCHECK
scratch_dir
E="--emu-cycles 1e6"

# std: ipc = rob_commitInstr / cycles and tma_retiring, both read
# rob_commitInstr first: on its row and on the next line
$H stat -M ipc,tma_retiring $E -- true 2>"$dir/std" >/dev/null
ok $? "stat -M ipc,tma_retiring exits 0"
! grep -Eq '^ +(ipc|tma_retiring) ' "$dir/std"
ok $? "std: no metric on a row of its own"
row=$(grep -E '^ +[0-9]+ +rob_commitInstr +# ' "$dir/std")
next=$(grep -A1 -E '^ +[0-9]+ +rob_commitInstr +# ' "$dir/std" | tail -1)
inst=$(echo "$row" | awk '{ print $1 }')
cyc=$(awk '$2 == "cycles" { print $1 }' "$dir/std")
case "$row" in *" ipc "*) r=0 ;; *) r=1 ;; esac
case "$next" in *" # "*" tma_retiring "*) ;; *) r=1 ;; esac
ok $r "std: ipc beside rob_commitInstr, tma_retiring on the line under it"
[ -n "$next" ] && [ "$(echo "$next" | cut -c1-56 | tr -d ' ')" = "" ]; ok $? "std: that line's count columns are blank"
want=$(awk -v i="$inst" -v c="$cyc" 'BEGIN { if (c > 0) printf "%.1f per cycle  ipc", i / c }')
case "$row" in *"# "*"$want "*) r=0 ;; *) r=1 ;; esac
ok $r "std: '$want' (perf's %8.1f and unit  name; $inst / $cyc)"
# the '#' where perf puts it, on both lines
col_row=$(echo "$row" | awk '{ print index($0, "#") }')
col_next=$(echo "$next" | awk '{ print index($0, "#") }')
[ "${col_row:-0}" -gt 0 ] && [ "$col_row" = "$col_next" ]; ok $? "std: one '#' column ($col_row, $col_next)"
if command -v perf >/dev/null 2>&1 && perf stat -e task-clock true 2>"$dir/perf" >/dev/null; then
	col_perf=$(awk '/task-clock/ { print index($0, "#") }' "$dir/perf")
	[ -n "$col_perf" ] && [ "$col_row" = "$col_perf" ]
	ok $? "std: in perf's '#' column (perf: $col_perf, hpmstat: $col_row)"
else
	skip "perf stat does not run here"
fi
grep -q 'rob_commitInstr .*\[emu\]$' "$dir/std" && echo "$next" | grep -q '\[emu\]$'
ok $? "std: both lines marked [emu]"

# a level of nodes still has its bottleneck, on the node's line
$H stat -M TopdownL1 $E -- true 2>"$dir/l1" >/dev/null
[ "$(grep -c '<==' "$dir/l1")" = 1 ] && [ "$(grep -c ' # .* % slots  tma_' "$dir/l1")" = 4 ]
ok $? "std: -M TopdownL1's four nodes in the '#' column, one <=="

# CSV: perf's fields, the metric on the event's row
$H stat -x, -M ipc,tma_retiring $E -- true 2>"$dir/csv" >/dev/null
awk -F, '$3 == "rob_commitInstr" { ok = NF == 7 && $7 == "per cycle  ipc" && $6 ~ /^[0-9.]+$/ }
	END { exit !ok }' "$dir/csv"
ok $? "CSV: ipc's metric-value and metric-unit on rob_commitInstr's row"
awk -F, '/^#/ { next } $7 ~ /tma_retiring$/ { ok = NF == 7 && $1 $2 $3 $4 $5 == "" } END { exit !ok }' \
	"$dir/csv"
ok $? "CSV: tma_retiring on a row of perf's 7 fields, the counter fields empty"

# JSON: the metric's keys in the event's object
$H stat -j -M ipc $E -- true 2>"$dir/json" >/dev/null
"$J" --lines <"$dir/json" >/dev/null &&
	grep -q '"event" : "rob_commitInstr".*"metric-unit" : "per cycle ipc"' "$dir/json" &&
	! grep -q '^{"metric-value"' "$dir/json"
ok $? "JSON: ipc's metric-value and metric-unit in rob_commitInstr's object"

# --topdown: the tree as before, -M's metric among its rows
$H stat --topdown -M ipc $E -- true 2>"$dir/td" >/dev/null
grep -q '^ Topdown level 1' "$dir/td" && grep -Eq '^ +ipc +[0-9.]+ +per cycle' "$dir/td" &&
	! grep -q ' # .* ipc' "$dir/td"
ok $? "--topdown -M ipc: the tree and its rows, unchanged"

done_testing

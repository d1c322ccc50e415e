#!/bin/sh
# hpmstat stat's toplev options: -l N, --nodes, the descriptions -v prints
# for the bottleneck path, and --no-multiplex. Checked against independent
# truth: the Topdown tree of SPEC §3 (written out below), the descriptions
# in metrics.json, and the identity that an unmultiplexed count of the
# deterministic emulated stream is the count of a run that counts that
# event alone.
. "$top_srcdir/tests/lib.sh"
H=$HPMSTAT
J=$JSONCHECK
MJ=$top_srcdir/events/riscv/openxiangshan/kunminghu/metrics.json
scratch_dir
C="--emu-cycles 2e6"

# "name value" for every metric row of a -j output file
metrics() {
	awk '/"metric" : / {
		match($0, /"metric" : "[a-z0-9_]*"/); m = substr($0, RSTART + 12, RLENGTH - 13)
		match($0, /"metric-value" : [-0-9.e]*/); v = substr($0, RSTART + 17, RLENGTH - 17)
		print m, v }' "$1"
}
names() { metrics "$1" | cut -d' ' -f1 | tr '\n' ' ' | sed 's/ $//'; }
# the PublicDescription of metric $1 in metrics.json
pubdesc() {
	n=$($J '#' < "$MJ")
	k=0
	while [ $k -lt "$n" ]; do
		if [ "$($J $k.MetricName < "$MJ")" = "$1" ]; then
			$J $k.PublicDescription < "$MJ"
			return
		fi
		k=$((k + 1))
	done
}
# the JSON row of metric $2 in file $1
row_of() { grep -F "\"metric\" : \"$2\"" "$1"; }

# SPEC §3's tree, in the order --topdown shows it (each node, then its children)
L1="tma_frontend_bound tma_bad_speculation tma_backend_bound tma_retiring"
L2="tma_frontend_bound tma_fetch_latency tma_fetch_bandwidth tma_bad_speculation"
L2="$L2 tma_branch_mispredicts tma_machine_clears tma_backend_bound tma_core_bound"
L2="$L2 tma_memory_bound tma_retiring"
MEM="tma_memory_bound tma_l1_bound tma_l2_bound tma_l3_bound tma_dram_bound tma_store_bound"

# ---------------------------------------------------------------- -l N
for spelling in "-l1:1" "-l 2:2" "-l3:3" "--level=2:2"; do
	opt=${spelling%:*} lv=${spelling##*:}
	# shellcheck disable=SC2086
	$H stat -j --json-extra $opt $C 2>"$dir/l.json" >/dev/null
	$H stat -j --json-extra --topdown=$lv $C 2>"$dir/t.json" >/dev/null
	metrics "$dir/l.json" > "$dir/l.m"
	metrics "$dir/t.json" > "$dir/t.m"
	[ -s "$dir/l.m" ] && cmp -s "$dir/l.m" "$dir/t.m"
	ok $? "'$opt' shows what --topdown=$lv shows, node for node and value for value"
done
[ "$(metrics "$dir/l.json" | wc -l)" -eq 10 ] && [ "$(names "$dir/l.json")" = "$L2" ]
ok $? "--level=2 is the level-2 tree of SPEC §3"
run_fails_with "-l 4 is refused naming the level" "-l '4': must be 1 to 3" $H stat -l 4 $C
run_fails_with "-l0 is refused naming the level" "-l '0'" $H stat -l0 $C
run_fails_with "-lx is refused naming the level" "-l 'x'" $H stat -lx $C

# ---------------------------------------------------------------- --nodes
sel() { # DESC WANT ARGS...: the node names of a -j run with ARGS
	d=$1 want=$2
	shift 2
	"$H" stat -j --json-extra "$@" $C 2>"$dir/n.json" >/dev/null
	got=$(names "$dir/n.json")
	[ "$got" = "$want" ]
	ok $? "$d"
	[ "$got" = "$want" ] || diag "got:  $got" "want: $want"
}
sel "--nodes '!Memory_Bound*' is Memory_Bound and its subtree only" "$MEM" \
	--nodes '!Memory_Bound*'
sel "--nodes 'Memory_Bound*' adds that subtree to level 1" \
	"tma_frontend_bound tma_bad_speculation tma_backend_bound $MEM tma_retiring" \
	--nodes 'Memory_Bound*'
sel "+NODE adds, -NODE and ^NODE remove, tma_ prefix optional" \
	"tma_frontend_bound tma_backend_bound tma_core_bound" \
	--nodes '+tma_core_bound,-Retiring,^bad_speculation'
sel "-l2 --nodes '-Frontend_Bound*' removes that subtree from level 2" \
	"tma_bad_speculation tma_branch_mispredicts tma_machine_clears tma_backend_bound tma_core_bound tma_memory_bound tma_retiring" \
	-l2 --nodes '-Frontend_Bound*'
sel "node names ignore case, as toplev's" "tma_memory_bound tma_l1_bound" \
	--nodes '!MEMORY_BOUND, TMA_L1_Bound'
sel "NODE/N matches only down to level N" "$L2" --nodes '!*/2'
sel "a removal wins whatever the order" "tma_frontend_bound tma_bad_speculation tma_backend_bound tma_memory_bound tma_l2_bound tma_l3_bound tma_dram_bound tma_store_bound tma_retiring" \
	--nodes '-L1_Bound,Memory_Bound*'

# the selected nodes have the values of the whole tree (neither run multiplexes)
$H stat -j --json-extra -l2 $C 2>"$dir/full.json" >/dev/null
$H stat -j --json-extra --nodes '!Core_Bound,Memory_Bound,Frontend_Bound' $C 2>"$dir/sub.json" >/dev/null
metrics "$dir/sub.json" > "$dir/sub.m"
metrics "$dir/full.json" | grep -E '^tma_(core_bound|memory_bound|frontend_bound) ' > "$dir/full.m"
[ "$(wc -l < "$dir/sub.m")" -eq 3 ] && cmp -s "$dir/sub.m" "$dir/full.m"
ok $? "--nodes values equal those of the same nodes in the whole tree"
# the bottleneck path starts at the top of the selection
$H stat -j --json-extra --nodes '!Memory_Bound*' $C 2>"$dir/mb.json" >/dev/null
row_of "$dir/mb.json" tma_memory_bound | grep -q '"bottleneck" : true'
ok $? "a selection below level 1 still marks its bottleneck"

run_fails_with "a misspelt node gets one line with a suggestion" \
	"unknown Topdown node 'Memroy_Bound'; did you mean 'Memory_Bound'?" \
	$H stat --nodes 'Memroy_Bound' $C
# the suggestion is spelt as the name was typed: the tree's names, tma_'s,
# one case, a dotted path
for typed in Memory_Bond:Memory_Bound tma_memory_bond:tma_memory_bound \
	MEMORY_BOND:MEMORY_BOUND Dram_Bond:DRAM_Bound \
	Backend_Bound.Memory_Bond:Backend_Bound.Memory_Bound; do
	run_fails_with "'${typed%%:*}': did you mean '${typed#*:}'?" \
		"unknown Topdown node '${typed%%:*}'; did you mean '${typed#*:}'?" \
		$H stat --nodes "${typed%%:*}" $C
	# and what it suggests is a node
	"$H" stat -j --json-extra --nodes "!${typed#*:}" $C 2>"$dir/n.json" >/dev/null
	[ "$(names "$dir/n.json")" = tma_$(echo "${typed#*:}" | sed 's/.*[.]//; s/^tma_//' |
		tr A-Z a-z) ]
	ok $? "... which --nodes takes"
done
# toplev's dotted names: the path from level 1
sel "a dotted name is the node at that path" "tma_memory_bound" \
	--nodes '!Backend_Bound.Memory_Bound'
# a removed parent leaves no child under another node's rows: the child is
# named by its path, at its parent's place
"$H" stat --topdown=3 --nodes '-Backend_Bound' $C >/dev/null 2>"$dir/float"
awk '/^   [A-Z]/ { top = $1 } /^     [A-Z]/ { print top, $1 }' "$dir/float" >"$dir/float.tree"
grep -q '^Backend_Bound.Memory_Bound L1_Bound$' "$dir/float.tree" &&
	grep -q '^   Backend_Bound.Core_Bound ' "$dir/float" &&
	! grep -Eq '^Bad_Speculation (Core|Memory)_Bound$' "$dir/float.tree"
ok $? "--nodes -Backend_Bound: Core_Bound and Memory_Bound by their paths, not under Bad_Speculation"
run_fails_with "an unknown node is named as written" "unknown Topdown node '+zzz'" \
	$H stat --nodes '+zzz' $C
run_fails_with "a selection of nothing is refused" "selects no Topdown node" \
	$H stat --nodes '-Frontend_Bound,-Bad_Speculation,-Backend_Bound,-Retiring' $C
run_fails_with "an empty list is refused" "--nodes: the list is empty" $H stat --nodes '' $C
run_fails_with "a bad /N is refused" "the level after '/' must be 1 to 3" \
	$H stat --nodes 'Memory_Bound/7' $C

# ---------------------------------------------------------------- -v descriptions
$H stat -j --json-extra -v -l3 $C 2>"$dir/v.json" >/dev/null
$J --lines < "$dir/v.json" > /dev/null
ok $? "-j -v output is JSON, line by line"
bn=$(grep '"bottleneck" : true' "$dir/v.json" | sed 's/.*"metric" : "\([a-z0-9_]*\)".*/\1/')
[ -n "$bn" ]
ok $? "the balanced profile has a bottleneck path ($(echo $bn))"
good=0
[ -n "$bn" ] || good=1
for m in $bn; do
	[ "$(row_of "$dir/v.json" "$m" | $J desc)" = "$(pubdesc "$m")" ] || good=1
done
ok $good "JSON: each node on the path has \"desc\", its PublicDescription in metrics.json"
[ -n "$bn" ] && [ "$(grep -c '"desc" : ' "$dir/v.json")" -eq "$(echo "$bn" | wc -w)" ]
ok $? "JSON: no other row has \"desc\""

$H stat -v -l3 $C 2>"$dir/v.txt" >/dev/null
good=0
[ -n "$bn" ] || good=1
for m in $bn; do
	disp=${m#tma_}
	# the lines under the node's row, up to the next row with a unit
	got=$(awk -v d="$disp" -v lines="$dir/desc.$disp" '
		found && (/% (slots|cycles)/ || /^$/) { exit }
		found { print > lines; sub(/^ +/, ""); printf "%s%s", sep, $0; sep = " " }
		tolower($1) == d && /<==/ { found = 1 }' "$dir/v.txt")
	want=$(pubdesc "$m")
	[ "$got" = "$want" ] || { good=1; diag "$m: got '$got'" "want '$want'"; }
done
ok $good "std: each node on the path is followed by its PublicDescription, wrapped"
cat "$dir"/desc.* 2>/dev/null | awk 'length($0) > 79 { bad = 1 } END { exit bad || NR < 2 }'
ok $? "std: description lines fit in 79 columns"
ret=$(pubdesc tma_retiring | cut -c1-60)
grep -q '^   Retiring ' "$dir/v.txt" && ! grep -qF "$ret" "$dir/v.txt"
ok $? "std: a node off the path gets no description"
$H stat -l3 $C 2>"$dir/nv.txt" >/dev/null
first=$(pubdesc "$(echo "$bn" | head -1)" | cut -c1-50)
[ -n "$bn" ] && grep -qF "$first" "$dir/v.txt" && ! grep -qF "$first" "$dir/nv.txt"
ok $? "std: no description without -v"
$H stat -x, -v -l3 $C 2>"$dir/v.csv" >/dev/null
[ -n "$bn" ] && grep -q 'tma_retiring' "$dir/v.csv" && ! grep -qF "$first" "$dir/v.csv"
ok $? "CSV: no description in any field or line"
$H stat -x, -l3 $C 2>"$dir/nv.csv" >/dev/null
grep -v '^#' "$dir/nv.csv" | grep -F 'tma_' > "$dir/nv.rows"
grep -v '^#' "$dir/v.csv" | grep -F 'tma_' > "$dir/v.rows"
[ -s "$dir/v.rows" ] && cmp -s "$dir/nv.rows" "$dir/v.rows"
ok $? "CSV: -v leaves the Topdown rows as they are"

# ---------------------------------------------------------------- --no-multiplex
# the premise: level 3 does not fit the backend counters at once
$H stat -j --json-extra -v -l3 $C 2>"$dir/mux.json" >/dev/null
grep '"event" : ' "$dir/mux.json" | grep -vq '"pcnt-running" : 100'
ok $? "without --no-multiplex, -l3 multiplexes some events"

$H stat -j --json-extra -v -l3 --no-multiplex $C -o "$dir/nm.json" 2>"$dir/nm.err"
ok $? "-l3 --no-multiplex runs"
grep -qx "Running 2 times to avoid multiplexing" "$dir/nm.err"
ok $? "it says on stderr that it runs twice, as toplev does"
nrows=$(grep -c '"event" : ' "$dir/nm.json")
nfull=$(grep '"event" : ' "$dir/nm.json" | grep -c '"pcnt-running" : 100')
[ "$nrows" -eq 13 ] && [ "$nfull" -eq "$nrows" ]
ok $? "every one of the $nrows event rows has pcnt-running 100"
grep -q '"multiplexed" : false' "$dir/nm.json" && ! grep -q '"multiplexed" : true' "$dir/nm.json"
ok $? "no metric is marked multiplexed"
# identity: each count is the count of a run that counts that event alone
good=0
grep '"event" : ' "$dir/nm.json" > "$dir/nm.rows" || good=1
while read -r line; do
	ev=$(echo "$line" | $J event)
	v=$(echo "$line" | $J counter-value)
	alone=$($H stat -j --json-extra --backend emu -e "$ev" $C 2>&1 >/dev/null | $J counter-value)
	[ "$v" = "$alone" ] || { good=1; diag "$ev: $v, alone $alone"; }
done < "$dir/nm.rows"
ok $good "each count equals the count of the same seed's stream with that event alone"
# and the nodes of levels 1-2 equal those of -l2, which fits without multiplexing
metrics "$dir/nm.json" | grep -E "^($(echo "$L2" | tr ' ' '|')) " > "$dir/nm.m"
metrics "$dir/full.json" > "$dir/l2.m"
[ "$(wc -l < "$dir/nm.m")" -eq 10 ] && cmp -s "$dir/nm.m" "$dir/l2.m"
ok $? "its level 1-2 values equal those of -l2 exactly"

$H stat -l3 --no-multiplex $C 2>"$dir/nm.txt" >/dev/null
grep -qF " (2 runs, one per counter group, to avoid multiplexing)" "$dir/nm.txt" &&
	! grep -q "multiplexed" "$dir/nm.txt"
ok $? "std: the header says so, and nothing says multiplexed"
$H stat -l3 --no-multiplex --record "$dir/nm.run" $C 2>/dev/null
[ "$($J no_multiplex_runs < "$dir/nm.run")" = 2 ]
ok $? "the run file records the 2 runs"
$H stat -j --json-extra -l2 --no-multiplex $C -o "$dir/nm2.json" 2>"$dir/nm2.err"
metrics "$dir/nm2.json" > "$dir/nm2.m"
[ -s "$dir/nm2.m" ] && ! grep -q Running "$dir/nm2.err" && cmp -s "$dir/nm2.m" "$dir/l2.m"
ok $? "when everything fits (-l2) it runs once and changes nothing"
$H stat -j --json-extra -l3 --no-multiplex -e task-clock -o "$dir/cmd.json" -- true 2>"$dir/cmd.err"
rc=$?
[ $rc -eq 0 ] && [ "$(grep -c '"event" : ' "$dir/cmd.json")" -ge 1 ] &&
	! grep '"event" : ' "$dir/cmd.json" | grep -vq '"pcnt-running" : 100'
ok $? "with a command, the command runs per group and every row counts 100%"

$H stat -l3 --dry-run --no-multiplex $C > "$dir/dry.txt" 2>&1
grep -qx "# run 1 of 2:" "$dir/dry.txt" && grep -qx "# run 2 of 2:" "$dir/dry.txt" &&
	! grep -q "multiplex groups" "$dir/dry.txt" &&
	[ "$(grep -c 'csrw mhpmevent11 ' "$dir/dry.txt")" -eq 2 ]
ok $? "--dry-run shows each run's own programming, none multiplexed"

run_fails_with "without a command, perf events cannot be run again" \
	"--no-multiplex needs a command" $H stat --no-multiplex -l3 -e task-clock $C
run_fails_with "-p cannot be run again" "--no-multiplex needs a command, not -p" \
	$H stat --no-multiplex -l3 -p $$
run_fails_with "-I is refused" "--no-multiplex and -I exclude each other" \
	$H stat --no-multiplex -l3 -I 100 $C

done_testing

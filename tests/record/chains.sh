#!/bin/sh
# tests/record/chains.sh: report's call graphs in perf's print types (-g
# graph, fractal, flat, folded), its print limit, its order of equal
# branches and the level of --children's entries no map holds, judged by
# Debian's perf report on the same files:
# - files made by hand (tests/record/chains.py: one process of
#   tests/record/tree.c, the samples' chains given), so that branches of
#   equal period meet on purpose: two functions of one DSO (perf: the
#   higher start first), an address no map holds against a named function
#   (perf: the unmapped one last, its DSO pointer NULL, whichever sample
#   came first), unmapped addresses among themselves (the higher first),
#   chains that end in the middle of another (perf's hit: flat and folded
#   list them, the fractal's "[...]" shows what its branches leave);
# - samples whose chain is empty (perf: no branch, only Self);
# - -F's columns, entries and order, with and without --sort;
# - a sample taken in the kernel whose user chain starts at an address no
#   map holds: perf gives that address's --children entry the level of the
#   last frame a map holds before it in the order it walks the chain
#   ([k] from the kernel's frame in callee order, [.] from main in caller
#   order: fill_callchain_info leaves the level as it was);
# - two processes: --children's order of equal entries of two threads, the
#   DSO column's width, the event's name without EVENT_DESC;
# - a recording of tree.c, sampled;
# each in callee and caller order, with and without --children, as
# percent, period and count, at thresholds and print limits;
# - -g address, srcline and branch: one line, non-zero, nothing else.
. "$top_srcdir/tests/lib.sh"
R=$top_srcdir/tests/record
. "$R/report-lib.sh"
command -v perf >/dev/null 2>&1 || skip_all "perf not installed"
command -v python3 >/dev/null 2>&1 || skip_all "python3 not installed"
tree_scratch
syms=$(nm tree | awk '$3 ~ /^(leaf|a|b|main)$/ { printf "%s=%s ", $3, $1 }')

# chains NAME CHAIN...: NAME.data of these samples (chains.py)
chains() {
	name=$1
	shift
	# shellcheck disable=SC2086 # syms: one word per symbol
	python3 "$R/chains.py" "$name.data" tree $syms -- "$@"
	ok $? "chains.py $name: $*"
}
# unmapped first, then a named caller: one sample each
chains u1 leaf,0x10 leaf,main
# the named caller first
chains u2 leaf,main leaf,0x10
# three equal callers of leaf under main, the unmapped one first
chains u3 leaf,0x10,main leaf,a,main leaf,b,main
# b's chains before a's (a's start is the lower); unmapped 0x30, 0x20,
# 0x10 and 0 in other orders; a chain that is a prefix of others (a,main)
# and one that stops at main; leaf's chains of 3, 2 and 1 samples
chains mix leaf,b,main leaf,a,main leaf,a,main a,main leaf,0x20 leaf,0x10 main \
	leaf,0x30,a,main b,main b,main leaf,b,main leaf,b,main leaf,0x0,main leaf,a
for file in u1 u2 u3 mix; do
	for order in caller callee; do
		for type in graph fractal flat folded; do
			same_report "$file: -g $type,0.5,$order --no-children" $file.data \
				-g "$type,0.5,$order" --no-children
		done
	done
done
for type in graph fractal flat folded; do
	same_report "mix: -g $type,0.5,caller --children" mix.data -g "$type,0.5,caller" --children
	same_report "mix: -g $type,0.5,callee --children" mix.data -g "$type,0.5,callee" --children
	for value in period count; do
		same_report "mix: -g $type,0,callee,$value --no-children" mix.data \
			-g "$type,0,callee,$value" --no-children
	done
	# a threshold that hides branches (the fractal's "[...]" then has
	# them), print limits of 1 and 2
	same_report "mix: -g $type,20,callee --no-children" mix.data -g "$type,20,callee" --no-children
	same_report "mix: -g $type,0,1,caller --no-children" mix.data -g "$type,0,1,caller" --no-children
	same_report "mix: -g $type,0,2,callee --no-children" mix.data -g "$type,0,2,callee" --no-children
	same_report "mix: -g $type,30,2,callee,count --no-children" mix.data \
		-g "$type,30,2,callee,count" --no-children
	same_report "mix: -g $type (prefix ${type%?}) --sort sym --no-children" mix.data \
		-g "${type%?}" --sort sym --no-children
done

# --children's entries of addresses no map holds: their level
ks=$(awk '$3 == "schedule" { print $1; exit }' /proc/kallsyms 2>/dev/null)
if [ -n "$ks" ] && [ "$ks" != 0000000000000000 ]; then
	chains level kernel,0x$ks,user,0x10,leaf,main leaf,main kernel,0x$ks,user,leaf,0x20,main
	for order in caller callee; do
		same_report "level: a kernel sample's unmapped user frames, --children -g $order" \
			level.data --children -g "$order"
	done
	# a kernel address below _text (cpu_entry_area's, where the entry
	# trampolines run): in no kernel map, perf's [unknown] and a raw address
	chains below kernel,0xfffffe0000003000,user,leaf,main leaf,main
	same_report "below: a kernel sample below _text --no-children" below.data --no-children
	same_report "below: a kernel sample below _text --children -g caller" below.data --children -g caller
else
	skip "the level of unmapped frames" "no kernel addresses in /proc/kallsyms"
fi

# two processes (commands one and two): --children's equal entries of
# two threads go by Self (perf's __hpp__sort_acc compares the depths of
# one thread's only, the entry's thread a key or not); an entry whose
# first sample has no symbol widens the DSO column to 16 when sym is no
# key too; the event's name from its attr (no EVENT_DESC): cpu-clock:u
chains two one/leaf,main two/0x10,main
for sort in comm,dso dso sym; do
	for ch in --children --no-children; do
		same_report "two: --sort $sort $ch" two.data --sort $sort $ch
		same_heads "two: --sort $sort $ch" two.data --sort $sort $ch
	done
done

# samples with an empty chain (nr 0: a dwarf sample whose stack the
# kernel did not copy) beside chains through the same function: perf's
# cursor is empty, so they count in their entry's Self and add no branch
# to any graph (the graph of leaf's Children entry starts below 100 %)
chains empty nochain:leaf leaf,a,main leaf,a,main nochain:a a,main leaf,b,main nochain:b
for ch in --children --no-children; do
	for order in caller callee; do
		for type in graph fractal flat folded; do
			same_report "empty chains: -g $type,0.5,$order $ch" empty.data \
				-g "$type,0.5,$order" $ch
		done
	done
done
"$HPMSTAT" report -i empty.data --format folded >empty.folded 2>empty.err
[ "$(grep -c '' empty.folded)" -eq 4 ] && grep -qx 'tree 3' empty.folded &&
	grep -qx 'tree;main;a;leaf 2' empty.folded
rc=$?
ok $rc "empty chains: --format folded has them as their command alone (stackcollapse-perf.pl's)"
[ $rc -eq 0 ] || diag "$(cat empty.folded empty.err)"

# -F as perf: its columns in its order and --sort's keys it does not name
# after them; the entries are the keys', none at all without a key (one
# row); the order --sort's keys first, then each -F column in turn (a
# value largest first, a key ascending); overhead_children outside
# --children is N/A
for F in "period,overhead" "sym,overhead" "dso,sym,overhead" "sample,sym" "comm,sym" \
	"pid,overhead" "overhead_children,sym" "sym,overhead_children,overhead" \
	"overhead,sym -s dso" "sym -s dso" "dso,overhead -s sym" "overhead,period -s comm" \
	"overhead_children,overhead,sym -s dso,comm"; do
	for file in mix two; do
		for ch in --children --no-children; do
			# shellcheck disable=SC2086 # F: -F's value, maybe -s and its
			same_report "$file: -F $F $ch" $file.data -F $F $ch
			# shellcheck disable=SC2086
			same_heads "$file: -F $F $ch" $file.data -F $F $ch
		done
	done
done

# a sampled recording: tree's a/b/leaf calls, and what the loader adds
if "$HPMSTAT" record -q -e cpu-clock:u -g -o t.data ./tree 400 2>rec.err; then
	for type in graph fractal flat folded; do
		same_report "recorded: -g $type --no-children" t.data -g "$type" --no-children
		same_report "recorded: -g $type,0,caller --no-children" t.data -g "$type,0,caller" \
			--no-children
		same_entries "recorded: -g $type,0.5,callee --children" t.data -g "$type,0.5,callee" \
			--children
	done
else
	skip "recorded print types" "cannot sample here: $(head -1 rec.err)"
fi

# perf's keys that hpmstat does not draw: refused, one line
for key in address srcline branch; do
	run_fails_with "-g graph,$key: refused" "-g 'graph,$key'" "$HPMSTAT" report -i u1.data \
		-g "graph,$key"
done
run_fails_with "-g graph,0.5,1.5: a print limit is a whole number" "print limit" \
	"$HPMSTAT" report -i u1.data -g graph,0.5,1.5
done_testing

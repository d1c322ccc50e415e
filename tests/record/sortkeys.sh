#!/bin/sh
# tests/record/sortkeys.sh: perf report's sort keys cpu, socket, dso_size
# and symbol_size (--sort and -F) and --hide-unresolved (-U), judged by
# Debian's perf report on the same files: an hpmstat record -g and a perf
# record -g file of two programs pinned to CPUs 0 and 1 (tree, and a
# stripped copy without a build id, whose functions no one can name), and
# a perf record -a file where perf may record system-wide:
# - the columns, their widths and cells (CPU 000, Socket -001 where the
#   file's CPU topology gives none: hpmstat record writes none), the
#   entries each key splits and their order, -n, -F with and without
#   --sort, --children (perf's entries of equal Children in any order) and
#   the graphs; perf's IPC column that a sort order naming "symbol" gets;
# - -U: the unnamed samples not counted (the Samples line, the shares),
#   their callers out of the chains;
# - CSV and JSON carry the keys' values; bad spellings: one line, non-zero.
. "$top_srcdir/tests/lib.sh"
R=$top_srcdir/tests/record
. "$R/report-lib.sh"
need_sampling
command -v taskset >/dev/null 2>&1 || skip_all "taskset not installed"
taskset -c 1 true 2>/dev/null || skip_all "no CPU 1 to pin a program to"
gcc -O0 -g -fno-omit-frame-pointer -o tree "$R/tree.c" || exit 1
# no build id: perf finds no copy of tree's in its cache to name it by
gcc -O0 -fno-omit-frame-pointer -Wl,--build-id=none -o tree-n "$R/tree.c" || exit 1
strip -o tree-s tree-n || exit 1
run='taskset -c 0 ./tree 300 & taskset -c 1 ./tree-s 300; wait'

"$HPMSTAT" record -q -e cpu-clock:u -g -o h.data sh -c "$run" 2>/dev/null
ok $? "hpmstat record -g of two programs on CPUs 0 and 1: exit 0"
# (a perf record beside other tests under make -j2 once left a file whose
# features perf itself could not read: up to three tries, until perf
# report sees both CPUs' samples in it)
for try in 1 2 3; do
	perf record -q -e cpu-clock:u -g --sample-cpu -o p.data sh -c "$run" </dev/null >/dev/null 2>&1
	[ "$(perf report -i p.data --stdio --sort cpu --no-children -g none </dev/null 2>/dev/null |
		grep -c '%  00[01]$')" -eq 2 ] && break
done

for f in h.data p.data; do
	# the points need both CPUs' samples and the stripped program's
	perf report -i $f --stdio --sort cpu --no-children -g none </dev/null 2>/dev/null |
		grep -c '%  00[01]$' >r.n
	perf report -i $f --stdio --comms tree-s --no-children -g none </dev/null 2>/dev/null |
		grep -c '\[\.\] 0x' >r.u
	[ "$(cat r.n)" -eq 2 ] && [ "$(cat r.u)" -gt 0 ]
	ok $? "$f: perf report sees samples on CPUs 0 and 1 ($(cat r.n)) and unnamed ones ($(cat r.u))"
	same_heads "$f --sort cpu,socket,dso_size,symbol_size" $f --sort cpu,socket,dso_size,symbol_size --no-children
	same_report "$f --sort cpu --no-children" $f --sort cpu --no-children
	same_report "$f --sort cpu,comm -n --no-children -g caller" $f --sort cpu,comm -n --no-children -g caller
	same_report "$f --sort socket --no-children" $f --sort socket --no-children
	# perf compares a caller's entry with a socket of 0: where the socket
	# is -1 (hpmstat's files) each frame adds the sample again, and a
	# chain's every tail is a branch of the graph: a chain of 127 frames
	# (the stripped program's first sample can have one, of zeros) nests
	# branches deeper than the 32 levels perf's graph marks (an int's
	# bits, shifted past them); --max-stack keeps them under
	same_entries "$f --sort socket --max-stack 24 (--children)" $f --sort socket --max-stack 24
	same_report "$f --sort dso_size --no-children" $f --sort dso_size --no-children
	same_report "$f --sort dso,dso_size --no-children -g none" $f --sort dso,dso_size --no-children -g none
	# (a sym key without dso before it: perf's sort__sym_cmp orders two
	# unnamed entries by address whatever their DSOs and a named one
	# against an unnamed one by DSO first, an order that is not one
	# (not transitive), so its rb-tree can hold one function's samples as
	# two entries, by the samples' order: one run in two of these files)
	same_report "$f --sort dso,sym,symbol_size --no-children" $f --sort dso,sym,symbol_size --no-children
	same_entries "$f --sort symbol_size (--children)" $f --sort symbol_size
	# perf's ipc_null key first among the columns' order: by the
	# function's DSO and start
	same_report "$f -F overhead,cpu --sort symbol_size --no-children" $f -F overhead,cpu \
		--sort symbol_size --no-children
	# (the two programs' entries: unnamed ones of two processes, sh's
	# and the loader's, of one sample each, are in the order of their
	# addresses in perf, of their file offsets in hpmstat)
	same_report "$f -F overhead,cpu,dso,sym --comms tree,tree-s --no-children" $f \
		-F overhead,cpu,dso,sym --comms tree,tree-s --no-children
	same_entries "$f -F overhead,cpu,dso,sym --comms tree,tree-s (--children)" $f \
		-F overhead,cpu,dso,sym --comms tree,tree-s
	same_report "$f -F overhead,sample,socket --sort cpu --no-children" $f -F overhead,sample,socket \
		--sort cpu --no-children
	same_entries "$f --sort cpu,dso,sym -g caller (--children)" $f --sort cpu,dso,sym -g caller
	# --- -U: the unnamed samples not counted
	same_heads "$f -U: the Samples line" $f -U --no-children
	same_report "$f -U --no-children" $f -U --no-children
	same_entries "$f --hide-unresolved (--children)" $f --hide-unresolved
	same_report "$f -U --sort dso --no-children -g caller" $f -U --sort dso --no-children -g caller
	same_report "$f -U --sort cpu,sym -n --comms tree-s --percentage relative --no-children" $f \
		-U --sort cpu,sym -n --comms tree-s --percentage relative --no-children
done

# --- system-wide, where perf may record it (the other processes' graphs
# left out: perf demangles C++ names, hpmstat does not)
if perf record -q -a -e cpu-clock -g -o a.data sh -c "$run" </dev/null >/dev/null 2>&1; then
	same_report "-a --sort cpu --no-children -g none" a.data --sort cpu --no-children -g none
	same_report "-a --sort socket,cpu --no-children -g none" a.data --sort socket,cpu --no-children -g none
	same_report "-a --sort cpu,comm --comms tree,tree-s --no-children" a.data --sort cpu,comm \
		--comms tree,tree-s --no-children
	same_report "-a -F overhead,cpu,sym --comms tree --no-children" a.data -F overhead,cpu,sym \
		--comms tree --no-children
else
	for p in "--sort cpu" "--sort socket,cpu" "--sort cpu,comm" "-F overhead,cpu,sym"; do
		skip "-a $p" "perf record -a not permitted here"
	done
fi

# --- CSV and JSON: the keys' values, perf's shares
perf report -i p.data --stdio --sort cpu,symbol_size --no-children -g none </dev/null 2>/dev/null |
	grep -v '^#' | grep -v '^$' | awk '{ print $1, $2, $3 }' | sort >r.perf
"$HPMSTAT" report -i p.data --sort cpu,sym_size --no-children --format csv </dev/null 2>r.err |
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ s = $c["symbol_size"] == "" ? "unknown" : $c["symbol_size"]
		  printf "%.2f%% %03d %s\n", $c["overhead"], $c["cpu"], s }' | sort >r.hpm
[ -s r.perf ] && cmp -s r.perf r.hpm
compared $? "--format csv --sort cpu,sym_size: perf's shares, CPUs and sizes"
"$HPMSTAT" report -i p.data --sort socket,dso_size --no-children --format json </dev/null >r.json 2>r.err
[ "$(grep -c '"socket": 0,' r.json)" -gt 0 ] && [ "$(grep -c '"dso_size": 4096' r.json)" -gt 0 ]
ok $? "--format json --sort socket,dso_size: the socket and the map's size of each entry"

# --- bad spellings
for a in "--sort cpux" "-F overhead,sockets" "--sort dso_size," "-s symbol_size,sym_size"; do
	"$HPMSTAT" report -i p.data $a >out 2>err
	[ $? -ne 0 ] && [ ! -s out ] && [ "$(wc -l <err)" -eq 1 ]
	ok $? "$a: one line, non-zero ($(cat err))"
done

done_testing

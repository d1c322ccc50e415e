#!/bin/sh
# tests/record/filters.sh: perf report's filters, --comms (-c), --pid,
# --tid, --dsos (-d), --symbols (-S), -C and --percentage, and perf's graphs
# under --sort sym, judged by Debian's perf report on the same files:
# - a file of three commands (sh -c './tree; ./nofp'): each filter keeps
#   perf's entries and no other, the shares of all the samples (perf's
#   default) or of the kept ones (--percentage relative, the graphs' still
#   of all); a list of one value names it above the columns ("# comm:
#   tree") and leaves its column out, as perf, unless that leaves none; a
#   --symbols entry that reads as hex is a sample address (perf's
#   setup_addrlist);
# - -C (--cpu): the other CPUs' samples are not counted;
# - --children: a filtered sample's callers' entries go with it; an
#   unnamed sampled function has a Children entry of its address beside
#   its own of its offset in the file, as perf's;
# - --sort sym: perf leaves the first frame of a graph's first run (the
#   entry's own function) out;
# - --format folded keeps perf script --comms's samples;
# - --symbol-filter (of the entries) and --showcpuutilization (sys, usr);
# - perf's Command column, as wide as the threads' last commands, and the
#   idle thread's name, swapper;
# - bad lists: one line, non-zero.
. "$top_srcdir/tests/lib.sh"
R=$top_srcdir/tests/record
. "$R/report-lib.sh"
need_sampling
build_tree_nofp

"$HPMSTAT" record -q -e cpu-clock:u -g -o m.data sh -c './tree 300; ./nofp 300' 2>/dev/null
ok $? "record -g of sh -c './tree; ./nofp': exit 0"
"$HPMSTAT" record -q -e cpu-clock:u -g -o t.data ./tree 500 2>/dev/null

# --- each filter, perf's entries and lines
same_report "--comms tree --no-children" m.data --comms tree --no-children
same_report "--comms tree,nofp --no-children -g caller" m.data --comms tree,nofp --no-children -g caller
same_report "-c nofp --no-children" m.data -c nofp --no-children
both_reports m.data --comms nosuch --no-children
[ ! -s r.perf ] && [ ! -s r.hpm ] && [ ! -s r.err ]
compared $? "--comms nosuch: no entry, as perf"
same_heads "--comms nosuch" m.data --comms nosuch --no-children
same_report "--dsos tree --no-children" m.data --dsos tree --no-children
same_entries "-d libc.so.6,tree (--children)" m.data -d libc.so.6,tree
# the program's path, as its map has it (a library's samples are too few
# to be sure of one)
same_report "--dsos $T/tree (the path) --no-children" m.data --dsos "$T/tree" --no-children
same_report "--symbols leaf --no-children" m.data --symbols leaf --no-children
same_report "-S leaf,main --no-children -g caller" m.data -S leaf,main --no-children -g caller
same_report "--symbols leaf,a (a: the address 0xa) --no-children" m.data --symbols leaf,a --no-children
# -G: the sample's own address, not its chain's
ip=$(perf script -i t.data -G -F ip,sym </dev/null 2>/dev/null | awk '$2 == "leaf" { print $1; exit }')
same_report "--symbols 0x$ip (a sample's address) --no-children" t.data --symbols "0x$ip" --no-children
pid=$(perf script -i m.data -F comm,pid </dev/null 2>/dev/null | awk '$1 == "tree" { print $2; exit }')
same_report "--pid $pid (tree's) --no-children" m.data --pid "$pid" --no-children
same_report "--tid $pid,1 --no-children -n" m.data --tid "$pid,1" --no-children -n
same_report "-c tree -d tree -S leaf: every column named, all shown" m.data -c tree -d tree -S leaf --no-children
same_report "--comms tree --sort comm: the only column shown" m.data --comms tree --sort comm --no-children
# -C: another CPU's samples are not counted at all (the shares are of
# the CPU's)
cpu=$(perf script -i m.data -F comm,cpu </dev/null 2>/dev/null | awk '$1 == "tree" { gsub(/[][]/, "", $2); print $2 + 0; exit }')
same_report "-C $cpu (a CPU of tree's) --no-children" m.data -C "$cpu" --no-children
same_report "--cpu $cpu --comms tree --no-children -g caller" m.data --cpu "$cpu" --comms tree --no-children -g caller
same_report "-C 0-$(($(getconf _NPROCESSORS_ONLN) - 1)) (every CPU) --no-children" m.data \
	-C "0-$(($(getconf _NPROCESSORS_ONLN) - 1))" --no-children
# --- the shares
same_report "--comms tree --percentage relative --no-children" m.data --comms tree --percentage relative --no-children
same_report "--dsos tree --percentage relative --no-children -g caller: the graph's shares of all" \
	m.data --dsos tree --percentage relative --no-children -g caller
same_report "--comms nofp --percentage absolute --no-children" m.data --comms nofp --percentage absolute --no-children
# --- the header: the named columns, the samples counted
same_heads "--comms tree --dsos tree" m.data --comms tree --dsos tree --no-children
same_heads "--symbols leaf --percentage relative" m.data --symbols leaf --percentage relative --no-children
same_heads "--comms tree,nofp" m.data --comms tree,nofp
# --- --children: a filtered sample's callers go with it
same_entries "--comms tree (--children)" m.data --comms tree
same_entries "--symbols leaf --comms tree --children -g caller,0" m.data --symbols leaf --comms tree --children -g caller,0
same_entries "--dsos tree --percentage relative (--children)" m.data --dsos tree --percentage relative
# a stripped program: its sampled functions are unnamed (a copy without a
# build id: perf names a stripped file from the unstripped one its
# build-id cache holds when a perf record of another test cached one of
# the same id; seen once in a make check)
gcc -O0 -fno-omit-frame-pointer -Wl,--build-id=none -o tree-n "$R/tree.c" || exit 1
strip -o tree-s tree-n || exit 1
"$HPMSTAT" record -q -e cpu-clock:u -g -o s.data ./tree-s 300 2>/dev/null
# (the program's own samples: a sample in libc's PLT is unnamed in perf
# 6.1, NAME@plt in hpmstat, and body leaves those lines out)
same_entries "stripped: an unnamed sampled function's address entry beside its own (--children)" \
	s.data --comms tree-s --dsos tree-s
# --- --sort sym: the graph without the entry's own first frame
same_entries "--sort sym (--children)" t.data --sort sym
same_report "--sort sym --no-children -g caller" t.data --sort sym --no-children -g caller
same_report "--sort sym,dso --no-children" t.data --sort sym,dso --no-children
# --- the folded stacks: perf script's samples of the command
perf script -i m.data -c tree -F comm,ip,sym --no-inline </dev/null 2>/dev/null | awk '
	function emit(  s, i) { s = comm; for (i = n - 1; i >= 0; i--) s = s ";" f[i]; print s; n = 0 }
	/^[^ \t]/ { if (n) emit(); comm = $1; n = 0; next }
	NF >= 2 { f[n++] = $2 }
	NF == 0 { if (n) emit() }
	END { if (n) emit() }' | sort | uniq -c | awk '{ print $2, $1 }' | no_plt_chains >r.perf
"$HPMSTAT" report -i m.data --format folded --comms tree </dev/null 2>r.err | no_plt_chains |
	sort >r.hpm
[ -s r.perf ] && cmp -s r.perf r.hpm
compared $? "--format folded --comms tree: perf script --comms tree's chains"
# --- --symbol-filter: of the entries, not the samples (perf's
# hists__filter_entry_by_symbol): an unnamed function's entry goes too, the
# "Samples" line keeps what the sample filters keep, and with --percentage
# relative the total is the kept entries' period while the graphs'
# threshold stays a share of the samples'
same_report "--symbol-filter lea --no-children" m.data --symbol-filter lea --no-children
same_report "--symbol-filter=a --no-children -n" m.data --symbol-filter=a --no-children -n
same_report "--symbol-filter lea --percentage relative --no-children" m.data \
	--symbol-filter lea --percentage relative --no-children
same_heads "--symbol-filter lea --percentage relative" m.data --symbol-filter lea \
	--percentage relative --no-children
same_report "--symbol-filter a --comms nofp --percentage relative --no-children" m.data \
	--symbol-filter a --comms nofp --percentage relative --no-children
same_heads "--symbol-filter a --comms nofp --percentage relative" m.data --symbol-filter a \
	--comms nofp --percentage relative --no-children
same_entries "--symbol-filter ma (--children)" m.data --symbol-filter ma
both_reports m.data --symbol-filter nosuch --no-children
[ ! -s r.perf ] && [ ! -s r.hpm ] && [ ! -s r.err ]
compared $? "--symbol-filter nosuch: no entry, as perf"
# --- --showcpuutilization: sys and usr, the shares of the entry's
# samples taken in the kernel and in user mode, on a file with both
"$HPMSTAT" record -q -e cpu-clock -g -o k.data sh -c \
	'./tree 300; dd if=/dev/zero of=/dev/null bs=64k count=20000' 2>/dev/null
same_report "--showcpuutilization --no-children" k.data --showcpuutilization --no-children
same_heads "--showcpuutilization" k.data --showcpuutilization --no-children
same_report "--showcpuutilization -n --show-total-period --no-children" k.data \
	--showcpuutilization -n --show-total-period --no-children
same_entries "--showcpuutilization (--children)" k.data --showcpuutilization
same_report "--showcpuutilization -F overhead,sym: -F's columns only" k.data \
	--showcpuutilization -F overhead,sym --no-children
# sys + usr is the Overhead of each entry, to the rounding (no guest or
# hypervisor samples here); and some entries are the kernel's, some not
"$HPMSTAT" report -i k.data --showcpuutilization --no-children -g none </dev/null 2>r.err |
	grep -v '^#' | grep '%' >r.hpm
awk '{ o = $1 + 0; s = $2 + 0; u = $3 + 0; d = o - s - u; if (d < 0) d = -d
	if (d > 0.015) bad++; if (s > 0) ks++; if (u > 0) us++ }
	END { exit !(NR > 0 && !bad && ks && us) }' r.hpm
ok $? "--showcpuutilization: sys + usr = Overhead on each of $(wc -l <r.hpm) lines, both modes seen"
# --- perf's Command column: as wide as the threads' last commands
# (thread__comm_len), an entry of an earlier, longer one cut to it
cp /bin/sh ./longcommandname
"$HPMSTAT" record -q -e cpu-clock -o x.data ./longcommandname -c \
	'i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done; exec ./tree 200' 2>/dev/null
same_report "a command that execs a shorter one: perf's cut Command column" x.data --no-children \
	--sort comm,dso
same_heads "a command that execs a shorter one" x.data --no-children --sort comm,dso
# --- the idle thread of a system-wide recording is perf's "swapper" (a
# machine kept busy, as under CI's parallel tests, may sample no idle
# time: then there is nothing to name)
"$HPMSTAT" record -q -a -e cpu-clock -o a.data -- sleep 0.5 2>/dev/null
if perf report -i a.data --stdio --sort comm --no-children </dev/null 2>/dev/null |
	grep -q '%  swapper *$'; then
	same_report "-a: the idle thread is swapper, as perf names it" a.data --sort comm \
		--no-children --comms swapper
else
	skip "-a: the idle thread is swapper" "no idle sample in this recording (a busy machine)"
fi
# --- bad values; -C of a file whose samples have no CPU (perf record
# without -a), or of a CPU the recording did not have
# (the refusal is the last line: a note on the file may come before it,
# as "feature 11 (cmdline) is malformed" did once in CI, not seen again)
perf record -q -e cpu-clock -o nocpu.data ./tree 100 </dev/null >/dev/null 2>&1
"$HPMSTAT" report -i nocpu.data -C 0 >out 2>err
rc=$?
[ $rc -ne 0 ] && [ ! -s out ] && [ "$(grep -c -e '-C:' err)" -eq 1 ] &&
	tail -1 err | grep -q "^hpmstat report: -C: the samples of 'cpu-clock' do not carry their CPU"
rc=$?
ok $rc "-C of a file without the samples' CPU: refused, non-zero ($(tail -1 err))"
[ $rc -eq 0 ] && [ "$(wc -l <err)" -eq 1 ] ||
	diag "$(cat err)" "$(perf report -i nocpu.data --header-only </dev/null 2>&1 | grep -E 'cmdline|perf version')"
for a in "--pid abc" "--tid 1,x" "--percentage half" "-C x" "-C 65535"; do
	"$HPMSTAT" report -i m.data $a >out 2>err
	[ $? -ne 0 ] && [ ! -s out ] && [ "$(wc -l <err)" -eq 1 ]
	ok $? "$a: one line, non-zero ($(cat err))"
done

done_testing

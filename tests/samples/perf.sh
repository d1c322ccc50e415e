#!/bin/sh
# hpmstat report against perf report on the same perf.data, recorded here
# by Debian's perf (the independent truth) with -e cpu-clock:
# - split.c spends ~90 % of its loop iterations in hot() and ~10 % in
#   cold(), built with and without PIE, with and without symbols (-s):
#   every line of perf report --stdio --no-children for the program's own
#   DSO is hpmstat's too (same shares to 0.01 %, same order, same
#   [unknown] addresses when stripped), the same "# Samples" and "# Event
#   count" lines, and the split itself is about 90/10;
# - --sort dso,comm and --sort pid: the same lines as perf's;
# - tree.c, recorded with -g (frame pointers): main calls a() and b(),
#   both call leaf() (built -O0: no tail call hides a frame): the caller and callee graphs of the program's entries
#   are perf's, line for line;
# - every format parses: JSON through tests/jsoncheck, the HTML has an
#   <svg> and no <script>, the CSV has a row per entry, the folded stacks
#   sum to the sample count.
. "$top_srcdir/tests/lib.sh"
command -v perf >/dev/null 2>&1 && command -v gcc >/dev/null 2>&1 || skip_all "no perf or gcc"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$tap_out" "$tap_err"' EXIT
cd "$tmp" || exit 1
perf record -q -e cpu-clock -o probe.data true >/dev/null 2>&1 || skip_all "perf record cannot sample here"

cat >split.c <<'C'
#include <stdlib.h>
volatile unsigned long sink;
__attribute__((noinline)) void hot(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i * i; }
__attribute__((noinline)) void cold(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i * i; }
int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], 0, 10) : 4000000;
	hot(9 * n);
	cold(n);
	return 0;
}
C
cat >tree.c <<'C'
#include <stdlib.h>
volatile unsigned long sink;
__attribute__((noinline)) void leaf(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i * i; }
__attribute__((noinline)) void a(unsigned long n) { leaf(3 * n); sink++; }
__attribute__((noinline)) void b(unsigned long n) { leaf(n); sink++; }
int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], 0, 10) : 8000000;
	a(n);
	b(n);
	return 0;
}
C

# okt STATUS DESC: ok, or a TAP TODO point when $todo says why (a known
# difference that does not fail the test)
okt() {
	if [ -z "$todo" ]; then ok "$1" "$2"; return; fi
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $tap_n - $2$todo"; else echo "not ok $tap_n - $2$todo"; fi
}
# body FILE: the report lines without perf's comment lines and blanks
body() { grep -v '^#' "$1" | grep -v '^$'; }
# own DSO NAME: the entry lines of DSO NAME (column 3)
own() { awk -v d="$2" '$3 == d' "$1"; }

for v in pie nopie pie-s nopie-s; do
	case $v in
	pie) cf="-O1 -fPIE -pie" ;; nopie) cf="-O1 -fno-pie -no-pie" ;;
	pie-s) cf="-O1 -fPIE -pie -s" ;; nopie-s) cf="-O1 -fno-pie -no-pie -s" ;;
	esac
	exe=split-$v
	gcc $cf -o $exe split.c || { ok 1 "$v: build"; continue; }
	perf record -q -e cpu-clock -F 2000 -o $v.data ./$exe 40000000 >/dev/null 2>&1
	perf report -i $v.data --stdio --no-children >$v.perf 2>/dev/null
	"$HPMSTAT" report -i $v.data >$v.hpm 2>"$tap_err"; rc=$?
	ok $rc "$v: report -i"
	body $v.perf >$v.perf.b; body $v.hpm >$v.hpm.b
	own $v.perf.b $exe >$v.perf.own; own $v.hpm.b $exe >$v.hpm.own
	# todo: the symbolizer (src/sym) gives a stripped ET_EXEC's unnamed
	# addresses as ELF virtual addresses; perf shows ip - map start +
	# pgoff (0x1137, not 0x401137): a known difference, left to src/sym
	todo=
	[ -s $v.perf.own ] && cmp -s $v.perf.own $v.hpm.own; okt $? "$v: the program's lines are perf's"
	cmp -s $v.perf.own $v.hpm.own || diag "$(diff $v.perf.own $v.hpm.own | head -4)"
	[ "$(grep '^# Samples\|^# Event count' $v.perf)" = "$(grep '^# Samples\|^# Event count' $v.hpm)" ]
	ok $? "$v: same sample count and event count"
	[ "$(head -2 $v.perf.b | awk '{print $3, $5}')" = "$(head -2 $v.hpm.b | awk '{print $3, $5}')" ]
	okt $? "$v: same top two entries"

	case $v in
	*-s) ;;
	*)
		# the known split: hot 9 parts, cold 1 (within sampling error,
		# and the host's: on a VM, cpu-clock counts the time the host
		# takes from the vCPU too, and a loaded host took enough of it
		# once to show 0.84; a wrong symbolizer shows 0.5 or 1)
		h=$(awk '$5 == "hot" {sub("%", "", $1); print $1}' $v.hpm.b)
		c=$(awk '$5 == "cold" {sub("%", "", $1); print $1}' $v.hpm.b)
		awk -v h="$h" -v c="$c" 'BEGIN { r = h / (h + c); exit !(r > 0.8 && r < 0.97) }'
		ok $? "$v: hot/(hot+cold) about 0.9 ($h / $c)"
		;;
	esac
done

v=pie
for s in dso,comm pid comm dso,sym; do
	perf report -i $v.data --stdio --no-children --sort $s 2>/dev/null | body /dev/stdin >s.perf
	"$HPMSTAT" report -i $v.data --sort $s 2>/dev/null | body /dev/stdin >s.hpm
	# lines of other DSOs may name libc's aliases differently: compare
	# the lines that do not name a symbol outside the program
	if [ "$s" = dso,sym ]; then own s.perf split-pie >s.perf2; own s.hpm split-pie >s.hpm2; mv s.perf2 s.perf; mv s.hpm2 s.hpm; fi
	cmp -s s.perf s.hpm; ok $? "--sort $s: perf's lines"
	cmp -s s.perf s.hpm || diag "$(diff s.perf s.hpm | head -6)"
done

# formats
"$HPMSTAT" report -i $v.data --format json >r.json 2>/dev/null && "$JSONCHECK" <r.json >/dev/null 2>&1
ok $? "JSON parses"
"$HPMSTAT" report -i $v.data --format html >r.html 2>/dev/null
# the SVG namespace names no resource; nothing else may look like a URL
grep -q '<svg' r.html && ! sed 's|http://www.w3.org/2000/svg||g' r.html | grep -qi '<script\|https\?://[a-z]'; ok $? "HTML: an inline SVG flame graph, no script, no URL"
"$HPMSTAT" report -i $v.data --format csv >r.csv 2>/dev/null
[ "$(($(wc -l <r.csv) - 1))" -eq "$(grep -c '%' $v.hpm.b)" ]; ok $? "CSV: a row per entry"
"$HPMSTAT" report -i $v.data --format md >r.md 2>/dev/null && grep -q '^| Overhead' r.md; ok $? "Markdown table"
"$HPMSTAT" report -i $v.data --format folded >r.folded 2>/dev/null
n=$(grep '^# Samples' $v.perf | awk '{print $3}')
[ "$(awk '{s += $NF} END {print s}' r.folded)" = "$n" ]; ok $? "folded stacks sum to the $n samples"
grep -q '^split-pie;hot [0-9]' r.folded; ok $? "folded: comm;function count, root first"

# call graphs: -g on a known tree
gcc -O0 -fno-omit-frame-pointer -fno-pie -no-pie -o tree tree.c
perf record -q -e cpu-clock -F 2000 -g -o g.data ./tree 20000000 >/dev/null 2>&1
# blk FILE: the program's entries and their graphs (up to the next entry
# or a comment: perf report ends with a random "# (Tip: ...)" some runs)
blk() { awk '/^#/ { on = 0; next } /^ +[0-9.]+%/ { on = ($3 == "tree") } on' "$1"; }
for g in caller callee; do
	perf report -i g.data --stdio --no-children -g $g 2>/dev/null >g.perf
	"$HPMSTAT" report -i g.data --no-children -g $g >g.hpm 2>/dev/null
	blk g.perf >g.perf.b; blk g.hpm >g.hpm.b
	[ -s g.perf.b ] && cmp -s g.perf.b g.hpm.b; ok $? "-g $g: the program's graphs are perf's"
	cmp -s g.perf.b g.hpm.b || diag "$(diff g.perf.b g.hpm.b | head -10)"
done
grep -q -- '--[0-9.]*%--a' g.perf.b && grep -q -- '--[0-9.]*%--b' g.perf.b; ok $? "the callee graph of leaf branches to a and b"
# the folded stacks carry the tree: main;a;leaf about three times main;b;leaf
fa=$("$HPMSTAT" report -i g.data --format folded 2>/dev/null | awk -F'[; ]' '/;main;a;leaf /{s += $NF} END {print s + 0}')
fb=$("$HPMSTAT" report -i g.data --format folded 2>/dev/null | awk -F'[; ]' '/;main;b;leaf /{s += $NF} END {print s + 0}')
# a sample falls in a with p = 3/4: a binomial share, held to 4 standard
# deviations of the samples there are (a fixed band on a / b failed on a
# loaded machine, where 139 samples gave 110 / 29, within 1.2 sigma)
awk -v a="$fa" -v b="$fb" 'BEGIN { n = a + b; if (n < 40) exit 1; d = a / n - 0.75; if (d < 0) d = -d
	exit !(d <= 4 * sqrt(0.75 * 0.25 / n)) }'
ok $? "folded: main;a;leaf about 3 x main;b;leaf ($fa / $fb, within 4 sigma of 3/4)"

# deep recursion in a stripped non-PIE program, -g: the program's frames
# are unnamed ([unknown] in the folded stacks, longer than the 0x401136
# each stands for); the depth sweeps from 1 to 160 so that the stacks
# grow past every size the report's buffer had. The deep stacks (over 40
# frames) are perf script's frames folded as stackcollapse-perf.pl folds
# them: the comm, then the frames from the root, [unknown] for no name
cat >deep.c <<'C'
#include <stdlib.h>
volatile unsigned long sink;
__attribute__((noinline)) void spin(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i * i; }
__attribute__((noinline)) void rec(int d, unsigned long n) { if (d) rec(d - 1, n); else spin(n); sink++; }
int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], 0, 10) : 1000000;
	for (int d = 1; d <= 160; d++)
		rec(d, n);
	return 0;
}
C
gcc -O0 -fno-omit-frame-pointer -fno-pie -no-pie -s -o deep deep.c
perf record -q -e cpu-clock -F 4000 -g -o deep.data ./deep 1000000 >/dev/null 2>&1
perf script -i deep.data -F comm,ip,sym 2>/dev/null | awk '
	function out() { if (comm != "") { s = comm; for (i = n; i >= 1; i--) s = s ";" f[i]; c[s]++ } comm = "" }
	/^[^ \t]/ { out(); comm = $1; n = 0; next }
	/^$/ { out(); next }
	{ f[++n] = $2 }
	END { out(); for (k in c) print k, c[k] }' | awk -F';' 'NF > 40' | sort >deep.perf
"$HPMSTAT" report -i deep.data --format folded >deep.folded 2>"$tap_err"; rc=$?
awk -F';' 'NF > 40' deep.folded | sort >deep.hpm
[ $rc -eq 0 ] && [ "$(wc -l <deep.perf)" -ge 20 ] && cmp -s deep.perf deep.hpm
ok $? "stripped deep recursion: folded, perf script's $(wc -l <deep.perf) stacks of over 40 frames"
[ $rc -eq 0 ] || diag "exit $rc" "$(head -3 "$tap_err")"
cmp -s deep.perf deep.hpm || diag "$(diff deep.perf deep.hpm | cut -c1-150 | head -4)"
"$HPMSTAT" report -i deep.data --format html >deep.html 2>"$tap_err"; rc=$?
[ $rc -eq 0 ] && grep -q '<title>\[unknown\]' deep.html && grep -q '</svg>' deep.html
ok $? "stripped deep recursion: the HTML flame graph"

# a program whose section header lies: .rela.plt of type NOBITS claiming
# 1 TiB (tests/lib.sh's set_section; the loader reads no section header,
# so it runs): the file loses its PLT names, the report nothing; its
# lines are perf report's for the same recording with the good file back
# in place (-N: not from perf's build-id cache; perf 6.1 itself dies on
# the bad file)
cp split-pie split-lie && cp split-pie split-good && set_section split-lie .rela.plt 8 1099511627776
perf record -N -q -e cpu-clock -F 2000 -o lie.data ./split-lie 20000000 >/dev/null 2>&1
"$HPMSTAT" report -i lie.data 2>"$tap_err" | body /dev/stdin | own /dev/stdin split-lie >lie.hpm
cp split-good split-lie
perf report -i lie.data --stdio --no-children 2>/dev/null | body /dev/stdin | own /dev/stdin split-lie >lie.perf
[ -s lie.perf ] && cmp -s lie.perf lie.hpm; ok $? "a DSO with a 1 TiB NOBITS .rela.plt: perf's lines for the good file"
cmp -s lie.perf lie.hpm || diag "$(diff lie.perf lie.hpm | head -6)" "$(head -3 "$tap_err")"

# several processes: sh forks and execs the programs, one in the
# background; threads are named by their command at each sample (comm) or
# by their last one (pid), as perf does
perf record -q -e cpu-clock -F 2000 -g -o m.data -- sh -c './split-pie 5000000; ./split-nopie 5000000 & ./split-pie-s 3000000; wait' >/dev/null 2>&1
# (graphs left out: perf orders equal branches of different DSOs by where
# its DSO objects happen to lie in memory)
for s in pid comm,dso comm,pid; do
	perf report -i m.data --stdio --no-children -g none --sort $s 2>/dev/null | body /dev/stdin >s.perf
	"$HPMSTAT" report -i m.data --no-children -g none --sort $s 2>/dev/null | body /dev/stdin >s.hpm
	cmp -s s.perf s.hpm; ok $? "fork and exec, --sort $s: perf's lines"
	cmp -s s.perf s.hpm || diag "$(diff s.perf s.hpm | head -6)"
done
for x in split-pie split-nopie split-pie-s; do
	perf report -i m.data --stdio --no-children -g none 2>/dev/null | body /dev/stdin | own /dev/stdin $x >s.perf
	"$HPMSTAT" report -i m.data --no-children -g none 2>/dev/null | body /dev/stdin | own /dev/stdin $x >s.hpm
	todo=
	[ -s s.perf ] && cmp -s s.perf s.hpm; okt $? "fork and exec: $x's lines are perf's"
	cmp -s s.perf s.hpm || diag "$(diff s.perf s.hpm | head -6)"
done

# hpmstat record's own file: hpmstat report and perf report agree on it
if "$HPMSTAT" record -e cpu-clock -F 2000 -o hr.data ./split-pie 20000000 >/dev/null 2>&1; then
	perf report -i hr.data --stdio --no-children 2>/dev/null | body /dev/stdin | own /dev/stdin split-pie >hr.perf
	"$HPMSTAT" report -i hr.data 2>/dev/null | body /dev/stdin | own /dev/stdin split-pie >hr.hpm
	[ -s hr.perf ] && cmp -s hr.perf hr.hpm; ok $? "hpmstat record's file: perf report's lines"
	cmp -s hr.perf hr.hpm || diag "$(diff hr.perf hr.hpm | head -6)"
fi

# pipe mode: perf record -o - and the same report
perf record -q -e cpu-clock -F 2000 -o - ./split-pie 20000000 2>/dev/null >p.data
perf report -i p.data --stdio --no-children 2>/dev/null | body /dev/stdin | own /dev/stdin split-pie >p.perf
"$HPMSTAT" report -i p.data 2>/dev/null | body /dev/stdin | own /dev/stdin split-pie >p.hpm
[ -s p.perf ] && cmp -s p.perf p.hpm; ok $? "pipe mode: perf's lines"
cmp -s p.perf p.hpm || diag "$(diff p.perf p.hpm | head -6)"
done_testing

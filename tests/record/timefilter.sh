#!/bin/sh
# tests/record/timefilter.sh: report --time, perf report's, judged by
# Debian's perf 6.1 on the same files (one of hpmstat record, one of perf
# record, of sh -c './tree; ./nofp', whose samples change function over
# time) and by perf script --time's samples:
# - spans in seconds from perf script's times: both ends kept, to the ns
#   (the first and the last sample themselves), open ends, several spans;
# - percentages of the recording (its HEADER_SAMPLE_TIME): 10%/N slices,
#   0%-10% ranges, 25%, lists of them, perf's quirks ("10%x/2", ",");
#   a slice of the start holds tree's samples, one of the end nofp's;
# - the Samples line's "(time slices: ...)", the Event count of the kept
#   samples, with --children, -g, the other filters and --percentage
#   relative; the non-text formats keep the same samples;
# - no sample kept: perf's first header lines, one line on stderr, 0;
# - a file of one sample, an -a file, pipe input (percentages refused, as
#   perf: a pipe's features come after), perf record -B's file (no sample
#   times: percentages refused);
# - the strings perf refuses: one line, non-zero, as perf fails.
# A slice of the start can give a sample in libc's PLT a share above the
# graphs' threshold: body() (report-lib.sh) leaves such an entry out with
# its graph lines.
. "$top_srcdir/tests/lib.sh"
R=$top_srcdir/tests/record
. "$R/report-lib.sh"
need_sampling
build_tree_nofp

"$HPMSTAT" record -q -e cpu-clock:u -g -o m.data sh -c './tree 300; ./nofp 300' 2>/dev/null
ok $? "hpmstat record -g of sh -c './tree; ./nofp': exit 0"
perf record -q -e cpu-clock:u -g -o p.data sh -c './tree 300; ./nofp 300' </dev/null >/dev/null 2>&1
ok $? "perf record -g of the same: exit 0"

# nth FILE N: the time of the Nth sample in seconds and ns ("$" the last)
nth() { perf script -i "$1" -F time --ns </dev/null 2>/dev/null | sed -n "$2{s/[: ]//g;p}"; }
# perf_count FILE SPANS: the samples perf script --time keeps
perf_count() { perf script -i "$1" --time "$2" -F time </dev/null 2>/dev/null | grep -c .; }
# hpm_count FILE SPANS: the Samples line's count of hpmstat's report
hpm_count() {
	"$HPMSTAT" report -i "$1" --stdio --time "$2" </dev/null 2>/dev/null |
		sed -n "s/^# Samples: \([0-9]*\) .*/\1/p"
}
# kept_is FILE SPANS LABEL: hpmstat's Samples line counts perf script
# --time's samples (and some, else the point proves nothing)
kept_is() {
	want=$(perf_count "$1" "$2")
	got=$(hpm_count "$1" "$2")
	[ "${want:-0}" -gt 0 ] && [ "$got" = "$want" ]
	ok $? "$3: the samples perf script --time '$2' keeps ($want; hpmstat $got)"
}

# the entries compared with their call chains are the two programs' own:
# a sample in the loader at a process's start (sh's, or tree's after its
# exec) once had another command and chain in hpmstat's --children report
# than in perf's (CI, December 2026, not seen again in 40 recordings): a
# start-up question, not the time filter's (the -g none points below keep
# every sample: a slice of the start holds only such samples)
D="--dsos tree,nofp"
for f in m.data p.data; do
	case $f in m.data) who="hpmstat record" ;; *) who="perf record" ;; esac
	first=$(nth $f 1)
	second=$(nth $f 2)
	t100=$(nth $f 100)
	t200=$(nth $f 200)
	last=$(nth $f '$')
	# --- absolute spans, in ns and in perf script's microseconds
	kept_is $f "$first,$first" "$who: the first sample alone (both ends kept)"
	kept_is $f "$last,$last" "$who: the last sample alone"
	kept_is $f ",$first" "$who: ,first (open start)"
	kept_is $f "$last," "$who: last, (open end)"
	kept_is $f "$t100,$t200" "$who: the 100th to the 200th"
	kept_is $f "${t100%???},${t200%???}" "$who: in microseconds"
	kept_is $f "$first,$second $t200," "$who: two spans"
	same_report "$who: --time t100,t200 --no-children" $f $D --time "$t100,$t200" --no-children
	same_entries "$who: --time ,t100 -g caller --no-children" $f $D --time ",$t100" -g caller --no-children
	same_entries "$who: --time t100, (--children)" $f $D --time "$t100,"
	same_report "$who: --time 'first,second t200,' --no-children" $f $D \
		--time "$first,$second $t200," --no-children
	# --- percentages of the recording
	for t in 10%/1 10%/10 0%-10%,50%-60% 25% 10%/2,10%/4 '10%-20%,30%-40%' 90%-100%; do
		same_report "$who: --time $t -g none --no-children" $f --time "$t" -g none --no-children
	done
	same_entries "$who: --time 25% --no-children (graphs)" $f $D --time 25% --no-children
	same_entries "$who: --time 0%-50% (--children)" $f $D --time 0%-50%
	same_entries "$who: --time 20%/2 -g caller --no-children" $f $D --time 20%/2 -g caller --no-children
	same_entries "$who: --time 0%-60% --comms tree --percentage relative --no-children" $f $D \
		--time 0%-60% --comms tree --percentage relative --no-children
	same_report "$who: --time 50%-100% --symbols leaf -n --no-children" $f $D \
		--time 50%-100% --symbols leaf -n --no-children
	same_heads "$who: --time 10%/3 (time slices, Event count)" $f --time 10%/3 --no-children
	same_heads "$who: --time 0%-50% --comms nofp --percentage relative" $f --time 0%-50% \
		--comms nofp --percentage relative --no-children
	# perf's quirks: text after '%' unread, ',' every sample, an empty
	# piece of a percent list an open span, an empty percentage 0
	for t in 50%x/1 , '0%-10%,,' '%-10%' 0%-0%; do
		same_report "$who: --time '$t' (perf accepts it) -g none --no-children" $f --time "$t" \
			-g none --no-children
	done
done

# --- a slice really selects other functions: tree's at the start, nofp's
# at the end
"$HPMSTAT" report -i m.data --time 0%-20% --sort comm --no-children </dev/null 2>/dev/null |
	grep -v '^#' | grep % >r.start
"$HPMSTAT" report -i m.data --time 90%-100% --sort comm --no-children </dev/null 2>/dev/null |
	grep -v '^#' | grep % >r.end
grep -q ' tree *$' r.start && ! grep -q ' nofp *$' r.start &&
	grep -q ' nofp *$' r.end && ! grep -q ' tree *$' r.end
ok $? "the first 20 % are tree's samples, the last 10 % nofp's" ||
	diag "$(cat r.start)" "--" "$(cat r.end)"

# --- no sample kept: perf's first lines, one line on stderr, status 0
for a in "--stdio" "--stdio -q" ""; do
	perf report -i m.data --stdio --time 1,2 $a </dev/null >r.perf 2>/dev/null
	"$HPMSTAT" report -i m.data --time 1,2 $a </dev/null >r.hpm 2>r.err
	rc=$?
	[ $rc -eq 0 ] && [ "$(wc -l <r.err)" -eq 1 ] &&
		{ [ -z "$a" ] || cmp -s r.perf r.hpm; } && ! grep -q Samples r.hpm
	ok $? "--time 1,2 ${a:-(the default header)}: no sample, perf's lines, one line on stderr ($(cat r.err)), 0" ||
		diag "$(diff r.perf r.hpm)"
done

# --- the formats keep the same samples
n=$(perf_count m.data 10%/2)
j=$("$HPMSTAT" report -i m.data --time 10%/2 --format json </dev/null 2>/dev/null |
	sed -n 's/^      "samples": \([0-9]*\),$/\1/p' | head -1)
[ "$n" -gt 0 ] && [ "$j" = "$n" ]
ok $? "--format json --time 10%/2: the event's samples are perf script's ($n; json $j)"
c=$("$HPMSTAT" report -i m.data --time 10%/2 --format csv --no-children -n </dev/null 2>/dev/null |
	awk -F, 'NR > 1 { s += $3 } END { print s + 0 }')
[ "$c" = "$n" ]
ok $? "--format csv --time 10%/2: its rows' samples add up to perf script's ($c)"
for fmt in md html; do
	"$HPMSTAT" report -i m.data --time 10%/2 --format $fmt </dev/null >r.$fmt 2>/dev/null
	grep -q -E "^(<p>)?$n samples, event count " r.$fmt
	ok $? "--format $fmt --time 10%/2: the kept samples' count ($n samples, event count ...)"
done
perf script -i m.data --time 50%-100% -F comm,ip,sym --no-inline </dev/null 2>/dev/null | awk '
	function emit(  s, i) { s = comm; for (i = n - 1; i >= 0; i--) s = s ";" f[i]; print s; n = 0 }
	/^[^ \t]/ { if (n) emit(); comm = $1; n = 0; next }
	NF >= 2 { f[n++] = $2 }
	NF == 0 { if (n) emit() }
	END { if (n) emit() }' | sort | uniq -c | awk '{ print $2, $1 }' | no_plt_chains >r.perf
"$HPMSTAT" report -i m.data --format folded --time 50%-100% </dev/null 2>r.err | no_plt_chains |
	sort >r.hpm
[ -s r.perf ] && cmp -s r.perf r.hpm
compared $? "--format folded --time 50%-100%: perf script --time's chains"

# --- a file of one sample: its first and last time are the same (a
# period of page faults a little under ./tree 1's, 46 or 47 here, a count
# that a loaded machine does not change as it does CPU time)
one=
for c in 40 30 25 50 60; do
	perf record -q -e page-faults:u -c $c -o one.data ./tree 1 </dev/null >/dev/null 2>&1
	[ "$(perf script -i one.data -F time </dev/null 2>/dev/null | grep -c .)" -eq 1 ] && one=1 && break
done
if [ -n "$one" ]; then
	t=$(nth one.data 1)
	# (by command and file: the sample may be in a PLT, whose names
	# body() leaves out)
	for s in 10% 10%/10 0%-0% "$t,$t" ",$t"; do
		same_report "one sample: --time $s --sort comm,dso" one.data --time "$s" --sort comm,dso \
			--no-children
	done
	same_heads "one sample: --time 50%" one.data --time 50% --sort comm,dso --no-children
else
	skip "a file of one sample" "no recording of ./tree 1 had exactly one sample"
fi

# --- -a: several CPUs' samples interleaved (this test's commands only,
# under names of their own: the machine's others are whatever runs, other
# tests' ./tree among them, another file of the same name)
cp tree tf-tree && cp nofp tf-nofp || exit 1
"$HPMSTAT" record -q -a -e cpu-clock -o a.data -- sh -c './tf-tree 200 & ./tf-nofp 200; wait' 2>/dev/null
for t in 10%/3 25%-75%,90%-100%; do
	same_report "-a: --time $t --comms tf-tree,tf-nofp --no-children" a.data --time "$t" \
		--comms tf-tree,tf-nofp --no-children
done
cpu=$(perf script -i a.data -F comm,cpu </dev/null 2>/dev/null | awk '$1 == "tf-tree" { gsub(/[][]/, "", $2); print $2 + 0; exit }')
same_report "-a: --time 0%-50% -C $cpu --comms tf-tree,tf-nofp --no-children" a.data --time 0%-50% \
	-C "$cpu" --comms tf-tree,tf-nofp --no-children

# --- pipe input: spans in seconds, no percentages (perf reads them
# before the pipe's features)
perf record -q -e cpu-clock:u -o - ./tree 200 </dev/null 2>/dev/null >pipe.data
mid=$(nth pipe.data 50)
perf report -i - --stdio --no-inline --no-children --time ",$mid" <pipe.data 2>/dev/null | body /dev/stdin >r.perf
"$HPMSTAT" report -i - --no-children --time ",$mid" <pipe.data 2>r.err | body /dev/stdin >r.hpm
[ -s r.perf ] && cmp -s r.perf r.hpm
compared $? "pipe input: --time ,t50"
perf report -i - --stdio --time 10% <pipe.data >/dev/null 2>&1
prc=$?
"$HPMSTAT" report -i - --time 10% <pipe.data >out 2>err
rc=$?
[ $prc -ne 0 ] && [ $rc -ne 0 ] && [ ! -s out ] && [ "$(grep -c -e --time err)" -eq 1 ]
ok $? "pipe input: --time 10% refused, as perf ($(grep -e --time err))"

# --- perf record -B: no sample times written (0): percentages refused,
# spans in seconds kept
perf record -q -B -e cpu-clock:u -o b.data ./tree 200 </dev/null >/dev/null 2>&1
perf report -i b.data --stdio --time 10% </dev/null >/dev/null 2>&1
prc=$?
"$HPMSTAT" report -i b.data --time 10% </dev/null >out 2>err
rc=$?
[ $prc -ne 0 ] && [ $rc -ne 0 ] && [ ! -s out ] && [ "$(wc -l <err)" -eq 1 ]
ok $? "perf record -B's file: --time 10% refused, as perf ($(cat err))"
same_report "perf record -B's file: --time ,t50 --no-children" b.data --time ",$(nth b.data 50)" --no-children

# --- what perf refuses: one line, non-zero
for t in abc 10%/0 10%/11 5,3 110% 5 '' 1,2,3 '1,2 2,4' '3,4 1,2' 10%/2,20%-30% 0%-10%,50% 10%% \
	-10%-20% '1.1234567891,'; do
	# (in a subshell that waits for it: perf 6.1 crashes on
	# '0%-10%,50%', and the shell's word of it goes to the subshell's
	# stderr, not into the TAP lines)
	(
		perf report -i m.data --stdio --time "$t" </dev/null >/dev/null 2>&1
		exit $?
	) 2>/dev/null
	prc=$?
	"$HPMSTAT" report -i m.data --time "$t" </dev/null >out 2>err
	rc=$?
	[ $prc -ne 0 ] && [ $rc -ne 0 ] && [ ! -s out ] && [ "$(wc -l <err)" -eq 1 ]
	ok $? "--time '$t': one line, non-zero, as perf fails ($prc; $(cat err))"
done

done_testing

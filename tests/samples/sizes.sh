#!/bin/sh
# hpmstat report on files written by gen-perfdata whose sizes cross where
# the report's buffers and tables grow (see gen-perfdata's header for each
# mode; CI runs this under ASan, which sees a write past a buffer or a read
# of a freed table even where the plain build goes on):
# - zeros: a stack of 40 zero frames under an unnamed ip, twice: every
#   frame is [unknown] in the folded stacks (as stackcollapse-perf.pl
#   names an unnamed frame), longer than the "0" it stands for;
# - threads N: N threads of cpu-clock then one task-clock sample, for N
#   on both sides of where the interned names (one per thread) fill the
#   first table: the two events' headers, counted by hand;
# - attrs: 2000 events in pipe mode, one sample each: 2000 headers.
. "$top_srcdir/tests/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$tap_out" "$tap_err"' EXIT
gen="$top_builddir/tests/samples/gen-perfdata"

"$gen" zeros "$tmp/zeros.data"
want=prog
i=0
while [ $i -lt 41 ]; do want="$want;[unknown]"; i=$((i + 1)); done
out_is "40 zero frames: folded, prog and 41 [unknown] frames, 2 samples" "$want 2" \
	"$HPMSTAT" report -i "$tmp/zeros.data" --format folded
"$HPMSTAT" report -i "$tmp/zeros.data" --format html >"$tmp/zeros.html" 2>"$tap_err"; rc=$?
[ $rc -eq 0 ] && [ "$(grep -c '<title>\[unknown\] (2 samples)</title>' "$tmp/zeros.html")" -eq 41 ] &&
	grep -q '</svg>' "$tmp/zeros.html"
ok $? "40 zero frames: the HTML flame graph has the 41 frames"
[ $rc -eq 0 ] || diag "exit $rc" "$(head -3 "$tap_err")"

# cpu-clock's N samples of period 100 ("1K": perf's unit above 1000), then
# task-clock's one
n=1010
while [ $n -le 1030 ]; do
	"$gen" threads "$tmp/threads.data" $n
	"$HPMSTAT" report -i "$tmp/threads.data" --sort pid >"$tap_out" 2>"$tap_err"; rc=$?
	got=$(grep '^# Samples\|^# Event count' "$tap_out" | tr '\n' ';')
	want="# Samples: 1K of event 'cpu-clock';# Event count (approx.): $((n * 100));# Samples: 1  of event 'task-clock';# Event count (approx.): 100;"
	[ $rc -eq 0 ] && [ "$got" = "$want" ] && [ "$(grep -c '% *[0-9]*::[0-9]* *$' "$tap_out")" -eq "$n" ] ||
		{ diag "$n threads: exit $rc" "got:  $got" "want: $want" "$(head -3 "$tap_err")"; break; }
	n=$((n + 1))
done
[ $n -gt 1030 ]; ok $? "two events after 1010 to 1030 threads: both, and a row per thread"
if command -v perf >/dev/null 2>&1; then
	perf report -i "$tmp/threads.data" --stdio --sort pid 2>/dev/null | grep -v '^#' >"$tmp/threads.perf"
	grep -v '^#' "$tap_out" | cmp -s - "$tmp/threads.perf"; ok $? "perf report's lines for the last file"
fi

"$gen" attrs "$tmp/attrs.data"
"$HPMSTAT" report -i "$tmp/attrs.data" >"$tap_out" 2>"$tap_err"; rc=$?
grep "^# Samples" "$tap_out" >"$tmp/got"
i=0
# perf's names of attrs that exclude nothing: "raw 0x1000:HG" (evsel__name)
while [ $i -lt 2000 ]; do printf "# Samples: 1  of event 'raw 0x%x:HG'\n" $((0x1000 + i)); i=$((i + 1)); done >"$tmp/want"
[ $rc -eq 0 ] && cmp -s "$tmp/got" "$tmp/want"
ok $? "2000 events in pipe mode: a header each, in order"
[ $rc -eq 0 ] || diag "exit $rc" "$(head -3 "$tap_err")"
done_testing

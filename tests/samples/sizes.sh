#!/bin/sh
# hpmstat report on files written by gen-perfdata whose sizes cross where
# the report's buffers and tables grow (see gen-perfdata's header for each
# mode; CI runs this under ASan, which sees a write past a buffer or a read
# of a freed table even where the plain build goes on):
# - zeros: a stack of 40 zero frames under an unnamed ip, twice: every
#   frame is [unknown] in the folded stacks (as stackcollapse-perf.pl
#   names an unnamed frame), longer than the "0" it stands for.
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
done_testing

#!/bin/sh
# readme.sh: every example of the README's console blocks runs as written
# and prints what the README shows (figures that vary aside), in order in
# one folder, as a newcomer would type them (readme-examples.py says how
# they are compared). The sh blocks are the build's own lines (docs.sh).
. "$top_srcdir/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
scratch_dir
python3 "$top_srcdir/tests/cli/readme-examples.py" "$top_srcdir/README.md" "$HPMSTAT" "$dir" \
	>"$dir/results" 2>&1
ok $? "the README's examples are read and run"
n=0
while IFS='	' read -r status what why; do
	n=$((n + 1))
	[ "$status" = ok ]
	ok $? "README: \$ $what${why:+ ($why)}"
done <"$dir/results"
[ "$n" -ge 10 ]
ok $? "README: its $n examples found (the stat, record, report, top, encode, decode and emu ones)"
done_testing

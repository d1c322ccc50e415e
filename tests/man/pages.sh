#!/bin/sh
# pages.sh: every manual page the tree installs renders without a warning
# in the C locale, as `man --warnings` and groff's own checks (-ww: every
# warning; tbl's too) report them at man's default 80 columns: no glyph
# the ASCII device lacks (the tree view's box-drawing lines), no line that
# cannot be broken, no table wider than the page. A page that warns loses
# text or layout for the reader who sees it there.
. "$top_srcdir/tests/lib.sh"
command -v groff >/dev/null 2>&1 || skip_all "groff is not installed"

# the pages in git, and hpmtop(1) that make builds from hpmstat-top(1)
# (built in the source tree, hpmtop.1 is there too: listed once)
pages=$( (ls "$top_srcdir"/man/*.[1-9] | grep -v '/hpmtop\.1$'; ls "$top_builddir"/man/hpmtop.1) 2>/dev/null)
[ "$(printf '%s\n' "$pages" | grep -c .)" -ge 12 ]
ok $? "every page found ($(printf '%s\n' "$pages" | grep -c .): man/*.[1-9] and hpmtop.1)"

for p in $pages; do
	name=${p##*/}
	LC_ALL=C groff -t -ww -z -man -Tascii -rLL=78n "$p" >/dev/null 2>"$tap_err"
	[ ! -s "$tap_err" ]
	r=$?
	ok $r "$name: groff -t -ww -Tascii: no warning"
	[ $r -eq 0 ] || diag "$(head -5 "$tap_err")"
	if command -v man >/dev/null 2>&1; then
		LC_ALL=C MANWIDTH=80 man --warnings=w -l "$p" >/dev/null 2>"$tap_err"
		[ ! -s "$tap_err" ]
		r=$?
		ok $r "$name: LC_ALL=C man --warnings: no warning"
		[ $r -eq 0 ] || diag "$(head -5 "$tap_err")"
	else
		skip "man is not installed"
	fi
done

done_testing

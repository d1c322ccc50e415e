#!/bin/sh
# top-colors.sh: the Topdown level-1 categories have the same colour in
# hpmstat top and in the HTML report (issue 16: backend was red in one and
# orange in the other). The report's colour of a category is the fill of
# its level-1 bar (an RGB); top's is the ANSI background colour (40-47)
# of the bar it draws after the node in its tree, read from a tmux pane.
# They agree when the basic terminal colour nearest in hue to the RGB is
# top's colour, within 20 degrees: red 0, yellow 60, green 120, cyan 180, blue 240, magenta
# 300 degrees (ANSI 1, 3, 2, 6, 4, 5). And each category's own colour is
# the conventional one: retiring green, frontend blue, bad speculation
# magenta, backend red (top's colours since its first version).
. "$top_srcdir/tests/lib.sh"
H=${HPMSTAT:-$top_builddir/src/hpmstat}
. "$top_srcdir/tests/top/tmux.sh"
tmp=$(mktemp -d)
trap 'tmux_end; rm -rf "$tmp" "$tap_out" "$tap_err"' EXIT

cats="tma_retiring tma_frontend_bound tma_bad_speculation tma_backend_bound"
# the report: the fill of each category's level-1 bar (one run, hand.json)
"$H" report --format html "$top_srcdir/tests/report/hand.json" >"$tmp/r.html"
ok $? "report --format html"
for c in $cats; do
	grep -o "class=\"bar node\"[^>]*data-node=\"$c\"[^>]*fill=\"#[0-9a-fA-F]*\"" "$tmp/r.html" |
		sed 's/.*fill="#\([0-9a-fA-F]*\)"/\1/' | sort -u >"$tmp/$c.rgb"
	[ "$(wc -l <"$tmp/$c.rgb")" -eq 1 ]; ok $? "report: $c has one colour ($(cat "$tmp/$c.rgb" | tr '\n' ' '))"
done

# hue RRGGBB -> the ANSI number of the basic colour nearest in hue
ansi_of() {
	echo "$1" | awk '{
		# awk reads hex with strtonum only in gawk: by hand
		r = hex(substr($1, 1, 2)); g = hex(substr($1, 3, 2)); b = hex(substr($1, 5, 2))
		mx = r; if (g > mx) mx = g; if (b > mx) mx = b
		mn = r; if (g < mn) mn = g; if (b < mn) mn = b
		if (mx == mn) { print "grey"; exit }
		if (mx == r) h = 60 * (g - b) / (mx - mn)
		else if (mx == g) h = 120 + 60 * (b - r) / (mx - mn)
		else h = 240 + 60 * (r - g) / (mx - mn)
		if (h < 0) h += 360
		split("0 60 120 180 240 300", hue, " "); split("1 3 2 6 4 5", num, " ")
		best = -1
		for (i = 1; i <= 6; i++) {
			d = h - hue[i]; if (d < 0) d = -d; if (d > 180) d = 360 - d
			if (best < 0 || d < bd) { best = num[i]; bd = d }
		}
		# the same colour, not a neighbour: within 20 degrees of it (the
		# old orange backend of the report, 30 degrees, lay between red and yellow)
		print (bd <= 20 ? best : "none")
	}
	function hex(s,   i, v, c) {
		v = 0
		for (i = 1; i <= length(s); i++) {
			c = index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
			v = v * 16 + c
		}
		return v
	}'
}

why=$(tmux_why_not)
if [ -n "$why" ]; then
	diag "the terminal half is not checked: $why"
	done_testing
	exit 0
fi
start "env -u NO_COLOR XDG_CONFIG_HOME=$tmp/none $H top -d 0.2 --backend emu"
wait_for 'frame 2'
cap -e >"$tmp/pane"
esc=$(printf '\033')
# top's colour of a node: the first background colour after its name in
# the tree (not in the legend, the one line naming them all, colour first)
top_ansi() {
	grep -a " $1 " "$tmp/pane" | grep -av 'Retiring .*Frontend_Bound .*Backend_Bound' | head -1 | sed "s/^.* $1 //" | grep -o "$esc\[4[0-7]m" | head -1 |
		sed "s/$esc\[4\([0-7]\)m/\1/"
}
for pair in tma_retiring:Retiring:2 tma_frontend_bound:Frontend_Bound:4 \
	tma_bad_speculation:Bad_Speculation:5 tma_backend_bound:Backend_Bound:1; do
	c=${pair%%:*}; rest=${pair#*:}; disp=${rest%%:*}; want=${rest#*:}
	t=$(top_ansi "$disp")
	h=$(ansi_of "$(cat "$tmp/$c.rgb")")
	[ -n "$t" ] && [ "$t" = "$h" ]
	ok $? "$disp: top's colour (ANSI $t) is the one nearest the report's #$(cat "$tmp/$c.rgb") (ANSI $h)"
	[ "$t" = "$want" ]; ok $? "$disp: ANSI $want as always in top"
done
done_testing

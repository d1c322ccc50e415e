#!/bin/sh
# hpmstat report --format html in a real headless browser (Debian's
# chromium): the page loads with no console message and no network
# request, the DOM has the SVG bars the report promises (one per node and
# hart, one stacked segment per run and level-1 node, two per node in a
# diff, one line per level-1 node over intervals), and it has no script, so
# it reads the same with JavaScript off. Skipped when chromium is absent; CI installs it.
. "$top_srcdir/tests/lib.sh"
src="$top_srcdir/tests/report"
browser=$(command -v chromium || command -v chromium-browser)
if [ -z "$browser" ]; then
	skip_all "chromium is not installed"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$tap_out" "$tap_err"' EXIT
cd "$src" || exit 1

# dom HTML [EXTRA-FLAGS]: the DOM chromium built, in $tmp/dom; its log in $tmp/log
dom() {
	f=$1; shift
	timeout 90 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$tmp/profile" --enable-logging=stderr --v=0 "$@" \
		--dump-dom "file://$f" >"$tmp/dom" 2>"$tmp/log"
}
# page NAME HTML: loads, no console message, no failed request
page() {
	dom "$2"; rc=$?
	if [ $rc -eq 0 ] && grep -q '</svg>' "$tmp/dom" && ! grep -qE ':CONSOLE|net::ERR|Failed to load' "$tmp/log"; then
		ok 0 "$1: loads in chromium with no console message"
	else
		ok 1 "$1: loads in chromium with no console message"
		diag "exit $rc" "$(grep -E 'CONSOLE|ERR' "$tmp/log" | head -5)"
	fi
}
# bars DESC PATTERN COUNT: the DOM has COUNT elements matching PATTERN
bars() {
	n=$(grep -o "$2" "$tmp/dom" | wc -l)
	[ "$n" -eq "$3" ]; ok $? "$1 ($n, want $3)"
}

"$HPMSTAT" report --format html -o "$tmp/hand.html" hand.json
page hand "$tmp/hand.html"
bars "hand: a tree bar per node and hart (4 x all, hart0, hart1)" '<rect class="bar node"' 12
bars "hand: hart1's Backend_Bound bar is 50 %" 'data-hart="hart1" data-node="tma_backend_bound" data-value="50.0000"' 1
bars "hand: level 1 over time, a line per node" '<polyline class="series-line"' 4
bars "hand: ... and a dot per node and interval, Frontend_Bound at 20 % of 200 px" '<circle cx="[0-9.]*" cy="170.0"' 2

"$HPMSTAT" report --format html -o "$tmp/suite.html" --weights weights.json dram.json int.json hand.json
page suite "$tmp/suite.html"
bars "suite: a stacked bar per run and the weighted one (4 x 4 segments)" '<rect class="bar stack"' 16
bars "suite: the weighted bar" 'data-run="weighted"' 4
bars "suite: a tree bar per node of each run (15 + 10 + 12)" '<rect class="bar node"' 37
bars "suite: level 1 over time for the runs with intervals (int, hand)" '<polyline class="series-line"' 8

"$HPMSTAT" report --format html -o "$tmp/diff.html" --diff rep-a.json rep-b.json
page diff "$tmp/diff.html"
bars "diff: base and new bars per node" '<rect class="bar diff-bar"' 20
bars "diff: the verdicts are in the table" '>above noise<' 8

# self-contained and static: nothing to fetch, and no script, so what is
# read without JavaScript is the whole page (headless chromium cannot turn
# JavaScript off for --dump-dom, so this is checked in the file)
for f in hand suite diff; do
	! grep -qiE '<script|<link|<img|<iframe|@import|url\(|src=|href=' "$tmp/$f.html"
	ok $? "$f: no script, link, image or URL to fetch"
done

# it renders (a blank page would be tiny)
timeout 90 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--user-data-dir="$tmp/profile" --window-size=1000,1400 \
	--screenshot="$tmp/shot.png" "file://$tmp/suite.html" >/dev/null 2>&1
[ "$(wc -c <"$tmp/shot.png" 2>/dev/null || echo 0)" -gt 20000 ]
ok $? "suite: a screenshot renders"
done_testing

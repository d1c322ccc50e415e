#!/bin/sh
# weights-huge.sh: report --weights with weights near DBL_MAX (1.8e308).
# The weighted mean sum(w * value) / sum(w) is the same for any common
# scale of the weights, so weights of 1e308 must give the value that
# weights of 3 and 1 give, never n/a from inf / inf. The runs are the
# hand-written hand.json and l1off.json; their level-1 values for all harts
# (Frontend_Bound, Bad_Speculation, Backend_Bound, Retiring, % slots) are
#   hand:  20  5 45 30
#   l1off: 120 5 45 30
. "$top_srcdir/tests/lib.sh"
H=${HPMSTAT:-$top_builddir/src/hpmstat}
case $H in /*) ;; *) H=$PWD/$H ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$tap_out" "$tap_err"' EXIT
cd "$top_srcdir/tests/report" || exit 1

# weighted DESC WEIGHTS WANT: the (weighted) rows' values, as "node=value"
# in the CSV's order, are WANT
weighted() {
	printf '%s\n' "$2" >"$tmp/w.json"
	"$H" report --format csv --weights "$tmp/w.json" hand.json l1off.json >"$tmp/out" 2>"$tap_err"
	rc=$?
	got=$(awk -F, '$1 == "(weighted)" && $3 == "all" { printf "%s%s=%s", sep, $7, $11; sep = " " }' "$tmp/out")
	[ $rc -eq 0 ] && [ "$got" = "$3" ]; r=$?
	ok $r "$1"
	[ $r -eq 0 ] || diag "exit $rc" "got:  $got" "want: $3" "$(head -3 "$tap_err")"
}

# 3:1 -> Frontend_Bound (3 * 20 + 1 * 120) / 4 = 45, the others equal
weighted "small weights 3 and 1 (the reference)" '{"hand": 3, "l1off": 1}' \
	"Frontend_Bound=45 Bad_Speculation=5 Backend_Bound=45 Retiring=30"
# the same 3:1, each weight near DBL_MAX: their sum is 2e308 (> DBL_MAX)
weighted "weights 1.5e308 and 0.5e308: the 3:1 mean, not n/a" '{"hand": 1.5e308, "l1off": 0.5e308}' \
	"Frontend_Bound=45 Bad_Speculation=5 Backend_Bound=45 Retiring=30"
# both DBL_MAX: the plain mean, (20 + 120) / 2 = 70
weighted "both weights DBL_MAX: the plain mean" \
	'{"hand": 1.7976931348623157e308, "l1off": 1.7976931348623157e308}' \
	"Frontend_Bound=70 Bad_Speculation=5 Backend_Bound=45 Retiring=30"
# one weight 1e308, the other 1e-300: the sum of weights stays finite but
# 1e308 * 20 does not; the tiny run changes the mean by 1e-606: 20
weighted "weights 1e308 and 1e-300: the heavy run's values" '{"hand": 1e308, "l1off": 1e-300}' \
	"Frontend_Bound=20 Bad_Speculation=5 Backend_Bound=45 Retiring=30"
# a run of weight 0 takes no part beside a DBL_MAX one
weighted "weights DBL_MAX and 0: the first run's values" '{"hand": 0, "l1off": 1.7976931348623157e308}' \
	"Frontend_Bound=120 Bad_Speculation=5 Backend_Bound=45 Retiring=30"
# the text view shows the same weighted column, not n/a
printf '{"hand": 1.5e308, "l1off": 0.5e308}\n' >"$tmp/w.json"
"$H" report --weights "$tmp/w.json" hand.json l1off.json >"$tmp/out" 2>"$tap_err"
rc=$?
sed -n '/^Summary across runs/,$p' "$tmp/out" >"$tmp/summary"
[ $rc -eq 0 ] && grep -Eq '^ +Frontend_Bound +20\.00 +120\.00 +45\.00$' "$tmp/summary" && ! grep -q 'n/a' "$tmp/summary"
r=$?
ok $r "text: the weighted summary column is 45.00, no n/a"
[ $r -eq 0 ] || diag "exit $rc" "$(cat "$tmp/summary")"
done_testing

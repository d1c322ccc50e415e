#!/bin/sh
# grafana-json.sh: contrib/grafana/hpmstat-topdown.json is JSON (python's
# json.tool parses it), a Grafana dashboard with its Prometheus input, and
# every metric name its queries use is one that hpmstat exports (taken
# from a real exposition, not a list of our own).
. "$top_srcdir/tests/lib.sh"
tmp=$(mktemp -d)
trap 'main_shell || exit; rm -rf "$tmp" "$tap_out" "$tap_err"' EXIT
H=${HPMSTAT:-$top_builddir/src/hpmstat}
dash=$top_srcdir/contrib/grafana/hpmstat-topdown.json
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

"$PY" -m json.tool "$dash" >/dev/null 2>"$tmp/err"
ok $? "python3 -m json.tool parses the dashboard"
[ -s "$tmp/err" ] && diag "$(cat "$tmp/err")"
"$PY" - "$dash" >"$tmp/exprs" <<'EOP'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["title"] and d["uid"] and d["panels"], "title, uid, panels"
assert any(i["name"] == "DS_PROMETHEUS" for i in d["__inputs"]), "the Prometheus input"
names = {v["name"] for v in d["templating"]["list"]}
assert {"instance", "cpu"} <= names, names
def walk(ps):
    for p in ps:
        yield p
        yield from walk(p.get("panels", []))
for p in walk(d["panels"]):
    for t in p.get("targets", []):
        print(t["expr"])
for v in d["templating"]["list"]:
    print(v["definition"])
EOP
ok $? "it has a title, a uid, panels, the Prometheus input and the instance and cpu variables"
# the names of a real exposition (every family: Topdown to level 2, the
# default events and IPC)
"$H" stat -a --backend emu --topdown=2 -e mcycle,minstret -I 100 --interval-count 1 -q \
	--openmetrics "$tmp/expo" --openmetrics-format prometheus
awk '/^# TYPE/ {print $3}' "$tmp/expo" | sort -u >"$tmp/have"
grep -o 'hpm_[a-z_]*' "$tmp/exprs" | sort -u >"$tmp/used"
missing=$(comm -23 "$tmp/used" "$tmp/have")
[ -s "$tmp/used" ] && [ -z "$missing" ]
ok $? "every metric its queries use is exported ($(tr '\n' ' ' <"$tmp/used"))"
[ -n "$missing" ] && diag "not exported: $missing"
grep -q 'hpm_topdown_ratio{[^}]*level=\\"1\\"[^}]*cpu=\\"all\\"' "$dash" &&
	grep -q '"repeat": "cpu"' "$dash" && grep -q '"stacking": {' "$dash"
ok $? "per-host stacked level-1 Topdown and a panel per CPU"
done_testing

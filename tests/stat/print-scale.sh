#!/bin/sh
# stat's printing of many rows (issue 27, item 4): each row's shadow value
# looked for a clock, and each row's cgroup column for a cgroup, by a scan
# of every row, so printing n rows cost n^2 (40000 rows: about 20 s of CPU).
# A run file of 40000 rows (written here in hpmstat's run schema, as stat
# record writes it: page-faults and minor-faults in turn, no clock, the
# scan's worst case) must print within a CPU-time limit (ulimit -t: the
# machine's load does not count), in the std and CSV layouts, each of its
# rows as the same file of the first two rows prints them.
. "$top_srcdir/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "no python3"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$tap_out" "$tap_err"' EXIT
run_file() { # N OUT
	python3 - "$1" "$2" <<'PY'
import json, sys
n, out = int(sys.argv[1]), sys.argv[2]
names = [("page-faults", 2, 48), ("minor-faults", 5, 47)]
events = []
for i in range(n):
    name, config, value = names[i % 2]
    events.append({
        "name": name, "spec": name, "kind": "host", "backend": "perf", "emulated": False,
        "metric_only": False, "group": None,
        "attr": {"type": 1, "config": config, "config1": 0, "config2": 0},
        "placement": "perf type 1 config %#x on pid 1 (1 fd)" % config, "state": "ok",
        "unit": "", "scale": 1.0, "time_unit": "ns",
        "counts": [{"unit": "task", "value": value, "enabled": 1000000, "running": 1000000}],
        "value": value, "running_share": 1.0})
run = {
    "schema": "hpmstat-run", "schema_version": 1,
    "tool": {"name": "hpmstat", "version": "0.1.0"}, "created": "2026-01-01T00:00:00Z",
    "argv": ["stat", "true"], "command": "true", "intervals": [],
    "backend": {"kunminghu": None, "emulator": False, "perf": True}, "emulated": None,
    "elapsed_ns": 1000000.0, "target": None,
    "output": {"per_unit": False, "metric_only": False, "verbose": False,
               "no_big_num": False, "summary": False, "table": False},
    "user_s": 0.0, "sys_s": 0.0, "repeat": 1, "interval_ms": 0.0, "topdown_level": 0,
    "no_multiplex_runs": 0, "events": events, "metrics": [],
    "runs": [{"elapsed_ns": 1000000.0, "values": [e["value"] for e in events]}]}
json.dump(run, open(out, "w"))
PY
}
run_file 2 "$tmp/two.json"
run_file 40000 "$tmp/many.json"
for layout in std csv; do
	opt=; [ $layout = csv ] && opt=-x,
	"$HPMSTAT" stat report -i "$tmp/two.json" $opt >"$tmp/two.out" 2>&1
	grep -- '-faults' "$tmp/two.out" >"$tmp/two.rows"
	(ulimit -t 10 && exec "$HPMSTAT" stat report -i "$tmp/many.json" $opt) >"$tmp/many.out" 2>&1; rc=$?
	grep -- '-faults' "$tmp/many.out" >"$tmp/many.rows"
	[ $rc -eq 0 ] && [ "$(wc -l <"$tmp/two.rows")" = 2 ] &&
		[ "$(wc -l <"$tmp/many.rows")" = 40000 ] &&
		[ "$(sort -u "$tmp/many.rows")" = "$(sort -u "$tmp/two.rows")" ]
	ok $? "$layout: 40000 rows printed in < 10 s of CPU, each as in a file of two"
	[ $rc -eq 0 ] || diag "exit $rc (137 or 152: killed at the CPU limit)" "$(tail -2 "$tmp/many.out")"
done
done_testing

#!/usr/bin/env python3
"""perf-json-rows.py: the row rules of perf stat -j output, as perf's JSON
linter (tools/perf/tests/shell/lib/perf_json_output_lint.py, in 6.1 and as
it stands in current Linux) enforces them, written down as key sets per row
kind so a failure names the row and the key.

Usage: perf-json-rows.py [--interval] [--repeat] [--metric-pair]
                         [--mode MODE] [--extra-keys K,...] < output
MODE: plain (default: no aggregation option, -a or -e), thread
(--per-thread), cpu (-A), core, socket, die, node (--per-core ...).
--repeat: -r output, whose counter rows carry perf's "variance" (a perf
key neither linter knows). --metric-pair: every counter row has the metric
pair, as perf 6.1 prints it and its linter, counting 6 commas, requires.
--extra-keys: keys allowed besides perf's (hpmstat's documented ones on
emulated rows); perf's own keys are checked as ever.

The rules:
- every line is one JSON object; only perf's keys, each with perf's kind
  of value (numbers may be JSON numbers or strings holding numbers);
- the mode's prefix: "interval" with -I; "thread" or "cpu" for the
  per-thread and -A modes; for --per-X the X id and the number of CPUs
  summed, "aggregate-number" in perf 6.1, renamed "counters" later;
- a counter row (it has "counter-value") holds exactly the prefix,
  counter-value, unit, event, event-runtime, pcnt-running, and either both
  metric-value and metric-unit or neither (5 or 7 keys past the prefix;
  perf 6.1's linter counts 7), metric-threshold only beside a metric;
- a metric row (an event's second metric, no "counter-value") holds
  metric-value, metric-unit, at most the prefix and the run-time pair;
- a metric group row holds "metricgroup" and at most the prefix.
"""
import argparse
import json
import sys

COUNTER_KEYS = {"counter-value", "unit", "event", "event-runtime", "pcnt-running"}
METRIC_PAIR = {"metric-value", "metric-unit"}
THRESHOLDS = {"unknown", "good", "less good", "nearly bad", "bad"}
AGGR_COUNT = {"aggregate-number", "counters"}
PREFIX = {
    "plain": set(),
    "thread": {"thread"},
    "cpu": {"cpu"},
    "core": {"core"},
    "socket": {"socket"},
    "die": {"die"},
    "node": {"node"},
}


def number(v):
    if isinstance(v, bool):
        return False
    if isinstance(v, (int, float)):
        return True
    try:
        float(v)
        return True
    except (TypeError, ValueError):
        return False


def integer(v):
    try:
        return not isinstance(v, bool) and int(v) == float(v)
    except (TypeError, ValueError):
        return False


VALUE_OK = {
    "counter-value": lambda v: number(v) or v in ("<not counted>", "<not supported>"),
    "event-runtime": number,
    "pcnt-running": number,
    "metric-value": number,
    "metric-threshold": lambda v: v in THRESHOLDS,
    "interval": number,
    "cpu": integer,
    "aggregate-number": number,
    "counters": number,
}
TEXT_KEYS = {"unit", "event", "metric-unit", "metricgroup", "thread", "core", "socket",
             "die", "node", "cgroup"}


def check_row(row, prefix, aggregated, args):
    """None when ROW keeps the rules, else what it breaks."""
    keys = set(row)
    for k, v in row.items():
        if k in args.extra:
            keys.discard(k)
        elif k == "variance" and args.repeat and "counter-value" in keys:
            if not number(v):
                return f"key 'variance' has a value perf never prints: {v!r}"
            keys.discard(k)
        elif k in VALUE_OK:
            if not VALUE_OK[k](v):
                return f"key {k!r} has a value perf never prints: {v!r}"
        elif k not in TEXT_KEYS:
            return f"key {k!r} is not one of perf's"
    counts = keys & AGGR_COUNT
    if len(counts) > 1:
        return "both 'aggregate-number' and 'counters'"
    if "counter-value" in keys:
        need = COUNTER_KEYS | prefix
        if not need <= keys:
            return f"counter row lacks {sorted(need - keys)}"
        if aggregated and not counts:
            return "per-aggregate counter row lacks 'aggregate-number' (or 'counters')"
        rest = keys - need - counts
        if rest & METRIC_PAIR and not METRIC_PAIR <= rest:
            return f"counter row has {sorted(rest & METRIC_PAIR)} without its pair"
        if args.metric_pair and not METRIC_PAIR <= rest:
            return "counter row lacks the metric pair perf 6.1 prints on every row"
        rest -= METRIC_PAIR
        if "metric-threshold" in rest and "metric-value" not in keys:
            return "metric-threshold without a metric"
        rest.discard("metric-threshold")
        if rest:
            return f"counter row has keys of another mode: {sorted(rest)}"
        return None
    if "metric-value" in keys:
        rest = keys - METRIC_PAIR - prefix - counts - {"interval", "event-runtime",
                                                        "pcnt-running", "metric-threshold"}
        if "metric-unit" not in keys:
            return "metric row lacks 'metric-unit'"
        return f"metric row has {sorted(rest)}" if rest else None
    if "metricgroup" in keys:
        rest = keys - {"metricgroup", "interval"} - prefix - counts
        return f"metric group row has {sorted(rest)}" if rest else None
    return "a row with neither counter-value, metric-value nor metricgroup"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mode", choices=sorted(PREFIX), default="plain")
    ap.add_argument("--interval", action="store_true")
    ap.add_argument("--repeat", action="store_true")
    ap.add_argument("--metric-pair", action="store_true")
    ap.add_argument("--extra-keys", default="")
    args = ap.parse_args()
    args.extra = set(k for k in args.extra_keys.split(",") if k)
    prefix = set(PREFIX[args.mode]) | ({"interval"} if args.interval else set())
    aggregated = args.mode in ("core", "socket", "die", "node")
    rows = 0
    for n, line in enumerate(sys.stdin, 1):
        try:
            row = json.loads(line)
        except ValueError as e:
            print(f"line {n} is not one JSON object ({e}): {line.rstrip()[:120]}")
            return 1
        if not isinstance(row, dict):
            print(f"line {n} is not a JSON object: {line.rstrip()[:120]}")
            return 1
        why = check_row(row, prefix, aggregated, args)
        if why:
            print(f"line {n}: {why}: {line.rstrip()[:160]}")
            return 1
        rows += 1
    if rows == 0:
        print("no rows")
        return 1
    print(f"{rows} rows keep perf's JSON rules")
    return 0


if __name__ == "__main__":
    sys.exit(main())

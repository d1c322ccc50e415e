#!/usr/bin/env python3
"""omcheck.py FILE: parses FILE with the OpenMetrics parser of Python's
prometheus_client (strict: "# EOF", _total counters, UNIT names, label
escapes) and prints each sample as NAME{k=v,...} VALUE, sorted label
keys, so that a shell test can grep them. Exit 1 with the parser's error."""
import sys

from prometheus_client.openmetrics.parser import text_string_to_metric_families

try:
    fams = list(text_string_to_metric_families(open(sys.argv[1]).read()))
except Exception as e:  # noqa: BLE001
    print("parse error: %r" % e, file=sys.stderr)
    sys.exit(1)
for f in fams:
    print("# family %s %s %s" % (f.name, f.type, f.unit))
    for s in f.samples:
        labels = ",".join("%s=%s" % (k, s.labels[k]) for k in sorted(s.labels))
        print("%s{%s} %r" % (s.name, labels, s.value))

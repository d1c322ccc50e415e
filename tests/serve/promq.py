#!/usr/bin/env python3
"""promq.py BASE QUERY: runs QUERY on the Prometheus at BASE through its
HTTP API (/api/v1/query) and prints one line per series: its labels
(k=v, sorted, space-separated) then " => " and its value, or for a range
vector every value of it, space-separated. Exit 1 when the API fails."""
import json
import sys
import urllib.parse
import urllib.request

base, query = sys.argv[1], sys.argv[2]
with urllib.request.urlopen(base + "/api/v1/query?" + urllib.parse.urlencode({"query": query}),
                            timeout=10) as r:
    d = json.load(r)
if d.get("status") != "success":
    print(d, file=sys.stderr)
    sys.exit(1)
res = d["data"]["result"]
if d["data"]["resultType"] == "scalar":
    print(" => " + res[1])
    sys.exit(0)
for s in res:
    labels = " ".join("%s=%s" % (k, v) for k, v in sorted(s["metric"].items()))
    vals = [s["value"][1]] if "value" in s else [v[1] for v in s["values"]]
    print(labels + " => " + " ".join(vals))

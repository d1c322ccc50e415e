#!/usr/bin/env python3
"""scrape.py URL CLIENTS SECONDS MAX_PER_CLIENT [ACCEPT]: CLIENTS threads
GET URL over keep-alive connections (a new one after any failure) until
SECONDS have passed or each has made MAX_PER_CLIENT requests; prints one
line of JSON: requests, failures (not 200, short body, or an exception),
the first failure's words, and latency percentiles in ms. Used by
tests/serve/serve-load.sh and bench/serve-bench.sh."""
import http.client
import json
import sys
import threading
import time
import urllib.parse

url, clients, seconds, cap = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
accept = sys.argv[5] if len(sys.argv) > 5 else "text/plain"
u = urllib.parse.urlsplit(url)
lock = threading.Lock()
lat, fails, first = [], [0], [None]
deadline = time.monotonic() + seconds


def client():
    conn, mine, n = None, [], 0
    while n < cap and time.monotonic() < deadline:
        n += 1
        t = time.monotonic()
        try:
            if conn is None:
                conn = http.client.HTTPConnection(u.hostname, u.port, timeout=10)
            conn.request("GET", u.path, headers={"Accept": accept})
            r = conn.getresponse()
            body = r.read()
            if r.status != 200 or not body.startswith(b"# HELP hpm"):
                raise RuntimeError("status %d, %d bytes" % (r.status, len(body)))
            mine.append((time.monotonic() - t) * 1e3)
        except Exception as e:  # noqa: BLE001 - every failure counts
            with lock:
                fails[0] += 1
                first[0] = first[0] or repr(e)
            if conn:
                conn.close()
            conn = None
    if conn:
        conn.close()
    with lock:
        lat.extend(mine)


threads = [threading.Thread(target=client) for _ in range(clients)]
for t in threads:
    t.start()
for t in threads:
    t.join()
lat.sort()


def pct(p):
    return round(lat[min(len(lat) - 1, int(p / 100 * len(lat)))], 3) if lat else None


print(json.dumps({"requests": len(lat) + fails[0], "failures": fails[0], "first_failure": first[0],
                  "p50_ms": pct(50), "p90_ms": pct(90), "p99_ms": pct(99),
                  "max_ms": round(lat[-1], 3) if lat else None}))

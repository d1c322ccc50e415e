#!/bin/sh
# serve-bench.sh HPMSTAT [CLIENTS] [SECONDS]: scrape latency of hpmstat
# serve (emulator back end, -I 1000) under CLIENTS concurrent keep-alive
# clients (default 50) for SECONDS (default 10), with the Python client of
# tests/serve/scrape.py; prints requests/s, latency percentiles, the
# server's CPU time and RSS. Needs libmicrohttpd in the build and python3.
H=${1:?usage: serve-bench.sh HPMSTAT [CLIENTS] [SECONDS]}
CLIENTS=${2:-50}
SECS=${3:-10}
here=$(cd "$(dirname "$0")" && pwd)
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
port=$("$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$H" serve --listen 127.0.0.1:$port --backend emu --emu-seed 1 &
pid=$!
trap 'kill $pid 2>/dev/null' EXIT
i=0
until curl -s -o /dev/null "http://127.0.0.1:$port/metrics" || [ $i -ge 50 ]; do sleep 0.1; i=$((i + 1)); done
sleep 1.2 # the first interval: the whole exposition
size=$(curl -s "http://127.0.0.1:$port/metrics" | wc -c)
ticks() { awk '{print $14 + $15}' /proc/$pid/stat; }
t0=$(ticks)
for fmt in text/plain application/openmetrics-text; do
	out=$("$PY" "$here/../tests/serve/scrape.py" "http://127.0.0.1:$port/metrics" "$CLIENTS" "$SECS" 1000000 "$fmt")
	echo "$out" | "$PY" -c '
import json, sys
d = json.loads(sys.stdin.read())
print("%-30s %d clients, %s s: %d requests (%.0f/s), %d failed; latency ms p50 %s p90 %s p99 %s max %s" % (
    sys.argv[1], int(sys.argv[2]), sys.argv[3], d["requests"], d["requests"] / float(sys.argv[3]),
    d["failures"], d["p50_ms"], d["p90_ms"], d["p99_ms"], d["max_ms"]))' "Accept: $fmt" "$CLIENTS" "$SECS"
done
t1=$(ticks)
hz=$(getconf CLK_TCK)
echo "exposition: $size bytes; server CPU: $(awk -v a=$t0 -v b=$t1 -v hz=$hz -v s=$SECS 'BEGIN { printf "%.2f s in %d s (%.0f %%)", (b - a) / hz, 2 * s, 100 * (b - a) / hz / (2 * s) }'); RSS $(awk '/^VmRSS/ {print $2, $3}' /proc/$pid/status)"
echo "(the client is Python on the same machine: it, not the server, is usually the limit)"

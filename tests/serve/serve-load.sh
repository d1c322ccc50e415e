#!/bin/sh
# serve-load.sh: 50 clients hammer hpmstat serve's /metrics on loopback for
# 30 s (bounded by time and by a count per client): no request fails, the
# counting keeps its cadence within 5 % (intervals per second of wall time,
# and the emulated harts following wall time), and the server's memory
# stays flat (RSS after warm-up and at the end). Long: runs only when
# HPMSTAT_LONG_TESTS is not "0".
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/serve/serve-lib.sh"
[ "${HPMSTAT_LONG_TESTS:-1}" = 0 ] && skip_all "a 30 s load test: HPMSTAT_LONG_TESTS=0"
have_mhd || skip_all "hpmstat was built without libmicrohttpd"
tmp=$(mktemp -d)
pids=
trap 'main_shell || exit; for p in $pids; do kill $p 2>/dev/null; wait $p 2>/dev/null; done; rm -rf "$tmp" "$tap_out" "$tap_err"' EXIT

CLIENTS=50
SECONDS_LOAD=${HPM_SERVE_LOAD_SECONDS:-30}
INTERVAL_MS=500
port=$(free_port)
base=http://127.0.0.1:$port
# in an ASan build, freed blocks wait in ASan's quarantine (up to 256 MB)
# and the RSS would grow with the requests: none for serve (nor for the
# uninstrumented curl and python that also see it)
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0"
export ASAN_OPTIONS
serve_start 127.0.0.1:$port "$tmp/serve.err" --backend emu --emu-seed 4 --emu-freq 20000000 \
	-I $INTERVAL_MS
ok $? "serve is up"

rss() { awk '/^VmRSS:/ {print $2}' /proc/$spid/status; }
# WHEN INTERVALS ENABLED: the wall time the exposition's values were read
# (hpm_last_update_timestamp_seconds, so that a scrape between two
# intervals adds no error), hpm_intervals_total, mcycle's enabled seconds
sample() {
	curl -s -m 5 "$base/metrics" >"$tmp/s" || return 1
	printf '%s %s %s\n' "$(metric_value "$tmp/s" hpm_last_update_timestamp_seconds)" \
		"$(metric_value "$tmp/s" hpm_intervals_total)" \
		"$(metric_value "$tmp/s" 'hpm_event_enabled_seconds_total{event="mcycle",pmu="kunminghu",cpu="0",emulated="true"}')"
}

timeout $((SECONDS_LOAD + 30)) "$PY" "$S/scrape.py" "$base/metrics" $CLIENTS $SECONDS_LOAD 100000 \
	>"$tmp/load.json" &
lpid=$!
pids="$lpid $spid"
sleep 5 # warm-up: every client connected, the allocator at its working set
rss_warm=$(rss)
first=$(sample)
wait $lpid
lrc=$?
last=$(sample)
rss_end=$(rss)
pids=$spid
ok $lrc "$CLIENTS clients ran for ${SECONDS_LOAD} s"
diag "load: $(cat "$tmp/load.json")"
"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(not (d["requests"] > 0 and d["failures"] == 0))' "$tmp/load.json"
ok $? "no request failed"

set -- $first $last
diag "cadence: from $1 ($2 intervals, $3 s enabled) to $4 ($5 intervals, $6 s enabled)"
awk -v t1="$1" -v n1="$2" -v t2="$4" -v n2="$5" -v ms=$INTERVAL_MS 'BEGIN {
	want = (t2 - t1) * 1000 / ms; r = (n2 - n1) / want
	printf "# intervals: %d in %.2f s, %.1f expected (ratio %.4f)\n", n2 - n1, t2 - t1, want, r
	exit !(want > 10 && r > 0.95 && r < 1.05) }'
ok $? "the intervals kept their cadence within 5 %"
awk -v t1="$1" -v e1="$3" -v t2="$4" -v e2="$6" 'BEGIN {
	r = (e2 - e1) / (t2 - t1)
	printf "# emulated time per wall second: %.4f\n", r
	exit !(r > 0.95 && r < 1.05) }'
ok $? "the emulated hart kept up with wall time within 5 %"

diag "RSS: $rss_warm kB after warm-up, $rss_end kB at the end"
awk -v a="$rss_warm" -v b="$rss_end" 'BEGIN { tol = a / 10; if (tol < 1024) tol = 1024; exit !(a > 0 && b <= a + tol) }'
ok $? "memory stayed flat (within max(10 %, 1 MiB))"

code=$(curl -s -o /dev/null -w '%{http_code}' "$base/metrics")
[ "$code" = 200 ]
ok $? "serve still answers after the load"
serve_end "$tmp/serve.err"
done_testing

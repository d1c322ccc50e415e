#!/bin/sh
# serve-slowloris.sh: clients that hold serve's connections without ever
# finishing a request (slowloris: a header line every 2 s, never the blank
# line) are cut at serve's 10 s request deadline, so that as many of them
# as serve takes connections (64) lock a scraper out for that long at
# most, not for as long as they keep trickling. Loopback only, bounded in
# time (about 30 s).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/serve/serve-lib.sh"
have_mhd || skip_all "hpmstat was built without libmicrohttpd"
tmp=$(mktemp -d)
pids=
trap 'main_shell || exit; for p in $pids; do kill $p 2>/dev/null; wait $p 2>/dev/null; done; rm -rf "$tmp" "$tap_out" "$tap_err"' EXIT

port=$(free_port)
base=http://127.0.0.1:$port
serve_start 127.0.0.1:$port "$tmp/serve.err" --backend emu --emu-seed 2 -I 500
ok $? "serve is up"

# 64 is serve's connection limit (cmd-serve.c), the deadline 10 s: they
# trickle for 26 s, long past it
SLOW_SECONDS=26
timeout $((SLOW_SECONDS + 20)) "$PY" "$S/slowloris.py" "$port" 64 $SLOW_SECONDS >"$tmp/slow.out" &
lpid=$!
pids="$lpid $pids"
start=$(date +%s)
# from past the deadline (and the watchdog's second) until the slow
# clients stop: a scrape gets its answer
sleep 14
got=
while [ $(($(date +%s) - start)) -lt $((SLOW_SECONDS - 3)) ]; do
	code=$(curl -s -m 3 -o /dev/null -w '%{http_code}' "$base/metrics")
	if [ "$code" = 200 ]; then got=$(($(date +%s) - start)); break; fi
	sleep 1
done
[ -n "$got" ]
ok $? "a scrape is answered while 64 slowloris clients trickle (at ${got:-no} s; the deadline is 10 s)"
wait $lpid
pids=$spid
diag "slow clients: $(cat "$tmp/slow.out")"
set -- $(cat "$tmp/slow.out")
[ "$2" -gt 0 ] && [ "$2" = "$4" ]
ok $? "serve closed every slow connection ($4 of $2)"
code=$(curl -s -m 5 -o /dev/null -w '%{http_code}' "$base/metrics")
[ "$code" = 200 ]
ok $? "serve still answers after them"
serve_end "$tmp/serve.err"
done_testing

#!/bin/sh
# serve-expo.sh: every exposition hpmstat writes is one that Prometheus's
# own checkers accept (promtool check metrics for the text format 0.0.4,
# prometheus_client's strict OpenMetrics parser for OpenMetrics 1.0.0),
# with numbers that agree with independent truths; and bad input: an
# unwritable --openmetrics path, a port in use, other methods and paths,
# oversized and malformed requests, after which serve still serves.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/serve/serve-lib.sh"
tmp=$(mktemp -d)
pids=
trap 'main_shell || exit; for p in $pids; do kill $p 2>/dev/null; done; rm -rf "$tmp" "$tap_out" "$tap_err"' EXIT

have_promtool() { command -v promtool >/dev/null 2>&1; }
# om_ok DESC FILE: the OpenMetrics parser accepts FILE (its samples in $tmp/om.parsed)
om_ok() {
	if ! have_om_parser; then skip "$1: no python3-prometheus-client"; return; fi
	"$PY" "$S/omcheck.py" "$2" >"$tmp/om.parsed" 2>"$tmp/om.err"
	ok $? "$1"
	[ -s "$tmp/om.err" ] && diag "$(cat "$tmp/om.err")"
}
# prom_ok DESC FILE: promtool check metrics accepts FILE (no lint message)
prom_ok() {
	if ! have_promtool; then skip "$1: no promtool (Debian's prometheus)"; return; fi
	promtool check metrics <"$2" >"$tmp/pt.out" 2>&1
	ok $? "$1"
	[ -s "$tmp/pt.out" ] && diag "$(head -5 "$tmp/pt.out")"
}

# ---------------------------------------------------------------- stat --openmetrics
# a profile whose path holds a quote and a backslash: the label escapes them
weird="$tmp/we\"ird\\name.profile"
cp "$top_srcdir/profiles/balanced.profile" "$weird"
om="$tmp/out.om"
run_ok "stat -I 200 --interval-count 3 --openmetrics FILE (emulator, -a)" \
	"$H" stat -a --backend emu --emu-profile "$weird" --emu-seed 3 --emu-freq 10000000 \
	-I 200 --interval-count 3 --openmetrics "$om" -q
[ -s "$om" ] && [ "$(ls "$tmp" | grep -c '^out\.om')" = 1 ]
ok $? "the file is in place and no temporary file is left beside it"
tail -1 "$om" | grep -qx '# EOF'
ok $? "OpenMetrics ends with # EOF"
om_ok "the OpenMetrics parser accepts stat --openmetrics's file" "$om"
grep -qF 'profile="'"$tmp"'/we\"ird\\name.profile"' "$om"
ok $? "a label value's quote and backslash are escaped as \\\" and \\\\"
if have_om_parser; then
	grep -qF "profile=$tmp/we\"ird\\name.profile" "$tmp/om.parsed"
	ok $? "... and parse back to the path"
fi
# independent truths: the emulated clock runs at --emu-freq, so mcycle's
# count is its enabled time times 1e7; Topdown level 1 splits all slots
cyc=$(metric_value "$om" 'hpm_events_total{event="mcycle",pmu="kunminghu",cpu="0",emulated="true"}')
ena=$(metric_value "$om" 'hpm_event_enabled_seconds_total{event="mcycle",pmu="kunminghu",cpu="0",emulated="true"}')
awk -v c="$cyc" -v e="$ena" 'BEGIN { exit !(c > 0 && (c - e * 1e7) ^ 2 < 1) }'
ok $? "mcycle = enabled seconds x 10 MHz ($cyc, $ena s)"
grep '^hpm_topdown_ratio{.*level="1",cpu="all"}' "$om" |
	awk '{ s += $NF; n++ } END { exit !(n == 4 && (s - 1) ^ 2 < 1e-12) }'
ok $? "the 4 level-1 Topdown ratios sum to 1"
[ "$(metric_value "$om" hpm_intervals_total)" = 3 ] && [ "$(metric_value "$om" hpm_interval_seconds)" = 0.2 ]
ok $? "hpm_intervals_total 3, hpm_interval_seconds 0.2"

prom="$tmp/out.prom"
run_ok "--openmetrics-format prometheus" \
	"$H" stat -a --backend emu --emu-seed 3 -I 100 --interval-count 2 --topdown=2 \
	--openmetrics "$prom" --openmetrics-format prometheus -q
prom_ok "promtool check metrics accepts the Prometheus text file" "$prom"
! grep -q '^# EOF\|^# UNIT' "$prom" && grep -q '^# TYPE hpm_events_total counter' "$prom"
ok $? "the text format 0.0.4 has no # EOF or # UNIT, and names counters with _total"
grep -q '^hpm_topdown_ratio{node="[a-z_]*",level="2",cpu="all"}' "$prom"
ok $? "--topdown=2: level-2 nodes are exported"
# every family's HELP line comes before its TYPE line, in both formats
awk 'FNR == 1 { split("", help) } /^# HELP / { help[$3] = 1 }
     /^# TYPE / { n++; if (!($3 in help)) bad++ } END { exit !(n > 0 && !bad) }' "$prom" "$om"
ok $? "# HELP before # TYPE in every family"

# the perf back end: software events on every CPU (cpu-clock counts the
# nanoseconds it is enabled, so its count is its enabled time)
host="$tmp/host.prom"
if "$H" stat -a --backend perf -e cpu-clock,context-switches -I 200 --interval-count 2 -q \
	--openmetrics "$host" --openmetrics-format prometheus 2>"$tmp/host.err"; then
	prom_ok "promtool check metrics accepts the perf back end's file" "$host"
	# a time event in seconds, Prometheus's base unit, in a _seconds family
	n=$(grep -c '^hpm_event_seconds_total{event="cpu-clock",pmu="software",cpu="[0-9]*",emulated="false"}' "$host")
	[ "$n" = "$(getconf _NPROCESSORS_ONLN)" ] && ! grep -q '^hpm_events_total{event="cpu-clock"' "$host" &&
		grep -q '^hpm_events_total{event="context-switches"' "$host"
	ok $? "cpu-clock on each of the $n CPUs in hpm_event_seconds_total, not in hpm_events_total"
	awk '$1 ~ /^hpm_event_seconds_total\{event="cpu-clock".*cpu="0"/ { c = $2 }
	     $1 ~ /^hpm_event_enabled_seconds_total\{event="cpu-clock".*cpu="0"/ { e = $2 }
	     END { r = c / e; exit !(r > 0.99 && r < 1.01) }' "$host"
	ok $? "CPU 0's cpu-clock is its enabled time, in seconds"
	grep -q '^hpm_build_info{version="[^"]*",backend="perf",model="",table="",profile="",seed=""} 1$' "$host"
	ok $? "hpm_build_info: perf, no model, no emulator"
else
	skip "the perf back end cannot count here: $(head -1 "$tmp/host.err")"
fi

# without -I: the whole run's values once, the same numbers stat prints
one="$tmp/one.om"
run_ok "stat --openmetrics without -I" \
	"$H" stat --emu-cycles 2000000 --emu-seed 5 -x, -o "$tmp/one.csv" --openmetrics "$one"
om_ok "the OpenMetrics parser accepts it" "$one"
bad=0
for node in frontend_bound bad_speculation backend_bound retiring; do
	pct=$(grep ",% slots tma_$node\$" "$tmp/one.csv" | awk -F, '{print $(NF-1)}')
	r=$(metric_value "$one" "hpm_topdown_ratio{node=\"$node\",level=\"1\",cpu=\"all\"}")
	awk -v p="$pct" -v r="$r" 'BEGIN { d = p - 100 * r; exit !(p != "" && d * d < 0.0001) }' ||
		{ bad=1; diag "$node: CSV $pct %, exposition $r"; }
done
ok $bad "its Topdown ratios are stat -x's percentages / 100"
[ "$(metric_value "$one" hpm_intervals_total)" = 0 ]
ok $? "... with hpm_intervals_total 0"

# multiplexed: more Kunminghu events than counters. perf's scaled count is
# count x enabled / running; the exposition's raw counts and times must
# give the count stat prints, and its running share stat's percentage
ev=Front_Bubble,Fetch_Latency_Bound,rob_commitInstr,BR_MIS_PRED,TOTAL_FLUSH,EXEC_STALL_CYCLE
ev=$ev,MEMSTALL_ANY_LOAD,MEMSTALL_STORE,MEMSTALL_L1MISS,MEMSTALL_L2MISS,MEMSTALL_L3MISS,mcycle
ev=$ev,INST_SPEC+RECOVERY_BUBBLE
run_ok "a multiplexed run with --openmetrics" "$H" stat --backend emu -e "$ev" \
	--emu-cycles 2000000 -x, -o "$tmp/mux.csv" --openmetrics "$tmp/mux.om"
[ "$(metric_value "$tmp/mux.om" hpm_multiplexed)" = 1 ]
ok $? "hpm_multiplexed 1"
bad=0
nmux=0
for e in $(echo "$ev" | tr , ' '); do
	l="{event=\"$e\",pmu=\"kunminghu\",cpu=\"0\",emulated=\"true\"}"
	c=$(metric_value "$tmp/mux.om" "hpm_events_total$l")
	en=$(metric_value "$tmp/mux.om" "hpm_event_enabled_seconds_total$l")
	ru=$(metric_value "$tmp/mux.om" "hpm_event_running_seconds_total$l")
	want=$(awk -F, -v e="$e" '$3 == e { print $1, $5 }' "$tmp/mux.csv")
	awk -v c="$c" -v en="$en" -v ru="$ru" -v w="$want" 'BEGIN { split(w, f, " ")
		s = c * en / ru; d = s - f[1]; p = 100 * ru / en - f[2]
		exit !(ru > 0 && d * d <= 1 + (1e-9 * s) ^ 2 && p * p < 0.0001) }' ||
		{ bad=1; diag "$e: count $c, enabled $en, running $ru; stat: $want"; }
	[ "$ru" != "$en" ] && nmux=$((nmux + 1))
done
[ $bad = 0 ] && [ $nmux -gt 0 ]
ok $? "count x enabled / running is stat's scaled count, running / enabled its % ($nmux events multiplexed)"

: >"$tmp/file"
run_fails_with "an unwritable --openmetrics path: one line, before counting" \
	"--openmetrics: cannot write '$tmp/file/x.om': Not a directory" \
	timeout 10 "$H" stat -a --backend emu -I 100 --openmetrics "$tmp/file/x.om"
run_fails_with "--openmetrics with an empty name" "--openmetrics: the file name is empty" \
	"$H" stat --openmetrics ''
run_fails_with "--openmetrics-format that is neither" \
	"--openmetrics-format 'json': must be openmetrics or prometheus" \
	"$H" stat --openmetrics-format json

# ---------------------------------------------------------------- serve
if ! have_mhd; then
	# (the build has no HTTP server: serve must say so)
	run_fails_with "serve without libmicrohttpd says so" "built without libmicrohttpd" "$H" serve
	done_testing
	exit
fi
run_fails_with "serve -r: one line" "-r: serve counts continuously" "$H" serve -r 2 -- true
run_fails_with "serve --listen without a port" "--listen 'nonsense': expected ADDR:PORT" \
	"$H" serve --listen nonsense
run_fails_with "serve --listen with port 70000" "'70000' is not a port" \
	"$H" serve --listen 127.0.0.1:70000
# an IPv6 address without its closing bracket or port: its last ':' was
# taken for the port's ("'1]' is not a port", "--listen '[:': Name or ...")
for a in '[::1' '[::1]'; do
	run_fails_with "serve --listen '$a'" "--listen '$a': expected [ADDR6]:PORT" "$H" serve --listen "$a"
done
# strtol skips blanks: ' PORT' was taken (and served) for PORT
bport=$(free_port)
run_fails_with "serve --listen with a blank before the port" "' $bport' is not a port" \
	timeout 10 "$H" serve --listen "127.0.0.1: $bport" --backend emu

port=$(free_port)
base=http://127.0.0.1:$port
serve_start 127.0.0.1:$port "$tmp/serve.err" --backend emu --emu-seed 2 -I 200 >"$tmp/serve.out"
ok $? "serve answers /metrics on 127.0.0.1:$port"
sleep 0.5 # an interval or two

run_fails_with "a port in use: one line, non-zero, at once" \
	"cannot listen on 127.0.0.1:$port: Address already in use" \
	timeout 10 "$H" serve --listen 127.0.0.1:$port --backend emu

ct=$(curl -s -o "$tmp/m.prom" -w '%{content_type}' "$base/metrics")
[ "$ct" = "text/plain; version=0.0.4; charset=utf-8" ]
ok $? "no Accept: the Prometheus text format 0.0.4 ($ct)"
prom_ok "promtool check metrics accepts serve's /metrics" "$tmp/m.prom"
ct=$(curl -s -o "$tmp/m.om" -w '%{content_type}' \
	-H 'Accept: application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5' "$base/metrics")
[ "$ct" = "application/openmetrics-text; version=1.0.0; charset=utf-8" ]
ok $? "Accept: application/openmetrics-text: OpenMetrics 1.0.0 ($ct)"
om_ok "the OpenMetrics parser accepts serve's /metrics" "$tmp/m.om"
grep -q '^hpm_build_info{version="[^"]*",backend="emu",model="kunminghu",table="kunminghu-v2",profile="balanced",seed="2"} 1$' "$tmp/m.om"
ok $? "hpm_build_info names the back end, model, its table (kunminghu-v2), profile and seed"

code=$(curl -s -o "$tmp/index" -w '%{http_code} %{content_type}' "$base/")
[ "$code" = "200 text/html; charset=utf-8" ] && grep -q 'href="/metrics"' "$tmp/index"
ok $? "GET / is a short page pointing at /metrics ($code)"
head=$(curl -s -I "$base/metrics" | head -1 | tr -d '\r')
body=$(curl -s -X HEAD -m 5 "$base/metrics" 2>/dev/null | wc -c)
[ "$head" = "HTTP/1.1 200 OK" ] && [ "$body" = 0 ]
ok $? "HEAD /metrics: 200 without a body ($head, $body bytes)"
for m in POST PUT DELETE OPTIONS; do
	curl -s -D "$tmp/h" -o /dev/null -X $m -d x "$base/metrics"
	head -1 "$tmp/h" | grep -q ' 405 ' && grep -qi '^Allow: GET, HEAD' "$tmp/h"
	ok $? "$m /metrics: 405 with Allow: GET, HEAD"
done
head -c 1048576 /dev/zero >"$tmp/body"
# curl waits for the server's answer before it sends the body (Expect:
# 100-continue, as it does by itself, with no one-second give-up): a
# loaded server answering 413 after curl had started the body would close
# a connection with unread data, and the reset would hide the 413
code=$(curl -s -o /dev/null -w '%{http_code}' -X GET -H 'Expect: 100-continue' \
	--expect100-timeout 60 --data-binary @"$tmp/body" "$base/metrics")
[ "$code" = 413 ]
ok $? "GET /metrics with a 1 MiB body: 413, unread ($code)"
code=$(curl -s -o /dev/null -w '%{http_code}' -X GET -H 'Transfer-Encoding: chunked' -d x "$base/metrics")
[ "$code" = 413 ]
ok $? "GET /metrics with a chunked body: 413 ($code)"
for p in /nope /metrics/ /metricsx '/metrics/../etc/passwd'; do
	code=$(curl -s --path-as-is -o /dev/null -w '%{http_code}' "$base$p")
	[ "$code" = 404 ]
	ok $? "GET $p: 404 ($code)"
done

# raw requests: a refusal (4xx) or the connection closed, never a hang
tls=$(mktemp)
"$PY" "$S/rawhttp.py" $port '=\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03' >"$tls" &
tlspid=$!
raw() { "$PY" "$S/rawhttp.py" $port "$1"; }
r=$(raw longline); [ "$r" = 414 ]; ok $? "a 64 KiB request line: 414 ($r)"
r=$(raw longheader); [ "$r" = 431 ]; ok $? "a 64 KiB header: 431 ($r)"
r=$(raw manyheaders); [ "$r" = 431 ]; ok $? "2000 headers: 431 ($r)"
r=$(raw '=GET /metrics FOO/1.1\r\nHost: x\r\n\r\n'); [ "$r" = 400 ]; ok $? "a bad protocol name: 400 ($r)"
r=$(raw '=GET /metrics HTTP/1.1\r\nNoColonHere\r\n\r\n'); [ "$r" = 400 ]; ok $? "a header without a colon: 400 ($r)"
r=$(raw '=\xff\xfe\x80 garbage\r\n\r\n'); [ "$r" = 400 ]; ok $? "binary garbage: 400 ($r)"
r=$(raw badversion); [ "$r" = 505 ]; ok $? "HTTP/9.9: 505 ($r)"
r=$(raw half); [ "$r" = sent ]; ok $? "half a request line, then the client goes"
wait $tlspid
r=$(cat "$tls"); rm -f "$tls"
[ "$r" = closed ]; ok $? "a TLS hello: the connection closed by the per-connection timeout ($r)"

n1=$(curl -s "$base/metrics" | grep '^hpm_intervals_total ' | awk '{print $2}')
sleep 0.5
code=$(curl -s -o "$tmp/after" -w '%{http_code}' "$base/metrics")
n2=$(grep '^hpm_intervals_total ' "$tmp/after" | awk '{print $2}')
[ "$code" = 200 ] && [ "${n2:-0}" -gt "${n1:-0}" ]
ok $? "after all that, serve still serves and still counts (intervals $n1 -> $n2)"
kill -0 $spid 2>/dev/null
ok $? "serve is still running"

t0=$(date +%s%N)
kill -TERM $spid
wait $spid
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
[ $rc = 143 ] && [ $ms -lt 2000 ]
ok $? "SIGTERM ends serve at once, dying of it (exit $rc, $ms ms)"
[ ! -s "$tmp/serve.err" ] && [ ! -s "$tmp/serve.out" ]
ok $? "serve printed nothing meanwhile"
[ -s "$tmp/serve.err" ] && diag "$(head -5 "$tmp/serve.err")"
curl -s -m 2 -o /dev/null "$base/metrics"
[ $? = 7 ]
ok $? "... and the port is closed"

port=$(free_port)
"$H" serve --listen "[::1]:$port" --backend emu -I 100 2>"$tmp/v6.err" &
spid=$!
pids="$spid"
if wait_http "http://[::1]:$port/metrics" 5; then
	ok 0 "--listen [::1]:PORT serves IPv6"
else
	grep -q 'cannot listen on \[::1\]' "$tmp/v6.err"
	ok $? "--listen [::1]:PORT: IPv6 or one clear line ($(head -1 "$tmp/v6.err"))"
fi
kill -INT $spid 2>/dev/null
wait $spid
rc=$?
[ $rc = 130 ] || [ $rc = 1 ]
ok $? "SIGINT ends serve (exit $rc)"
done_testing

#!/bin/sh
# serve-prometheus.sh: a real Prometheus server (Debian's) started here on
# loopback, scraping hpmstat serve on the emulator back end (fixed profile
# and seed) every second: its query API returns the expected series, the
# counters only grow, it negotiated OpenMetrics, and the Topdown ratios and
# IPC match what hpmstat stat --topdown prints for the same profile and
# seed (within 0.5 percent points; 0.02 IPC).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/serve/serve-lib.sh"
have_mhd || skip_all "hpmstat was built without libmicrohttpd"
PROM=$(command -v prometheus || echo /usr/bin/prometheus)
[ -x "$PROM" ] || skip_all "no prometheus server (Debian's prometheus package)"
tmp=$(mktemp -d)
pids=
trap 'main_shell || exit; for p in $pids; do kill $p 2>/dev/null; wait $p 2>/dev/null; done; rm -rf "$tmp" "$tap_out" "$tap_err"' EXIT

emu="--backend emu --emu-profile balanced --emu-seed 7 --emu-freq 50000000"
sport=$(free_port)
serve_start 127.0.0.1:$sport "$tmp/serve.err" $emu -I 500
ok $? "hpmstat serve is up on 127.0.0.1:$sport"

pport=$(free_port)
cat >"$tmp/prometheus.yml" <<EOC
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: hpmstat
    static_configs:
      - targets: ['127.0.0.1:$sport']
EOC
"$PROM" --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/tsdb" \
	--web.listen-address=127.0.0.1:$pport --log.level=error >"$tmp/prom.log" 2>&1 &
ppid=$!
pids="$ppid $spid"
pbase=http://127.0.0.1:$pport
wait_http "$pbase/-/ready" 30
ok $? "prometheus is ready on 127.0.0.1:$pport"
q() { "$PY" "$S/promq.py" "$pbase" "$1"; }

# eight scrapes or more (bounded: 30 s)
i=0
while [ $i -lt 60 ]; do
	n=$(q 'count_over_time(hpm_intervals_total[1m])' 2>/dev/null | sed 's/.*=> //')
	[ "${n:-0}" -ge 8 ] && break
	sleep 0.5
	i=$((i + 1))
done
[ "${n:-0}" -ge 8 ]
ok $? "prometheus scraped hpmstat 8 times ($n)"

r=$(q 'up{job="hpmstat"}')
case $r in *"=> 1") ok 0 "up{job=\"hpmstat\"} is 1" ;; *) ok 1 "up is 1"; diag "$r" ;; esac
curl -s "$pbase/api/v1/targets" >"$tmp/targets.json"
"$PY" -c 'import json,sys; t=json.load(open(sys.argv[1]))["data"]["activeTargets"]; sys.exit(not (len(t)==1 and t[0]["health"]=="up" and t[0]["lastError"]==""))' "$tmp/targets.json"
ok $? "the target is healthy with no scrape error"
# the family "hpm_build" of type info exists only in OpenMetrics:
# Prometheus asked for it and parsed it
curl -s "$pbase/api/v1/metadata?metric=hpm_build" >"$tmp/meta.json"
grep -q '"type":"info"' "$tmp/meta.json"
ok $? "Prometheus negotiated OpenMetrics (hpm_build is an info family)"
[ -s "$tmp/meta.json" ] && ! grep -q '"type":"info"' "$tmp/meta.json" && diag "$(head -c 300 "$tmp/meta.json")"

r=$(q 'hpm_build_info')
case $r in
*"backend=emu"*"model=kunminghu"*"profile=balanced seed=7"*"=> 1") ok 0 "hpm_build_info: emu, kunminghu, balanced, seed 7" ;;
*) ok 1 "hpm_build_info"; diag "$r" ;;
esac
n=$(q 'count(hpm_topdown_ratio{level="1",cpu="all"})' | sed 's/.*=> //')
[ "$n" = 4 ]
ok $? "four level-1 Topdown series for all CPUs ($n)"
n=$(q 'count(hpm_events_total{emulated="true",cpu="0",pmu="kunminghu"})' | sed 's/.*=> //')
[ "${n:-0}" -ge 2 ]
ok $? "hpm_events_total series of the emulated hart ($n)"
q 'hpm_ipc{cpu="all"}' | grep -q '=> [0-9]'
ok $? "hpm_ipc{cpu=\"all\"}"

# counters only grow: every stored sample of mcycle larger than the last
q 'hpm_events_total{event="mcycle"}[1m]' >"$tmp/mcycle"
awk -F' => ' '{ n = split($2, v, " "); for (i = 2; i <= n; i++) if (v[i] + 0 <= v[i - 1] + 0) bad = 1; if (n < 5) bad = 1 }
	END { exit bad }' "$tmp/mcycle"
ok $? "mcycle's samples increase strictly ($(awk -F' => ' '{print split($2, v, " ")}' "$tmp/mcycle") samples)"
r=$(q 'sum(resets(hpm_events_total[1m])) + sum(resets(hpm_event_enabled_seconds_total[1m])) + sum(resets(hpm_intervals_total[1m]))' | sed 's/.*=> //')
[ "$r" = 0 ]
ok $? "no counter of any series ever went down (resets: $r)"
r=$(q 'min(increase(hpm_events_total{event=~"mcycle|minstret"}[1m]))' | sed 's/.*=> //')
awk -v r="$r" 'BEGIN { exit !(r > 0) }'
ok $? "mcycle and minstret grew ($r)"

# Topdown and IPC as hpmstat stat computes them on the same stream
"$H" stat -e mcycle,minstret --topdown -x, $emu --emu-cycles 400000000 2>"$tmp/stat.csv"
bad=0
for node in frontend_bound bad_speculation backend_bound retiring; do
	want=$(grep ",% slots tma_$node\$" "$tmp/stat.csv" | awk -F, '{print $(NF-1)}')
	got=$(q "avg_over_time(hpm_topdown_ratio{node=\"$node\",level=\"1\",cpu=\"all\"}[1m])" | sed 's/.*=> //')
	d=$(awk -v w="$want" -v g="$got" 'BEGIN { printf "%.3f", 100 * g - w }')
	awk -v d="$d" -v w="$want" 'BEGIN { exit !(w != "" && d < 0.5 && d > -0.5) }' || bad=1
	diag "$node: stat $want %, prometheus $(awk -v g="$got" 'BEGIN { printf "%.3f", 100 * g }') % ($d points)"
done
ok $bad "the Topdown gauges match hpmstat stat --topdown within 0.5 points"
want=$(grep ',minstret,.*insn per cycle' "$tmp/stat.csv" | awk -F, '{print $(NF-1)}')
got=$(q 'avg_over_time(hpm_ipc{cpu="all"}[1m])' | sed 's/.*=> //')
awk -v w="$want" -v g="$got" 'BEGIN { d = w - g; exit !(w != "" && d * d < 0.0004) }'
ok $? "hpm_ipc matches stat's insn per cycle within 0.02 (stat $want, prometheus $got)"

kill $ppid
wait $ppid
serve_end "$tmp/serve.err"
done_testing

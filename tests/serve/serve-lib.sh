# serve-lib.sh: what the tests of hpmstat serve share (sourced after
# tests/lib.sh): the build's libmicrohttpd, free loopback ports, starting
# serve and waiting for it, ending it, fetching with curl.
H=${HPMSTAT:-$top_builddir/src/hpmstat}
S=$top_srcdir/tests/serve
# Debian's python3 (its prometheus_client), not a user's pyenv shim
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

have_mhd() { have HAVE_LIBMICROHTTPD; }
have_om_parser() { "$PY" -c 'import prometheus_client.openmetrics.parser' 2>/dev/null; }


# free_port: a loopback port nobody listens on now
free_port() {
	"$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# wait_http URL [SECONDS]: until URL answers 200 (default 10 s); status 1 if never
wait_http() {
	_n=$(( ${2:-10} * 10 ))
	while [ $_n -gt 0 ]; do
		[ "$(curl -s -o /dev/null -w '%{http_code}' "$1" 2>/dev/null)" = 200 ] && return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	return 1
}

# serve_start ADDR:PORT STDERR OPTION...: hpmstat serve listening there in
# the background (its stderr into STDERR), its pid in spid and added to
# pids (which the test's EXIT trap ends); status 1 if its /metrics never
# answered (10 s)
serve_start() {
	_listen=$1 _err=$2
	shift 2
	"$H" serve --listen "$_listen" "$@" 2>"$_err" &
	spid=$!
	pids="$spid${pids:+ $pids}"
	wait_http "http://$_listen/metrics"
}
# serve_end STDERR: one test point: serve ends on SIGTERM, as a signal's
# death (143), having printed nothing to STDERR; pids emptied
serve_end() {
	kill -TERM $spid
	wait $spid
	_rc=$?
	[ $_rc = 143 ] && [ ! -s "$1" ]
	ok $? "serve ends on SIGTERM and printed nothing (exit $_rc)"
	[ ! -s "$1" ] || diag "$(head -3 "$1")"
	pids=
}

# metric_value FILE NAME{LABELS}: the value of the sample named so (label
# values without spaces)
metric_value() { awk -v n="$2" '$1 == n { print $NF; exit }' "$1"; }

# serve-lib.sh: what the tests of hpmstat serve share (sourced after
# tests/lib.sh): the build's libmicrohttpd, free loopback ports, starting
# serve and waiting for it, fetching with curl.
H=${HPMSTAT:-$top_builddir/src/hpmstat}
S=$top_srcdir/tests/serve
# Debian's python3 (its prometheus_client), not a user's pyenv shim
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

have_mhd() { grep -q '^#define HAVE_LIBMICROHTTPD 1' "$top_builddir/config.h"; }
have_om_parser() { "$PY" -c 'import prometheus_client.openmetrics.parser' 2>/dev/null; }

# skip_all REASON: the whole file is skipped, as TAP says it
skip_all() { echo "1..0 # SKIP $1"; exit 0; }

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

# metric_value FILE NAME{LABELS}: the value of the sample named so (label
# values without spaces)
metric_value() { awk -v n="$2" '$1 == n { print $NF; exit }' "$1"; }

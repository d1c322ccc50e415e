#!/bin/sh
# tests/stat/json-lint.sh: the default -j output of Topdown and emulated
# runs passes upstream perf 6.12's own JSON checker,
# tools/perf/tests/shell/lib/perf_json_output_lint.py (read from Debian's
# linux-source-6.12 tarball, never copied), which refuses any key it does
# not know and counts each row's keys per aggregation mode; and
# --json-extra keeps hpmstat's own keys (emulated, emu-*, metric,
# topdown-level, bottleneck, ...; "hart" for a hart's "cpu"): its rows,
# without the keys hpmstat-stat(1) lists as hpmstat's, are the default
# rows key for key and value for value (the emulator's fixed seed gives
# one stream; a host event's row: its keys), and the linter refuses them
# as it refused the default output before --json-extra existed.
. "$top_srcdir/tests/lib.sh"
TAR=${LINUX_SOURCE_612_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
[ -r "$TAR" ] || skip_all "$TAR is absent (Debian package linux-source-6.12)"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
scratch_dir
LINT=linux-source-6.12/tools/perf/tests/shell/lib/perf_json_output_lint.py
tar -xJf "$TAR" -C "$dir" --occurrence=1 "$LINT" 2>"$tap_err" ||
	skip_all "no $LINT in $TAR: $(head -1 "$tap_err")"
LINT=$dir/$LINT
H=$HPMSTAT
E="--emu-seed 7 --emu-cycles 200000"
# hpmstat's keys (man/hpmstat-stat.1, --json-extra)
extra=emulated,emu-profile,emu-trace,emu-seed,emu-partial,emu-cycles,emu-cycles-wanted
extra=$extra,emu-interrupted,metric,topdown-level,bottleneck,out-of-range,out-of-range-by
extra=$extra,multiplexed,desc,idle,idle-units,wrapped,pmu-table

# check NAME LINT-MODE ARGS...: hpmstat stat -j ARGS, and with --json-extra
check() {
	name=$1 mode=$2
	shift 2
	"$H" stat -j "$@" 2>"$dir/d.json" >/dev/null
	rc=$?
	"$H" stat -j --json-extra "$@" 2>"$dir/x.json" >/dev/null
	[ $rc -eq 0 ] && [ -s "$dir/d.json" ] && python3 "$LINT" $mode --file "$dir/d.json" >"$dir/lint.out" 2>&1
	r=$?
	ok $r "$name: perf 6.12's perf_json_output_lint.py $mode passes the default -j rows"
	[ $r -eq 0 ] || diag "$(grep -i 'error\|key' "$dir/lint.out" | tail -2)"
	! python3 "$LINT" $mode --file "$dir/x.json" >/dev/null 2>&1 &&
		grep -q '"metric" : \|"emulated" : true' "$dir/x.json"
	ok $? "$name: --json-extra keeps hpmstat's keys (the linter refuses them)"
	python3 -c '
import json, sys
extra = set(sys.argv[1].split(","))
d = [json.loads(l) for l in open(sys.argv[2])]
x = []
for l in open(sys.argv[3]):
    r = json.loads(l)
    # a row whose value is null (no slots) is left out of the default rows
    if r.get("metric-value", 0) is None:
        continue
    x.append({("cpu" if k == "hart" else k): v for k, v in r.items() if k not in extra})
    # a host event counts anew each run, and so does the emulator while
    # a command runs: their keys only
    if sys.argv[4] == "keys" or ("emulated" not in r and "event" in r):
        i = len(x) - 1
        if i < len(d):
            d[i] = list(d[i])
        x[i] = list(x[i])
if d != x or not d:
    print("default %d rows, --json-extra %d" % (len(d), len(x)))
    for a, b in zip(d, x):
        if a != b:
            print(a, "!=", b)
            break
    sys.exit(1)' "$extra" "$dir/d.json" "$dir/x.json" "${CMP:-values}" >"$dir/cmp.out" 2>&1
	ok $? "$name: --json-extra's rows less hpmstat's keys are the default rows"
	[ -s "$dir/cmp.out" ] && diag "$(head -3 "$dir/cmp.out")"
}

check "Topdown" --no-args $E --topdown
check "Topdown level 2" --no-args $E --topdown=2
check "-A Topdown, 2 harts" --system-wide-no-aggr $E --emu-harts 2 -A --topdown
check "--per-core Topdown, 2 harts" --per-core $E --emu-harts 2 --per-core --topdown=2
check "--per-socket Topdown" --per-socket $E --emu-harts 2 --per-socket --topdown
check "-I Topdown" --interval $E --emu-freq 10e6 -I 40 --topdown
CMP=keys check "emulated events and -M beside a host event" --event \
	-e task-clock,mcycle,minstret -M ipc -- true

# the metric's name stays in perf's metric-unit
"$H" stat -j $E --topdown 2>"$dir/d.json" >/dev/null
grep -q '"metric-unit" : "% slots tma_backend_bound"' "$dir/d.json"
ok $? "the default rows name each node in metric-unit, as perf (% slots tma_backend_bound)"
done_testing

#!/bin/sh
# tests/util/static-front.sh: with configure's static front (issue 30),
# hpmstat is linked statically: a start maps no shared object (the
# process's own /proc/PID/maps), the optional libraries are in it (every
# command it runs works with none of them installed, where hpmstat-full
# says which one is missing: tests/util/dlopen.sh), and serve, report and
# top (libmicrohttpd, libdw, ncurses, and user names through NSS) run the
# same command line in hpmstat-full, the dynamically linked program (a
# loader runs, which the static one has not), in the same process;
# without hpmstat-full they say so in one line, exit 127.
. "$top_srcdir/tests/lib.sh"
H=$HPMSTAT
if [ -z "${HPMSTAT_FULL:-}" ] || [ "$HPMSTAT_FULL" = "$HPMSTAT" ]; then
	skip_all "configured without the static front: hpmstat is the dynamically linked program"
fi
T=$(mktemp -d)
trap 'main_shell && rm -rf "$T" "$tap_out" "$tap_err"' EXIT
mkdir "$T/none"

# runs_program PID PROGRAM: waits (5 s at most) until process PID runs
# PROGRAM
runs_program() {
	i=0
	while [ $i -lt 100 ] && [ "$(readlink "/proc/$1/exe" 2>/dev/null)" != "$(readlink -f "$2")" ]; do
		sleep 0.05
		i=$((i + 1))
	done
}

# no program interpreter: the kernel starts it, no loader runs
readelf -lW "$H" >"$T/phdr" 2>&1
! grep -q 'INTERP' "$T/phdr" && grep -q 'LOAD' "$T/phdr"
ok $? "hpmstat has no program interpreter (statically linked)"

# stat's start-up path laid out together (src/hpmstat-front.ld, remade by
# make startup-order): of hpmstat's code that `stat -e task-clock -- true`
# runs, single-stepped, almost all lies in the section the script puts
# before .text, in a few of the kernel's 64 KB fault-around windows (the
# linker's own order spreads it over 22); a stale script fails here
if have HPM_FRONT_LAYOUT; then
	readelf -SW "$H" >"$T/sections" 2>&1
	"$top_builddir/bench/bench-startup-trace" "$T/pcs" "$H" stat -e task-clock -- true \
		>/dev/null 2>"$T/trace-err"
	rc=$?
else
	echo "the linker refused src/hpmstat-front.ld (configure)" >"$T/trace-err"
	rc=77
fi
if [ $rc = 77 ]; then
	skip "stat's path in .text.hpmstart" "$(cat "$T/trace-err")"
	skip "... in a few 64 KB windows" "$(cat "$T/trace-err")"
else
	python3 - "$T/sections" "$T/pcs" >"$T/layout" 2>&1 <<'PY'
import re, sys
code, hot, text = [], None, None
for line in open(sys.argv[1]):
    m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)\s+\S+\s+(\S+)", line)
    if m and "X" in m.group(4):
        start = int(m.group(2), 16)
        code.append((start, start + int(m.group(3), 16)))
        hot = code[-1] if m.group(1) == ".text.hpmstart" else hot
        text = code[-1] if m.group(1) == ".text" else text
pcs = [int(l, 16) for l in open(sys.argv[2]) if l.strip()]
own = [p for p in pcs if any(a <= p < b for a, b in code)]
inside = [p for p in own if hot and hot[0] <= p < hot[1]]
before = hot is not None and text is not None and hot[1] <= text[0]
print(len(own), len(inside), len({p >> 16 for p in own}), int(before),
      hot[1] - hot[0] if hot else 0)
PY
	read -r own inside windows before size <"$T/layout" || own=
	[ -n "$own" ] && [ $rc = 0 ] && [ "$before" = 1 ] && [ "$own" -gt 1000 ] &&
		[ $((inside * 100)) -ge $((own * 97)) ]
	r=$?
	[ $r = 0 ] || diag "trace exit $rc" "$(cat "$T/layout")" "$(tail -3 "$T/trace-err")"
	ok $r "stat's path in .text.hpmstart before .text: $inside of $own instructions ($size bytes)"
	[ -n "$own" ] && [ "$windows" -le 8 ]
	ok $? "... in $windows of the kernel's 64 KB fault-around windows (at most 8)"
fi

# stat's data laid out too: the pages `stat -e task-clock -- true` first
# touches in hpmstat's read-only data, data and .bss (a page fault each,
# perf's page-faults event with their addresses, as `perf record -d` takes
# them) lie in the sections the script puts at the head of each kind; a
# stale script, or none, leaves them scattered over a megabyte (before the
# data was laid out: 20 faults in the data, 44 in all; after: 8, all in
# those sections, and 31)
if have HPM_FRONT_LAYOUT && perf record -q -e page-faults -c 1 -d -i -o "$T/faults.data" -- \
	"$H" stat -e task-clock -- true >/dev/null 2>"$T/perf-err" &&
	perf script -i "$T/faults.data" -F addr >"$T/faults" 2>>"$T/perf-err"; then
	python3 - "$T/sections" "$T/faults" >"$T/data-layout" 2>&1 <<'PY'
import re, sys
kinds = (".rodata", ".data.rel.ro", ".data", ".bss")
out, laid = [], []
for line in open(sys.argv[1]):
    m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)", line)
    if not m:
        continue
    span = (int(m.group(2), 16), int(m.group(2), 16) + int(m.group(3), 16))
    if m.group(1) in kinds:
        out.append(span)
    elif m.group(1) in [k + ".hpmstart" for k in kinds]:
        laid.append(span)
addrs = [int(w, 16) for w in open(sys.argv[2]).read().split() if re.fullmatch(r"[0-9a-f]+", w)]
inside = sum(any(a <= x < b for a, b in laid) for x in addrs)
outside = sum(any(a <= x < b for a, b in out) for x in addrs)
print(len(laid), inside, outside, len(addrs))
PY
	read -r nlaid inside outside all <"$T/data-layout" || nlaid=
	[ "$nlaid" = 4 ] && [ "$outside" -le 3 ]
	r=$?
	[ $r = 0 ] || diag "$(cat "$T/data-layout")"
	ok $r "stat's data first touched in the 4 laid-out sections: $inside faults there, $outside in the rest of the data (at most 3), $all in all"
else
	skip "stat's data in the laid-out sections" "$(have HPM_FRONT_LAYOUT && tail -1 "$T/perf-err" || echo "the linker refused src/hpmstat-front.ld")"
fi

# what a running stat has mapped: hpmstat itself, no shared object
"$H" stat -e task-clock -o "$T/counts" -- sleep 2 &
pid=$!
runs_program $pid "$H"
sleep 0.2
grep -c '\.so' "/proc/$pid/maps" >"$T/nso"
files=$(awk '$6 ~ /^\// {print $6}' "/proc/$pid/maps" | sort -u | tr '\n' ' ')
wait $pid
[ "$(cat "$T/nso")" = 0 ] && [ "$files" = "$(readlink -f "$H") " ]
ok $? "a running stat maps hpmstat alone ($files)"

# the commands it runs itself, with no optional library installed (an
# empty HPMSTAT_DLOPEN_DIR: hpmstat-full would say which one is missing)
run_ok "stat -e task-clock with no optional library" \
	env HPMSTAT_DLOPEN_DIR="$T/none" "$H" stat -e task-clock -- true
if have HAVE_LIBPFM4; then
	run_ok "stat -e perf_raw::r0003 (a libpfm4 name) with no libpfm4 installed" \
		env HPMSTAT_DLOPEN_DIR="$T/none" "$H" stat -e perf_raw::r0003 -- true
	env HPMSTAT_DLOPEN_DIR="$T/none" "$HPMSTAT_FULL" stat -e perf_raw::r0003 -- true >/dev/null 2>"$T/err"
	grep -q 'is not installed (Debian package libpfm' "$T/err"
	ok $? "... where hpmstat-full says libpfm4 is missing"
else
	skip "built without libpfm4"
	skip "built without libpfm4"
fi
if have HAVE_LIBELF; then
	run_ok "record with no libelf installed" \
		env HPMSTAT_DLOPEN_DIR="$T/none" "$H" record -e task-clock -o "$T/perf.data" -- true
else
	skip "built without libelf"
fi

# serve, report and top: a loader runs (the static hpmstat has none), and maps
# libc for the dynamically linked program
loaded() { own_libs "$@" | grep -c '^libc\.so\.6$'; }
n=$(loaded "$H" --version)
ok $([ "$n" = 0 ]; echo $?) "--version runs no loader (libc mapped for hpmstat: $n)"
n=$(loaded "$H" serve --help)
ok $([ "$n" -ge 1 ]; echo $?) "serve runs in hpmstat-full (the loader maps libc for it: $n)"
out_is "serve --help is hpmstat-full's" "$("$HPMSTAT_FULL" serve --help)" "$H" serve --help
n=$(loaded "$H" report "$top_srcdir/tests/report/hand.json")
ok $([ "$n" -ge 1 ]; echo $?) "report runs in hpmstat-full (libc mapped: $n)"
out_is "report of a run file is hpmstat-full's" \
	"$("$HPMSTAT_FULL" report "$top_srcdir/tests/report/hand.json")" \
	"$H" report "$top_srcdir/tests/report/hand.json"
n=$(loaded "$H" top -b -n 1 -d 0.1 --backend emu)
ok $([ "$n" -ge 1 ]; echo $?) "top runs in hpmstat-full (libc mapped: $n)"
# hpmtop, the link make install makes to hpmstat: the name it was started
# by goes along, so hpmstat-full runs top
ln -s "$(readlink -f "$H")" "$T/hpmtop"
n=$(loaded "$T/hpmtop" --help)
ok $([ "$n" -ge 1 ]; echo $?) "hpmtop (a link to hpmstat) runs in hpmstat-full (libc mapped: $n)"
out_is "... as top (its --help is top's)" "$("$HPMSTAT_FULL" top --help)" "$T/hpmtop" --help
# user names come from NSS, whose modules a static program cannot load
# (the static top once died of SIGSEGV here)
run_fails_with "top -u with an unknown user: hpmstat-full's one line" \
	"hpmstat top: -u 'no-such-user-$$': no such user" "$H" top -b -n 1 -d 0.1 -u "no-such-user-$$"
# the same process: hpmstat's pid is the one serve runs under
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$H" serve --listen "127.0.0.1:$port" --backend emu --emu-cycles 1e12 >/dev/null 2>&1 &
pid=$!
runs_program $pid "$HPMSTAT_FULL"
exe=$(readlink "/proc/$pid/exe" 2>/dev/null)
kill $pid 2>/dev/null
wait $pid 2>/dev/null
[ "$exe" = "$(readlink -f "$HPMSTAT_FULL")" ]
ok $? "serve's process is hpmstat's own, running hpmstat-full ($exe)"

# a static hpmstat alone (no hpmstat-full beside it nor installed)
cp "$H" "$T/hpmstat"
inst=$(strings -n 6 "$H" | grep -m1 -x '/.*/libexec/hpmstat')
if [ -n "$inst" ] && [ -x "$inst/hpmstat-full" ]; then
	skip "serve without hpmstat-full" "$inst/hpmstat-full is installed"
	skip "... exit 127" "$inst/hpmstat-full is installed"
else
	run_fails_with "serve without hpmstat-full: one line naming the program" \
		"hpmstat serve: cannot run ${inst:-/}" "$T/hpmstat" serve --help
	[ "$rc" = 127 ]
	ok $? "... exit 127 ($rc)"
fi
run_ok "stat runs without hpmstat-full" "$T/hpmstat" stat -e task-clock -- true

done_testing

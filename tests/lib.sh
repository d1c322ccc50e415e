# lib.sh: TAP helpers for the shell tests (sourced).
# Each helper is one test point; the driver counts them.
tap_n=0
tap_fail=0
tap_out=$(mktemp)
tap_err=$(mktemp)
# main_shell: true in the test's own shell only. bash forks a child for a
# background job that is still bash until its exec; a signal sent to the
# job in that window makes the child run the test's EXIT trap, which must
# not remove the test's files from under it (dash has no such window).
main_shell() { [ -z "${BASHPID:-}" ] || [ "$BASHPID" = "$$" ]; }
trap 'main_shell && rm -f "$tap_out" "$tap_err"' EXIT
# scratch_dir: a new temporary folder in dir, removed at exit with the
# TAP files (in the test's own shell only, as above)
scratch_dir() {
	dir=$(mktemp -d)
	trap 'main_shell && rm -rf "$dir" "$tap_out" "$tap_err"' EXIT
}

ok() { # cond-status description
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $2"
	else
		echo "not ok $tap_n - $2"
		tap_fail=$((tap_fail + 1))
	fi
}
diag() { printf '%s\n' "$@" | sed 's/^/# /'; }

# run_ok DESC CMD...: exit 0
run_ok() {
	d=$1; shift
	"$@" >"$tap_out" 2>"$tap_err"; rc=$?
	ok $rc "$d"
	[ $rc -eq 0 ] || diag "exit $rc" "$(head -5 "$tap_err")"
}
# run_fails_with DESC NEEDLE CMD...: non-zero exit, one stderr line containing
# NEEDLE, nothing on stdout
run_fails_with() {
	d=$1; needle=$2; shift 2
	"$@" >"$tap_out" 2>"$tap_err"; rc=$?
	lines=$(wc -l <"$tap_err")
	if [ $rc -ne 0 ] && [ "$lines" -eq 1 ] && grep -qF -- "$needle" "$tap_err" && [ ! -s "$tap_out" ]; then
		ok 0 "$d"
	else
		ok 1 "$d"
		diag "exit $rc, $lines stderr lines, want '$needle'" "$(head -3 "$tap_err")" "stdout: $(head -c 200 "$tap_out")"
	fi
}
# out_is DESC EXPECTED CMD...: exit 0 and stdout exactly EXPECTED
out_is() {
	d=$1; want=$2; shift 2
	got=$("$@" 2>"$tap_err"); rc=$?
	if [ $rc -eq 0 ] && [ "$got" = "$want" ]; then ok 0 "$d"; else ok 1 "$d"; diag "exit $rc" "got:  $got" "want: $want" "$(head -3 "$tap_err")"; fi
}
# skip [DESC] REASON: one test point skipped, as TAP says it
skip() {
	tap_n=$((tap_n + 1))
	if [ $# -ge 2 ]; then echo "ok $tap_n - $1 # SKIP $2"; else echo "ok $tap_n # SKIP $1"; fi
}
# have MACRO: configure defined MACRO to 1 (config.h)
have() { grep -q "^#define $1 1" "$top_builddir/config.h"; }
# sanitized PROGRAM: PROGRAM is an ASan build (its runtime linked in)
sanitized() { grep -q __asan_init "$1" 2>/dev/null; }
# own_libs CMD...: the shared libraries hpmstat's own process needs or
# opens as CMD runs (hpmstat, hpmstat-full or hpmtop; not the command's,
# nor a sanitizer runtime's), one a line, from the loader's account: none
# for a statically linked hpmstat.
own_libs() {
	LD_DEBUG=files "$@" 2>&1 >/dev/null </dev/null |
		sed -n 's/.*file=\([^ ]*\) \[0\]; *\(needed by [^ ]*\(hpmstat\(-full\)\?\|hpmtop\) \|dynamically loaded by\).*/\1/p' |
		sed 's|.*/||' | grep -v '^lib\(asan\|ubsan\|stdc++\|gcc_s\|dl\|rt\|pthread\)\.' | sort -u
}
# skip_all REASON: the whole file skipped (before its first test point)
skip_all() { echo "1..0 # SKIP $1"; exit 0; }
done_testing() {
	echo "1..$tap_n"
	[ $tap_fail -eq 0 ]
}
# le VALUE BYTES: VALUE little-endian in BYTES raw bytes
le() {
	_v=$1 _i=0
	while [ $_i -lt "$2" ]; do printf "\\$(printf %03o $((_v & 255)))"; _v=$((_v >> 8)); _i=$((_i + 1)); done
}
# set_section FILE NAME TYPE SIZE: writes TYPE and SIZE into the header of
# section NAME of FILE (a 64-bit little-endian ELF; the section found by
# readelf), for files whose section headers lie
set_section() {
	_idx=$(readelf -SW "$1" | sed -n 's/^ *\[ *\([0-9]*\)\] \([^ ]*\) .*/\1 \2/p' |
		awk -v n="$2" '$2 == n {print $1; exit}')
	_shoff=$(readelf -hW "$1" | awk '/Start of section headers/ {print $5}')
	[ -n "$_idx" ] && [ -n "$_shoff" ] || return 1
	_at=$((_shoff + 64 * _idx))
	le "$3" 4 | dd of="$1" bs=1 seek=$((_at + 4)) conv=notrunc 2>/dev/null &&
		le "$4" 8 | dd of="$1" bs=1 seek=$((_at + 32)) conv=notrunc 2>/dev/null
}
# perf612_peer: sets peer to the perf that stands beside hpmstat where a
# test judges perf 6.12's behaviour: the perf 6.12 that `make
# perf612-peer` built into the test cache ($PERF612, set by make check),
# else the installed perf, which is 6.1 here; peer_is_612 says which, and
# a diag line says why (the fallback's reason included)
perf612_peer() {
	if [ -n "${PERF612:-}" ] && [ -x "$PERF612" ] && "$PERF612" version 2>/dev/null | grep -q '^perf version 6\.12'; then
		peer=$PERF612 peer_is_612=true
		diag "peer: $("$peer" version) from the test cache ($peer)"
	else
		peer=$(command -v "${PERF:-perf}") peer_is_612=false
		diag "peer: the installed $("${peer:-perf}" version 2>/dev/null || echo perf, absent): no perf 6.12 in the test cache (${PERF612:-PERF612 unset}; 'make perf612-peer' builds it)"
	fi
}

#!/bin/sh
# hpmstat's front door: version, help, dispatch and usage errors.
. "$top_srcdir/tests/lib.sh"
H=$HPMSTAT
version=$(sed -n 's/^AC_INIT(\[hpmstat\], \[\([^]]*\)\].*/\1/p' "$top_srcdir/configure.ac")
out_is "--version prints the configure.ac version" "hpmstat $version" $H --version
run_ok "--help exits 0" $H --help
grep -q '^  encode ' "$tap_out"; ok $? "--help lists the commands"
for c in stat list encode decode emu report top help; do
	run_ok "$c --help exits 0" $H $c --help
	grep -q "^Usage: hpmstat $c" "$tap_out"; ok $? "$c --help prints its usage"
	$H help $c > "$tap_err.help"; cmp -s "$tap_err.help" "$tap_out"; ok $? "help $c equals $c --help"
	rm -f "$tap_err.help"
done
# -h as perf's: the usage on stderr, nothing on stdout, status 129
for c in stat record report list top encode decode serve emu; do
	$H $c -h >"$tap_out" 2>"$tap_err"
	rc=$?
	[ $rc -eq 129 ] && [ ! -s "$tap_out" ] && grep -q "^Usage: hpmstat $c" "$tap_err"
	ok $? "$c -h: the usage on stderr, status 129 (got $rc)"
done
run_fails_with "unknown command" "'frob' is not a command" $H frob
run_fails_with "unknown global option" "unknown option '--frob'" $H --frob
run_fails_with "help of an unknown command" "'frob' is not a command" $H help frob
$H >/dev/null 2>&1; [ $? -eq 1 ]; ok $? "no arguments: the usage, exit 1 (perf's)"
$H frob >/dev/null 2>&1; [ $? -eq 1 ]; ok $? "an unknown command: exit 1 (perf's 'is not a perf-command')"
run_fails_with "unknown option of a command" "unknown option '--frob'" $H encode --frob ifu_req
$H encode --frob ifu_req >/dev/null 2>&1; [ $? -eq 129 ]; ok $? "usage errors exit 129 (perf's parse_options)"
# the same statuses as Debian's perf for the same mistakes
if command -v perf >/dev/null 2>&1; then
	scratch_dir
	for args in "" "frob" "stat --frob true" "stat -r" "stat -e nosuch true" \
		"stat -e cpu-clock:zz true" "record --frob true" "report --frob" "list --frob" \
		"top --frob" "record -e nosuch -o $dir/n.data true" "top -e nosuch" \
		"-h" "stat -h" "record -h" "report -h" "list -h" "top -h" \
		"stat report -h" "stat record -h"; do
		# shellcheck disable=SC2086 # args: words
		perf $args </dev/null >/dev/null 2>&1
		want=$?
		# shellcheck disable=SC2086
		$H $args </dev/null >/dev/null 2>&1
		got=$?
		[ "$got" -eq "$want" ]
		ok $? "'$args': perf's exit status ($want; hpmstat: $got)"
	done
else
	skip "perf's exit statuses" "perf not installed"
fi
# output errors are reported, not lost
if [ -w /dev/full ]; then
	$H list > /dev/full 2>"$tap_err"; rc=$?
	[ $rc -ne 0 ] && grep -q "error writing output: No space left on device" "$tap_err"; ok $? "a full disk is an error (exit $rc)"
fi
# a closed standard output: the reason is the descriptor's, not a stale errno
# (top -b printed "Invalid argument")
for c in "list" "top -b -n 1 -d 0.1 --backend emu"; do
	$H $c >&- 2>"$tap_err"; rc=$?
	[ $rc -ne 0 ] && grep -qx "hpmstat ${c%% *}: error writing output: Bad file descriptor" "$tap_err"
	ok $? "$c with standard output closed: exit $rc, $(head -1 "$tap_err")"
done
done_testing

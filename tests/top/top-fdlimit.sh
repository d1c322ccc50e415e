#!/bin/sh
# top-fdlimit.sh: hpmstat top under a low open-file limit (perf back end):
# a /proc scan that fails (EMFILE) is shown in every frame it fails in,
# never as an empty table ("0 shown of 0"), in batch text and in JSON.
. "$top_srcdir/tests/lib.sh"
H=${HPMSTAT:-$top_builddir/src/hpmstat}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$tap_out" "$tap_err"' EXIT
export XDG_CONFIG_HOME="$tmp/cfg"

# the C library's text for EMFILE, from perl's strerror, not from hpmstat
emfile=$(perl -MErrno -e '$! = Errno::EMFILE(); print "$!"')
[ -n "$emfile" ]; ok $? "strerror(EMFILE) known ($emfile)"

# descriptors this shell passes on besides the three standard ones (a test
# harness may hold some open): the limits below count from them, so that
# hpmstat itself has the same few to spend wherever the test runs
inherited=$(($(ls /proc/self/fd | wc -l) - 4))
[ "$inherited" -ge 0 ] || inherited=0

# limits low enough that the counters of the table and the scan compete for
# descriptors: each frame is either a listed table or says why it is not
for lim in 6 10 30; do
	for tasks in --no-bpf ""; do
		(ulimit -n $((lim + inherited)) && exec "$H" top -b -n 4 -d 0.1 --no-config $tasks) >"$tmp/b" 2>"$tmp/e"
		rc=$?
		frames=$(grep -c '^hpmstat top - frame' "$tmp/b")
		# one Processes line per frame: "N shown of M" with N > 0, or the failure
		good=$(grep -E '^Processes: ' "$tmp/b" | awk -v e="$emfile" '
			/^Processes: [0-9]+ shown of [0-9]+$/ { if ($2 > 0) n++; next }
			index($0, "cannot ") && index($0, ": " e) { n++ }
			END { print n + 0 }')
		failed=$(grep -c "^Processes: .*cannot .*: $emfile" "$tmp/b")
		[ $rc -eq 0 ] && [ "$frames" -eq 4 ] && [ "$good" -eq 4 ] &&
			! grep -q 'shown of 0' "$tmp/b"
		ok $? "ulimit -n $lim ${tasks:-(BPF or groups)}: every frame lists its table or says why ($good of $frames frames, $failed failures)"
		[ "$good" -eq 4 ] || diag "$(grep -E '^(Processes|note)' "$tmp/b")" "$(head -3 "$tmp/e")"
	done
done

# a limit at which the scan fails from the second frame on (the first opens
# the table's counters with what is left): each failing frame says so
(ulimit -n $((6 + inherited)) && exec "$H" top -b -n 3 -d 0.1 --no-config --no-bpf) >"$tmp/b6" 2>/dev/null
n=$(grep -c "^Processes: cannot list /proc: $emfile\$" "$tmp/b6")
[ "$n" -ge 2 ]; ok $? "ulimit -n 6: the failing frames name /proc and strerror(EMFILE) ($n of 3)"
grep -q "^note: per-task counters of [0-9]* processes could not open: $emfile" "$tmp/b6"
ok $? "ulimit -n 6: counters that could not open for want of descriptors are noted"

# JSON: the failure in processes_error, no processes_total of 0
(ulimit -n $((6 + inherited)) && exec "$H" top --json -n 3 -d 0.1 --no-config --no-bpf) >"$tmp/j" 2>/dev/null
errs=$(grep -c "\"processes_error\":\"cannot list /proc: $emfile\"" "$tmp/j")
zero=$(grep -c '"processes_total": *0[,}]' "$tmp/j")
[ "$errs" -ge 2 ] && [ "$zero" -eq 0 ]; ok $? "--json: processes_error in the failing frames ($errs), never processes_total 0"

done_testing

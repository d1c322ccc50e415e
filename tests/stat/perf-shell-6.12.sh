#!/bin/sh
# perf 6.12's own `perf stat` shell tests judge hpmstat (issue 32,
# acceptance): stat+std_output.sh, stat+csv_output.sh, stat+json_output.sh
# (with its lib/perf_json_output_lint.py, which refuses unknown keys) and
# stat.sh, out of Debian's linux-source-6.12 tarball untouched, with a
# `perf` first in PATH that hands `perf stat ...` to `hpmstat stat ...` and
# every other subcommand (script, record...) to the installed perf.
# The peer (perf612_peer in tests/lib.sh) is the perf 6.12 that `make
# perf612-peer` built into the test cache, else the installed perf 6.1,
# which lacks some of what the scripts check (--per-cache, --per-cluster):
# a check passes when hpmstat passes it; a check the script itself skips is
# a SKIP with its reason, and so is a check that needs hardware this
# machine lacks (named in hw_skip below), unless perf 6.12 is the peer and
# passes that check here, which makes the skip's reason false (a failure).
# perf-shell.sh runs 6.1's scripts beside perf 6.1.
# std, CSV and JSON stop at their first failure (set -e), so each of their
# checks also runs alone, in a copy of the script whose main part calls
# only that check (a copy in the test's own temporary folder), unless the
# whole script passed every check.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/stat/perf-shell-lib.sh"
perf612_peer
perf_shell_setup "${LINUX_SOURCE_612_TARBALL:-/usr/src/linux-source-6.12.tar.xz}" \
	linux-source-6.12 "${peer:-/usr/bin/perf}" stat+std_output.sh stat+csv_output.sh \
	stat+json_output.sh stat.sh lib/perf_json_output_lint.py lib/stat_output.sh lib/setup_python.sh
# seconds before a script that hangs is killed (and fails): a whole
# script runs a dozen perf stat -a on a machine that may be busy
GUARD=240

# run SCRIPT OUT: SCRIPT with hpmstat as perf, its output (stdout and
# stderr) in OUT, its status in $rc; a failure runs up to 3 times (-a
# --per-thread races with processes that exit while /proc is read)
run() {
	for try in 1 2 3; do
		(cd "$dir" && PATH="$dir/bin-hpmstat:$PATH" timeout -k 5 $GUARD "$1") >"$2" 2>&1
		rc=$?
		case $rc in 0 | 2 | 124 | 137) return ;; esac
		grep -q '\[Success\]$' "$2" && ! grep -qvE '\[(Success|Skip)' "$2" && return
	done
}

# hw_skip NAME: why check NAME cannot be judged on this machine, or ""
hw_skip() {
	case $1 in
	"Topdown event group test" | "Topdown weak groups test")
		# Intel's slots and topdown-* events (perf_metrics), not a Kunminghu's or an Arm's
		grep -q . /sys/bus/event_source/devices/cpu/events/slots 2>/dev/null ||
			echo "needs Intel's slots and topdown-* events (PERF_METRICS), absent here"
		;;
	esac
}

# --- std, CSV and JSON: one check at a time
for s in stat+std_output.sh stat+csv_output.sh stat+json_output.sh; do
	# the main part follows the last function's closing brace
	body=$(grep -n '^}' "$sh_dir/$s" | tail -1 | cut -d: -f1)
	checks=$(awk -v b="$body" 'NR > b && /^[ \t]*check_[a-z_]+([ \t]|$)/ && $1 != "check_for_topology" { print $1 }' "$sh_dir/$s")
	[ -n "$checks" ] || { ok 1 "$s: its checks are found"; continue; }
	# the script as it is, every check in one run, first: one that passes
	# with a [Success] for each check (no skip) has shown each pass, and
	# alone each would run the same commands again
	run "$sh_dir/$s" "$dir/whole"
	whole_rc=$rc
	if [ $whole_rc -eq 0 ] && ! grep -q '\[Skip' "$dir/whole" &&
		[ "$(grep -o '\[Success\]' "$dir/whole" | wc -l)" -eq "$(echo $checks | wc -w)" ]; then
		for c in $checks; do
			ok 0 "6.12 $s $c"
		done
		ok 0 "6.12 $s as a whole"
		continue
	fi
	whole_ok=yes
	for c in $checks; do
		# the other checks' calls become ':' so if/else blocks stay whole
		awk -v b="$body" -v keep="$c" \
			'NR > b && /^[ \t]*check_[a-z_]+([ \t]|$)/ && $1 != "check_for_topology" && $1 != keep { print ":"; next } { print }' \
			"$sh_dir/$s" >"$sh_dir/one-$s"
		chmod +x "$sh_dir/one-$s"
		run "$sh_dir/one-$s" "$dir/out"
		if grep -q '\[Success\]' "$dir/out" && [ $rc -eq 0 ]; then
			ok 0 "6.12 $s $c"
		elif grep -q '\[Skip' "$dir/out"; then
			skip "6.12 $s $c: the script skips it ($(sed -n 's/.*\[Skip\] *//p' "$dir/out" | head -1))"
		else
			whole_ok=no
			ok 1 "6.12 $s $c (exit $rc)"
			diag "$(head -25 "$dir/out")"
		fi
	done
	# and the script as it is, when each check passed alone
	if [ $whole_ok = yes ]; then
		[ $whole_rc -eq 0 ]
		ok $? "6.12 $s as a whole"
		[ $whole_rc -eq 0 ] || diag "exit $whole_rc" "$(tail -15 "$dir/whole")"
	fi
done

# --- stat.sh prints "NAME [Success]", "NAME [Failed ...]" or "NAME
# [Skipped ...]" for each of its tests and runs them all
run "$sh_dir/stat.sh" "$dir/stat.out"
# the peer's own run of it: whether a check skipped below for want of
# hardware passes with perf 6.12 itself on this machine
if $peer_is_612; then
	(cd "$dir" && PATH="$dir/bin-perf:$PATH" timeout -k 5 $GUARD "$sh_dir/stat.sh") >"$dir/peer.out" 2>&1
fi
names=$(grep -v '\[' "$dir/stat.out" | grep ' test$')
[ -n "$names" ] || { ok 1 "6.12 stat.sh: its tests are found"; diag "$(head -20 "$dir/stat.out")"; }
echo "$names" >"$dir/names"
while IFS= read -r t; do
	[ -n "$t" ] || continue
	line=$(grep -F "$t [" "$dir/stat.out" | head -1)
	why=$(hw_skip "$t")
	case $line in
	*"[Success]"*) ok 0 "6.12 stat.sh: $t" ;;
	*"[Skipped"*) skip "6.12 stat.sh: $t: the script skips it ($(echo "$line" | sed 's/.*\[Skipped *//; s/\]$//'))" ;;
	*)
		if [ -n "$why" ] && $peer_is_612 && grep -qF "$t [Success]" "$dir/peer.out"; then
			ok 1 "6.12 stat.sh: $t: perf 6.12 passes it here, so '$why' is no reason (hpmstat: $line)"
		elif [ -n "$why" ]; then
			peer_line=
			$peer_is_612 && peer_line="; perf 6.12 here: $(grep -F "$t [" "$dir/peer.out" | head -1)"
			skip "6.12 stat.sh: $t: $why (hpmstat: $line$peer_line)"
		else
			ok 1 "6.12 stat.sh: $t (${line:-no result line})"
			diag "$(head -20 "$dir/stat.out")"
		fi
		;;
	esac
done <"$dir/names"

done_testing

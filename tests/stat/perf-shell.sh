#!/bin/sh
# perf 6.1's own `perf stat` shell tests judge hpmstat (issue 10, acceptance).
# The scripts come out of Debian's linux-source-6.1 tarball untouched and
# run twice on this machine: once with the real perf, once with a `perf`
# first in PATH that hands `perf stat ...` to `hpmstat stat ...` and every
# other subcommand (list, bench, record...) to the real perf. A point passes
# when hpmstat passes where perf passes; a check that perf itself fails or
# skips here is a SKIP carrying perf's reason, never a silent pass.
# stat+csv_output.sh and stat+json_output.sh stop at their first failure
# (set -e), so each of their checks also runs alone, in a copy of the script
# whose main part calls only that check, for each of the two perfs whose
# whole run did not pass every check (one that did has shown each pass).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/stat/perf-shell-lib.sh"
real_perf=${PERF:-/usr/bin/perf}
scripts="stat+csv_output.sh stat+json_output.sh stat.sh stat+csv_summary.sh
	stat+shadow_stat.sh stat_all_metricgroups.sh stat_all_pmu.sh"
perf_shell_setup "${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-6.1.tar.xz}" linux-source-6.1 \
	"$real_perf" $scripts lib/perf_json_output_lint.py
GUARD=30 # seconds before a script that hangs is killed (and fails, unretried)

# run WHO SCRIPT OUT: SCRIPT with WHO's perf first in PATH, its output
# (stdout and stderr, as perf's runner shows them) in OUT, its status in $rc
run() {
	(cd "$dir" && PATH="$dir/bin-$1:$PATH" timeout -k 5 $GUARD "$2") >"$3" 2>&1
	rc=$?
}

# judge DESC PERF-RESULT HPMSTAT-RESULT HPMSTAT-OUT: one point from the two
# results (pass, fail or "skip REASON"; perf's fail reason in $perf_why)
judge() {
	case $2 in
	pass)
		if [ "$3" = pass ]; then
			ok 0 "$1"
		else
			ok 1 "$1 (perf passes; hpmstat: $3)"
			diag "hpmstat's run:" "$(head -25 "$4")"
		fi
		;;
	fail) skip "$1: perf 6.1 fails it here too ($perf_why); hpmstat: $3" ;;
	*) skip "$1: perf 6.1 skips it here (${2#skip }); hpmstat: $3" ;;
	esac
}

# result_of_status RC OUT: a whole script's result by perf's runner's
# convention (0 pass, 2 skip, anything else fail; 124/137 our timeout)
result_of_status() {
	case $1 in
	0) echo pass ;;
	2) echo "skip the script exits 2: $(tail -1 "$2")" ;;
	124 | 137) echo "fail (killed after ${GUARD}s)" ;;
	*) echo "fail (exit $1)" ;;
	esac
}

# why OUT: the first line of OUT that says what went wrong, for a SKIP text
why() {
	grep -m1 -iE 'wrong|error|fail|usage|not |unknown|invalid' "$1" | cut -c1-100 | tr -d '#'
}

# run_script WHO SCRIPT OUT: $result of a whole script, run up to 3 times
# while it fails (see run_check below)
run_script() {
	for try in 1 2 3; do
		run "$@"
		case $rc in 0 | 2 | 124 | 137) break ;; esac
	done
	result=$(result_of_status $rc "$3")
}

# --- each script as a whole
for s in $scripts; do
	run_script perf "$sh_dir/$s" "$dir/perf.out"
	p=$result
	perf_why=$(why "$dir/perf.out")
	run_script hpmstat "$sh_dir/$s" "$dir/hpm.out"
	h=$result
	note=
	vacuous=
	case $s in
	stat_all_metricgroups.sh)
		# it runs perf stat -M for each group perf list names; none here
		groups=$("$real_perf" list --raw-dump metricgroups 2>/dev/null)
		[ -n "$groups" ] ||
			vacuous="perf list --raw-dump metricgroups is empty here, the script checks nothing"
		# perf 6.1 exits 0 whatever -M finds: a group whose events it
		# cannot parse (a VM without the host's PMU events) prints the
		# error and counts its default events instead. When it did so for
		# every group, the script compared nothing of the metrics, and
		# the groups are the host CPU's (AMD Zen's on an EPYC), which
		# hpmstat does not model: its -M refuses a name it does not know
		# in one line, as any bad input. groups_check checks just that.
		tested=$(grep -c '^Testing ' "$dir/perf.out")
		blind=$(grep -cE 'event syntax error|Cannot find metric or group' "$dir/perf.out")
		if [ -n "$groups" ] && [ "$p" = pass ] && [ "$h" != pass ] && [ "$tested" -gt 0 ] &&
			[ "$blind" -ge "$tested" ]; then
			p="skip perf counts none of its $tested metric groups here (event syntax error: the host CPU's events are not in this VM), so the script compares nothing; see the next point"
			groups_check=yes
		fi
		;;
	stat+shadow_stat.sh)
		# it compares perf's IPC with instructions/cycles on counted rows only
		if "$real_perf" stat -a -e cycles true 2>&1 | grep -q '<not supported>'; then
			vacuous="cycles are <not supported> here, so no IPC is compared"
		fi
		;;
	stat_all_pmu.sh)
		note=" ($(echo $("$real_perf" list --raw-dump pmu 2>/dev/null)))"
		;;
	esac
	# a pass that checked nothing is a SKIP, yet still fails when hpmstat fails
	if [ -n "$vacuous" ] && [ "$p" = pass ] && [ "$h" = pass ]; then
		p="skip $vacuous"
	fi
	judge "$s as a whole$note" "$p" "$h" "$dir/hpm.out"
	cp "$dir/perf.out" "$dir/whole-perf-$s"
	cp "$dir/hpm.out" "$dir/whole-hpmstat-$s"
	echo "$p" >"$dir/whole-result-perf-$s"
	echo "$h" >"$dir/whole-result-hpmstat-$s"
done

# --- perf's metric groups, when perf itself counted none of them (above):
# hpmstat counts each of its own groups (exit 0) and refuses each other
# name in one line, naming it, with exit 1
if [ "${groups_check:-}" = yes ]; then
	# names without case, as -M takes them (l2_cache is hpmstat's L2_Cache)
	mine=" $("$HPMSTAT" list --raw-dump metricgroups 2>/dev/null | tr '\nA-Z' ' a-z') "
	bad=
	for m in $groups; do
		timeout -k 5 $GUARD "$HPMSTAT" stat -M "$m" -a true >"$dir/hpm.out" 2>"$dir/hpm.err"
		hrc=$?
		case $mine in
		*" $(echo "$m" | tr 'A-Z' 'a-z') "*) [ $hrc -eq 0 ] || bad="$bad $m(exit $hrc)" ;;
		*)
			[ $hrc -eq 1 ] && [ "$(wc -l <"$dir/hpm.err")" -eq 1 ] &&
				grep -qF "unknown metric or metric group '$m'" "$dir/hpm.err" ||
				bad="$bad $m(exit $hrc: $(head -1 "$dir/hpm.err"))"
			;;
		esac
	done
	[ -z "$bad" ]
	ok $? "stat -M for each of perf's $(echo $groups | wc -w) metric groups ($(echo $groups)): hpmstat's own count (case ignored), the others are refused in one line${bad:+; wrong:$bad}"
fi

# --- stat+csv_output.sh and stat+json_output.sh, one check at a time
# check_result OUT: pass on "[Success]", "skip ..." on "[Skip] ...", else fail
check_result() {
	if grep -q '\[Success\]' "$1"; then
		echo pass
	elif grep -q '\[Skip' "$1"; then
		echo "skip $(sed -n 's/.*\[Skip\] *//p' "$1" | head -1)"
	else
		echo fail
	fi
}
# run_check WHO SCRIPT OUT: $result of one check; a failed one runs up to
# 3 times (--per-thread -a races with processes that exit while it reads
# /proc: perf 6.1 fails it with "failed to parse CPUs map" for that, one
# time in ten on an idle machine, more often on a busy one)
run_check() {
	for try in 1 2 3; do
		run "$@"
		result=$(check_result "$3")
		[ "$result" != fail ] && return
		case $rc in 124 | 137) return ;; esac
	done
}
# each_passed WHO SCRIPT N: WHO's whole run of SCRIPT (above) passed with a
# [Success] for each of its N checks: each check passed there, and alone
# it runs the same commands again (a skip, a failure or a check not
# called there has it run alone)
each_passed() {
	[ "$(cat "$dir/whole-result-$1-$2")" = pass ] &&
		[ "$(grep -o '\[Success\]' "$dir/whole-$1-$2" | wc -l)" -eq "$3" ]
}
for s in stat+csv_output.sh stat+json_output.sh; do
	# the main part follows the last function's closing brace
	body=$(grep -n '^}' "$sh_dir/$s" | tail -1 | cut -d: -f1)
	checks=$(awk -v b="$body" 'NR > b && /^[ \t]*check_[a-z_]+[ \t]*$/ && $1 != "check_for_topology" { print $1 }' "$sh_dir/$s")
	[ -n "$checks" ] || { ok 1 "$s: its checks are found"; continue; }
	nr_checks=$(echo $checks | wc -w)
	for c in $checks; do
		# the other checks' calls become ':' so if/else blocks stay whole
		awk -v b="$body" -v keep="$c" \
			'NR > b && /^[ \t]*check_[a-z_]+[ \t]*$/ && $1 != "check_for_topology" && $1 != keep { print ":"; next } { print }' \
			"$sh_dir/$s" >"$sh_dir/one-$s"
		chmod +x "$sh_dir/one-$s"
		if each_passed perf "$s" "$nr_checks"; then
			p=pass
		else
			run_check perf "$sh_dir/one-$s" "$dir/perf.out"
			p=$result
			perf_why=$(why "$dir/perf.out")
		fi
		if each_passed hpmstat "$s" "$nr_checks"; then
			h=pass
		else
			run_check hpmstat "$sh_dir/one-$s" "$dir/hpm.out"
			h=$result
		fi
		[ "$h" != fail ] || h="fail: $(why "$dir/hpm.out")"
		judge "$s $c" "$p" "$h" "$dir/hpm.out"
	done
done

# --- stat.sh prints "NAME [Success]", "NAME [Failed ...]" or "NAME [Skipped ...]"
# for each of its tests and runs them all; read them from the whole runs
# test_result OUT NAME
test_result() {
	line=$(grep -F "$2 [" "$1" | head -1)
	case $line in
	*"[Success]"*) echo pass ;;
	*"[Skipped"*) echo "skip $(echo "$line" | sed 's/.*\[Skipped *//; s/\]$//')" ;;
	*"[Failed"*) echo "fail $(echo "$line" | sed 's/.*\[//; s/\]$//')" ;;
	*) echo "fail (no result line)" ;;
	esac
}
names=$(grep -v '\[' "$dir/whole-perf-stat.sh" | grep ' test$')
[ -n "$names" ] || ok 1 "stat.sh: its tests are found in perf's run"
echo "$names" >"$dir/names"
while IFS= read -r t; do
	[ -n "$t" ] || continue
	p=$(test_result "$dir/whole-perf-stat.sh" "$t")
	perf_why=${p#fail }
	case $p in fail*) p=fail ;; esac
	h=$(test_result "$dir/whole-hpmstat-stat.sh" "$t")
	judge "stat.sh: $t" "$p" "$h" "$dir/whole-hpmstat-stat.sh"
done <"$dir/names"

# --- the commands of the two scripts that read only some lines (a missing
# line passes them): the same exit status as perf's and the lines they read
# same_cmd DESC PATTERN CMD...: CMD as perf stat and as hpmstat stat; the
# exit status matches perf's and, where perf's output has lines matching
# PATTERN, hpmstat's has as many
same_cmd() {
	d=$1
	pat=$2
	shift 2
	timeout -k 5 $GUARD "$real_perf" stat "$@" >"$dir/perf.out" 2>&1
	prc=$?
	timeout -k 5 $GUARD "$HPMSTAT" stat "$@" >"$dir/hpm.out" 2>&1
	hrc=$?
	pn=$(grep -cE -- "$pat" "$dir/perf.out")
	hn=$(grep -cE -- "$pat" "$dir/hpm.out")
	if [ $prc -ne 0 ]; then
		skip "$d: perf stat exits $prc here ($(why "$dir/perf.out")); hpmstat exits $hrc"
	elif [ $hrc -eq 0 ] && [ "$hn" -eq "$pn" ]; then
		ok 0 "$d ($pn lines /$pat/)"
	else
		ok 1 "$d: perf exits 0 with $pn lines /$pat/, hpmstat exits $hrc with $hn"
		diag "perf:" "$(head -8 "$dir/perf.out")" "hpmstat:" "$(head -15 "$dir/hpm.out")"
	fi
}
same_cmd "stat+csv_summary.sh: -I1000 --interval-count 1 --summary" '^ *summary ' \
	-e cycles -x' ' -I1000 --interval-count 1 --summary
same_cmd "stat+csv_summary.sh: ... --summary --no-csv-summary" ' cycles ' \
	-e cycles -x' ' -I1000 --interval-count 1 --summary --no-csv-summary
same_cmd "stat+shadow_stat.sh: -a --no-big-num -e cycles,instructions" '(cycles|instructions)' \
	-a --no-big-num -e cycles,instructions sleep 1
same_cmd "stat+shadow_stat.sh: -a -A --no-big-num -e cycles,instructions" '^CPU[0-9]+ .*(cycles|instructions)' \
	-a -A --no-big-num -e cycles,instructions sleep 1

done_testing

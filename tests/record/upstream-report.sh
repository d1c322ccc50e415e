#!/bin/sh
# tests/record/upstream-report.sh: upstream perf 6.12's own perf report
# test, tools/perf/tests/shell/base_report/test_basic.sh, read from Debian's
# linux-source-6.12 tarball (never copied into the project) and run with
# hpmstat in perf's place (CMD_PERF), on a system-wide -g recording of
# hpmstat record. Its checks that apply are judged check by check:
# "basic execution" (perf's header lines, the Children and Self columns,
# kernel entries) and "number of samples" (--show-nr-samples' Samples
# column). The others need what hpmstat report does not have, each named
# with its reason. Skipped without the tarball, perl or a working sampler.
. "$top_srcdir/tests/lib.sh"
TAR=${LINUX_SOURCE_612_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
[ -r "$TAR" ] || skip_all "linux-source-6.12 not installed ($TAR)"
command -v perl >/dev/null 2>&1 || skip_all "perl not installed"
T=$(mktemp -d)
trap 'main_shell && rm -rf "$T" "$tap_out" "$tap_err"' EXIT
cd "$T" || exit 1
S=linux-source-6.12/tools/perf/tests/shell
tar -xJf "$TAR" "$S/base_report" "$S/common" 2>tar.err ||
	skip_all "$S not in $TAR: $(head -1 tar.err)"
export PERFSUITE_RUN_DIR=$T/run
mkdir -p "$PERFSUITE_RUN_DIR/perf_report/logs"
# setup.sh records with -asdg (per-thread counts, data addresses: options
# hpmstat record does not take): the same system-wide call-graph file
# without them
if ! "$HPMSTAT" record -a -g -e cpu-clock -o "$PERFSUITE_RUN_DIR/perf_report/perf.data" \
	-- sleep 1 2>rec.err; then
	skip_all "cannot sample here: $(head -1 rec.err)"
fi
(cd "$S/base_report" && CMD_PERF=$HPMSTAT TESTLOG_VERBOSITY=2 TESTLOG_CLEAN=n bash ./test_basic.sh) \
	</dev/null >basic.out 2>basic.err
# verdict CHECK: perf's line for the check
verdict() { grep -F ":: test_basic :: $1" basic.out | head -1; }
for c in "basic execution" "number of samples"; do
	v=$(verdict "$c")
	case $v in
	*"[ PASS ]"*) ok 0 "test_basic.sh '$c': $v" ;;
	*) ok 1 "test_basic.sh '$c': ${v:-no verdict}"
	   diag "$(tail -5 "$PERFSUITE_RUN_DIR"/perf_report/logs/basic_*.log 2>/dev/null | head -20)" ;;
	esac
done
# the checks of options outside hpmstat report
skip "test_basic.sh 'help message'" "perf's own man page (PERF-REPORT), run only with PARAM_GENERAL_HELP_TEXT_CHECK"
skip "test_basic.sh 'header'" "--header-only: perf's header listing, which hpmstat report does not print (perf report --header-only reads hpmstat's file)"
skip "test_basic.sh 'header timestamp'" "--header-only"
skip "test_basic.sh 'show CPU utilization'" "--showcpuutilization: hpmstat report has no sys/user split"
skip "test_basic.sh 'pid'" "--pid filter: not an hpmstat report option"
skip "test_basic.sh 'non-existing symbol'" "--symbols filter: not an hpmstat report option"
skip "test_basic.sh 'symbol filter'" "--symbol-filter: not an hpmstat report option"

done_testing

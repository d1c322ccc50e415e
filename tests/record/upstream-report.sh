#!/bin/sh
# tests/record/upstream-report.sh: upstream perf 6.12's own perf report
# test, tools/perf/tests/shell/base_report/test_basic.sh, read from Debian's
# linux-source-6.12 tarball (never copied into the project) and run with
# hpmstat in perf's place (CMD_PERF), on the recording its setup.sh makes
# (record -asdg -e cpu-clock -- sleep 2), made by hpmstat record. Every
# check is perf's verdict: basic execution, the Samples column, the header
# listing and its timestamp, --showcpuutilization, --pid, --symbols and
# --symbol-filter. Its help-message check reads perf's own man page
# (PERF-REPORT), run only with PARAM_GENERAL_HELP_TEXT_CHECK: skipped, as
# perf's runner skips it. setup.sh's check of the closing lines is made
# here with hpmstat's name in perf's. Skipped without the tarball, perl or
# a working sampler.
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
# setup.sh's folders: the logs, and the one its header check untars into
mkdir -p "$PERFSUITE_RUN_DIR/perf_report/logs" "$PERFSUITE_RUN_DIR/perf_report/header_tar"
# setup.sh's recording as it is written: -a, -s (per-thread counts), -d
# (data addresses), -g
if ! "$HPMSTAT" record -asdg -e cpu-clock -o "$PERFSUITE_RUN_DIR/perf_report/perf.data" \
	-- sleep 2 2>rec.err; then
	skip_all "cannot sample here: $(head -1 rec.err)"
fi
# setup.sh's check of the closing lines (perf's patterns, hpmstat's name)
sed 's/^\[ hpmstat record:/[ perf record:/' rec.err >rec.perfname
(cd "$S/base_report" && bash -c '. ../common/init.sh >/dev/null 2>&1 &&
	../common/check_all_patterns_found.pl "$RE_LINE_RECORD1" "$RE_LINE_RECORD2"' \
	<"$T/rec.perfname" >"$T/setup.out" 2>&1)
ok $? "setup.sh: record -asdg's closing lines match perf's patterns"
(cd "$S/base_report" && CMD_PERF=$HPMSTAT TESTLOG_VERBOSITY=2 TESTLOG_CLEAN=n bash ./test_basic.sh) \
	</dev/null >basic.out 2>basic.err
# verdict CHECK: perf's line for the check
verdict() { grep -F ":: test_basic :: $1" basic.out | head -1; }
for c in "basic execution" "number of samples" "header" "header timestamp" \
	"show CPU utilization" "pid" "non-existing symbol" "symbol filter"; do
	v=$(verdict "$c")
	case $v in
	*"[ PASS ]"*) ok 0 "test_basic.sh '$c': $v" ;;
	*) ok 1 "test_basic.sh '$c': ${v:-no verdict}"
	   diag "$(tail -5 "$PERFSUITE_RUN_DIR"/perf_report/logs/basic_*.log 2>/dev/null | head -20)" ;;
	esac
done
case $(verdict "help message") in
*SKIP*) skip "test_basic.sh 'help message'" "perf's own man page (PERF-REPORT), run only with PARAM_GENERAL_HELP_TEXT_CHECK" ;;
*) ok 1 "test_basic.sh 'help message': not skipped: $(verdict "help message")" ;;
esac

done_testing

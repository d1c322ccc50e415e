#!/bin/sh
# tests/record/upstream-record.sh: upstream perf 6.12's own perf record
# test, tools/perf/tests/shell/record.sh, read from Debian's
# linux-source-6.12 tarball (never copied into the project) and run with
# hpmstat in perf's place: a `perf` first in PATH hands `perf record` and
# `perf report` to hpmstat, `perf test -w thloop` (a workload built into
# perf) to tests/record/thloop.c (two threads spinning in test_loop),
# `perf test -F Symbols` (whether perf's workloads have symbols) to nm on
# that program, and every other subcommand (list, script) to the peer
# (perf612_peer in tests/lib.sh): the perf 6.12 that `make perf612-peer`
# built into the test cache, else Debian's perf 6.1. With perf 6.12 as the
# peer, `perf report -D` (perf's raw dump, which hpmstat report has not)
# is the peer reading hpmstat's file too.
# Judged check by check from the script's own result lines; a check the
# script skips is a SKIP with its reason, and so is one that needs a perf
# record option hpmstat does not claim (named below). Skipped without the
# tarball, gcc, nm or a working sampler. The --threads parts of the
# system-wide and workload checks are skips (hpmstat writes one file, not
# perf's directory), judged only when the script's line says --threads
# was what failed.
. "$top_srcdir/tests/lib.sh"
TAR=${LINUX_SOURCE_612_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
[ -r "$TAR" ] || skip_all "linux-source-6.12 not installed ($TAR)"
for t in gcc nm bash perf; do
	command -v $t >/dev/null 2>&1 || skip_all "$t not installed"
done
perf612_peer
raw_dump_peer=
$peer_is_612 && raw_dump_peer=$peer
T=$(mktemp -d)
trap 'main_shell && rm -rf "$T" "$tap_out" "$tap_err"' EXIT
cd "$T" || exit 1
S=linux-source-6.12/tools/perf/tests/shell
tar -xJf "$TAR" --occurrence=1 "$S/record.sh" "$S/lib/waiting.sh" "$S/lib/perf_has_symbol.sh" \
	2>tar.err || skip_all "$S/record.sh not in $TAR: $(head -1 tar.err)"
gcc -O0 -g -pthread -o thloop "$top_srcdir/tests/record/thloop.c" || exit 1
if ! "$HPMSTAT" record -q -e cpu-clock -o probe.data -- true 2>probe.err; then
	skip_all "cannot sample here: $(head -1 probe.err)"
fi
mkdir bin
cat >bin/perf <<EOS
#!/bin/sh
case "\$1 \$2" in
"report "*)
	case " \$* " in *" -D "*) [ -n "$raw_dump_peer" ] && exec "$raw_dump_peer" "\$@" ;; esac
	exec "$HPMSTAT" "\$@" ;;
"record "*) exec "$HPMSTAT" "\$@" ;;
"test -w")
	shift 3
	exec "$T/thloop" "\$@" ;;
"test -vv")
	nm "$T/thloop" | awk '\$3 == "test_loop" { print "  " \$3 }'
	exit 0 ;;
esac
exec "$peer" "\$@"
EOS
chmod +x bin/perf
(cd "$S" && PATH="$T/bin:$PATH" timeout -k 5 300 bash ./record.sh) </dev/null >rec.out 2>&1
rc=$?
diag "record.sh exit $rc"

# line PATTERN: the script's first result line matching PATTERN
line() { grep -E "$1" rec.out | grep -F '[' | head -1; }
# judge NAME SUCCESS FAIL-PREFIX [FEATURE-LINE WHY]: a check's verdict
judge() {
	name=$1 success=$2 prefix=$3
	if grep -qF "$success [Success]" rec.out; then
		ok 0 "record.sh: $name"
		return
	fi
	l=$(line "^($success|$prefix) .*\[")
	# hpmstat's refusal of an option it does not claim, before the
	# script's own skips (it skips when record fails)
	if [ -n "${4:-}" ] && [ "$l" = "$4" ]; then
		skip "record.sh: $name: $5 (hpmstat: $l)"
		return
	fi
	case $l in
	*"[Skipped"*) skip "record.sh: $name: the script skips it ($l)" ;;
	*)
		ok 1 "record.sh: $name (${l:-no result line})"
		diag "$(head -20 rec.out)" ;;
	esac
}
judge "per-thread" "Basic --per-thread mode test" "Per-thread record"
judge "register capture" "Register capture test" "Register capture test"
# the system-wide check records -aB --synth=no, then again with
# --threads=cpu (perf's parallel trace streaming: a perf.data directory)
if grep -qF "System-wide record [Failed record --threads option]" rec.out; then
	ok 0 "record.sh: system-wide: record -aB --synth=no and report name test_loop"
	skip "record.sh: system-wide --threads=cpu: perf's parallel trace streaming (a perf.data directory), which hpmstat record refuses"
else
	judge "system-wide" "Basic --system-wide mode test" "System-wide record"
fi
# the workload check records and reports thloop, then again with
# --threads=package (perf's parallel trace streaming)
if grep -qF "Workload record [Failed record --threads option]" rec.out; then
	ok 0 "record.sh: workload: record and report name test_loop"
	skip "record.sh: workload --threads=package: perf's parallel trace streaming (a perf.data directory), which hpmstat record refuses"
else
	judge "workload" "Basic target workload test" "Workload record"
fi
judge "branch counter" "Branch counter test" "(branch counter|Branch counter|  *Branch counter)"
# hpmstat records the cgroups (tests/record/targets.sh checks the file with
# perf 6.1); the check then reads them with perf report -D (perf's raw
# dump, which hpmstat report has not) and perf 6.12's perf script -F cgroup
# (a field Debian's perf 6.1 has not)
# (a field Debian's perf 6.1 has not): judged when perf 6.12 is the peer
if $peer_is_612; then
	judge "cgroup (perf 6.12's report -D and script -F cgroup read hpmstat's file)" \
		"Cgroup sampling test" "Cgroup sampling"
else
	judge "cgroup" "Cgroup sampling test" "Cgroup sampling" \
		"Cgroup sampling [Failed missing output]" \
		"reads the file with report -D (perf's raw dump, not in hpmstat report) and perf 6.12's script -F cgroup (not in Debian's perf 6.1; make perf612-peer builds perf 6.12)"
fi
done_testing

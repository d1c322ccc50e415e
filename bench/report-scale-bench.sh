#!/bin/sh
# report-scale-bench.sh HPMSTAT [RECORDS]: hpmstat report and perf report
# --stdio on perf.data files of RECORDS records (default 1e6) crafted to
# hit the paths a careless reader makes quadratic (issue 27, item 4;
# bench/perfdata-craft.py): 160000 sample ids that all fall in one slot
# of a fixed multiplicative hash, 80000 maps of one process given from the
# top down, 160000 processes forked in descending pid order, 20000 events,
# one function called from 20000 places (samples with call chains).
# Prints, for each file, the wall time, CPU time and peak RSS of both
# tools, run one after the other on the same file. Target: every file in seconds, as
# perf, and none slower than a plain 1e6-sample report by more than a few
# times.
set -e
hpmstat=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
records=${2:-1000000}
here=$(cd "$(dirname "$0")" && pwd)
command -v python3 >/dev/null || { echo "report-scale-bench: needs python3" >&2; exit 1; }
have_perf=1
command -v perf >/dev/null || have_perf=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# wall seconds, CPU seconds (user + system: what a loaded machine does
# not inflate) and peak RSS (MiB) of one command, its output discarded
measure() {
	python3 - "$@" <<'PY'
import resource, subprocess, sys, time
t = time.monotonic()
rc = subprocess.call(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
wall = time.monotonic() - t
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%6.2f s %6.2f s %6.1f MiB%s" % (wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024,
                                     "" if rc == 0 else "  (exit %d)" % rc))
PY
}
printf '%-8s %8s  %-28s %-28s\n' "" "" "hpmstat report" "perf report --stdio"
printf '%-8s %8s  %-28s %-28s\n' file records "wall     CPU      peak RSS" \
	"wall     CPU      peak RSS"
for kind in ids mmaps pids events callers; do
	f="$tmp/$kind.data"
	python3 "$here/perfdata-craft.py" "$kind" "$f" "$records"
	h=$(measure "$hpmstat" report -i "$f")
	if [ $have_perf = 1 ]; then
		p=$(measure perf report -i "$f" --stdio)
	else
		p="(no perf)"
	fi
	printf '%-8s %8s  %-28s %-28s\n' "$kind" "$records" "$h" "$p"
	rm -f "$f"
done

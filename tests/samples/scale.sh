#!/bin/sh
# hpmstat report on perf.data files crafted against the paths a careless
# reader makes quadratic (issue 27, item 4; bench/perfdata-craft.py
# writes them): sample ids that all fall in one slot of a fixed
# multiplicative hash, a process's maps given from the top down, processes
# forked in descending pid order, many events. Each large file must be
# read within a CPU-time limit (ulimit -t: the machine's load does not
# count) several times what the reader needs, and far below what the
# quadratic paths took (160000 ids: about a minute); the report says how
# many samples it read. Small files of each kind print the rows perf
# report --stdio prints for them (when perf is installed).
. "$top_srcdir/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "no python3"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$tap_out" "$tap_err"' EXIT
craft="$top_srcdir/bench/perfdata-craft.py"

# within KIND RECORDS N CPU-SECONDS DESC CHECK: CHECK (a shell command)
# holds of the report
within() {
	f="$tmp/$1.data"
	python3 "$craft" "$1" "$f" "$2" "$3"
	(ulimit -t "$4" && exec "$HPMSTAT" report -i "$f") >"$tap_out" 2>"$tap_err"; rc=$?
	[ $rc -eq 0 ] && eval "$6"
	ok $? "$5"
	[ $rc -eq 0 ] || diag "exit $rc (137 or 152: killed at the CPU limit of $4 s)" "$(head -3 "$tap_err")"
	[ $rc -eq 0 ] && ! eval "$6" && diag "$(grep '^# Samples' "$tap_out" | sort | uniq -c | head -3)"
	rm -f "$f"
}
samples() { grep -c "^# Samples: $1 " "$tap_out"; }
# the samples each file holds: RECORDS less the other records
within ids 200001 160000 10 "160000 ids in one slot of a fixed hash: read in < 10 s of CPU" \
	'[ $(samples 100K) = 2 ]'
within mmaps 160001 80000 10 "80000 maps of one process from the top down: read in < 10 s of CPU" \
	'[ $(samples 80K) = 1 ]'
within pids 1100001 500000 10 "500000 processes forked in descending pid order: read in < 10 s of CPU" \
	'[ $(samples 100K) = 1 ]'
within events 600001 60000 10 "60000 events, each sample another's: read in < 10 s of CPU" \
	'[ $(samples 10) = 60000 ]'

if ! command -v perf >/dev/null 2>&1; then
	echo "# no perf: the small files are not compared"
	done_testing
	exit
fi
# the report's rows (overhead, command, object, symbol) and sample counts,
# in an order of their own: rows of equal overhead may come in any order
rows() { sed -n 's/^# Samples: \([^ ]*\) .*/# Samples: \1/p; /^ *[0-9.]*%/p' "$1" | tr -s ' ' | sort; }
for kind in ids mmaps pids events; do
	f="$tmp/small-$kind.data"
	python3 "$craft" $kind "$f" 3000 300
	"$HPMSTAT" report -i "$f" >"$tmp/h" 2>"$tap_err"; rc=$?
	perf report -i "$f" --stdio >"$tmp/p" 2>/dev/null
	rows "$tmp/h" >"$tmp/h.rows"
	rows "$tmp/p" >"$tmp/p.rows"
	[ $rc -eq 0 ] && [ -s "$tmp/p.rows" ] && cmp -s "$tmp/h.rows" "$tmp/p.rows"
	ok $? "small $kind file: the rows and sample counts of perf report --stdio ($(wc -l <"$tmp/p.rows") lines)"
	cmp -s "$tmp/h.rows" "$tmp/p.rows" || diag "$(diff "$tmp/h.rows" "$tmp/p.rows" | head -6)"
done
done_testing

#!/bin/sh
# hpmstat report on perf.data files crafted against the paths a careless
# reader makes quadratic (issue 27, item 4; bench/perfdata-craft.py
# writes them): sample ids that all fall in one slot of a fixed
# multiplicative hash, a process's maps given from the top down, processes
# forked in descending pid order, many events, a function called from
# many places (a call-graph node of as many children, and the HTML flame
# graph's; so are 100000 commands under its root). Each large file must be
# read within a CPU-time limit (ulimit -t: the machine's load does not
# count) several times what the reader needs, and far below what the
# quadratic paths took (160000 ids: about a minute); the report says how
# many samples it read. Small files of each kind print the rows perf
# report --stdio prints for them (when perf is installed), and the small
# callers file perf's call graphs.
. "$top_srcdir/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "no python3"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$tap_out" "$tap_err"' EXIT
craft="$top_srcdir/bench/perfdata-craft.py"

# within KIND RECORDS N CPU-SECONDS DESC CHECK: CHECK (a shell command)
# holds of the report (with the options in $ropts). A sanitizer build runs
# 3-4 times slower (500000 processes: 8.4 s of CPU against 2.5 s, and
# over the 10 s once beside another build): its limit is 3 times as
# long, still short of what the quadratic reads took (12.3 s for 20000
# callers, ~40 s under the sanitizers)
ropts=
scale=1
sanitized "$HPMSTAT" && scale=3
within() {
	f="$tmp/$1.data"
	python3 "$craft" "$1" "$f" "$2" "$3"
	# shellcheck disable=SC2086
	(ulimit -t "$(($4 * scale))" && exec "$HPMSTAT" report -i "$f" $ropts) >"$tap_out" 2>"$tap_err"; rc=$?
	[ $rc -eq 0 ] && eval "$6"
	ok $? "$5"
	[ $rc -eq 0 ] || diag "exit $rc (137 or 152: killed at the CPU limit of $(($4 * scale)) s)" "$(head -3 "$tap_err")"
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
# the call graphs' nodes of 40000 children: each sample walked them all
# (more than 20 s of CPU)
# (40002 entries: the callers, the unnamed function's own by its offset in
# the file and, as perf's, its Children entry by its address)
within callers 200001 40000 10 "a function called from 40000 places, its samples' call chains: read in < 10 s of CPU" \
	'[ $(samples 199K) = 1 ] && [ $(grep -c " crafted.so " "$tap_out") = 40002 ]'
# the flame graph's: each folded stack walked them, comparing names
ropts="--format html"
within callers 200001 40000 10 "the same as HTML (its flame graph's node of 40000 children): < 10 s of CPU" \
	'grep -q "^<p>199999 samples," "$tap_out"'
within pids 300001 100000 10 "HTML of 100000 commands (its flame graph's root of 100000 children): < 10 s of CPU" \
	'grep -q "^<p>100000 samples," "$tap_out"'
ropts=

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
# a function called from 300 places: every branch of each call graph (the
# limit under their 0.3 %: perf reads 0 as no limit, hpmstat as its 0.5)
f="$tmp/small-callers.data"
python3 "$craft" callers "$f" 3000 300
for g in caller callee; do
	"$HPMSTAT" report -i "$f" --no-children -g $g --percent-limit 0.1 2>"$tap_err" | grep -v '^#' >"$tmp/h"
	perf report -i "$f" --stdio --no-children -g $g --percent-limit 0.1 2>/dev/null </dev/null |
		grep -v '^#' >"$tmp/p"
	[ "$(grep -c -- '%--0x7f' "$tmp/p")" -ge 300 ] && cmp -s "$tmp/h" "$tmp/p"
	ok $? "small callers file, -g $g: perf report's call graph line for line ($(wc -l <"$tmp/p") lines)"
	cmp -s "$tmp/h" "$tmp/p" || diag "$(diff "$tmp/h" "$tmp/p" | head -6)"
done
# report -i - of a stream: the bytes of a pipe go to a temporary file the
# report maps, not into its memory. 599999 samples (29 MB) through cat
# with 40 MB of data segment (ulimit -d: brk and private writable maps, not
# a file's pages): the stream held in memory took 64 MB (out of memory at
# 40 and 48). Not under a sanitizer: its shadow maps count to the limit.
if sanitized "$HPMSTAT"; then
	skip "report -i - of a 29 MB stream with 40 MB of data segment" "a sanitizer's shadow counts to ulimit -d"
else
	f="$tmp/stream.data"
	python3 "$craft" pids "$f" 600001 10
	(ulimit -d 40960 && cat "$f" | exec "$HPMSTAT" report -i -) >"$tap_out" 2>"$tap_err"; rc=$?
	[ $rc -eq 0 ] && [ "$(samples 599K)" = 1 ]
	ok $? "report -i - of a 29 MB stream with 40 MB of data segment: not held in memory"
	[ $rc -eq 0 ] || diag "exit $rc" "$(head -3 "$tap_err")"
	rm -f "$f"
fi
done_testing

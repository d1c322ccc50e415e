#!/bin/sh
# record-stream.sh: --record with -I writes each interval as it ends, so
# memory stays flat in the number of intervals, and the file is still one
# complete JSON document that report reads.
. "$top_srcdir/tests/lib.sh"
H=$HPMSTAT
J=$JSONCHECK
scratch_dir
if [ ! -x /usr/bin/time ]; then
	skip_all "/usr/bin/time (GNU time) is needed to measure peak RSS"
fi

# N intervals of 100 ms of emulated time at 100 kHz (1e4 cycles each),
# Topdown level 3 (15 metrics per interval): peak RSS in KiB
rss() {
	/usr/bin/time -f '%M' -o "$dir/rss" "$H" stat -I 100 --topdown=3 --emu-freq 100000 \
		--emu-cycles $(($1 * 10000)) --record "$dir/r$1.json" -x, >/dev/null 2>"$dir/out$1"
	rc=$?
	cat "$dir/rss"
	return $rc
}
small=$(rss 20); ok $? "20 intervals recorded"
big=$(rss 2000); ok $? "2000 intervals recorded"
# without streaming, 2000 intervals of 15 metrics hold tens of MB
if sanitized "$H"; then
	# ASan's quarantine keeps freed memory: RSS says nothing about streaming there
	skip "peak RSS for 2000 intervals" "sanitizer build"
else
	awk -v s="$small" -v b="$big" 'BEGIN { exit !(s > 0 && b < 2 * s) }'
	ok $? "peak RSS for 2000 intervals ($big KiB) under twice that for 20 ($small KiB)"
fi

[ "$("$J" intervals.# < "$dir/r2000.json")" = 2000 ]; ok $? "the file is valid JSON with all 2000 intervals"
[ "$(grep -c ' tma_retiring$' "$dir/out2000")" = 2000 ]; ok $? "as many intervals as were printed"
t=$("$J" intervals.1999.time intervals.1999.metrics.# schema < "$dir/r2000.json" | tr '\n' ' ')
[ "$t" = "200.0 15 hpmstat-run " ]; ok $? "the last interval ends at 200 s with its 15 metrics, the document its tail ($t)"
"$H" report --format json "$dir/r2000.json" >"$tap_out" 2>"$tap_err"
ok $? "report reads the streamed file ($(head -1 "$tap_err"))"
"$H" stat --topdown=1 --emu-cycles 1e5 --record "$dir/plain.json" 2>/dev/null
[ "$("$J" intervals.# runs.# < "$dir/plain.json" | tr '\n' ' ')" = "0 1 " ]
ok $? "without -I: an empty intervals array and the run"

done_testing

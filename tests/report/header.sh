#!/bin/sh
# tests/report/header.sh: hpmstat report --header-only (and -I) against
# Debian's perf report --header-only on the same files, byte for byte
# (stdout and whether it fails):
# - perf record of true; perf record -a -g of a sleep; a group
#   ({cpu-clock,task-clock}); -k mono (clockid, clock data), -z
#   (compressed), --threads (a directory), perf stat record (stat);
# - hpmstat record of true, hpmstat record -a -g of a sleep;
# - copies cut short: inside the data (no feature table: the header
#   alone), inside a feature section, and inside the attrs (both refuse
#   the file: one line on stderr, nothing on stdout, no crash);
# - a copy with its mtime kept (cp -p) keeps its "captured on" line, and
#   one of a set mtime shows ctime()'s form of it.
# Each recording skips its test points where perf or hpmstat cannot make
# it here (perf's -a needs perf_event_paranoid <= 0 or root), or where
# hpmstat report takes the file for a run file (a perf stat record file, a
# directory: hpmstat stat report's) instead of listing it.
. "$top_srcdir/tests/report/listing-lib.sh"

# same DESC FILE: hpmstat's listing of FILE is perf's, with and without -I
same() {
	for i in "" -I; do
		perf report --header-only $i -i "$2" >perf.out 2>perf.err
		prc=$?
		"$HPMSTAT" report --header-only $i -i "$2" >hpm.out 2>hpm.err
		hrc=$?
		if grep -q "is a run file" hpm.err; then
			skip "$1${i:+ $i}" "hpmstat report takes it for a run file"
			continue
		fi
		if [ $prc -ne 0 ]; then prc=1; fi
		listed "$1${i:+ $i}" $prc $hrc
	done
}
# rec NAME CMD...: CMD records NAME.data (its output in NAME.log); same on
# it, or a skip when it cannot record here
rec() {
	name=$1
	shift
	if recorded "$name" "$@"; then
		same "$name" "$name.data"
	else
		skip "$name" "cannot record here: $(tail -1 "$name.log")"
		skip "$name -I" "cannot record here"
	fi
}

rec perf-true perf record -o perf-true.data -- true
rec perf-a-g perf record -a -g -e cpu-clock -o perf-a-g.data -- sleep 0.1
rec perf-group perf record -e '{cpu-clock,task-clock}' -o perf-group.data -- true
rec perf-clock perf record -k mono -o perf-clock.data -- true
rec perf-z perf record -z -o perf-z.data -- true
rec perf-stat perf stat record -o perf-stat.data -- true
# --threads writes a directory: its header is in "data"
if perf record --threads -o perf-dir.data -- true >perf-dir.log 2>&1 && [ -s perf-dir.data/data ]; then
	same perf-dir perf-dir.data
else
	skip "perf-dir" "perf record --threads cannot record here"
	skip "perf-dir -I" "perf record --threads cannot record here"
fi
rec hpm-true "$HPMSTAT" record -o hpm-true.data -- true
rec hpm-a-g "$HPMSTAT" record -a -g -o hpm-a-g.data -- sleep 0.1

# the files cut short: a file of each recorder that could be made
for f in perf-true hpm-true; do
	[ -s "$f.data" ] || { skip "$f cut short" "no $f.data"; continue; }
	size=$(wc -c <"$f.data")
	# inside the data: the attrs whole, the feature table gone
	doff=$(od -An -tu8 -j40 -N8 "$f.data" | tr -d ' ')
	head -c $((doff + 8)) "$f.data" >"$f-data.data"
	same "$f cut in the data" "$f-data.data"
	# inside the last feature section: perf reads what it can
	head -c $((size - 2)) "$f.data" >"$f-feat.data"
	same "$f cut in a section" "$f-feat.data"
	# inside the attrs: both refuse it
	head -c 200 "$f.data" >"$f-attrs.data"
	same "$f cut in the attrs" "$f-attrs.data"
	run_fails_with "$f cut in the attrs: one line, no crash" "incompatible file format" \
		"$HPMSTAT" report --header-only -i "$f-attrs.data"
done
# what is no perf.data at all: refused in one line, as perf refuses it
head -c 5000 /dev/urandom >garbage.data
run_fails_with "garbage: one line" "garbage.data" "$HPMSTAT" report --header-only -i garbage.data
: >empty.data
run_fails_with "empty file: one line" "empty.data" "$HPMSTAT" report --header-only -i empty.data
run_fails_with "missing file" "failed to open nosuch.data" \
	"$HPMSTAT" report --header-only -i nosuch.data

# captured on: the file's mtime, as ctime() writes it
for f in perf-true hpm-true; do
	[ -s "$f.data" ] || continue
	cp -p "$f.data" "$f-copy.data"
	a=$("$HPMSTAT" report --header-only -i "$f.data" | grep '^# captured on')
	b=$("$HPMSTAT" report --header-only -i "$f-copy.data" | grep '^# captured on')
	[ -n "$a" ] && [ "$a" = "$b" ]
	ok $? "$f: a copy with its mtime kept keeps its captured on line"
	TZ=UTC touch -d '2001-02-03 04:05:06' "$f-copy.data"
	out_is "$f: captured on of a set mtime" "# captured on    : Sat Feb  3 04:05:06 2001" \
		sh -c 'TZ=UTC "$HPMSTAT" report --header-only -i "$1" | grep "^# captured on"' \
		sh "$f-copy.data"
done
done_testing

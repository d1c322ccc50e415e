#!/bin/sh
# tests/report/tasks.sh: hpmstat report --stats, --tasks and --mmaps
# against Debian's perf 6.1 report on the same files, byte for byte
# (stdout, and whether it fails):
# - perf record of true, of sh -c running commands in the background and
#   the foreground (forks, execs: a process tree), of a threaded program
#   (perf bench), -a of a sleep, --buildid-mmap (MMAP2 records whose inode
#   perf prints from the build id's bytes), and a pipe-mode file (perf
#   record -o -), from a file and from standard input;
# - hpmstat record of the same sh -c, threaded program and -a;
# - with --header (its listing first) and a one-value --comms filter (the
#   "# comm: " line perf prints above the listing);
# - copies cut short, garbage, an empty and a missing file: refused in one
#   line on stderr with nothing on stdout (perf prints nothing on stdout
#   for them either, which is compared too), a file of compressed records
#   and one of file mode on standard input refused (perf refuses the
#   latter too), --stats with --tasks refused.
. "$top_srcdir/tests/report/listing-lib.sh"

# same DESC FILE [OPTION...]: each listing of FILE is perf's
same() {
	_d=$1 _f=$2
	shift 2
	for m in --stats --tasks --mmaps; do
		perf report $m "$@" -i "$_f" >perf.out 2>perf.err
		"$HPMSTAT" report $m "$@" -i "$_f" >hpm.out 2>hpm.err
		hrc=$?
		# perf exits 0 after its errors: its stdout says whether it listed
		if [ -s perf.out ]; then prc=0; else prc=1; fi
		listed "$_d $m${*:+ $*}" $prc $hrc
	done
}
# rec NAME CMD...: CMD records NAME.data; same on it, else skips
rec() {
	name=$1
	shift
	if recorded "$name" "$@"; then
		same "$name" "$name.data"
	else
		for m in --stats --tasks --mmaps; do
			skip "$name $m" "cannot record here: $(tail -1 "$name.log")"
		done
	fi
}

if ! perf record -e cpu-clock -o probe.data -- true >probe.log 2>&1; then
	skip_all "perf_event_open of cpu-clock not permitted: $(tail -1 probe.log)"
fi
tree='ls / >/dev/null; sleep 0.05 & cat /dev/null; wait; echo x | wc -c >/dev/null'
rec perf-true perf record -o perf-true.data -- true
rec perf-tree perf record -e cpu-clock -o perf-tree.data -- sh -c "$tree"
rec perf-a perf record -a -e cpu-clock -o perf-a.data -- sleep 0.1
# threads (perf's own threaded benchmark); MMAP2 records with build ids
# in place of the inode, which perf prints as an inode
threads='perf bench sched messaging -t -g 1 -l 5'
rec perf-threads perf record -e cpu-clock -o perf-threads.data -- $threads
rec perf-bid perf record --buildid-mmap -o perf-bid.data -- sh -c "$tree"
rec hpm-tree "$HPMSTAT" record -o hpm-tree.data -- sh -c "$tree"
rec hpm-threads "$HPMSTAT" record -o hpm-threads.data -- $threads
rec hpm-a "$HPMSTAT" record -a -o hpm-a.data -- sleep 0.1
# pipe mode: from a file, and from standard input
if perf record -o - -- sh -c "$tree" >perf-pipe.data 2>perf-pipe.log && [ -s perf-pipe.data ]; then
	same perf-pipe perf-pipe.data
	for m in --stats --mmaps; do
		perf report $m -i - <perf-pipe.data >perf.out 2>/dev/null
		"$HPMSTAT" report $m -i - <perf-pipe.data >hpm.out 2>hpm.err
		rc=$?
		[ $rc -eq 0 ] && [ -s perf.out ] && cmp -s perf.out hpm.out
		ok $? "perf-pipe $m from standard input: perf's listing"
	done
else
	skip "perf-pipe" "perf record -o - cannot record here"
fi

# with the options that change what perf prints
for f in perf-tree hpm-tree; do
	[ -s "$f.data" ] || { skip "$f with options" "no $f.data"; continue; }
	same "$f" "$f.data" --header
	same "$f" "$f.data" --comms sh
	same "$f" "$f.data" -q --pid 1
done

# the files cut short: inside the data section, and inside the attrs
for f in perf-tree hpm-tree; do
	[ -s "$f.data" ] || { skip "$f cut short" "no $f.data"; continue; }
	doff=$(od -An -tu8 -j40 -N8 "$f.data" | tr -d ' ')
	head -c $((doff + 100)) "$f.data" >"$f-data.data"
	same "$f cut in the data" "$f-data.data"
	run_fails_with "$f cut in the data: one line" "$f-data.data" \
		"$HPMSTAT" report --stats -i "$f-data.data"
	head -c 200 "$f.data" >"$f-attrs.data"
	same "$f cut in the attrs" "$f-attrs.data"
	run_fails_with "$f cut in the attrs: one line" "$f-attrs.data" \
		"$HPMSTAT" report --tasks -i "$f-attrs.data"
done
head -c 5000 /dev/urandom >garbage.data
run_fails_with "garbage: one line" "garbage.data" "$HPMSTAT" report --stats -i garbage.data
: >empty.data
run_fails_with "empty file: one line" "zero-sized data (empty.data)" \
	"$HPMSTAT" report --tasks -i empty.data
run_fails_with "missing file" "failed to open nosuch.data" \
	"$HPMSTAT" report --mmaps -i nosuch.data
# compressed records (perf record -z): hpmstat reads no zstd
if perf record -z -o perf-z.data -- true >perf-z.log 2>&1 && [ -s perf-z.data ]; then
	run_fails_with "perf record -z: refused in one line" "compressed records" \
		"$HPMSTAT" report --stats -i perf-z.data
else
	skip "perf record -z" "cannot record here: $(tail -1 perf-z.log)"
fi
# a perf.data of file mode on standard input: perf reads it as a pipe's
if [ -s perf-true.data ]; then
	perf report --stats -i - <perf-true.data >perf.out 2>/dev/null
	[ ! -s perf.out ]
	ok $? "perf lists no file-mode perf.data from standard input"
	run_fails_with "nor does hpmstat: one line" "incompatible file format" \
		sh -c '"$HPMSTAT" report --tasks -i - <perf-true.data'
fi
run_fails_with "--stats with --tasks" "can't be used together with --stats" \
	"$HPMSTAT" report --stats --tasks -i perf-true.data
done_testing

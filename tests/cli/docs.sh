#!/bin/sh
# What the README and doc/ tell a new user to run works as written after
# `make`: the stat benchmark with the paths doc/performance.md gives, the
# README's quick start kept whole, and `man -l man/hpmtop.1`.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir" || exit 1

# the documented command line, taken from doc/performance.md
cmd=$(grep -o 'sh bench/stat-bench.sh [^`]*' "$top_srcdir/doc/performance.md" | head -1)
[ "$cmd" = "sh bench/stat-bench.sh src/hpmstat bench/bench-runtime" ]
ok $? "doc/performance.md shows the stat benchmark command ($cmd)"
# the quick start's two commands, which CI runs: the second is make check
sed -n '/^## Quick start/,/^## /p' "$top_srcdir/README.md" | sed -n '/^```sh$/,/^```$/p' >"$tap_out"
grep -q '^apt-get update && apt-get install -y .* && ./autogen.sh && ./configure && make -j2 && ./src/hpmstat stat --topdown=3$' "$tap_out" &&
	grep -qx 'make check' "$tap_out"
ok $? "README's quick start: the install-build-run line and make check"
# every document the README lists is in the tree
for d in $(grep -o '](doc/[a-z-]*\.md)' "$top_srcdir/README.md" | sed 's/^](//; s/)$//'); do
	[ -s "$top_srcdir/$d" ] || missing_doc="$missing_doc $d"
done
[ -z "$missing_doc" ] && grep -q '](doc/performance.md)' "$top_srcdir/README.md"
ok $? "README's documents exist${missing_doc:+ (missing:$missing_doc)}"
out=$(./bench/bench-runtime 3 true 2>&1)
case "$out" in "median_us="*" peak_rss_kb="*" runs=3") r=0 ;; *) r=1 ;; esac
ok $r "make builds bench/bench-runtime ($out)"
if command -v perf >/dev/null 2>&1; then
	# a few runs only: this checks that it runs, not the figures (the
	# targets are for a quiet machine, see bench/README.md)
	out=$(STAT_BENCH_RUNS=3 STAT_BENCH_SECONDS=1 sh "$top_srcdir/bench/stat-bench.sh" \
		src/hpmstat bench/bench-runtime 2>&1)
	printf '%s\n' "$out" | grep -q '^1\. -e task-clock -- true, 3 runs: hpmstat median [0-9]* us' &&
		printf '%s\n' "$out" | grep -q '^3\. --topdown=3' &&
		printf '%s\n' "$out" | grep -q '^targets: '
	r=$?
	ok $r "doc/performance.md's stat-bench command runs all three measurements"
	[ $r -eq 0 ] || diag "$out"
else
	skip "perf is not installed"
fi

# hpmtop(1): a whole page, the same as hpmstat-top(1) but for its title
head -1 man/hpmtop.1 | grep -q '^\.TH HPMTOP 1 '; ok $? "man/hpmtop.1 is a page titled HPMTOP, not a .so stub"
tail -n +2 man/hpmtop.1 >"$tap_out"
tail -n +2 "$top_srcdir/man/hpmstat-top.1" | cmp -s - "$tap_out"
ok $? "... with hpmstat-top(1)'s text"
if command -v man >/dev/null 2>&1; then
	out=$(MANWIDTH=80 man -l man/hpmtop.1 2>&1)
	printf '%s\n' "$out" | grep -q 'hpmtop - a live, top-like Topdown view'
	r=$?
	ok $r "man -l man/hpmtop.1 shows the page"
	[ $r -eq 0 ] || diag "$(printf '%s\n' "$out" | head -3)"
else
	skip "man is not installed"
fi

done_testing

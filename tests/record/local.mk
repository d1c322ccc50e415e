# tests/record: hpmstat record against Debian's perf as the judge: perf
# report and perf script read hpmstat's file without a warning, count every
# sample, name the known split of tests/record/split.c and the call tree of
# tests/record/tree.c as they do for perf record's own file; the header,
# build ids, group sampling, -p, -a, Ctrl-C and every bad input.
# callgraph.sh: --call-graph fp|dwarf|lbr, -b, :p modifiers (perf evlist of
# both files, perf's messages), the dwarf unwinding of tests/record/nofp.c
# (-O2 -fomit-frame-pointer) by perf and by hpmstat report, chains through
# a library met first above the leaf and an rbx-based CFA (tests/record/
# unwind.c) as perf script unwinds them, and report's
# --children, -n, -F, --percent-limit, --sort overhead, --stdio, -i -,
# --max-stack against perf report on the same file (recursion:
# tests/record/recurse.c; a 200-frame chain: tests/record/deep.c).
# filters.sh: report's --comms, --pid, --tid, --dsos, --symbols,
# --percentage and --sort sym's graphs against perf report's lines and
# header (tests/record/report-lib.sh: the comparisons both share).
# timefilter.sh: report's --time (spans in seconds, percentages of the
# recording, perf's refusals) against perf report and perf script --time.
# upstream-report.sh: perf 6.12's base_report/test_basic.sh from the
# linux-source-6.12 tarball with hpmstat as CMD_PERF, check by check
# (skipped without the package).
# report-formats.sh: CSV, JSON, Markdown and HTML of a -g file carry the
# text's Children and Self, row for row, and perf report's numbers.
# upstream-record.sh: perf 6.12's record.sh from the same tarball, hpmstat
# as perf record and perf report, thloop.c as its `perf test -w thloop`.
# chains.sh: report's -g graph, fractal, flat and folded, the print
# limit, perf's order of equal branches and --children's level of
# unmapped frames, on files of chains made by hand (tests/record/chains.py)
# and on a recording, against perf report.
# sortkeys.sh: report's --sort and -F keys cpu, socket, dso_size and
# symbol_size, and --hide-unresolved, against perf report on files of two
# programs pinned to two CPUs.
# demangle.sh: C++ names demangled as perf 6.1's report shows them
# (tests/record/demangle.cc), --no-demangle, -S and --symbol-filter on the
# demangled names, the folded stacks, perf probe -F's names of the program
# and of libstdc++, and the note when libstdc++ cannot be opened.
# targets.sh: what record.sh needs: --per-thread, -p PID -- CMD, -B and
# --synth against perf's own files, --threads refused.
TESTS += tests/record/record.sh tests/record/callgraph.sh tests/record/upstream-report.sh \
	tests/record/table.sh tests/record/report-formats.sh tests/record/upstream-record.sh \
	tests/record/targets.sh tests/record/filters.sh tests/record/chains.sh \
	tests/record/sortkeys.sh tests/record/timefilter.sh tests/record/demangle.sh
EXTRA_DIST += tests/record/record.sh tests/record/split.c tests/record/tree.c \
	tests/record/deep.c tests/record/filters.sh tests/record/report-lib.sh \
	tests/record/callgraph.sh tests/record/nofp.c tests/record/unwind.c \
	tests/record/unwind-lib.c tests/record/upstream-report.sh \
	tests/record/table.sh tests/record/recurse.c tests/record/report-formats.sh \
	tests/record/upstream-record.sh tests/record/thloop.c tests/record/targets.sh \
	tests/record/chains.sh tests/record/chains.py tests/record/sortkeys.sh \
	tests/record/timefilter.sh tests/record/demangle.sh tests/record/demangle.cc \
	tests/record/demangle-names.cc

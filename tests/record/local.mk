# tests/record: hpmstat record against Debian's perf as the judge: perf
# report and perf script read hpmstat's file without a warning, count every
# sample, name the known split of tests/record/split.c and the call tree of
# tests/record/tree.c as they do for perf record's own file; the header,
# build ids, group sampling, -p, -a, Ctrl-C and every bad input.
TESTS += tests/record/record.sh
EXTRA_DIST += tests/record/record.sh tests/record/split.c tests/record/tree.c

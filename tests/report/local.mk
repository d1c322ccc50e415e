# tests/report: hpmstat report. Golden outputs of every format from fixed
# run files (hand.json, l1off.json, na.json written by hand; dram.json,
# int.json, rep-a.json, rep-b.json, host.json recorded once and frozen),
# the reliability rules and every bad input (report.sh), the CSV read back
# by python3's csv module (csv.sh), the HTML in headless chromium (html.sh),
# weighted means with weights near DBL_MAX worked out by hand (weights-huge.sh),
# Arm runs of the four Neoverse cores written by the test, Topdown per CPU
# worked out by hand, every format, Arm diffs and the refusals (arm.sh).
# perf report --header-only's listing against Debian's perf on files of
# perf record and hpmstat record, whole and cut short (header.sh); its
# --stats, --tasks and --mmaps listings likewise (tasks.sh); both on
# listing-lib.sh.
# csv.sh and html.sh skip when python3 or chromium is absent; CI has both;
# header.sh and tasks.sh skip without perf.
TESTS += tests/report/report.sh tests/report/csv.sh tests/report/html.sh tests/report/arm.sh \
	tests/report/weights-huge.sh tests/report/header.sh tests/report/tasks.sh
EXTRA_DIST += tests/report/report.sh tests/report/csv.sh tests/report/html.sh tests/report/arm.sh \
	tests/report/weights-huge.sh tests/report/header.sh tests/report/tasks.sh \
	tests/report/listing-lib.sh \
	tests/report/hand.json tests/report/l1off.json tests/report/na.json \
	tests/report/dram.json tests/report/int.json tests/report/rep-a.json \
	tests/report/rep-b.json tests/report/host.json tests/report/weights.json \
	tests/report/golden

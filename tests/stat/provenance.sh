#!/bin/sh
# provenance.sh: emulated Kunminghu figures never read as the command's own:
# std output says so on its first line and marks every emulated row; CSV
# and JSON carry it where perf's own checkers still accept the output
# (perf's checkers are run from Debian's linux-source-6.1 when installed).
. "$top_srcdir/tests/lib.sh"
H=$HPMSTAT
J=$JSONCHECK
scratch_dir

# std: the first line, before the "Performance counter stats for" header
$H stat -M ipc -- true 2>"$tap_out" >/dev/null; ok $? "stat -M ipc -- true exits 0"
first=$(head -1 "$tap_out")
case $first in *emulated*"do not measure 'true'"*) r=0 ;; *) r=1 ;; esac
ok $r "std: the first line says the figures are emulated and do not measure 'true' ($first)"
grep -Eq ' # +[0-9.]+ per cycle  ipc .*\[emu\]$' "$tap_out"; ok $? "std: the ipc line is marked [emu]"

$H stat -e task-clock,mcycle,minstret -M ipc -- true 2>"$tap_out" >/dev/null
# every row of an emulated event or metric ends in [emu]; the host row not
awk '/ (mcycle|minstret|ipc) / { n++; if ($NF != "[emu]") bad++ }
	/ task-clock / { if ($NF == "[emu]") bad++; host++ }
	END { exit !(n == 3 && host == 1 && !bad) }' "$tap_out"
ok $? "std: mcycle, minstret and ipc marked, task-clock not"

$H stat --emu-cycles 1e5 -e mcycle 2>"$tap_out" >/dev/null
head -1 "$tap_out" | grep -q 'emulated'; ok $? "std without a command: the first line still says emulated"

$H stat -I 100 -M ipc -- sleep 0.25 2>"$tap_out" >/dev/null
first=$(head -1 "$tap_out")
case $first in "#"*emulated*"do not measure 'sleep 0.25'"*) r=0 ;; *) r=1 ;; esac
ok $r "std -I: the first line says so too ($first)"
[ "$(grep -c ' \[emu\]$' "$tap_out")" -ge 2 ]; ok $? "std -I: every interval's row is marked"

# CSV: the label is a '#' comment line (as perf's "# started on" in -o
# files); perf's rows keep exactly perf's fields
$H stat -x, -e task-clock,mcycle,minstret -M ipc -- true 2>"$dir/csv" >/dev/null
first=$(head -1 "$dir/csv")
case $first in "# emulated Kunminghu"*"do not measure 'true'"*) r=0 ;; *) r=1 ;; esac
ok $r "CSV: a '#' first line says emulated and not 'true' ($first)"
grep -v '^#' "$dir/csv" | python3 -c '
import csv, sys
rows = list(csv.reader(sys.stdin))
sys.exit(not rows or any(len(r) != 7 for r in rows))' 2>/dev/null
ok $? "CSV: every other row has perf's seven fields (python csv)"

# JSON: perf's keys, plus the documented "emulated" keys on emulated rows
$H stat -j --json-extra -e task-clock,mcycle,minstret -M ipc -- true 2>"$dir/json" >/dev/null
"$J" --lines <"$dir/json" >/dev/null; ok $? "JSON: one valid object per line"
python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
emu = [r.get("emulated") for r in rows]
# task-clock is the host row; mcycle, minstret, the events of -M ipc and
# the metric on the first of them are emulated
sys.exit(len(rows) < 4 or emu != [None] + [True] * (len(rows) - 1) or
         not any(r.get("metric") == "ipc" for r in rows) or
         any(r.get("emu-profile") != "balanced" for r in rows[1:]))' "$dir/json"
ok $? "JSON: emulated rows say emulated and the profile, the host row not"

# perf's own checkers, from the Linux 6.1 sources
src=${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
lib=linux-source-6.1/tools/perf/tests/shell
if [ -r "$src" ] && command -v python3 >/dev/null && command -v bash >/dev/null &&
	tar -xJf "$src" -C "$dir" "$lib/lib/perf_json_output_lint.py" "$lib/stat+csv_output.sh" 2>/dev/null; then
	# stat+csv_output.sh's commachecker counts perf's separators on each
	# line; perf's tests never give it a '#' line, so neither do we
	sed -n '/^function commachecker()/,/^}/p' "$dir/$lib/stat+csv_output.sh" >"$dir/cc.sh"
	grep -v '^#' "$dir/csv" | bash -c ". '$dir/cc.sh'; commachecker --no-args" 2>"$tap_err"
	ok $? "CSV: perf 6.1's commachecker --no-args accepts it ($(head -1 "$tap_err"))"
	$H stat -x, -I 100 -e task-clock,mcycle -M ipc -- sleep 0.25 2>"$dir/csvi" >/dev/null
	grep -v '^#' "$dir/csvi" | bash -c ". '$dir/cc.sh'; commachecker --interval" 2>"$tap_err"
	ok $? "CSV -I: perf 6.1's commachecker --interval accepts it ($(head -1 "$tap_err"))"
	# perf 6.1's JSON lint knows a closed list of keys and rejects any
	# other, perf's own "variance" of -r included; hpmstat's documented
	# extra keys (hpmstat-stat(1), JSON) are taken out, everything else
	# (perf's keys and their values) is checked as it is
	python3 -c '
import json, sys
extra = {"emulated", "emu-profile", "emu-trace", "emu-seed", "metric", "topdown-level",
         "bottleneck", "out-of-range", "multiplexed", "hart", "variance", "pmu-table"}
for l in open(sys.argv[1]):
    print(json.dumps({k: v for k, v in json.loads(l).items() if k not in extra}))' \
		"$dir/json" >"$dir/json-perf"
	python3 "$dir/$lib/lib/perf_json_output_lint.py" <"$dir/json-perf" >"$tap_err" 2>&1
	ok $? "JSON: perf 6.1's perf_json_output_lint.py accepts perf's keys ($(tail -1 "$tap_err"))"
else
	echo "# linux-source-6.1 not installed: perf's own checkers skipped"
	skip "perf 6.1 commachecker (no /usr/src/linux-source-6.1.tar.xz)"
	skip "perf 6.1 commachecker --interval"
	skip "perf 6.1 perf_json_output_lint.py"
fi

done_testing

#!/bin/sh
# list-names.sh: every name hpmstat list prints is one stat takes, so the
# list and the parsers cannot drift apart: each event name with -e (on the
# emulator, and the host names on the perf back end too), each metric and
# metric group with -M; the generic names count what list says they map
# to; perf's own parser takes the generic names list gives.
. "$top_srcdir/tests/lib.sh"
H=$HPMSTAT

# The names of the text listing: the first word of each row ("  NAME ...")
# and the one after OR ("  cycles OR cpu-cycles"); description lines are
# indented further.
text_names() {
	$H list --no-pager "$@" | awk '/^  [^ ]/ { print $1; if ($2 == "OR") print $3 }'
}
events=$($H list --raw-dump hw sw cache pmu pfm)
# listed but not countable: an index the hardware cannot reach (list
# --details notes it undefined: Kunminghu's cache 68); stat must refuse it
undefined=$($H list --no-pager --details pmu | awk '/^  [^ ]/ { name = $1 } /note: .* is undefined on/ { print name }')
countable() { echo "$1" | tr ' ' '\n' | grep -vxF "$undefined"; }
metrics=$($H list --raw-dump metric metricgroup)
ne=$(echo $events | wc -w); nm=$(echo $metrics | wc -w)
[ "$ne" -gt 500 ] && [ "$nm" -gt 40 ]; ok $? "list has event and metric names ($ne events, $nm metrics and groups)"

# the text, --raw-dump and --json name the same names
text_names > "$tap_out"
echo $events $metrics | tr ' ' '\n' | cmp -s - "$tap_out"; ok $? "the text rows name exactly the --raw-dump names"
# each object's own name and alias (a metric's variants have names of their own)
$H list --json | $JSONCHECK . | python3 -c '
import json, sys
for o in json.load(sys.stdin):
    for k in ("name", "alias"):
        if o.get(k) is not None:
            print(o[k])' > "$tap_err"
cmp -s "$tap_err" "$tap_out"; ok $? "--json names (and aliases) the same names, in the same order"

# stat -e NAME for one comma list; on failure, each name alone, to name
# every one it refuses
accepts() { # LABEL NAMES STAT-COMMAND...: the command, given -e NAMES
	label=$1; names=$2; shift 2
	if "$@" -e "$(echo $names | tr ' ' ',')" > /dev/null 2> "$tap_err"; then
		ok 0 "$label"
		return
	fi
	bad=""
	for n in $names; do
		"$@" -e "$n" > /dev/null 2>&1 || bad="$bad $n"
	done
	ok 1 "$label"
	diag "refused:$bad" "$(head -3 "$tap_err")"
}
out_is "one listed name is undefined (Kunminghu's cache 68)" "Slice3_l2_cache_inv" echo $undefined
run_fails_with "stat refuses it" "undefined" $H stat --backend emu --dry-run -e "$undefined"
accepts "stat -e takes all $ne listed event names but that one (emulator)" "$(countable "$events")" \
	$H stat --backend emu --dry-run
# the host names: generic, tool, libpfm4 and the host's sysfs PMU events
# (PMU/EVENT/, listed under pmu)
host=$($H list --raw-dump hw sw cache pfm; $H list --raw-dump pmu | tr ' ' '\n' | grep /)
accepts "stat -e takes the host names on the perf back end" "$host" \
	$H stat --backend perf --dry-run
# the same names as a run counts them: a short emulated run, no dry run
accepts "stat counts every Kunminghu name on a 1e5-cycle emulated run" \
	"$(countable "$($H list --raw-dump pmu)" | grep -v /)" \
	$H stat --backend emu --emu-cycles 1e5 -x,
# and where the host names count: the tool events and sysfs PMU events
# by a run of true (perf's tool events count what perf's do there)
stat_true() { $H stat -x, "$@" -- true; }
accepts "stat counts the tool and sysfs PMU events on a run of true" \
	"$($H list --raw-dump tool; $H list --raw-dump pmu | tr ' ' '\n' | grep /)" stat_true

# every metric and metric group with -M
if $H stat --backend emu --dry-run -M "$(echo $metrics | tr ' ' ',')" > /dev/null 2> "$tap_err"; then
	ok 0 "stat -M takes all $nm listed metrics and metric groups"
else
	bad=""
	for m in $metrics; do
		$H stat --backend emu --dry-run -M "$m" > /dev/null 2>&1 || bad="$bad $m"
	done
	ok 1 "stat -M takes all listed metrics and metric groups"
	diag "refused:$bad" "$(head -3 "$tap_err")"
fi

# what list says a generic name maps to is what the emulator counts: the
# two rows of one run are the same count
$H list hw | sed -n 's/^  \([^ ]*\).*emulator: \([^]]*\)\]$/\1 \2/p' > "$tap_out"
[ "$(wc -l < "$tap_out")" -eq 4 ]; ok $? "list names four generic names the emulator maps ($(wc -l < "$tap_out"))"
bad=""
while read -r g k; do
	$H stat --backend emu --emu-cycles 1e5 -x, -e "$g,$k" 2> "$tap_err" > /dev/null
	grep -v '^#' "$tap_err" | cut -d, -f1 > "$tap_out.counts"
	a=$(sed -n 1p "$tap_out.counts"); b=$(sed -n 2p "$tap_out.counts")
	{ [ -n "$a" ] && [ "$a" = "$b" ] && [ "$a" -gt 0 ]; } || bad="$bad $g($a)/$k($b)"
done < "$tap_out"
rm -f "$tap_out.counts"
[ -s "$tap_out" ] && [ -z "$bad" ]; ok $? "each generic name counts what list says it maps to ($bad)"

# perf's own parser takes the generic names hpmstat lists (no hardware PMU
# here: perf answers <not supported>, but parses them)
if command -v perf >/dev/null 2>&1 && perf stat -e task-clock true > /dev/null 2>&1; then
	gen=$($H list --raw-dump hw sw cache | tr ' ' ',')
	perf stat -e "$gen" true > /dev/null 2> "$tap_err"; ok $? "perf stat -e takes every hw, sw and cache name list gives"
	[ $? -eq 0 ] || diag "$(head -3 "$tap_err")"
else
	skip "perf stat does not run here"
fi
done_testing

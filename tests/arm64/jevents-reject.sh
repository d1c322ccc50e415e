#!/bin/sh
# The Arm event-table generator is the build-time validator of events/arm64:
# it must take the shipped tree, resolve a core's ArchStdEvent rows from the
# standard files as perf's jevents.py does, and refuse a tree it cannot
# trust, naming the file and the problem and writing nothing to stdout.
. "$top_srcdir/tests/lib.sh"
gen="$top_builddir/src/arm64/gen/arm64-jevents"
dir=$(mktemp -d)
trap 'main_shell && rm -rf "$dir" "$tap_out" "$tap_err"' EXIT

run_ok "the shipped tree generates" "$gen" "$top_srcdir/events/arm64"
n=$(grep -c '^	{"neoverse-' "$tap_out")
[ "$n" -ge 4 ]; ok $? "every core of mapfile.csv is a table ($n)"

# a tree of one standard file and one core
std() { printf '{"EventName":"%s","EventCode":"%s","BriefDescription":"%s"}' "$1" "$2" "${3:-b}"; }
tree() { # standard events, core events
	rm -rf "$dir/t" && mkdir -p "$dir/t/arm/c1"
	printf '#Family-model,Version,Filename,EventType\n0x00000000410fd0c0,v1,arm/c1,core\n' >"$dir/t/mapfile.csv"
	printf '[%s]' "$1" >"$dir/t/common.json"
	printf '[%s]' "$2" >"$dir/t/arm/c1/pipeline.json"
}
tree "$(std CPU_CYCLES 0x11 'Cycles'),$(std INST_RETIRED 0x8)" \
	'{"ArchStdEvent":"CPU_CYCLES"},{"ArchStdEvent":"inst_retired","BriefDescription":"own words"},'"$(std IMP_X 0x1234)"
"$gen" "$dir/t" >"$tap_out" 2>"$tap_err"
ok $? "a core's ArchStdEvent rows and its own event"
grep -q '{"CPU_CYCLES", 0x11, "pipeline", "Cycles", "Cycles"}' "$tap_out" &&
	grep -q '{"INST_RETIRED", 0x8, "pipeline", "own words", "own words"}' "$tap_out" &&
	grep -q '{"IMP_X", 0x1234, "pipeline", "b", "b"}' "$tap_out"
ok $? "the standard fields, overridden by the row's own keys, names case-insensitive"
grep -q 'UINT64_C(0x00000000410fd0c0), core0_events, 3}' "$tap_out"
ok $? "the core's MIDR and its three events"

reject() { # description, expected message part
	run_fails_with "$1" "$2" "$gen" "$dir/t"
}
tree "$(std CPU_CYCLES 0x11)" '{"ArchStdEvent":"NO_SUCH"}'
reject "an unknown ArchStdEvent" "ArchStdEvent 'NO_SUCH' is no standard event"
tree "$(std CPU_CYCLES 0x11)" "$(std BIG 0x10000)"
reject "an event number above 16 bits" "above 0xFFFF"
tree "$(std CPU_CYCLES 0x11)" '{"ArchStdEvent":"CPU_CYCLES"},'"$(std cpu_cycles 0x99)"
reject "a name twice in one core" "event 'cpu_cycles' twice"
tree "$(std CPU_CYCLES 0x11)" '{"ArchStdEvent":"CPU_CYCLES"},'"$(std OTHER 0x11)"
reject "a number twice in one core" "both have number 0x11"
tree "$(std CPU_CYCLES 0x11)" '{"EventName":"X","BriefDescription":"b"}'
reject "an event without a number" "has no EventCode"
tree "$(std CPU_CYCLES 0x11)" '{"EventName":"X","EventCode":"17","BriefDescription":"b"}'
reject "a number that is not 0x hex" "not a 0x hex number"
tree "$(std CPU_CYCLES 0x11)" '{"EventName":"X","EventCode":"0x1"}'
reject "an event without a description" "has no BriefDescription"
tree "$(std CPU_CYCLES 0x11)" '{'
reject "a file that is not JSON" "pipeline.json: line"
tree "$(std CPU_CYCLES 0x11)" '{"ArchStdEvent":"CPU_CYCLES"}'
printf '0x00000000410fd400,v1,arm/missing,core\n' >>"$dir/t/mapfile.csv"
reject "a mapfile row without its directory" "cannot open directory"
done_testing

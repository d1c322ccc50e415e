#!/bin/sh
# The table generator is the build-time validator: it must refuse tables it
# cannot trust, naming the file and the problem, and accept the real ones.
. "$top_srcdir/tests/lib.sh"
# the generator with a table's name and commit, as src/kmh/local.mk runs it
gen() {
	"$top_builddir/src/kmh/gen/kmh-jevents" --table kmh_table_test kunminghu-test 0 "$@"
}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
ev="$top_srcdir/events/riscv/openxiangshan/kunminghu"

run_ok "the shipped tables generate" gen "$ev/frontend.json" "$ev/backend.json" "$ev/memblock.json" "$ev/cache.json"
ev3="$top_srcdir/events/riscv/openxiangshan/kunminghu-v3"
run_ok "the shipped kunminghu-v3 tables generate" gen "$ev3/frontend.json" "$ev3/backend.json" "$ev3/memblock.json" "$ev3/cache.json"

row() { # name code counter
	printf '{"EventName":"%s","EventCode":"%s","BriefDescription":"b","PublicDescription":"d","Counter":"%s"}' "$1" "$2" "$3"
}
reject() { # description, expected message part, json body
	printf '[%s]' "$3" > "$dir/frontend.json"
	run_fails_with "$1" "$2" gen "$dir/frontend.json"
}
c=3,4,5,6,7,8,9,10
reject "not JSON" "line" "{"
reject "index 0 must be noEvent" "noEvent" "$(row a 0x0 $c)"
reject "duplicate codes" "share one EventCode" "$(row noEvent 0x0 $c),$(row a 0x1 $c),$(row b 0x1 $c)"
reject "gap in indices" "dense" "$(row noEvent 0x0 $c),$(row a 0x2 $c)"
reject "index wider than 10 bits" "10-bit" "$(row noEvent 0x0 $c),$(row a 0x400 $c)"
reject "empty description" "BriefDescription" "$(row noEvent 0x0 $c),"'{"EventName":"a","EventCode":"0x1","BriefDescription":"","PublicDescription":"d","Counter":"3"}'
reject "missing Counter" "Counter" "$(row noEvent 0x0 $c),"'{"EventName":"a","EventCode":"0x1","BriefDescription":"b","PublicDescription":"d"}'
reject "counter outside 3-31" "Counter" "$(row noEvent 0x0 2,3)"
reject "counters not one range" "range" "$(row noEvent 0x0 3,5)"
reject "rows disagree on counters" "Counter range" "$(row noEvent 0x0 $c),$(row a 0x1 11,12)"
reject "alias code not the ADD" "ADD" "$(row noEvent 0x0 $c),$(row x.0 0x1 $c),$(row x.1 0x2 $c),$(row x 0x801 $c)"
reject "instances out of order" "out of order" "$(row noEvent 0x0 $c),$(row x.1 0x1 $c),$(row x.0 0x2 $c),$(row x 0x40000000801 $c)"
reject "EventCode not hex" "0x hex" "$(row noEvent 0 $c)"
printf '[%s]' "$(row noEvent 0x0 $c),$(row x.0 0x1 $c),$(row x.1 0x2 $c),$(row x 0x40000000801 $c)" > "$dir/frontend.json"
run_ok "a correct alias is accepted" gen "$dir/frontend.json"

# the project's keys: another name of a row (AliasOf, perf's Deprecated) and
# what the RTL counts (RtlCounts)
xrow() { # name code extra-keys
	printf '{"EventName":"%s","EventCode":"%s","BriefDescription":"b","PublicDescription":"d",%s"Counter":"%s"}' "$1" "$2" "$3" "$c"
}
reject "AliasOf names no row" "no event of this bank" "$(row noEvent 0x0 $c),$(row a 0x1 $c),$(xrow b 0x1 '"AliasOf":"z",')"
reject "AliasOf with another code" "EventCode differs" "$(row noEvent 0x0 $c),$(row a 0x1 $c),$(row a2 0x2 $c),$(xrow b 0x2 '"AliasOf":"a",')"
reject "Deprecated without AliasOf" "Deprecated without AliasOf" "$(row noEvent 0x0 $c),$(xrow a 0x1 '"Deprecated":"1",')"
reject "a name twice" "defined twice" "$(row noEvent 0x0 $c),$(row a 0x1 $c),$(xrow a 0x1 '"AliasOf":"a",')"
reject "an unknown RtlCounts" "RtlCounts 'maybe'" "$(row noEvent 0x0 $c),$(xrow a 0x1 '"RtlCounts":"maybe",')"
reject "RtlCounts same: names no other event" "no other event" "$(row noEvent 0x0 $c),$(xrow a 0x1 '"RtlCounts":"same:a",')"
reject "RtlCounts on another name" "belongs on the row" "$(row noEvent 0x0 $c),$(row a 0x1 $c),$(xrow b 0x1 '"AliasOf":"a","RtlCounts":"zero",')"
printf '[%s]' "$(row noEvent 0x0 $c),$(row a 0x1 $c),$(xrow a_old 0x1 '"AliasOf":"a","Deprecated":"1",'),$(xrow z 0x2 '"RtlCounts":"same:a",')" > "$dir/frontend.json"
run_ok "another name and an RTL fact are accepted" gen "$dir/frontend.json"
grep -q '"a_old", "b", "d", "a", 1, true' "$tap_out"; ok $? "the old name is a deprecated name of index 1"
grep -q '"z", "b", "d", 2, KMH_BANK_FRONTEND, KMH_RTL_SAME, 1' "$tap_out"; ok $? "z reads index 1's signal"
done_testing

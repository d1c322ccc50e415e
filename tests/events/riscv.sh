#!/bin/sh
# events/riscv: the Kunminghu tables (kunminghu, kunminghu-v3) as Linux perf's
# jevents.py reads them.
# The JSON carries the project's own keys (AliasOf, RtlCounts), which
# jevents.py ignores, and perf's Deprecated; checks that Linux 6.1's
# jevents.py accepts the tree, keeps one row per JSON row, gives the
# design document's old name (icache_miss_cnt) the code of the RTL's name
# and marks it deprecated, and gives each honest _ready name its _full
# event's code. Skipped with the reason without Debian's linux-source-6.1
# or python3.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/events/jevents.sh"
ev="$top_srcdir/events/riscv"
dir=$(mktemp -d)
trap 'rm -rf "$dir"; main_shell && rm -f "$tap_out" "$tap_err"' EXIT

if linux_jevents riscv "$ev"; then
	# jevents' big string: one "NAME\000compat\000topic\000desc..." per row;
	# table.py prints "NAME EVENT DEPRECATED" for each row of the four banks
	cat >"$dir/table.py" <<'PY'
import re, sys
for line in open(sys.argv[1]):
    m = re.match(r'/\* offset=\d+ \*/ "(.*)"$', line.strip())
    if not m:
        continue
    f = m.group(1).split('\\000')
    if len(f) < 4 or f[2] not in ('frontend', 'backend', 'memblock', 'cache'):
        continue
    ev = [i for i, x in enumerate(f) if x.startswith('event=')]
    if ev:
        print(f[0], f[ev[0]], f[ev[0] + 3] or '0')
PY
	python3 "$dir/table.py" "$dir/pmu-events.c" >"$dir/rows"
	# jevents lowers names; one row per name (each bank's noEvent is one)
	# (less the rows of perf's own arch/test, which jevents.py also reads)
	python3 -c 'import json, glob, sys
print("\n".join(sorted({r["EventName"].lower() for f in glob.glob(sys.argv[1] + "/**/*.json", recursive=True) for r in json.load(open(f)) if "EventName" in r})))' \
		"$dir/arch/test" >"$dir/test-names"
	cut -d' ' -f1 "$dir/rows" | sort -u | grep -vxF -f "$dir/test-names" >"$dir/names"
	python3 -c 'import json, sys
print("\n".join(sorted({r["EventName"].lower() for f in sys.argv[1:] for r in json.load(open(f))})))' \
		"$ev"/openxiangshan/kunminghu/frontend.json "$ev"/openxiangshan/kunminghu/backend.json \
		"$ev"/openxiangshan/kunminghu/memblock.json "$ev"/openxiangshan/kunminghu/cache.json \
		"$ev"/openxiangshan/kunminghu-v3/frontend.json "$ev"/openxiangshan/kunminghu-v3/backend.json \
		"$ev"/openxiangshan/kunminghu-v3/memblock.json "$ev"/openxiangshan/kunminghu-v3/cache.json \
		>"$dir/want"
	out_is "jevents has every name of the four banks of kunminghu and kunminghu-v3 ($(wc -l <"$dir/want") names)" "" \
		sh -c "sort '$dir/want' | diff - '$dir/names' | head -3"
	row() { grep "^$1 " "$dir/rows"; }
	out_is "icache_miss_bubble is frontend 23, not deprecated" "icache_miss_bubble event=0x17 0" row icache_miss_bubble
	out_is "icache_miss_cnt has its code, deprecated for perf list" "icache_miss_cnt event=0x17 1" row icache_miss_cnt
	out_is "issuequeueldu_ready.1 has issuequeueldu_full.1's code (event=0x59)" \
		"issuequeueldu_ready.1 event=0x59 0" row issuequeueldu_ready.1
	# kunminghu-v3 renumbers (XiangShan afe3818's allPerfEvents): one row in
	# each table, v2's index 53 and v3's 51 (tests/data/*-events.tsv)
	out_is "rob_commitinstr is backend 53 in kunminghu, 51 in kunminghu-v3" \
		"$(printf 'rob_commitinstr event=0x33 0\nrob_commitinstr event=0x35 0')" \
		sh -c "grep '^rob_commitinstr ' '$dir/rows' | sort"
	out_is "dispatch_stall_cycle_iq, only kunminghu-v3's, is backend 45" \
		"dispatch_stall_cycle_iq event=0x2d 0" row dispatch_stall_cycle_iq
fi
done_testing

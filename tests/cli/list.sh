#!/bin/sh
# hpmstat list: every row of the seed TSV and of metrics.json, perf's
# category words and globs, the description options, JSON, bad options.
. "$top_srcdir/tests/lib.sh"
H=$HPMSTAT
J=$JSONCHECK
tsv="$top_srcdir/tests/data/kunminghu-events.tsv"
mjson="$top_srcdir/events/riscv/openxiangshan/kunminghu/metrics.json"
py() { python3 -c "$@"; }

$H list > "$tap_out"; ok $? "list exits 0"
# every TSV row appears as BANK:INDEX with its name (or NAME.K)
missing=$(tail -n +2 "$tsv" | while IFS="$(printf '\t')" read -r bank idx name; do
	grep -qE "^  $name(\.[0-9])? +$bank:$idx " "$tap_out" || echo "$bank:$idx:$name"
done)
[ -z "$missing" ]; ok $? "every TSV row is listed ($missing)"
grep -q '^  load_s0_in_fire  *memblock:1+10+19 ' "$tap_out"; ok $? "aliases show the indices they add"
grep -q '^cache events (mhpmcounter27-31):' "$tap_out"; ok $? "bank headers give the counters"
for b in frontend backend memblock; do
	grep -q "^$b events (mhpmcounter" "$tap_out" || echo "no $b header"
done > "$tap_err"
[ ! -s "$tap_err" ]; ok $? "every bank has its header ($(cat "$tap_err"))"
grep -qE '^  mcycle +csr:0xb00 ' "$tap_out" && grep -qE '^  minstret +csr:0xb02 ' "$tap_out"
ok $? "mcycle and minstret are listed with their CSRs"
# perf's symbolic rows, with perf's aliases (tools/perf/util/parse-events.c)
grep -qE '^  cycles OR cpu-cycles +\[Hardware event; emulator: mcycle\]$' "$tap_out" &&
	grep -qE '^  instructions +\[Hardware event; emulator: minstret\]$' "$tap_out" &&
	grep -qE '^  branches OR branch-instructions +\[Hardware event; emulator: BpInstr\]$' "$tap_out" &&
	grep -qE '^  context-switches OR cs +\[Software event\]$' "$tap_out" &&
	grep -qE '^  L1-dcache-load-misses +\[Hardware cache event\]$' "$tap_out"
ok $? "generic names as perf lists them, with what the emulator counts"
# every metric of metrics.json, with its BriefDescription under it
if command -v python3 >/dev/null 2>&1; then
	py "import json,sys
for m in json.load(open('$mjson')): print(m['MetricName'])" > "$tap_err"
	n=0; bad=""
	while read -r m; do
		n=$((n + 1)); grep -q "^  $m\$" "$tap_out" || bad="$bad $m"
	done < "$tap_err"
	[ "$n" -eq 30 ] && [ -z "$bad" ]; ok $? "all $n metrics of metrics.json are listed ($bad)"
	py "import json
g=[]
for m in json.load(open('$mjson')):
    for x in m.get('MetricGroup','').split(';'):
        if x and x not in g: g.append(x)
print(' '.join(g))" > "$tap_err"
	got=$($H list --raw-dump metricgroup)
	[ "$got" = "$(cat "$tap_err")" ]; ok $? "metricgroup lists metrics.json's groups in order ($got)"
else
	skip "python3 not installed"
	skip "python3 not installed"
fi
sed -n '/^Metrics:$/,$p' "$tap_out" | sed -n 3,4p | tr -s ' ' > "$tap_err"
printf '%s\n' ' tma_frontend_bound' ' [This category represents the fraction of slots where the frontend' |
	cmp -s - "$tap_err"; ok $? "metrics as perf lists them: name, then [description]"

# perf's category words (perf-list(1)); several add up
$H list --raw-dump sw > "$tap_out"
[ "$(wc -w < "$tap_out")" -eq 18 ] && grep -qw task-clock "$tap_out" && ! grep -qw cycles "$tap_out" &&
	grep -qw duration_time "$tap_out"
ok $? "sw: the 12 software events, their 3 aliases and perf's 3 tool events ($(wc -w < "$tap_out"))"
[ "$($H list --raw-dump hw | wc -w)" -eq 14 ]; ok $? "hw: 10 hardware events and 4 aliases"
[ "$($H list --raw-dump cache | wc -w)" -eq 32 ]; ok $? "cache: perf's 32 valid cache type-op-result names"
hw=$($H list --raw-dump hw)
[ -n "$hw" ] && [ "$($H list --raw-dump hardware)" = "$hw" ] &&
	[ "$($H list --raw-dump hwcache)" = "$($H list --raw-dump cache)" ] &&
	[ "$($H list --raw-dump metrics)" = "$($H list --raw-dump metric)" ]
ok $? "perf's long spellings: hardware, hwcache, metrics"
[ "$($H list --raw-dump metric | wc -w)" -eq 30 ]; ok $? "metric: the 30 metrics"
# the Kunminghu names, and the host's sysfs PMU events (PMU/EVENT/, as many
# as the host has: every events/ file but the NAME.unit-style companions)
n=$($H list --raw-dump pmu | tr ' ' '\n' | grep -cv /)
[ "$n" -eq 419 ]; ok $? "pmu: 367 events, 30 ADD aliases (4 of them _ready names), 20 other names (icache_miss_cnt, 19 _ready), mcycle, minstret ($n)"
k=$(ls -d /sys/bus/event_source/devices/*/events/* 2>/dev/null | grep -v /kunminghu/ |
	grep -vc '\.[^/]*$')
n=$($H list --raw-dump pmu | tr ' ' '\n' | grep -c /)
[ "$n" -eq "$k" ]; ok $? "pmu: every sysfs PMU event of this host ($n of $k)"
a=$($H list --raw-dump sw hw | wc -w); [ "$a" -eq 32 ]; ok $? "two words list both ($a)"
[ "$($H list --raw-dump tool)" = "duration_time user_time system_time" ]
ok $? "tool: perf's tool events"
# perf's own list: the same software, tool and Kernel PMU rows, name for
# name and tag for tag (perf sorts within a kind; hpmstat keeps perf's
# table order, so the rows are compared sorted)
if command -v perf >/dev/null 2>&1 && perf list --raw-dump sw > "$tap_err" 2>/dev/null; then
	perf list sw 2>/dev/null | sed 's/ *$//' | sort > "$tap_err"
	$H list --no-pager sw | sed 's/ *$//' | sort > "$tap_out"
	[ -s "$tap_err" ] && cmp -s "$tap_err" "$tap_out"
	ok $? "list sw prints perf list sw's rows, the tool events with them"
	[ $? -eq 0 ] || diag "$(diff "$tap_err" "$tap_out" | head -5)"
	perf list pmu 2>/dev/null | grep '\[Kernel PMU event\]' | sed 's/ *$//' | sort > "$tap_err"
	$H list --no-pager pmu | grep '\[Kernel PMU event\]' | sed 's/ *$//' | sort > "$tap_out"
	cmp -s "$tap_err" "$tap_out"
	ok $? "list pmu prints perf's Kernel PMU event rows ($(wc -l < "$tap_err") here)"
	[ $? -eq 0 ] || diag "$(diff "$tap_err" "$tap_out" | head -5)"
	perf list --raw-dump pmu 2>/dev/null | tr ' ' '\n' | grep . | sort > "$tap_err"
	$H list --raw-dump pmu | tr ' ' '\n' | grep / | sort > "$tap_out"
	cmp -s "$tap_err" "$tap_out"; ok $? "list --raw-dump pmu names perf's --raw-dump pmu names"
else
	for i in 1 2 3; do skip "perf not installed"; done
fi
out=$($H list tracepoint 2>"$tap_err"); rc=$?
[ $rc -eq 0 ] && [ -z "$out" ] && grep -q "counts no tracepoint events" "$tap_err"
ok $? "tracepoint: accepted, nothing listed, one line says why"

# globs: perf matches *GLOB*, every glob adds its matches
$H list --raw-dump 'ifu_req*' > "$tap_out"
n=$(tail -n +2 "$tsv" | cut -f3 | grep -ci 'ifu_req')
[ "$(wc -w < "$tap_out")" -eq "$n" ]; ok $? "a glob matches anywhere in a name, as perf's *GLOB* ($n)"
$H list 'IFU_MISS' | grep -q '^  ifu_miss '; ok $? "globs ignore case"
$H list --raw-dump 'ifu_*' 'tma_*' > "$tap_out"
i=$($H list --raw-dump 'ifu_*' | wc -w); t=$($H list --raw-dump 'tma_*' | wc -w)
[ "$(wc -w < "$tap_out")" -eq $((i + t)) ] && [ "$i" -gt 0 ] && [ "$t" -ge 15 ] &&
	! tr ' ' '\n' < "$tap_out" | grep -qiv 'ifu_\|tma_'
ok $? "several globs: each one's matches, nothing else ($i + $t)"
$H list 'tma_*' > "$tap_out"
grep -q '^Metrics:$' "$tap_out" && grep -q '^  tma_retiring$' "$tap_out" &&
	grep -q '^Metric Groups:$' "$tap_out" && grep -q '^  tma_L1_group$' "$tap_out" &&
	! grep -q 'events (mhpmcounter' "$tap_out"
ok $? "tma_*: the Topdown metrics and their groups, under perf's headers"
$H list --raw-dump TopdownL1 > "$tap_out"
[ "$(cat "$tap_out")" = "TopdownL1" ]; ok $? "a glob finds a metric group by name"
out=$($H list 'zzz*' 2>"$tap_err"); rc=$?
[ $rc -eq 0 ] && [ -z "$out" ] && [ "$(wc -l < "$tap_err")" -eq 1 ] &&
	grep -q "'zzz\*' matches no event, metric or metric group" "$tap_err"
ok $? "a glob that matches nothing: exit 0 and nothing listed, as perf; one line says so"
out=$($H list 'zzz' 'ifu_miss' 2>"$tap_err"); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q '^  ifu_miss ' && grep -q "'zzz' matches no" "$tap_err" &&
	! grep -q ifu_miss "$tap_err"
ok $? "with several globs, only the one that matched nothing is named"

# descriptions: -d (default), --no-desc, -v/--long-desc, --details
out=$($H list pmu); [ -n "$out" ] && [ "$($H list -d pmu)" = "$out" ]; ok $? "-d is the default"
$H list --no-desc ifu_miss > "$tap_out"
grep -qE '^  ifu_miss +frontend:3$' "$tap_out"; ok $? "--no-desc: name and place, no description"
$H list --no-desc tma_retiring > "$tap_out"
! grep -q '\[' "$tap_out" && grep -q '^  tma_retiring$' "$tap_out"; ok $? "--no-desc: metrics without [description]"
long=$(py "import json
for m in json.load(open('$mjson')):
    if m['MetricName']=='tma_retiring': print(m['PublicDescription'].split()[-1])" 2>/dev/null)
$H list -v tma_retiring | tr -d '\n' | grep -qF "$long]"; ok $? "-v: the long description (PublicDescription)"
out=$($H list -v tma_retiring)
[ -n "$out" ] && [ "$($H list --long-desc tma_retiring)" = "$out" ] &&
	[ "$($H list -l tma_retiring)" = "$out" ]
ok $? "--long-desc and -l are -v"
$H list --details ipc cycles mcycle load_s0_in_fire > "$tap_out"
grep -qE '^ {7}\[rob_commitInstr / cycles\]$' "$tap_out" &&
	grep -qE '^ {8}type=0,config=0x0$' "$tap_out" && grep -qE '^ {8}csr:0xb00$' "$tap_out" &&
	grep -qE '^ {8}EventCode 0x10040001302801$' "$tap_out"
ok $? "--details: MetricExpr, perf attr, CSR, EventCode"
$H list --deprecated --debug pmu > /dev/null; ok $? "--deprecated and --debug are accepted, as perf's"
out=$($H list --cputype core --raw-dump pmu 2>"$tap_err"); rc=$?
[ $rc -eq 0 ] && [ "$out" = "$($H list --raw-dump pmu)" ] && [ "$(wc -l < "$tap_err")" -eq 1 ] &&
	grep -q "not a hybrid CPU" "$tap_err"
ok $? "--cputype: accepted, one line says this CPU is not hybrid"

# --bank
$H list --bank cache > "$tap_out"
[ "$(grep -c '^  ' "$tap_out")" -eq 69 ] && ! grep -q frontend "$tap_out"; ok $? "--bank cache lists the 69 cache events only"

# --json: one array, valid, the same names as the text and --raw-dump
$H list --json > "$tap_out"; ok $? "--json exits 0"
n=$($J '#' < "$tap_out"); r=$($H list --raw-dump | wc -w)
a=$($J . < "$tap_out" | grep -o '"alias": *"[^"]*"' | wc -l)
[ "$n" -gt 0 ] && [ $((n + a)) -eq "$r" ]; ok $? "--json: one object per name, aliases as a key ($n + $a = $r)"
if command -v python3 >/dev/null 2>&1; then
	python3 -m json.tool < "$tap_out" > /dev/null; ok $? "--json parses with python's json"
	py "import json,sys
a=json.load(sys.stdin)
need={'name','kind','description','long_description','encoding'}
bad=[o['name'] for o in a if not need <= set(o)]
kinds=sorted(set(o['kind'] for o in a))
print(len(bad), ' '.join(kinds))" < "$tap_out" > "$tap_err"
	# kernel-pmu where this host's sysfs PMUs have events/
	kinds=$(sed 's/ kernel-pmu / /' "$tap_err")
	[ "$kinds" = "0 cache fixed hardware kunminghu libpfm4 metric metricgroup software tool" ] ||
		[ "$kinds" = "0 cache fixed hardware kunminghu metric metricgroup software tool" ]
	ok $? "every object has name, kind, description, long_description, encoding ($(cat "$tap_err"))"
else
	skip "python3 not installed"
	skip "python3 not installed"
fi
$H list --json ifu_miss > "$tap_out"
v=$($J 0.name 0.kind 0.bank 0.index 0.counters.# 0.encoding < "$tap_out" | tr '\n' '|')
[ "$v" = "ifu_miss|kunminghu|frontend|3|8|0x3|" ]; ok $? "--json Kunminghu objects carry bank, index, counters ($v)"
$H list --json --bank memblock load_s0_in_fire > "$tap_out"
v=$($J 3.name 3.alias_of 3.indices 3.encoding < "$tap_out" | tr '\n' ' ')
[ "$v" = "load_s0_in_fire add [1,10,19] 0x10040001302801 " ]; ok $? "--json aliases say what they combine ($v)"
$H list --json cycles > "$tap_out"
v=$($J 0.kind 0.alias 0.emulator 0.encoding < "$tap_out" | tr '\n' ' ')
[ "$v" = "hardware cpu-cycles mcycle type=0,config=0x0 " ]; ok $? "--json generic names: alias, what the emulator counts, attr ($v)"
$H list --json TopdownL1 > "$tap_out"
v=$($J 0.kind 0.metrics < "$tap_out" | tr '\n' ' ')
[ "$v" = 'metricgroup ["tma_frontend_bound","tma_bad_speculation","tma_backend_bound","tma_retiring"] ' ]
ok $? "--json metric groups list their metrics ($v)"
$H list --json ipc > "$tap_out"
v=$($J 0.kind 0.groups 0.encoding < "$tap_out" | tr '\n' ' ')
[ "$v" = 'metric ["General"] rob_commitInstr / cycles ' ]; ok $? "--json metrics: groups and MetricExpr ($v)"
out=$($H list --json zzz 2>/dev/null); [ "$out" = "[]" ]; ok $? "--json with no match is an empty array"
# a metric with formula variants (stat --topdown-variant): each formula,
# labelled, as metrics.json's MetricExpr and MetricVariants give them
k=0
while [ "$($J $k.MetricName < "$mjson")" != tma_bad_speculation ] && [ $k -lt 100 ]; do k=$((k + 1)); done
doc=$($J $k.MetricExpr < "$mjson") slots=$($J $k.MetricVariants.1.MetricExpr < "$mjson")
$H list --details tma_bad_speculation > "$tap_out"
grep -qxF "       [document (default): $doc]" "$tap_out" && grep -qxF "       [slots: $slots]" "$tap_out"
ok $? "--details: both formulas of Bad Speculation, labelled ($slots)"
$H list --details tma_backend_bound tma_machine_clears ipc > "$tap_out"
[ "$(grep -c 'note: its value follows the formula --topdown-variant chooses for tma_bad_speculation' "$tap_out")" -eq 2 ]
ok $? "--details: Backend Bound and Machine Clears say they follow Bad Speculation's variant, ipc not"
$H list --json tma_bad_speculation > "$tap_out"
v=$($J 0.variants.0.name 0.variants.0.default 0.variants.0.expr 0.variants.1.name 0.variants.1.default 0.variants.1.expr < "$tap_out" | tr '\n' '|')
[ "$v" = "document|true|$doc|slots|false|$slots|" ]; ok $? "--json: variants, the default first, with their formulas ($v)"
$H list --json tma_branch_mispredicts ipc > "$tap_out"
v=$($J 0.variant_follows 0.variants 1.variant_follows < "$tap_out" | tr '\n' ' ')
[ "$v" = "tma_bad_speculation (missing) (missing) " ]; ok $? "--json: variant_follows names the metric whose variant a value follows ($v)"

# sysfs PMU events from a sysfs of two PMUs (HPMSTAT_SYSFS): PMUs and
# events in name order, every events/ file stat takes as PMU/EVENT/, not
# its .unit/.scale companions, not one with a term the PMU has no format
# for, not Kunminghu's own PMU
fake=$(mktemp -d)
mkpmu() { # NAME TYPE EVENT=TERMS...
	d=$fake/bus/event_source/devices/$1; mkdir -p "$d/format" "$d/events"
	echo "$2" > "$d/type"; echo config:0-7 > "$d/format/event"; echo config:8-15 > "$d/format/umask"
	shift 2
	for e in "$@"; do echo "${e#*=}" > "$d/events/${e%%=*}"; done
}
mkpmu zeta 43 ev_c=event=0x3
mkpmu alpha 42 ev_b=event=0x2,umask=0x1 ev_a=event=0x1 ev_a.unit=Joules ev_a.scale=2.3e-10 bad=frob=1
mkpmu kunminghu 44 x=event=0x1
v=$(HPMSTAT_SYSFS=$fake $H list --raw-dump pmu | tr ' ' '\n' | grep / | tr '\n' ' ')
[ "$v" = "alpha/ev_a/ alpha/ev_b/ zeta/ev_c/ " ]; ok $? "sysfs PMU events as perf names them, in name order ($v)"
HPMSTAT_SYSFS=$fake $H list --no-pager ev_ > "$tap_out"
printf '  %-50s [Kernel PMU event]\n' alpha/ev_a/ alpha/ev_b/ zeta/ev_c/ | cmp -s - "$tap_out"
ok $? "their rows carry perf's [Kernel PMU event] tag; a glob finds them"
HPMSTAT_SYSFS=$fake $H list --json ev_b > "$tap_out"
v=$($J 0.name 0.kind 0.pmu 0.encoding < "$tap_out" | tr '\n' ' ')
[ "$v" = "alpha/ev_b/ kernel-pmu alpha event=0x2,umask=0x1 (type=42,config=0x102) " ]
ok $? "--json: kind kernel-pmu, the PMU, the terms and the attr they make ($v)"
HPMSTAT_SYSFS=$fake $H stat --backend perf --dry-run -e alpha/ev_a/,alpha/ev_b/,zeta/ev_c/ > "$tap_out" 2>&1
grep -q 'type=42 config=0x102 ' "$tap_out"; ok $? "stat takes each listed name (the same attr)"
rm -rf "$fake"

# -M help lists what -M takes, and exits 0
$H stat -M help > "$tap_out" 2>"$tap_err"; rc=$?
[ $rc -eq 0 ] && [ "$(cat "$tap_out")" = "$($H list metric metricgroup)" ] && [ ! -s "$tap_err" ]
ok $? "stat -M help prints list metric metricgroup and exits 0"

# bad input names the argument
run_fails_with "unknown bank" "unknown bank 'l3'" $H list --bank l3
run_fails_with "--bank without a value" "option '--bank' needs a value" $H list --bank
run_fails_with "-b without a value" "option '-b' needs a value" $H list -b
run_fails_with "-zz names -z, not the command" "unknown option '-z'" $H list -zz
run_fails_with "-dz names -z" "unknown option '-z'" $H list -dz
run_fails_with "an unknown long option is named" "unknown option '--frob'" $H list --frob
$H list -zz 2>/dev/null; [ $? -eq 129 ]; ok $? "an unknown option is a usage error (exit 129)"
run_fails_with "--json and --raw-dump" "exclude each other" $H list --json --raw-dump
# options and operands mix as getopt's; -- ends the options
[ "$($H list ifu_miss --no-desc)" = "$($H list --no-desc ifu_miss)" ] &&
	$H list ifu_miss --no-desc | grep -qE '^  ifu_miss +frontend:3$'
ok $? "an option after a GLOB still counts"
out=$($H list --raw-dump -- -v 2>"$tap_err"); rc=$?
[ $rc -eq 0 ] && [ -z "$out" ] && grep -q "'-v' matches no" "$tap_err"; ok $? "after --, -v is a GLOB"
done_testing

#!/bin/sh
# hpmstat stat --dry-run on Arm hosts presented through fake sysfs/procfs
# trees: a Neoverse V2 on a Linux 6.1-like arm_pmuv3 (no threshold terms),
# the same core on a 6.8-like one (threshold terms, caps/threshold_max), a
# big.LITTLE-like host with three core PMUs, and an Arm core of no model.
# The attrs are checked against values worked out from the format strings;
# every refusal is one line and a non-zero exit.
. "$top_srcdir/tests/lib.sh"
H=$HPMSTAT
scratch_dir

# pmu ROOT NAME TYPE CPUS [THRESHOLD_MAX]: a core PMU as arm_pmuv3 makes it
# (6.1's format/ and caps/ files; with THRESHOLD_MAX also 6.8's)
pmu() {
	d="$1/sys/bus/event_source/devices/$2"
	mkdir -p "$d/format" "$d/caps"
	echo "$3" >"$d/type"
	echo "$4" >"$d/cpus"
	echo config:0-15 >"$d/format/event"
	echo config1:0 >"$d/format/long"
	echo config1:1 >"$d/format/rdpmc"
	echo 0x00000008 >"$d/caps/slots"
	if [ -n "${5:-}" ]; then
		echo config1:2 >"$d/format/threshold_count"
		echo config1:3-4 >"$d/format/threshold_compare"
		echo config1:5-16 >"$d/format/threshold"
		echo "$5" >"$d/caps/threshold_max"
	fi
}
# midr ROOT CPU VALUE
midr() {
	mkdir -p "$1/sys/devices/system/cpu/cpu$2/regs/identification"
	echo "$3" >"$1/sys/devices/system/cpu/cpu$2/regs/identification/midr_el1"
}
# host ROOT RELEASE: the procfs part
host() {
	mkdir -p "$1/proc/sys/kernel"
	echo "$2" >"$1/proc/sys/kernel/osrelease"
	printf 'processor\t: 0\nBogoMIPS\t: 2000.00\nCPU implementer\t: 0x41\n' >"$1/proc/cpuinfo"
}
on() { r=$1; shift; HPMSTAT_SYSFS="$r/sys" HPMSTAT_PROCFS="$r/proc" $H "$@"; }
# attr ROOT EVENT [OPTS...]: the attr fields of EVENT's --dry-run line
attr() {
	r=$1; e=$2; shift 2
	on "$r" stat --dry-run "$@" -e "$e" -- true 2>&1 | sed -n "s/^.*: perf_event_attr //p"
}

# Neoverse V2 is MIDR part 0xD4F (implementer 0x41, architecture 0xF)
V2=0x00000000410fd4f1
v61="$dir/v61"; host "$v61" 6.1.0-27-arm64; pmu "$v61" armv8_pmuv3_0 8 0-1
midr "$v61" 0 $V2; midr "$v61" 1 $V2
v68="$dir/v68"; host "$v68" 6.8.0-31-generic; pmu "$v68" armv8_pmuv3_0 8 0-1 0x000000ff
midr "$v68" 0 $V2; midr "$v68" 1 $V2

# Events: INST_RETIRED 0x08, STALL_SLOT 0x3F (the Arm ARM); format/event
# config:0-15 puts them in config as they are. perf's :u sets exclude_kernel
# and exclude_hv; perf sets exclude_guest on every event it opens unless it
# runs as perf kvm (event_attr_init), and arm64 KVM reads it.
out_is "6.1 host found by MIDR: inst_retired:u" \
	"type=8 config=0x8 config1=0x0 config2=0x0 exclude_user=0 exclude_kernel=1 exclude_hv=1 exclude_host=0 exclude_guest=1" \
	attr "$v61" inst_retired:u
out_is "--pmu neoverse-v2 names the same PMU" \
	"type=8 config=0x8 config1=0x0 config2=0x0 exclude_user=0 exclude_kernel=1 exclude_hv=1 exclude_host=0 exclude_guest=1" \
	attr "$v61" inst_retired:u --pmu neoverse-v2
# 6.8: config1 = TH << 5 (threshold config1:5-16) | TC[2:1] << 3
# (threshold_compare config1:3-4; >= is 2) | TC[0] << 2 (threshold_count
# config1:2). th>=2: 0x40 | 0x10 = 0x50; with count: | 0x4 = 0x54.
out_is "6.8: stall_slot:th>=2 -> config1 0x50" \
	"type=8 config=0x3f config1=0x50 config2=0x0 exclude_user=0 exclude_kernel=0 exclude_hv=0 exclude_host=0 exclude_guest=1" \
	attr "$v68" 'stall_slot:th>=2'
out_is "6.8: stall_slot:th>=2:count -> config1 0x54" \
	"type=8 config=0x3f config1=0x54 config2=0x0 exclude_user=0 exclude_kernel=0 exclude_hv=0 exclude_host=0 exclude_guest=1" \
	attr "$v68" 'stall_slot:th>=2:count'
# the same event in perf's own PMU/terms/ spelling, built by the generic
# host-PMU path (no Arm code) from the same format files: the same attr
a=$(attr "$v68" 'stall_slot:th>=2:count')
b=$(attr "$v68" 'armv8_pmuv3_0/event=0x3f,threshold=2,threshold_compare=2,threshold_count=1/')
[ -n "$a" ] && [ "$a" = "$b" ]
ok $? "6.8: stall_slot:th>=2:count = armv8_pmuv3_0/event=0x3f,threshold=2,threshold_compare=2,threshold_count=1/ ($a | $b)"
# an Arm event with perf's terms after its name (no PMU of that name): the
# model's, so the same attr again, and a refusal with the model's reason
b=$(attr "$v68" 'stall_slot/threshold=2,threshold_compare=2,threshold_count=1/')
[ -n "$a" ] && [ "$a" = "$b" ]
ok $? "6.8: stall_slot/threshold=2,threshold_compare=2,threshold_count=1/ is the model's event: the same attr ($b)"
run_fails_with "6.8: stall_slot/threshold=300/ is refused by caps/threshold_max, not as 'no PMU stall_slot'" \
	"threshold" on "$v68" stat --dry-run -e 'stall_slot/threshold=300/' -- true
on "$v68" stat --dry-run -e 'stall_slot/threshold=300/' -- true 2>&1 | grep -q "no PMU\|Cannot find PMU"
ok $((!$?)) "... and the message does not say 'no PMU'"
# perf's own term names: 7 << 5 | 3 << 3 (<) = 0xe0 | 0x18 = 0xf8
out_is "6.8: perf's threshold terms -> config1 0xf8" \
	"type=8 config=0x3f config1=0xf8 config2=0x0 exclude_user=0 exclude_kernel=1 exclude_hv=1 exclude_host=0 exclude_guest=1" \
	attr "$v68" 'stall_slot:threshold=7:threshold_compare=3:u'

run_fails_with "6.1: a threshold is refused, naming Linux 6.8" \
	"no threshold format terms in armv8_pmuv3_0/format: Linux 6.8 added" \
	on "$v61" stat --dry-run -e 'stall_slot:th>=2' -- true
run_fails_with "6.8: a threshold above caps/threshold_max is refused" \
	"above this PMU's caps/threshold_max (255" \
	on "$v68" stat --dry-run -e 'stall_slot:th>=256' -- true
run_fails_with "an edge (TE) is refused: Neoverse V2 has no FEAT_PMUv3_EDGE (and arm_pmuv3 never programs it)" \
	"'br_mis_pred:edge=rise:th>=5': Neoverse V2 has no FEAT_PMUv3_EDGE: TE is RES0 there" \
	on "$v68" stat --dry-run -e 'br_mis_pred:edge=rise:th>=5' -- true
run_fails_with "MT and NSK: one message naming both" \
	"sets MT, NSK, which Linux's arm_pmuv3 driver never programs" \
	on "$v68" stat --dry-run -e 'inst_retired:nsk:mt' -- true
# another Neoverse than the host's is counted on the Arm emulator (issue
# 14), its figures labelled; asked of perf, the refusal says what the
# host's core is
run_fails_with "--pmu of another Neoverse on perf: says what the host's core is" \
	"--pmu neoverse-n1 --backend perf: this host has no Neoverse N1 PMU; this host's core is Neoverse V2" \
	on "$v68" stat --pmu neoverse-n1 --backend perf -e inst_retired -- true
on "$v68" stat --pmu neoverse-n1 -e inst_retired -- true >"$dir/n1.out" 2>&1 &&
	grep -q "^ Neoverse N1 figures marked \[emu\] are emulated; they do not measure 'true'" "$dir/n1.out" &&
	grep -q ' inst_retired  *\[emu\]$' "$dir/n1.out"
ok $? "... and without --backend it is counted on the emulator, every figure labelled"
on "$v68" stat --dry-run --pmu neoverse-n1 -e inst_retired -- true 2>&1 |
	grep -q "^inst_retired: hart0 msr PMEVTYPER0_EL0, 0x0000000008000008 (group 0)$"
ok $? "... and its dry run shows the emulator programmed as a kernel would (msr PMEVTYPER0_EL0)"
on "$v61" stat --dry-run -d -- true >"$dir/d.out" 2>&1
[ $? -eq 0 ] && grep -q '^LL_CACHE_MISS_RD: perf_event_attr type=8 config=0x37 ' "$dir/d.out"
ok $? "-d on a 6.1 Neoverse V2 host: the Arm events of -d (LL_CACHE_MISS_RD is 0x37)"

# big.LITTLE-like: Cortex-A55 (no model) on CPUs 0-1, Neoverse N1 on 2-3,
# Neoverse V2 on 4-5, one core PMU each
bl="$dir/bl"; host "$bl" 6.8.0-31-generic
pmu "$bl" armv8_cortex_a55 8 0-1; pmu "$bl" armv8_neoverse_n1 9 2-3
pmu "$bl" armv9_neoverse_v2 10 4-5 0x0000000f
midr "$bl" 0 0x00000000412fd050; midr "$bl" 1 0x00000000412fd050
midr "$bl" 2 0x00000000413fd0c1; midr "$bl" 3 0x00000000413fd0c1
midr "$bl" 4 $V2; midr "$bl" 5 $V2
out_is "big.LITTLE: the first core PMU of a model's core (N1, type 9)" \
	"type=9 config=0x8 config1=0x0 config2=0x0 exclude_user=0 exclude_kernel=0 exclude_hv=0 exclude_host=0 exclude_guest=1" \
	attr "$bl" inst_retired
# th<15: 15 << 5 | 3 << 3 = 0x1e0 | 0x18 = 0x1f8
out_is "big.LITTLE: --pmu neoverse-v2 takes armv9_neoverse_v2 (type 10) and its threshold terms" \
	"type=10 config=0x3f config1=0x1f8 config2=0x0 exclude_user=0 exclude_kernel=0 exclude_hv=0 exclude_host=0 exclude_guest=1" \
	attr "$bl" 'stall_slot:th<15' --pmu neoverse-v2
run_fails_with "big.LITTLE: V2's caps/threshold_max is its own (15)" \
	"caps/threshold_max (15" \
	on "$bl" stat --dry-run --pmu neoverse-v2 -e 'stall_slot:th<16' -- true

# an Arm core of no model (Cortex-A55, part 0xD05)
a55="$dir/a55"; host "$a55" 6.1.0-27-arm64; pmu "$a55" armv8_pmuv3_0 8 0-1
midr "$a55" 0 0x00000000412fd050; midr "$a55" 1 0x00000000412fd050
run_fails_with "unknown MIDR: --pmu on perf says the core is no model's" \
	"MIDR 0x00000000412fd050 (armv8_pmuv3_0, CPUs 0-1) is a core of no PMU model hpmstat knows" \
	on "$a55" stat --pmu neoverse-v2 --backend perf -e inst_retired -- true
run_fails_with "unknown MIDR: an Arm name is unknown, and the message says why" \
	"on this host, MIDR 0x00000000412fd050" \
	on "$a55" stat --dry-run -e inst_retired -- true
done_testing

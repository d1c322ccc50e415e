#!/bin/sh
# events/arm64: Arm PMUv3 event and Topdown data in Linux perf's pmu-events
# layout. Checks (a) that Linux 6.1's own jevents.py accepts the tree and
# emits a table for every core of mapfile.csv, (b) the event files: valid
# JSON, the numbers of the shared files equal the Arm ARM's (the golden list
# below, typed from the Arm ARM independently of the data), no duplicate
# event in a core, every ArchStdEvent names an event of a shared file, and
# (c) every core's metrics.json passes our own metric generator with only
# that core's events, and (d) each core's list against facts of Arm's own
# event data.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/events/jevents.sh"
arm="$top_srcdir/events/arm64"
gen="$top_builddir/src/gen/metrics2c"
dir=$(mktemp -d)
trap 'rm -rf "$dir"; main_shell && rm -f "$tap_out" "$tap_err"' EXIT

# The cores: mapfile rows that are not comments.
grep -v '^#' "$arm/mapfile.csv" >"$dir/map"
cores=$(cut -d, -f3 "$dir/map")
out_is "mapfile.csv keys N1, V1, N2 and V2 by MIDR as perf does" \
	"0x00000000410fd0c0,v1,arm/neoverse-n1,core
0x00000000410fd400,v1,arm/neoverse-v1,core
0x00000000410fd490,v1,arm/neoverse-n2,core
0x00000000410fd4f0,v1,arm/neoverse-v2,core" cat "$dir/map"

# ---------------------------------------------------------------- (b) data
# Golden event numbers. Sources: Arm Architecture Reference Manual for
# A-profile (DDI 0487), D17.11 "PMU events and event numbers": the common
# architectural and microarchitectural events 0x0000-0x003F, the extended
# range 0x4000-0x40FF (FEAT_PMUv3p1 and later) and the SVE/FP common events
# of 0x8000-0x80FF; and its appendix of recommended IMPLEMENTATION DEFINED
# event numbers (0x0040-0x00FF).
cat >"$dir/golden" <<'G'
SW_INCR 0x0 L1I_CACHE_REFILL 0x1 L1I_TLB_REFILL 0x2 L1D_CACHE_REFILL 0x3
L1D_CACHE 0x4 L1D_TLB_REFILL 0x5 LD_RETIRED 0x6 ST_RETIRED 0x7 INST_RETIRED 0x8
EXC_TAKEN 0x9 EXC_RETURN 0xa CID_WRITE_RETIRED 0xb PC_WRITE_RETIRED 0xc
BR_IMMED_RETIRED 0xd BR_RETURN_RETIRED 0xe UNALIGNED_LDST_RETIRED 0xf
BR_MIS_PRED 0x10 CPU_CYCLES 0x11 BR_PRED 0x12 MEM_ACCESS 0x13 L1I_CACHE 0x14
L1D_CACHE_WB 0x15 L2D_CACHE 0x16 L2D_CACHE_REFILL 0x17 L2D_CACHE_WB 0x18
BUS_ACCESS 0x19 MEMORY_ERROR 0x1a INST_SPEC 0x1b TTBR_WRITE_RETIRED 0x1c
BUS_CYCLES 0x1d CHAIN 0x1e L1D_CACHE_ALLOCATE 0x1f L2D_CACHE_ALLOCATE 0x20
BR_RETIRED 0x21 BR_MIS_PRED_RETIRED 0x22 STALL_FRONTEND 0x23 STALL_BACKEND 0x24
L1D_TLB 0x25 L1I_TLB 0x26 L2I_CACHE 0x27 L2I_CACHE_REFILL 0x28
L3D_CACHE_ALLOCATE 0x29 L3D_CACHE_REFILL 0x2a L3D_CACHE 0x2b L3D_CACHE_WB 0x2c
L2D_TLB_REFILL 0x2d L2I_TLB_REFILL 0x2e L2D_TLB 0x2f L2I_TLB 0x30
REMOTE_ACCESS 0x31 LL_CACHE 0x32 LL_CACHE_MISS 0x33 DTLB_WALK 0x34
ITLB_WALK 0x35 LL_CACHE_RD 0x36 LL_CACHE_MISS_RD 0x37 REMOTE_ACCESS_RD 0x38
L1D_CACHE_LMISS_RD 0x39 OP_RETIRED 0x3a OP_SPEC 0x3b STALL 0x3c
STALL_SLOT_BACKEND 0x3d STALL_SLOT_FRONTEND 0x3e STALL_SLOT 0x3f
SAMPLE_POP 0x4000 SAMPLE_FEED 0x4001 SAMPLE_FILTRATE 0x4002
SAMPLE_COLLISION 0x4003 CNT_CYCLES 0x4004 STALL_BACKEND_MEM 0x4005
L1I_CACHE_LMISS 0x4006 L2D_CACHE_LMISS_RD 0x4009 L2I_CACHE_LMISS 0x400a
L3D_CACHE_LMISS_RD 0x400b TRB_WRAP 0x400c PMU_OVFS 0x400d TRB_TRIG 0x400e
PMU_HOVFS 0x400f TRCEXTOUT0 0x4010 TRCEXTOUT1 0x4011 TRCEXTOUT2 0x4012
TRCEXTOUT3 0x4013 CTI_TRIGOUT4 0x4018 CTI_TRIGOUT5 0x4019 CTI_TRIGOUT6 0x401a
CTI_TRIGOUT7 0x401b LDST_ALIGN_LAT 0x4020 LD_ALIGN_LAT 0x4021
ST_ALIGN_LAT 0x4022 MEM_ACCESS_CHECKED 0x4024 MEM_ACCESS_CHECKED_RD 0x4025
MEM_ACCESS_CHECKED_WR 0x4026
ASE_INST_SPEC 0x8005 SVE_INST_SPEC 0x8006 FP_HP_SPEC 0x8014 FP_SP_SPEC 0x8018
FP_DP_SPEC 0x801c SVE_PRED_SPEC 0x8074 SVE_PRED_EMPTY_SPEC 0x8075
SVE_PRED_FULL_SPEC 0x8076 SVE_PRED_PARTIAL_SPEC 0x8077
SVE_PRED_NOT_FULL_SPEC 0x8079 SVE_LDFF_SPEC 0x80bc SVE_LDFF_FAULT_SPEC 0x80bd
FP_SCALE_OPS_SPEC 0x80c0 FP_FIXED_OPS_SPEC 0x80c1 ASE_SVE_INT8_SPEC 0x80e3
ASE_SVE_INT16_SPEC 0x80e7 ASE_SVE_INT32_SPEC 0x80eb ASE_SVE_INT64_SPEC 0x80ef
L1D_CACHE_RD 0x40 L1D_CACHE_WR 0x41 L1D_CACHE_REFILL_RD 0x42
L1D_CACHE_REFILL_WR 0x43 L1D_CACHE_REFILL_INNER 0x44 L1D_CACHE_REFILL_OUTER 0x45
L1D_CACHE_WB_VICTIM 0x46 L1D_CACHE_WB_CLEAN 0x47 L1D_CACHE_INVAL 0x48
L1D_TLB_REFILL_RD 0x4c L1D_TLB_REFILL_WR 0x4d L1D_TLB_RD 0x4e L1D_TLB_WR 0x4f
L2D_CACHE_RD 0x50 L2D_CACHE_WR 0x51 L2D_CACHE_REFILL_RD 0x52
L2D_CACHE_REFILL_WR 0x53 L2D_CACHE_WB_VICTIM 0x56 L2D_CACHE_WB_CLEAN 0x57
L2D_CACHE_INVAL 0x58 L2D_TLB_REFILL_RD 0x5c L2D_TLB_REFILL_WR 0x5d
L2D_TLB_RD 0x5e L2D_TLB_WR 0x5f BUS_ACCESS_RD 0x60 BUS_ACCESS_WR 0x61
BUS_ACCESS_SHARED 0x62 BUS_ACCESS_NOT_SHARED 0x63 BUS_ACCESS_NORMAL 0x64
BUS_ACCESS_PERIPH 0x65 MEM_ACCESS_RD 0x66 MEM_ACCESS_WR 0x67
UNALIGNED_LD_SPEC 0x68 UNALIGNED_ST_SPEC 0x69 UNALIGNED_LDST_SPEC 0x6a
LDREX_SPEC 0x6c STREX_PASS_SPEC 0x6d STREX_FAIL_SPEC 0x6e STREX_SPEC 0x6f
LD_SPEC 0x70 ST_SPEC 0x71 LDST_SPEC 0x72 DP_SPEC 0x73 ASE_SPEC 0x74
VFP_SPEC 0x75 PC_WRITE_SPEC 0x76 CRYPTO_SPEC 0x77 BR_IMMED_SPEC 0x78
BR_RETURN_SPEC 0x79 BR_INDIRECT_SPEC 0x7a ISB_SPEC 0x7c DSB_SPEC 0x7d
DMB_SPEC 0x7e EXC_UNDEF 0x81 EXC_SVC 0x82 EXC_PABORT 0x83 EXC_DABORT 0x84
EXC_IRQ 0x86 EXC_FIQ 0x87 EXC_SMC 0x88 EXC_HVC 0x8a EXC_TRAP_PABORT 0x8b
EXC_TRAP_DABORT 0x8c EXC_TRAP_OTHER 0x8d EXC_TRAP_IRQ 0x8e EXC_TRAP_FIQ 0x8f
RC_LD_SPEC 0x90 RC_ST_SPEC 0x91 L3D_CACHE_RD 0xa0 L3D_CACHE_WR 0xa1
L3D_CACHE_REFILL_RD 0xa2 L3D_CACHE_REFILL_WR 0xa3 L3D_CACHE_WB_VICTIM 0xa6
L3D_CACHE_WB_CLEAN 0xa7 L3D_CACHE_INVAL 0xa8
G
tr -s ' \n' '\n\n' <"$dir/golden" | paste - - | sort >"$dir/golden.tsv"

# rows FILE KEY...: one line per row of a pmu-events file, the values of the
# keys separated by tabs ("(missing)" for an absent key).
rows() {
	rows_f=$1; shift
	rows_n=$("$JSONCHECK" '.#' <"$rows_f") || return 1
	rows_i=0; rows_p=
	while [ "$rows_i" -lt "$rows_n" ]; do
		for k in "$@"; do rows_p="$rows_p .$rows_i.$k"; done
		rows_i=$((rows_i + 1))
	done
	[ "$rows_n" -eq 0 ] || "$JSONCHECK" $rows_p <"$rows_f" | paste $(for k in "$@"; do printf -- '- '; done)
}

bad=
for f in $(find "$arm" -name '*.json' | sort); do
	"$JSONCHECK" <"$f" >/dev/null 2>&1 || bad="$bad ${f#$arm/}"
done
ok $([ -z "$bad" ]; echo $?) "every file under events/arm64 is valid JSON"
[ -z "$bad" ] || diag "invalid:$bad"

# the shared files: what the core files refer to with ArchStdEvent
: >"$dir/shared.tsv"
for f in "$arm"/*.json; do rows "$f" EventName EventCode >>"$dir/shared.tsv"; done
sort "$dir/shared.tsv" >"$dir/shared.sorted"
cut -f1 "$dir/shared.sorted" >"$dir/shared.names"
out_is "the shared files name each event once" "" sh -c "cut -f1 '$dir/shared.sorted' | uniq -d"
# EventCode spelling: 0x and lower-case hex without leading zeros, so that
# the comparison with the golden list is textual
out_is "every shared EventCode is 0x<hex> in 0x0-0xffff" "" \
	awk -F'\t' '$2 !~ /^0x[0-9a-f]+$/ || length($2) > 6 || $2 ~ /^0x0./ { print }' "$dir/shared.sorted"
out_is "every shared event has the Arm ARM's number (golden list)" "" \
	sh -c "comm -3 '$dir/golden.tsv' '$dir/shared.sorted'"
i=0
while [ $i -lt 64 ]; do printf '0x%x\n' $i; i=$((i + 1)); done | sort >"$dir/range"
out_is "the common range 0x0000-0x003F is complete" "" \
	sh -c "cut -f2 '$dir/shared.sorted' | sort | comm -23 '$dir/range' -"
out_is "the STALL_SLOT family (Arm ARM D17.11: STALL_SLOT 0x3F ... STALL_BACKEND 0x24)" \
	"OP_RETIRED	0x3a
OP_SPEC	0x3b
STALL	0x3c
STALL_BACKEND	0x24
STALL_FRONTEND	0x23
STALL_SLOT	0x3f
STALL_SLOT_BACKEND	0x3d
STALL_SLOT_FRONTEND	0x3e" grep -E '^(STALL|STALL_FRONTEND|STALL_BACKEND|STALL_SLOT[A-Z_]*|OP_[A-Z]*)	' "$dir/shared.sorted"
: >"$dir/brief"
for f in "$arm"/*.json; do rows "$f" EventName BriefDescription >>"$dir/brief"; done
out_is "every shared event has a BriefDescription" "" awk '/\(missing\)/' "$dir/brief"

for c in $cores; do
	n=${c#arm/}
	cdir="$arm/$c"
	: >"$dir/core.tsv"
	for f in "$cdir"/*.json; do
		[ "$(basename "$f")" = metrics.json ] && continue
		rows "$f" ArchStdEvent EventName EventCode >>"$dir/core.tsv"
	done
	# a row is either a reference to a shared event or a core event of its own
	awk -F'\t' '$1 != "(missing)" { print $1; next } { print $2 }' "$dir/core.tsv" | sort >"$dir/core.names"
	out_is "$n: no event listed twice" "" uniq -d "$dir/core.names"
	out_is "$n: every ArchStdEvent names an event of the shared files" "" sh -c \
		"awk -F'\t' '\$1 != \"(missing)\" { print \$1 }' '$dir/core.tsv' | sort | comm -23 - '$dir/shared.names'"
	out_is "$n: a core's own event has a number in range and no ArchStdEvent" "" \
		awk -F'\t' '$1 == "(missing)" && ($2 == "(missing)" || ($3 !~ /^0x[0-9a-fA-F]+$/ || length($3) > 6)) { print }' "$dir/core.tsv"
	ok $([ -s "$cdir/metrics.json" ]; echo $?) "$n: has a metrics.json"
	cp "$dir/core.names" "$dir/$n.names"
done

# ---------------------------------------------------- (d) Arm's event lists
# Facts read by hand from Arm's own per-core event data (ARM-software/data,
# pmu/neoverse-{n1,v1,n2,v2}.json, January 2025, which follow each core's
# TRM) and written here as facts, not copied: how many events Arm lists
# for the core, and the events that tell the cores apart. Arm lists CHAIN
# (0x1E) in every core; events/arm64 leaves it out (README.md: the driver
# owns it), so each core has one event fewer than Arm's count.
has() { grep -qx "$2" "$dir/$1.names"; }
for fact in neoverse-n1:110 neoverse-v1:132 neoverse-n2:155 neoverse-v2:155; do
	n=${fact%:*}
	out_is "$n: ${fact#*:} events in Arm's list, less CHAIN" "$((${fact#*:} - 1))" \
		sh -c "wc -l <'$dir/$n.names' | tr -d ' '"
	ok $(! has "$n" CHAIN; echo $?) "$n: CHAIN is not listed (the counter chaining of the driver)"
done
# Arm's N1 errata removed LDST_SPEC from the N1 TRM's event list
ok $(! has neoverse-n1 LDST_SPEC; echo $?) "neoverse-n1: no LDST_SPEC (Arm's N1 errata)"
for n in neoverse-n1 neoverse-v1 neoverse-n2 neoverse-v2; do
	miss=
	for e in SAMPLE_POP SAMPLE_FEED SAMPLE_FILTRATE SAMPLE_COLLISION; do
		has "$n" "$e" || miss="$miss $e"
	done
	out_is "$n: the SPE events SAMPLE_POP, SAMPLE_FEED, SAMPLE_FILTRATE, SAMPLE_COLLISION" "" echo $miss
done
# V1 has every N1 event and these 22 more (Armv8.4: the slot and operation
# events, SVE, the LMISS events); N2 has every V1 event and these 23 more
# (Armv9.0: SVE2 integer widths, FP precision, MTE, TRBE, CTI, alignment
# latency); V2 lists exactly N2's events.
v1_more="ASE_INST_SPEC CNT_CYCLES FP_FIXED_OPS_SPEC FP_SCALE_OPS_SPEC L1D_CACHE_LMISS_RD
L1I_CACHE_LMISS L2D_CACHE_LMISS_RD L3D_CACHE_LMISS_RD OP_RETIRED OP_SPEC STALL STALL_BACKEND_MEM
STALL_SLOT STALL_SLOT_BACKEND STALL_SLOT_FRONTEND SVE_INST_SPEC SVE_LDFF_FAULT_SPEC SVE_LDFF_SPEC
SVE_PRED_EMPTY_SPEC SVE_PRED_FULL_SPEC SVE_PRED_PARTIAL_SPEC SVE_PRED_SPEC"
n2_more="ASE_SVE_INT16_SPEC ASE_SVE_INT32_SPEC ASE_SVE_INT64_SPEC ASE_SVE_INT8_SPEC CTI_TRIGOUT4
CTI_TRIGOUT5 CTI_TRIGOUT6 CTI_TRIGOUT7 FP_DP_SPEC FP_HP_SPEC FP_SP_SPEC LDST_ALIGN_LAT LD_ALIGN_LAT
MEM_ACCESS_CHECKED MEM_ACCESS_CHECKED_RD MEM_ACCESS_CHECKED_WR ST_ALIGN_LAT SVE_PRED_NOT_FULL_SPEC
TRB_WRAP TRCEXTOUT0 TRCEXTOUT1 TRCEXTOUT2 TRCEXTOUT3"
echo $v1_more | tr ' ' '\n' | sort >"$dir/v1.more"
echo $n2_more | tr ' ' '\n' | sort >"$dir/n2.more"
out_is "neoverse-v1 lists neoverse-n1's events and Arm's 22 more" "" \
	sh -c "sort -m '$dir/neoverse-n1.names' '$dir/v1.more' | diff - '$dir/neoverse-v1.names'"
out_is "neoverse-n2 lists neoverse-v1's events and Arm's 23 more" "" \
	sh -c "sort -m '$dir/neoverse-v1.names' '$dir/n2.more' | diff - '$dir/neoverse-n2.names'"
out_is "neoverse-v2 lists exactly neoverse-n2's events" "" \
	diff "$dir/neoverse-n2.names" "$dir/neoverse-v2.names"

# ------------------------------------------------------------ (c) metrics
# Our generator validates a metrics.json against event files with EventName
# rows; a core's own view of its events is its files with each ArchStdEvent
# reference read as the name it refers to.
core_gen() { # core metrics.json [revisions]
	ev=
	mkdir -p "$dir/ev/$1"
	for f in "$arm/$1"/*.json; do
		[ "$(basename "$f")" = metrics.json ] && continue
		sed 's/"ArchStdEvent"/"EventName"/' "$f" >"$dir/ev/$1/$(basename "$f")"
		ev="$ev --events $dir/ev/$1/$(basename "$f")"
	done
	"$gen" --table t --retired INST_RETIRED $ev ${3:+--revisions "$3"} "$2"
}
for c in $cores; do
	n=${c#arm/}
	# each revision set of a core whose entries name one ("Revisions")
	revs=$(sed -n 's/.*"Revisions": "\([^"]*\)".*/\1/p' "$arm/$c/metrics.json" | sort -u)
	for r in ${revs:-""}; do
		run_ok "$n${r:+ $r}: metrics.json parses with our engine and names only $n's events" \
			core_gen "$c" "$arm/$c/metrics.json" "$r"
	done
	# Arm's first stage under Arm's and Linux's names: N1's cycle
	# accounting, the others' four slot shares (N2's once per revision
	# set, each entry with its "Revisions")
	want="backend_bound
bad_speculation
frontend_bound
retiring"
	[ "$n" = neoverse-n1 ] && want="backend_stalled_cycles
frontend_stalled_cycles"
	out_is "$n: level 1 Topdown is Arm's $(echo $want | tr ' ' ,)" "$want" \
		sh -c "grep -B4 '\"TopdownL1;tma_L1_group' '$arm/$c/metrics.json' | sed -n 's/.*\"MetricName\": \"\\([a-z_]*\\)\".*/\\1/p' | sort -u"
done
# the check bites: N1 has no STALL_SLOT events, so the slot-based formula
# other cores use must be refused for it
sed 's/STALL_FRONTEND \/ CPU_CYCLES/STALL_SLOT_FRONTEND \/ (4 * CPU_CYCLES)/' \
	"$arm/arm/neoverse-n1/metrics.json" >"$dir/n1-slots.json"
run_fails_with "an event the core lacks is refused (N1 and STALL_SLOT_FRONTEND)" "'STALL_SLOT_FRONTEND'" \
	core_gen arm/neoverse-n1 "$dir/n1-slots.json"

# ------------------------------------------------------- (a) Linux jevents
if linux_jevents arm64 "$arm"; then
	for c in $cores; do
		midr=$(grep ",$c," "$dir/map" | cut -d, -f1)
		tbl=pme_$(echo "$c" | tr '/-' '__')
		# the table's rows: every event and metric of the core's files
		want=0
		for f in "$arm/$c"/*.json; do want=$((want + $("$JSONCHECK" '.#' <"$f"))); done
		got=$(sed -n "/^static const struct compact_pmu_event $tbl\\[\\] = {/,/^};/p" "$dir/pmu-events.c" | grep -c '^{ ')
		has=$(grep -c "\.cpuid = \"$midr\"" "$dir/pmu-events.c")
		out_is "jevents: $c has its MIDR $midr and a table of all $want rows" "1 $want" echo "$has $got"
	done
	# an ArchStdEvent that jevents resolved carries the shared event's code
	out_is "jevents resolves ArchStdEvent STALL_SLOT to event=0x3f" "" sh -c \
		"grep -q 'stall_slot.000.000pipeline.000[^\"]*event=0x3f' '$dir/pmu-events.c' || echo missing"
fi
done_testing

#!/bin/sh
# hpmstat emu --arch arm64: scripts whose expectations are worked out by
# hand from SPEC §5 and the Arm ARM (each derivation in the comment above
# its script); `expect REG VALUE` reads the register at the script's EL
# and stops the script with exit 1 on a difference, `expect TEXT` checks
# the previous output line.
. "$top_srcdir/tests/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$tap_out" "$tap_err"' EXIT

# arm DESC [OPTIONS...] <<SCRIPT: the script runs to its end, exit 0
arm() {
	d=$1; shift
	cat >"$tmp/s"
	"$HPMSTAT" emu --arch arm64 "$@" "$tmp/s" >"$tap_out" 2>"$tap_err"
	st=$?
	ok $st "$d"
	[ $st -eq 0 ] || diag "$(cat "$tap_out" "$tap_err")"
}

run_ok "emu --arch arm64 --help exits 0" "$HPMSTAT" emu --arch arm64 --help
grep -q 'emu --arch arm64 \[--pmu MODEL\]' "$tap_out"; ok $? "the usage names the Arm machine"

# Threshold (TE=0), Neoverse V2 (THWIDTH 12). PMEVTYPER0: STALL_SLOT 0x3F,
# TC 0b100 (VB >= TH, add VB) << 61, TH 3 << 32: 0x800000030000003f;
# PMEVTYPER1 the same with TC 0b101 (add 1): 0xa00000030000003f. P, U,
# NSK, NSU 0: EL1 and EL0 in Non-secure state counted. Cycles: 10 x VB 5,
# 5 x VB 2, 4 x VB 3: counter 0 = 10 x 5 + 0 + 4 x 3 = 62; counter 1 =
# 10 + 0 + 4 = 14; the cycle counter (PMCCFILTR 0: EL0 and EL1) 19.
arm "threshold: TC 0b100 adds VB >= TH (62), TC 0b101 counts cycles (14)" --pmu neoverse-v2 <<'S'
el 1
msr PMEVTYPER0_EL0 0x800000030000003f
msr PMEVTYPER1_EL0 0xa00000030000003f
msr PMCNTENSET_EL0 0x80000003
msr PMCR_EL0 1
feed 10 STALL_SLOT=5
feed 5 STALL_SLOT=2
feed 4 STALL_SLOT=3
expect PMEVCNTR0_EL0 62
expect PMEVCNTR1_EL0 14
expect PMCCNTR_EL0 19
mrs PMEVCNTR0_EL0
expect 0x000000000000003e
S

# Edges (TE=1, "future": FEAT_PMUv3_EDGE), TH 3, STALL_SLOT.
# PMEVTYPER0: TC 0b101 (Ct = VB >= TH, its rising edge), TE << 60:
# 0xb00000030000003f. PMEVTYPER1: TC 0b110 (Ct = VB < TH, both edges):
# 0xd00000030000003f. VB per cycle: 5 5 5 1 1 4 0 0 6, then 0, a rewrite
# of PMEVTYPER0, 5 0 5.
# Counter 0, Ct = VB >= 3: T T T F F T F F T | F | T F T. The first cycle
# after the counter is enabled is no edge (SPEC §5's first-cycle rule), nor
# the first after PMEVTYPER0 is written: rising edges at cycles 6 and 9,
# then (after the write, whose next cycle is T but first) the last cycle:
# 3. Without the rule it would be 5 (cycle 1 and the cycle after the
# write too).
# Counter 1, Ct = VB < 3: F F F T T F T T F | T | F T F, never rewritten:
# changes at cycles 4, 6, 7, 9, 10, 11, 12, 13: 8.
arm "edges: rising edge with the first-cycle rule after enable and after a PMEVTYPER write (3), both edges (8)" --pmu future <<'S'
msr PMEVTYPER0_EL0 0xb00000030000003f
msr PMEVTYPER1_EL0 0xd00000030000003f
msr PMCNTENSET_EL0 3
msr PMCR_EL0 1
feed 3 STALL_SLOT=5
feed 2 STALL_SLOT=1
feed 1 STALL_SLOT=4
feed 2 STALL_SLOT=0
feed 1 STALL_SLOT=6
expect PMEVCNTR0_EL0 2
expect PMEVCNTR1_EL0 4
feed 1 STALL_SLOT=0
msr PMEVTYPER0_EL0 0xb00000030000003f
feed 1 STALL_SLOT=5
feed 1 STALL_SLOT=0
feed 1 STALL_SLOT=5
expect PMEVCNTR0_EL0 3
expect PMEVCNTR1_EL0 8
S

# Threshold linking (TLC, FEAT_PMUv3_TH2, "future"). Counter 0: STALL_SLOT
# 0x3F, no threshold: Vm = its VB. Counter 1 (odd): OP_SPEC 0x3B, TC 0b100
# (Ct = VB >= 4), TH 4, TLC 0b01 << 54 (TC[0]:TLC = 0:01, Ct ? VB : Vm):
# 0x804000040000003b. 10 cycles of OP_SPEC 6, STALL_SLOT 2: Ct, 10 x 6 =
# 60; 5 cycles of OP_SPEC 2, STALL_SLOT 6: not Ct, 5 x Vm 6 = 30. Counter 1
# = 90, counter 0 = 10 x 2 + 5 x 6 = 50.
arm "linking: TLC 0b01 on counter 1 adds counter 0's increment when its condition fails (90)" --pmu future <<'S'
msr PMEVTYPER0_EL0 0x3f
msr PMEVTYPER1_EL0 0x804000040000003b
expect PMEVTYPER1_EL0 0x804000040000003b
msr PMCNTENSET_EL0 3
msr PMCR_EL0 1
feed 10 OP_SPEC=6 STALL_SLOT=2
feed 5 OP_SPEC=2 STALL_SLOT=6
expect PMEVCNTR0_EL0 50
expect PMEVCNTR1_EL0 90
S

# Filters by EL (Neoverse V2, Non-secure). OP_SPEC 0x3B with U (bit 30, no
# EL0): 0x4000003b counts EL1; with P (bit 31, no EL1): 0x8000003b counts
# EL0; with P, U and NSH (bit 27, EL2 counted): 0xc800003b counts EL2.
# 10 cycles at EL0, 20 at EL1, 40 at EL2, OP_SPEC 1 each: 20, 10, 40; the
# cycle counter with PMCCFILTR_EL0 0 (NSH 0: not EL2) counts 30.
arm "filters: U, P and NSH split 10 EL0, 20 EL1 and 40 EL2 cycles (20, 10, 40; PMCCNTR 30)" --pmu neoverse-v2 <<'S'
el 2
msr PMEVTYPER0_EL0 0x4000003b
msr PMEVTYPER1_EL0 0x8000003b
msr PMEVTYPER2_EL0 0xc800003b
msr PMCNTENSET_EL0 0x80000007
msr PMCR_EL0 1
el 0
feed 10 OP_SPEC=1
el 1
feed 20 OP_SPEC=1
el 2
feed 40 OP_SPEC=1
expect PMEVCNTR0_EL0 20
expect PMEVCNTR1_EL0 10
expect PMEVCNTR2_EL0 40
expect PMCCNTR_EL0 30
S

# PMUSERENR_EL0 at EL0 (Arm ARM, AArch64 PMU access at EL0): everything
# traps to EL1 while EN, ER, CR and SW are 0; CR lets PMCCNTR_EL0 be read
# but not PMEVCNTR; PMUSERENR_EL0 itself is readable at EL0 and its write
# UNDEFINED; an EL1 register (PMMIR_EL1) is UNDEFINED at EL0.
arm "PMUSERENR: EL0 traps to EL1 until CR lets PMCCNTR be read; UNDEFINED writes of PMUSERENR and EL1 registers" <<'S'
el 0
mrs PMCCNTR_EL0
expect trap-to-EL1
mrs PMUSERENR_EL0
expect 0x0000000000000000
msr PMUSERENR_EL0 4
expect UNDEFINED
mrs PMMIR_EL1
expect UNDEFINED
el 1
msr PMUSERENR_EL0 4
expect ok
el 0
mrs PMCCNTR_EL0
expect 0x0000000000000000
mrs PMEVCNTR0_EL0
expect trap-to-EL1
expect PMEVCNTR0_EL0 trap-to-EL1
S

# Overflow and the interrupt (Neoverse N1: PMUv3p4, 32-bit event counters).
# PMEVCNTR0 = 0xfffffff0 plus 4 cycles of OP_SPEC 4 = 16: wraps to 0 and
# sets PMOVS bit 0; with PMINTENSET bit 0 the overflow interrupt is
# pending; PMOVSCLR clears it. Then V2 with PMCR.LP (64-bit): 2^64 - 2 + 3
# = 1, overflow again.
arm "overflow of a 32-bit counter: wraps to 0, PMOVS bit 0, PMUIRQ pending until PMOVSCLR" --pmu n1 <<'S'
msr PMEVTYPER0_EL0 0x3b
msr PMEVCNTR0_EL0 0xfffffff0
msr PMINTENSET_EL1 1
msr PMCNTENSET_EL0 1
msr PMCR_EL0 1
pending
expect PMUIRQ=0 PMOVS=0x00000000
feed 4 OP_SPEC=4
expect PMEVCNTR0_EL0 0
pending
expect PMUIRQ=1 PMOVS=0x00000001
msr PMOVSCLR_EL0 1
pending
expect PMUIRQ=0 PMOVS=0x00000000
S
arm "overflow of a 64-bit counter (PMCR.LP, PMUv3p5): 2^64 - 2 + 3 = 1, PMUIRQ pending" --pmu v2 <<'S'
msr PMEVTYPER0_EL0 0x3b
msr PMCR_EL0 0x81
msr PMEVCNTR0_EL0 0xfffffffffffffffe
msr PMINTENSET_EL1 1
msr PMCNTENSET_EL0 1
feed 1 OP_SPEC=3
expect PMEVCNTR0_EL0 1
pending
expect PMUIRQ=1 PMOVS=0x00000001
S

# MT (FEAT_MTPMU, PMEVTYPER.MT bit 25): two PEs on one core; on PE 0,
# counter 0 counts OP_SPEC 0x3B of every PE of the core (0x0200003b),
# counter 1 only its own (0x3b). PE 1 runs 10 cycles of OP_SPEC 2 (PE 0
# idle in the same cycles): counter 0 = 20, counter 1 = 0.
arm "MT: an MT counter of PE 0 counts PE 1's events (20), a plain one does not (0)" --pmu v2 --pes 2 --pes-per-core 2 <<'S'
pe 0
msr PMEVTYPER0_EL0 0x0200003b
msr PMEVTYPER1_EL0 0x3b
msr PMCNTENSET_EL0 3
msr PMCR_EL0 1
pe 1
feed 10 OP_SPEC=2
pe 0
expect PMEVCNTR0_EL0 20
expect PMEVCNTR1_EL0 0
S

# PMDEVID (SPEC §5): PCSample 3:0, PMSS 7:4, EXTPMN 11:8. "future" has
# PCSample 2, PMSS 1, EXTPMN 1: 0x112; V2 none: 0. A snapshot copies
# PMEVCNTR0 (7 cycles of OP_SPEC 1) into PMEVCNTSVR0_EL1, which later
# cycles leave alone.
arm "PMDEVID of future (0x112) and a snapshot of counter 0 (7) that later counting leaves alone" --pmu future <<'S'
mrs PMDEVID
expect 0x0000000000000112
msr PMEVTYPER0_EL0 0x3b
msr PMCNTENSET_EL0 1
msr PMCR_EL0 1
feed 7 OP_SPEC=1
snapshot
expect ok
feed 5 OP_SPEC=1
expect PMEVCNTSVR0_EL1 7
expect PMEVCNTR0_EL0 12
S
arm "PMDEVID of v2 reads 0; a snapshot without FEAT_PMUv3_SS is ignored" --pmu v2 <<'S'
mrs PMDEVID
expect 0x0000000000000000
snapshot
expect ignored: no FEAT_PMUv3_SS (PMDEVID.PMSS is 0)
S

# a trace written by `trace` and replayed gives the same counts: 5 cycles
# of OP_SPEC 3 at EL0, 4 of OP_SPEC 1 at EL1: 19 on each of two PEs
cat >"$tmp/rec" <<S
trace $tmp/t.trace
el 0
feed 5 OP_SPEC=3
el 1
feed 4 OP_SPEC=1
trace off
S
"$HPMSTAT" emu --arch arm64 "$tmp/rec" >"$tap_out" 2>&1 && head -1 "$tmp/t.trace" | grep -qx 'hpmstat-arm-emu-trace 1'
ok $? "trace FILE records the fed runs in the Arm trace format"
arm "replay FILE counts them again (19)" --pes 2 <<S
pe 1
msr PMEVTYPER0_EL0 0x3b
msr PMCNTENSET_EL0 1
msr PMCR_EL0 1
replay $tmp/t.trace
expect PMEVCNTR0_EL0 19
S

# a profile's stream: OP_SPEC counted at EL0 and EL1 over 100000 cycles
# is what the profile delivers there, about 100000 x its mean; checked
# only for being counted at all and below 8 per cycle
arm "run CYCLES PROFILE counts a profile's stream" <<'S'
msr PMEVTYPER0_EL0 0x3b
msr PMCNTENSET_EL0 0x80000001
msr PMCR_EL0 1
run 100000 arm-balanced seed=3
expect PMCCNTR_EL0 100000
S

done_testing

/* pmu.h: the Arm PMUv3 emulator's machine: PEs grouped in cores, each with
 * the AArch64 Performance Monitors registers, the per-cycle counting of
 * SPEC §5 (thresholds, edges, linking, every filter, MT), and the PMDEVID
 * features (EXTPMN, PMSS snapshots, PC sampling) of a feature profile.
 *
 * Owns: the public API of libarm64emu except the run contract
 * (arm64/emu/source.h) and the bench engine (arm64/emu/bench.h):
 *   struct arm_emu_features   a feature profile (arm64/features.h)
 *   struct arm_emu            the machine (pmu.c)
 *   arm_emu_read/write()      system-register access at an EL, with the
 *                             exception it raises (pmu.c)
 *   arm_emu_ext_read/write()  the external (memory-mapped) PMU block:
 *                             PMDEVID, PC sampling, snapshot request,
 *                             EXTPMN reservation (pmu.c)
 *   arm_emu_run()             the counting fast path over runs (pmu.c)
 *   arm_emu_ref_run()         the per-cycle reference, the oracle (reference.c)
 *   arm_emu_reg_*()           register names for scripts (regs.c)
 * Library code: never prints, never exits; errors go to a caller buffer.
 *
 * Readings of the Arm ARM that the emulator had to make are listed in
 * src/arm64/emu/doc-notes (for hpmstat-emu(1)) and next to the code.
 *
 * Time is per core: every PE of a core runs every cycle (the hardware
 * threads of one core share its clock). arm_emu_run() of one PE runs the
 * other PEs of its core for the same cycles, idle: in the context of their
 * last run, delivering no event but CPU_CYCLES. arm_emu_run_core() gives
 * every PE of a core its own run. This is what makes MT exact: an MT
 * counter sees, in each cycle, the events of every PE of the core in that
 * same cycle.
 *
 * Counting is exact at every register access: the fast path may defer the
 * steady counts of keyed runs, but every access (and arm_emu_sync())
 * completes them first.
 */
#ifndef HPM_ARM64_EMU_PMU_H
#define HPM_ARM64_EMU_PMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arm64/emu/source.h"
#include "arm64/features.h"

/* ------------------------------------------------------------- profiles */

/* struct arm_emu_features and its table are arm64/features.h's: encode,
 * decode and the models check events against the same features. */

/* ------------------------------------------------------------- registers */

/* What an access raises: nothing, UNDEFINED, or a trap to an EL (the
 * exception class is always "trapped MSR/MRS"). */
enum arm_emu_exc {
	ARM_EMU_OK,
	ARM_EMU_UNDEFINED,
	ARM_EMU_TRAP_EL1,
	ARM_EMU_TRAP_EL2,
	ARM_EMU_TRAP_EL3,
};

/* The registers. Indexed ones take idx (n of PMEVCNTR<n>_EL0). The EXT_
 * ones are registers of the external PMU block (arm_emu_ext_*), not
 * system registers. */
enum arm_emu_reg {
	ARM_EMU_PMCR_EL0,
	ARM_EMU_PMCNTENSET_EL0,
	ARM_EMU_PMCNTENCLR_EL0,
	ARM_EMU_PMOVSSET_EL0,
	ARM_EMU_PMOVSCLR_EL0,
	ARM_EMU_PMINTENSET_EL1,
	ARM_EMU_PMINTENCLR_EL1,
	ARM_EMU_PMSELR_EL0,
	ARM_EMU_PMXEVTYPER_EL0,
	ARM_EMU_PMXEVCNTR_EL0,
	ARM_EMU_PMEVTYPER_EL0, /* idx 0..30 */
	ARM_EMU_PMEVCNTR_EL0,  /* idx 0..30 */
	ARM_EMU_PMCCNTR_EL0,
	ARM_EMU_PMCCFILTR_EL0,
	ARM_EMU_PMSWINC_EL0,
	ARM_EMU_PMUSERENR_EL0,
	ARM_EMU_PMMIR_EL1,
	ARM_EMU_ID_AA64DFR0_EL1,
	ARM_EMU_MDCR_EL2,
	ARM_EMU_MDCR_EL3,
	ARM_EMU_PMSSCR_EL1,     /* FEAT_PMUv3_SS */
	ARM_EMU_PMEVCNTSVR_EL1, /* idx 0..30, FEAT_PMUv3_SS */
	ARM_EMU_PMCCNTSVR_EL1,  /* FEAT_PMUv3_SS */
	/* the external block */
	ARM_EMU_EXT_PMDEVID,
	ARM_EMU_EXT_PMPCSR,   /* reading samples: PC, EL and NS */
	ARM_EMU_EXT_PMCID1SR, /* CONTEXTIDR_EL1 of the last PMPCSR sample */
	ARM_EMU_EXT_PMVIDSR,  /* VMID of the last PMPCSR sample */
	ARM_EMU_EXT_PMPCSCTL, /* PCSample level 2: EN (bit 0) */
	ARM_EMU_EXT_EPMN,     /* EXTPMN: counters EPMN..N-1 reserved (emulator's name) */
	ARM_EMU_EXT_EXTE,     /* EXTPMN: bit 0 enables the reserved counters */
	ARM_EMU_NR_REGS,
};

/* PMSSCR_EL1 bits (FEAT_PMUv3_SS): SS reads 1 while a Capture event is
 * under way and a write of 1 requests one; NC = 1: nothing captured */
#define ARM_EMU_PMSSCR_SS (UINT64_C(1) << 0)
#define ARM_EMU_PMSSCR_NC (UINT64_C(1) << 32)

/* PMCR_EL0 bits */
#define ARM_EMU_PMCR_E    (UINT64_C(1) << 0)
#define ARM_EMU_PMCR_P    (UINT64_C(1) << 1)
#define ARM_EMU_PMCR_C    (UINT64_C(1) << 2)
#define ARM_EMU_PMCR_DP   (UINT64_C(1) << 5)
#define ARM_EMU_PMCR_LC   (UINT64_C(1) << 6)
#define ARM_EMU_PMCR_LP   (UINT64_C(1) << 7)
#define ARM_EMU_PMCR_N(v) (((v) >> 11) & 31u)
/* PMUSERENR_EL0 bits */
#define ARM_EMU_USERENR_EN (UINT64_C(1) << 0)
#define ARM_EMU_USERENR_SW (UINT64_C(1) << 1)
#define ARM_EMU_USERENR_CR (UINT64_C(1) << 2)
#define ARM_EMU_USERENR_ER (UINT64_C(1) << 3)
/* MDCR_EL2 fields */
#define ARM_EMU_MDCR2_HPMN(v) ((v)&31u)
#define ARM_EMU_MDCR2_TPMCR   (UINT64_C(1) << 5)
#define ARM_EMU_MDCR2_TPM     (UINT64_C(1) << 6)
#define ARM_EMU_MDCR2_HPME    (UINT64_C(1) << 7)
#define ARM_EMU_MDCR2_HPMD    (UINT64_C(1) << 17)
#define ARM_EMU_MDCR2_HLP     (UINT64_C(1) << 26)
/* MDCR_EL3 */
#define ARM_EMU_MDCR3_SPME (UINT64_C(1) << 17)
/* bit 31 of the PMCNTEN/PMINTEN/PMOVS/PMSWINC masks: the cycle counter */
#define ARM_EMU_CCNT_BIT (UINT64_C(1) << 31)

/* ---------------------------------------------------------------- machine */

struct arm_emu;
struct arm_emu_pe;

#define ARM_EMU_MAX_PES          1024
#define ARM_EMU_MAX_PES_PER_CORE 8

/* A machine of nr_pes PEs, pes_per_core to a core (nr_pes a multiple of
 * it), with the registers of profile f, in reset state. NULL with the
 * reason in err when the numbers are out of range. */
struct arm_emu *arm_emu_new(const struct arm_emu_features *f, unsigned nr_pes,
                            unsigned pes_per_core, char *err, size_t errlen);
void arm_emu_free(struct arm_emu *m);
const struct arm_emu_features *arm_emu_profile(const struct arm_emu *m);
unsigned arm_emu_nr_pes(const struct arm_emu *m);
unsigned arm_emu_pes_per_core(const struct arm_emu *m);
/* PE i (0-based; PEs i*K..i*K+K-1 form core i), NULL when out of range. */
struct arm_emu_pe *arm_emu_pe(struct arm_emu *m, unsigned i);
unsigned arm_emu_pe_index(const struct arm_emu_pe *pe);
struct arm_emu *arm_emu_pe_machine(struct arm_emu_pe *pe);
/* Back to reset state: registers, counters, snapshot, PC sample, context. */
void arm_emu_pe_reset(struct arm_emu_pe *pe);

/* The context the PE is in between runs (the last run's, or set here):
 * the security state of its PMSWINC_EL0 writes (a software increment is
 * filtered by the EL of the write and this state) and of idle cycles.
 * Starts as EL1, Non-secure, not streaming. */
void arm_emu_pe_set_context(struct arm_emu_pe *pe, unsigned el, unsigned sec, bool streaming);

/* Whether the run's context can exist on this profile: EL 0..3; EL3 only
 * Secure (Root with FEAT_RME); Realm only with FEAT_RME and not at EL3;
 * Secure EL2 only with FEAT_SEL2; streaming only with FEAT_SME. Returns 0,
 * or -1 with the reason in err. */
int arm_emu_run_check(const struct arm_emu *m, const struct arm_emu_run *run, char *err,
                      size_t errlen);

/* System-register access (MRS/MSR) from exception level el (0..3) by PE
 * pe. Returns ARM_EMU_OK and the value (reads), or the exception; *val is
 * written only on ARM_EMU_OK. The rules, in the order they apply:
 *  - EL0: EL1-and-above registers are UNDEFINED; PMUSERENR_EL0 is
 *    readable and its write UNDEFINED; every other access needs
 *    PMUSERENR.EN, or SW (PMSWINC writes), CR (PMCCNTR reads), ER
 *    (PMEVCNTR/PMXEVCNTR reads, PMSELR reads and writes), else it traps
 *    to EL1.
 *  - EL0/EL1: MDCR_EL2.TPM traps every PMU register (not ID_AA64DFR0_EL1)
 *    to EL2, TPMCR traps PMCR_EL0; MDCR_EL2 and MDCR_EL3 are UNDEFINED.
 *    EL2: MDCR_EL3 UNDEFINED.
 *  - counter n (PMEVTYPER/PMEVCNTR/PMEVCNTSVR<n>, PMXEV* by PMSELR.SEL):
 *    n at or above the PE's visible N (PMCR.N as EL2 reads it, after
 *    EXTPMN) is UNDEFINED; at EL0/EL1 n >= MDCR_EL2.HPMN traps to EL2.
 *    PMSELR.SEL = 31 selects PMCCFILTR_EL0 for PMXEVTYPER; PMXEVCNTR with
 *    SEL = 31 is UNDEFINED (CONSTRAINED UNPREDICTABLE in the Arm ARM).
 *  - bit masks (PMCNTEN, PMINTEN, PMOVS, PMSWINC): bits of counters the EL
 *    cannot see are RAZ/WI.
 *  - registers of absent features (PMSSCR, PMEVCNTSVR, PMCCNTSVR without
 *    FEAT_PMUv3_SS) are UNDEFINED; fields of absent features are RES0.
 *  - read-only registers (PMMIR_EL1, ID_AA64DFR0_EL1, the snapshot
 *    values) are UNDEFINED to write, PMSWINC_EL0 to read. */
int arm_emu_read(struct arm_emu_pe *pe, unsigned el, unsigned reg, unsigned idx, uint64_t *val);
int arm_emu_write(struct arm_emu_pe *pe, unsigned el, unsigned reg, unsigned idx, uint64_t val);

/* The external agent's view (the memory-mapped PMU block): no EL checks,
 * every implemented counter (also those EXTPMN reserves), the EXT_
 * registers, and PMCNTENSET/CLR and PMOVSSET/CLR over all counters.
 * Returns ARM_EMU_OK, or ARM_EMU_UNDEFINED for a register the block does
 * not have (an EXT_ register of an absent feature reads 0: RES0). */
int arm_emu_ext_read(struct arm_emu_pe *pe, unsigned reg, unsigned idx, uint64_t *val);
int arm_emu_ext_write(struct arm_emu_pe *pe, unsigned reg, unsigned idx, uint64_t val);

/* Whether the PE's overflow interrupt (PMUIRQ) is pending: some counter n
 * has PMOVS[n] and PMINTEN[n] set while its enable (PMCR.E, or
 * MDCR_EL2.HPME for counters reserved for EL2) is 1. */
bool arm_emu_irq_pending(struct arm_emu_pe *pe);

/* FEAT_PMUv3_SS: a Capture event: every counter of the PE in this same
 * cycle into PMEVCNTSVR<n>_EL1 and PMCCNTSVR_EL1, PMSSCR_EL1.NC cleared.
 * What a write of 1 to PMSSCR_EL1.SS does (through the system register or
 * its external view at PMU offset 0xE30). -1 without the feature. */
int arm_emu_snapshot(struct arm_emu_pe *pe);

/* The edge state of counter n (0..30): what register writes reset and
 * both counting engines advance. Exposed for the reference (reference.c),
 * which reaches everything else through register accesses. */
struct arm_emu_edge {
	bool valid; /* a previous cycle's condition exists */
	bool prev;  /* its condition Ct */
};
struct arm_emu_edge arm_emu_edge_get(struct arm_emu_pe *pe, unsigned n);
void arm_emu_edge_set(struct arm_emu_pe *pe, unsigned n, struct arm_emu_edge e);

/* ---------------------------------------------------------------- running */

/* Counts `run` on PE pe (the other PEs of its core run idle, see above):
 * the fast path. A run with a non-zero key (source.h) on a core of one PE
 * has its rules computed once per key and its steady counts deferred until
 * the next access to the PE (every access completes them first). Returns 0, or -1 when
 * arm_emu_run_check() refuses the run (nothing is counted). */
int arm_emu_run(struct arm_emu_pe *pe, const struct arm_emu_run *run);
/* Counts one run per PE of core `core` (runs[k] for PE core*K+k), all of
 * the same number of cycles; -1 (nothing counted) when they differ or a
 * run is refused. */
int arm_emu_run_core(struct arm_emu *m, unsigned core, const struct arm_emu_run *const *runs);

/* Completes the deferred counts (register accesses do it themselves; this
 * is for benchmarks that time the whole work). */
void arm_emu_sync(struct arm_emu_pe *pe);
/* Drops the cached rules of `source`'s keys in every PE (completing their
 * counts first). The owner of a keyed source calls it before freeing the
 * source, since a new one at the same address would hit the old keys. */
void arm_emu_forget_source(struct arm_emu *m, const void *source);

/* The per-cycle reference: the same as arm_emu_run() / arm_emu_run_core(),
 * one cycle and one counter at a time, reading and writing the machine
 * only through register accesses (EL3 and the external block) and the
 * edge state. Shares no counting code with the fast path. Slow on purpose. */
int arm_emu_ref_run(struct arm_emu_pe *pe, const struct arm_emu_run *run);
int arm_emu_ref_run_core(struct arm_emu *m, unsigned core, const struct arm_emu_run *const *runs);

/* ------------------------------------------------------------------ names */

/* "UNDEFINED", "trap-to-EL1", ... "ok". */
const char *arm_emu_exc_name(int exc);
/* The name of register reg with index idx ("PMEVTYPER3_EL0", "PMDEVID")
 * into buf; "" when reg is out of range. */
const char *arm_emu_reg_name(unsigned reg, unsigned idx, char *buf, size_t len);
/* A register name, case-insensitive, to reg and idx: "PMCR_EL0",
 * "PMEVTYPER3_EL0" (n 0..30), "PMDEVID". -1 with the reason in err. */
int arm_emu_reg_parse(const char *name, unsigned *reg, unsigned *idx, char *err, size_t errlen);
/* Whether reg is indexed / of the external block. */
bool arm_emu_reg_indexed(unsigned reg);
bool arm_emu_reg_external(unsigned reg);

#endif

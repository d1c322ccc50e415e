/* pmu-state.h: the state of the Arm emulator's machine, shared by the
 * counting (pmu.c: the machine, decoding a rule, the fast path over runs)
 * and the register access (pmu-access.c: the access rules, reads and
 * writes, the external block). Not for use outside those two: the
 * reference (reference.c) keeps its own state, so that it checks the fast
 * path and not a copy of it.
 */
#ifndef HPM_ARM64_EMU_PMU_STATE_H
#define HPM_ARM64_EMU_PMU_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "arm64/emu/pmu.h"

typedef unsigned __int128 u128;

#define NR_EV 31 /* PMEVCNTR0..30 */

/* PMEVTYPER<n>_EL0 / PMCCFILTR_EL0 bits (arm64/pmevtyper.h has the layout) */
#define B(n)        (UINT64_C(1) << (n))
#define T_FILTERS   (B(31) | B(30) | B(29) | B(28) | B(27) | B(26))
#define T_SH        B(24)
#define T_MT        B(25)
#define T_RL        (B(22) | B(21) | B(20))
#define T_VS        (UINT64_C(3) << 56)
#define T_TLC       (UINT64_C(3) << 54)
#define T_TE        B(60)
#define T_TC        (UINT64_C(7) << 61)
#define T_EVT       UINT64_C(0xffff)
#define T_TH(width) (((UINT64_C(1) << (width)) - 1) << 32)

/* One counter's rule, decoded. */
struct ctr {
	uint16_t evt;
	uint16_t th;
	uint8_t cond; /* enum arm64_cond */
	bool tc0;     /* TC[0]: count 1 when true */
	bool te;      /* edge */
	bool both;    /* edge: both ways (TC[1:0] = 10), else the rising edge of Ct */
	uint8_t tlc;
	bool mt;
	bool cycle_evt; /* counted once per cycle of the core under MT */
	bool reserved;  /* a reserved combination: counts nothing */
	uint16_t ctab;  /* bit v: the condition for VB = v (0..15), the usual VBs */
	uint8_t ovf;    /* overflow at 2^ovf: 32 or 64 */
	/* counted in (EL, state, streaming): the filter bits with the
	 * prohibited regions folded in */
	bool pass[ARM_EMU_NR_EL][ARM_EMU_NR_SEC][2];
};

/* What one cycle of a run gives each counter of a PE: the rules' results
 * before the enables. An edge counter's increment depends on the previous
 * cycle's condition, so it is kept as its condition (ct) and whether it
 * counts (pass); a counter linked to an edge counter gets 1 more in a cycle
 * where that edge fires (linkd); every other increment is the same in each
 * cycle of the run (steady). */
struct rules {
	uint32_t ct, pass, linkd;
	bool cc;
	uint32_t steady[NR_EV];
};

#define KCACHE_SIZE  1024u /* keyed runs cached per PE (a power of 2) */
#define KCACHE_PROBE 8u

struct kentry {
	const void *source;
	uint32_t key; /* 0: a free slot */
	uint32_t gen;
	uint64_t pend; /* cycles not yet folded into the counters */
	struct rules r;
};

struct arm_emu_pe {
	struct arm_emu *m;
	unsigned index;
	uint64_t pmcr; /* E, DP, LC, LP as written */
	uint32_t cnten, inten, ovs;
	uint64_t selr, userenr, mdcr2, mdcr3, ccfiltr, pmsscr, pcsctl, epmn, exte;
	uint64_t evtyper[NR_EV], evcntr[NR_EV], ccntr;
	uint64_t svr[NR_EV], ccsvr;
	uint32_t edge_valid, edge_prev; /* the edge state, a bit per counter */
	uint32_t en_mask;               /* counters enabled (PMCNTEN and their gate) */
	/* context between runs */
	uint8_t el, sec;
	bool streaming;
	/* the last PC a run executed, for PC sampling */
	bool have_pc;
	uint64_t pc;
	uint8_t pc_el, pc_sec;
	uint32_t pc_ctx, sample_ctx;
	uint16_t pc_vmid, sample_vmid;
	/* decoded */
	bool dirty;
	uint32_t gen;                /* bumped by each decode: the key cache's validity */
	uint32_t te_mask, both_mask; /* edge counters (not reserved); both ways */
	struct ctr c[NR_EV];
	uint8_t cc_ovf;
	bool cc_pass[ARM_EMU_NR_EL][ARM_EMU_NR_SEC][2];
	/* the keyed cache (below) */
	struct kentry *kc;
	uint16_t *pending;
	unsigned nr_pending;
};

struct arm_emu {
	const struct arm_emu_features *f;
	unsigned nr_pes, per_core;
	struct arm_emu_pe *pes;
	/* VB of every event number in the run being counted (the PE's own):
	 * filled from the run's few values and cleared after, so that each
	 * counter finds its VB with one load; CPU_CYCLES stays 1 */
	uint16_t *vbtab;
};

/* Counters 0..epmn-1 are the PE's; EXTPMN reserves the rest for the
 * external agent. */
static inline unsigned epmn_of(const struct arm_emu_pe *pe)
{
	unsigned n = pe->m->f->nr_counters;
	return pe->m->f->extpmn && pe->epmn < n ? (unsigned)pe->epmn : n;
}

static inline uint32_t low_bits(unsigned n)
{
	return n >= 32 ? UINT32_MAX : (UINT32_C(1) << n) - 1;
}

#endif

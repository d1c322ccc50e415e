/* reference.c: the Arm emulator's per-cycle reference, the oracle of the
 * fast path (see arm64/emu/pmu.h).
 *
 * Owns: nothing but its two functions. Written straight from SPEC §5 and
 * the readings in doc-notes, it shares no counting code with pmu.c: it
 * reads and writes the PEs only through the external block's register
 * accesses (which see every counter) and the edge state, decodes
 * PMEVTYPER by its own shifts, and evaluates every counter of every PE of
 * the core in every cycle, in counter order so that counter n-1's
 * increment of a cycle is known when counter n links to it. Slow on
 * purpose; its only job is to be obviously right.
 */
#include "config.h"

#include <string.h>

#include "arm64/emu/pmu-int.h"
#include "arm64/emu/pmu.h"

#define REF_MAX 31

struct ref_pe {
	struct arm_emu_pe *pe;
	unsigned nr;   /* implemented event counters */
	unsigned hpmn; /* MDCR_EL2.HPMN as it acts */
	unsigned epmn; /* counters of the PE (EXTPMN reserves the rest) */
	uint64_t pmcr, mdcr2, mdcr3, cnten, ovs, ccfiltr, exte, cc;
	uint64_t typ[REF_MAX], ctr[REF_MAX];
	struct arm_emu_edge edge[REF_MAX];
	const struct arm_emu_run *run;
};

static uint64_t bit(uint64_t v, unsigned b)
{
	return (v >> b) & 1u;
}

static uint64_t get(struct arm_emu_pe *pe, unsigned reg, unsigned idx)
{
	uint64_t v = 0;
	arm_emu_ext_read(pe, reg, idx, &v);
	return v;
}

/* PMEVTYPER / PMCCFILTR filter bits in (el, sec, streaming): the Arm ARM's
 * field descriptions, one case at a time. */
static bool ref_counted(uint64_t t, unsigned el, unsigned sec, bool sm)
{
	uint64_t P = bit(t, 31), U = bit(t, 30), NSK = bit(t, 29), NSU = bit(t, 28);
	uint64_t NSH = bit(t, 27), M = bit(t, 26), SH = bit(t, 24);
	uint64_t RLK = bit(t, 22), RLU = bit(t, 21), RLH = bit(t, 20);
	uint64_t VS = (t >> 56) & 3u;

	if (VS == 3)
		return false; /* reserved */
	if (VS == 1 && sm)
		return false; /* VS=01: not in Streaming mode */
	if (VS == 2 && !sm)
		return false; /* VS=10: not in Non-streaming mode */
	if (el == 3)
		return M == P;
	if (sec == ARM_EMU_SEC_NS) {
		if (el == 0)
			return NSU == U;
		if (el == 1)
			return NSK == P;
		return NSH == 1;
	}
	if (sec == ARM_EMU_SEC_REALM) {
		if (el == 0)
			return RLU == U;
		if (el == 1)
			return RLK == P;
		return RLH != NSH;
	}
	/* Secure */
	if (el == 0)
		return U == 0;
	if (el == 1)
		return P == 0;
	return SH != NSH;
}

/* Prohibited regions for counter n (31: the cycle counter). */
static bool ref_prohibited(const struct ref_pe *r, unsigned n, unsigned el, unsigned sec)
{
	if (n == 31 && !bit(r->pmcr, 5)) /* PMCR.DP = 0: the cycle counter ignores them */
		return false;
	bool secure = sec == ARM_EMU_SEC_S || sec == ARM_EMU_SEC_ROOT || el == 3;
	if (secure && !bit(r->mdcr3, 17))
		return true;
	if (el == 2 && bit(r->mdcr2, 17) && (n == 31 || n < r->hpmn))
		return true;
	return false;
}

static unsigned ref_vb(const struct arm_emu_run *run, unsigned evt)
{
	if (evt == 0x11)
		return 1;
	if (evt == 0)
		return 0;
	for (unsigned i = 0; i < run->nr_vals; i++)
		if (run->vals[i].event == evt)
			return run->vals[i].vb;
	return 0;
}

static bool ref_cond(unsigned tc, unsigned vb, unsigned th)
{
	switch (tc >> 1) {
	case 0:
		return vb != th;
	case 1:
		return vb == th;
	case 2:
		return vb >= th;
	default:
		return vb < th;
	}
}

static bool ref_reserved(uint64_t t, unsigned n)
{
	unsigned tc = (unsigned)(t >> 61) & 7u, te = (unsigned)bit(t, 60);
	unsigned tlc = (unsigned)(t >> 54) & 3u, vs = (unsigned)(t >> 56) & 3u;
	return (te && (tc & 3u) == 0) || tlc == 3 || (tlc && n % 2 == 0) || (tlc && te) ||
	       ((tc & 1u) && tlc == 2) || vs == 3;
}

static bool ref_enabled(const struct ref_pe *r, unsigned n)
{
	if (!bit(r->cnten, n))
		return false;
	if (n < r->hpmn)
		return bit(r->pmcr, 0);
	if (n < r->epmn)
		return bit(r->mdcr2, 7);
	return bit(r->exte, 0);
}

/* One cycle of counter n of PE p: the increment its rule gives (before
 * its enable), given counter n-1's increment vm of the same cycle. */
static uint64_t ref_rule(struct ref_pe *rp, unsigned K, unsigned p, unsigned n, uint64_t vm)
{
	struct ref_pe *r = &rp[p];
	uint64_t t = r->typ[n];
	unsigned evt = (unsigned)(t & 0xffffu), tc = (unsigned)(t >> 61) & 7u;
	unsigned th = (unsigned)(t >> 32) & 0xfffu, tlc = (unsigned)(t >> 54) & 3u;
	bool te = bit(t, 60), mt = bit(t, 25);
	bool cyc = evt == 0x11 || evt == 0x1d || evt == 0x4004;
	unsigned vb_all = 0, vb_counted = 0;
	bool counted = false;

	if (ref_reserved(t, n))
		return 0;
	for (unsigned q = 0; q < K; q++) {
		if (q != p && !mt)
			continue;
		const struct arm_emu_run *run = rp[q].run;
		unsigned v = ref_vb(run, evt);
		bool ok = ref_counted(t, run->el, run->sec, run->streaming) &&
		          !ref_prohibited(r, n, run->el, run->sec);
		if (cyc) { /* a cycle of the core counts once */
			if (v > vb_all)
				vb_all = v;
			if (ok && v > vb_counted)
				vb_counted = v;
		} else {
			vb_all += v;
			if (ok)
				vb_counted += v;
		}
		if (ok)
			counted = true;
	}
	if (te) {
		/* Ct on the unfiltered value every cycle; an edge is a change of
		 * Ct from the previous cycle, rising (TC[0] = 1) or both ways */
		bool ct = ref_cond(tc, vb_all, th);
		bool was = r->edge[n].prev, valid = r->edge[n].valid;
		r->edge[n].prev = ct;
		r->edge[n].valid = true;
		if (!counted || !valid)
			return 0;
		if (tc & 1u)
			return !was && ct;
		return was != ct;
	}
	if (!counted)
		return 0;
	bool ct = ref_cond(tc, vb_counted, th);
	bool linked = n % 2 == 1 && tlc != 0;
	if (!linked)
		vm = 0;
	if (tc & 1u) /* TC[0]=1: count 1 */
		return ct ? 1 : (tlc == 1 ? vm : 0);
	if (tlc == 1)
		return ct ? vb_counted : vm;
	if (tlc == 2)
		return ct ? vm : 0;
	return ct ? vb_counted : 0;
}

static void ref_load(struct ref_pe *r, struct arm_emu_pe *pe, const struct arm_emu_features *f)
{
	memset(r, 0, sizeof(*r));
	r->pe = pe;
	r->nr = f->nr_counters;
	r->pmcr = get(pe, ARM_EMU_PMCR_EL0, 0);
	r->mdcr2 = get(pe, ARM_EMU_MDCR_EL2, 0);
	r->mdcr3 = get(pe, ARM_EMU_MDCR_EL3, 0);
	r->cnten = get(pe, ARM_EMU_PMCNTENSET_EL0, 0);
	r->ovs = get(pe, ARM_EMU_PMOVSSET_EL0, 0);
	r->ccfiltr = get(pe, ARM_EMU_PMCCFILTR_EL0, 0);
	r->cc = get(pe, ARM_EMU_PMCCNTR_EL0, 0);
	r->epmn = r->nr;
	if (f->extpmn) {
		uint64_t e = get(pe, ARM_EMU_EXT_EPMN, 0);
		if (e < r->nr)
			r->epmn = (unsigned)e;
		r->exte = get(pe, ARM_EMU_EXT_EXTE, 0);
	}
	r->hpmn = (unsigned)(r->mdcr2 & 31u);
	if (r->hpmn > r->epmn)
		r->hpmn = r->epmn;
	for (unsigned n = 0; n < r->nr; n++) {
		r->typ[n] = get(pe, ARM_EMU_PMEVTYPER_EL0, n);
		r->ctr[n] = get(pe, ARM_EMU_PMEVCNTR_EL0, n);
		r->edge[n] = arm_emu_edge_get(pe, n);
	}
}

static void ref_store(struct ref_pe *r)
{
	for (unsigned n = 0; n < r->nr; n++) {
		arm_emu_ext_write(r->pe, ARM_EMU_PMEVCNTR_EL0, n, r->ctr[n]);
		arm_emu_edge_set(r->pe, n, r->edge[n]);
	}
	arm_emu_ext_write(r->pe, ARM_EMU_PMCCNTR_EL0, 0, r->cc);
	arm_emu_ext_write(r->pe, ARM_EMU_PMOVSSET_EL0, 0, r->ovs);
}

int arm_emu_ref_run_core(struct arm_emu *m, unsigned core, const struct arm_emu_run *const *runs)
{
	const struct arm_emu_features *f = arm_emu_profile(m);
	unsigned K = arm_emu_pes_per_core(m);
	struct ref_pe rp[ARM_EMU_MAX_PES_PER_CORE];
	bool p5 = f->pmuver >= 6;

	if (arm_emu_core_check(m, core, runs) < 0)
		return -1;
	for (unsigned k = 0; k < K; k++) {
		ref_load(&rp[k], arm_emu_pe(m, core * K + k), f);
		rp[k].run = runs[k];
	}
	for (uint64_t c = 0; c < runs[0]->cycles; c++) {
		for (unsigned p = 0; p < K; p++) {
			struct ref_pe *r = &rp[p];
			uint64_t prev_inc = 0;
			for (unsigned n = 0; n < r->nr; n++) {
				uint64_t inc = ref_rule(rp, K, p, n, prev_inc);
				prev_inc = inc;
				if (!ref_enabled(r, n) || inc == 0)
					continue;
				/* overflow at 64 bits with PMUv3p5 and LP (HLP for
				 * the counters reserved for EL2), else at 32 */
				bool lp = n < r->hpmn ? bit(r->pmcr, 7) : bit(r->mdcr2, 26);
				unsigned w = p5 && lp ? 64 : 32;
				uint64_t old = r->ctr[n];
				uint64_t nv = old + inc;
				bool wrapped =
				    w == 64 ? nv < old : ((old & 0xffffffffu) + inc) > 0xffffffffu;
				if (wrapped)
					r->ovs |= UINT64_C(1) << n;
				r->ctr[n] = p5 ? nv : (nv & 0xffffffffu);
			}
			const struct arm_emu_run *run = r->run;
			if (bit(r->cnten, 31) && bit(r->pmcr, 0) &&
			    ref_counted(r->ccfiltr, run->el, run->sec, run->streaming) &&
			    !ref_prohibited(r, 31, run->el, run->sec)) {
				uint64_t old = r->cc;
				r->cc = old + 1;
				bool wrapped = bit(r->pmcr, 6) ? r->cc == 0
				                               : (old & 0xffffffffu) == 0xffffffffu;
				if (wrapped)
					r->ovs |= UINT64_C(1) << 31;
			}
		}
	}
	for (unsigned k = 0; k < K; k++) {
		ref_store(&rp[k]);
		arm_emu_note_run(rp[k].pe, runs[k]);
	}
	return 0;
}

int arm_emu_ref_run(struct arm_emu_pe *pe, const struct arm_emu_run *run)
{
	struct arm_emu_run idle[ARM_EMU_MAX_PES_PER_CORE];
	const struct arm_emu_run *runs[ARM_EMU_MAX_PES_PER_CORE];
	unsigned core = arm_emu_idle_runs(pe, run, idle, runs);
	return arm_emu_ref_run_core(arm_emu_pe_machine(pe), core, runs);
}

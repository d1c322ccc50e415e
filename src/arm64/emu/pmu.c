/* pmu.c: the Arm emulator's machine (see arm64/emu/pmu.h): PEs, their PMU
 * registers and access rules, the external block, and the counting fast
 * path over runs of identical cycles.
 *
 * The fast path: within a run every cycle is identical, so a counter's
 * increment is the same in each cycle except in the first, where an edge
 * may be counted (its condition Ct is compared with the previous cycle's,
 * which is the last cycle of the previous run) and where a counter linked
 * to such an edge counter sees that first-cycle increment as Vm. So each
 * counter gets a first-cycle and a steady increment and adds
 * first + (cycles - 1) x steady. Everything a counter's rule depends on
 * except the event values (filters with the prohibited regions folded in,
 * the condition, the overflow width) is decoded once per register write.
 * Edges are kept as bit masks (condition and validity, a bit per counter),
 * so a run's edges cost a few word operations. Runs with a key have their
 * rules computed once per key and their steady increments deferred (see
 * "the keyed cache" below). The registers' access rules, reads and
 * writes are pmu-access.c's; the state both share is pmu-state.h.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arm64/emu/pmu-int.h"
#include "arm64/emu/pmu-state.h"
#include "arm64/emu/pmu.h"
#include "arm64/pmevtyper.h"
#include "util/xalloc.h"

/* ----------------------------------------------------------- the machine */

struct arm_emu *arm_emu_new(const struct arm_emu_features *f, unsigned nr_pes,
                            unsigned pes_per_core, char *err, size_t errlen)
{
	if (!f) {
		snprintf(err, errlen, "no PMU profile");
		return NULL;
	}
	if (nr_pes < 1 || nr_pes > ARM_EMU_MAX_PES) {
		snprintf(err, errlen, "%u PEs: the emulator has 1 to %u", nr_pes, ARM_EMU_MAX_PES);
		return NULL;
	}
	if (pes_per_core < 1 || pes_per_core > ARM_EMU_MAX_PES_PER_CORE || nr_pes % pes_per_core) {
		snprintf(err, errlen, "%u PEs per core: it must be 1 to %u and divide the %u PEs",
		         pes_per_core, ARM_EMU_MAX_PES_PER_CORE, nr_pes);
		return NULL;
	}
	struct arm_emu *m = xcalloc(1, sizeof(*m));
	m->f = f;
	m->nr_pes = nr_pes;
	m->per_core = pes_per_core;
	m->pes = xcalloc(nr_pes, sizeof(*m->pes));
	m->vbtab = xcalloc(UINT32_C(1) << 16, sizeof(*m->vbtab));
	m->vbtab[0x0011] = 1;
	for (unsigned i = 0; i < nr_pes; i++) {
		m->pes[i].m = m;
		m->pes[i].index = i;
		arm_emu_pe_reset(&m->pes[i]);
	}
	return m;
}

void arm_emu_free(struct arm_emu *m)
{
	if (!m)
		return;
	for (unsigned i = 0; i < m->nr_pes; i++) {
		free(m->pes[i].kc);
		free(m->pes[i].pending);
	}
	free(m->pes);
	free(m->vbtab);
	free(m);
}

const struct arm_emu_features *arm_emu_profile(const struct arm_emu *m)
{
	return m->f;
}
unsigned arm_emu_nr_pes(const struct arm_emu *m)
{
	return m->nr_pes;
}
unsigned arm_emu_pes_per_core(const struct arm_emu *m)
{
	return m->per_core;
}
struct arm_emu_pe *arm_emu_pe(struct arm_emu *m, unsigned i)
{
	return i < m->nr_pes ? &m->pes[i] : NULL;
}
unsigned arm_emu_pe_index(const struct arm_emu_pe *pe)
{
	return pe->index;
}
struct arm_emu *arm_emu_pe_machine(struct arm_emu_pe *pe)
{
	return pe->m;
}

static void sync(struct arm_emu_pe *pe);

struct arm_emu_edge arm_emu_edge_get(struct arm_emu_pe *pe, unsigned n)
{
	sync(pe);
	return (struct arm_emu_edge){(pe->edge_valid >> n) & 1u, (pe->edge_prev >> n) & 1u};
}

void arm_emu_edge_set(struct arm_emu_pe *pe, unsigned n, struct arm_emu_edge e)
{
	sync(pe);
	uint32_t b = UINT32_C(1) << n;
	pe->edge_valid = e.valid ? pe->edge_valid | b : pe->edge_valid & ~b;
	pe->edge_prev = e.prev ? pe->edge_prev | b : pe->edge_prev & ~b;
}

unsigned arm_emu_hpmn(const struct arm_emu_pe *pe)
{
	unsigned h = ARM_EMU_MDCR2_HPMN(pe->mdcr2), e = epmn_of(pe);
	return h < e ? h : e;
}

void arm_emu_pe_reset(struct arm_emu_pe *pe)
{
	struct arm_emu *m = pe->m;
	unsigned index = pe->index;
	struct kentry *kc = pe->kc;
	uint16_t *pending = pe->pending;
	memset(pe, 0, sizeof(*pe));
	pe->m = m;
	pe->index = index;
	pe->kc = kc ? kc : xcalloc(KCACHE_SIZE, sizeof(*kc));
	memset(pe->kc, 0, KCACHE_SIZE * sizeof(*kc));
	pe->pending = pending ? pending : xcalloc(KCACHE_SIZE, sizeof(*pending));
	pe->gen = 1;
	pe->mdcr2 = m->f->nr_counters; /* HPMN resets to N */
	pe->epmn = m->f->nr_counters;  /* nothing reserved */
	if (m->f->pmss)
		pe->pmsscr = ARM_EMU_PMSSCR_NC; /* nothing captured yet */
	pe->el = ARM_EMU_EL1;
	pe->sec = ARM_EMU_SEC_NS;
	pe->dirty = true;
}

void arm_emu_pe_set_context(struct arm_emu_pe *pe, unsigned el, unsigned sec, bool streaming)
{
	pe->el = (uint8_t)(el & 3u);
	pe->sec = (uint8_t)(sec & 3u);
	pe->streaming = streaming;
}

void arm_emu_note_run(struct arm_emu_pe *pe, const struct arm_emu_run *run)
{
	pe->el = run->el;
	pe->sec = run->sec;
	pe->streaming = run->streaming;
	if (run->pc && run->cycles) {
		pe->have_pc = true;
		pe->pc = run->pc;
		pe->pc_el = run->el;
		pe->pc_sec = run->sec;
		pe->pc_ctx = run->context;
		pe->pc_vmid = run->vmid;
	}
}

/* ------------------------------------------------------ decoding a rule */

/* The filter bits of SPEC §5 and the Arm ARM's field descriptions: is a
 * cycle in (el, sec, streaming) counted? (The EXTPMN and prohibited checks
 * are separate.) */
static bool filter_pass(uint64_t t, unsigned el, unsigned sec, bool sm)
{
	bool p = t & B(31), u = t & B(30), nsk = t & B(29), nsu = t & B(28), nsh = t & B(27);
	bool mb = t & B(26), sh = t & B(24), rlk = t & B(22), rlu = t & B(21), rlh = t & B(20);
	unsigned vs = (unsigned)(t >> 56) & 3u;
	bool ok;

	if (vs == 3 || (vs == 1 && sm) || (vs == 2 && !sm))
		return false;
	switch (el) {
	case ARM_EMU_EL0:
		ok = sec == ARM_EMU_SEC_NS ? u == nsu : sec == ARM_EMU_SEC_REALM ? u == rlu : !u;
		break;
	case ARM_EMU_EL1:
		ok = sec == ARM_EMU_SEC_NS ? p == nsk : sec == ARM_EMU_SEC_REALM ? p == rlk : !p;
		break;
	case ARM_EMU_EL2:
		ok = sec == ARM_EMU_SEC_NS      ? nsh
		     : sec == ARM_EMU_SEC_REALM ? rlh != nsh
		                                : sh != nsh;
		break;
	default:
		ok = mb == p;
		break;
	}
	return ok;
}

/* The prohibited regions (Arm ARM, "Prohibiting event counting"): Secure
 * state and EL3 unless MDCR_EL3.SPME; EL2 for counters below HPMN while
 * MDCR_EL2.HPMD. n = 31 is the cycle counter, which honours them only
 * while PMCR_EL0.DP is 1. */
static bool prohibited(const struct arm_emu_pe *pe, unsigned n, unsigned el, unsigned sec)
{
	if (n == 31 && !(pe->pmcr & ARM_EMU_PMCR_DP))
		return false;
	if ((sec == ARM_EMU_SEC_S || sec == ARM_EMU_SEC_ROOT || el == ARM_EMU_EL3) &&
	    !(pe->mdcr3 & ARM_EMU_MDCR3_SPME))
		return true;
	if (el == ARM_EMU_EL2 && (pe->mdcr2 & ARM_EMU_MDCR2_HPMD) &&
	    (n == 31 || n < arm_emu_hpmn(pe)))
		return true;
	return false;
}

static bool cond_true(unsigned cond, unsigned vb, unsigned th)
{
	switch (cond) {
	case ARM64_COND_NE:
		return vb != th;
	case ARM64_COND_EQ:
		return vb == th;
	case ARM64_COND_GE:
		return vb >= th;
	default:
		return vb < th;
	}
}

static bool is_cycle_event(unsigned evt)
{
	return evt == 0x0011 || evt == 0x001d || evt == 0x4004;
}

static void decode(struct arm_emu_pe *pe)
{
	const struct arm_emu_features *f = pe->m->f;
	bool p5 = f->pmuver >= 6;
	unsigned h = arm_emu_hpmn(pe);

	for (unsigned n = 0; n < f->nr_counters; n++) {
		struct ctr *c = &pe->c[n];
		uint64_t t = pe->evtyper[n];
		struct arm64_pmevtyper u;
		struct arm64_issue issue;
		struct arm64_ctx ctx = arm_emu_features_ctx(f, (int)n, NULL);

		arm64_pmevtyper_unpack(t, &u);
		c->evt = (uint16_t)u.f[ARM64_PF_EVTCOUNT];
		c->th = (uint16_t)u.f[ARM64_PF_TH];
		c->cond = (uint8_t)(u.f[ARM64_PF_TC] >> 1);
		c->tc0 = u.f[ARM64_PF_TC] & 1u;
		c->te = u.f[ARM64_PF_TE];
		c->both = (u.f[ARM64_PF_TC] & 3u) == 2u;
		c->tlc = (uint8_t)u.f[ARM64_PF_TLC];
		c->mt = u.f[ARM64_PF_MT];
		c->cycle_evt = is_cycle_event(c->evt);
		c->ctab = 0;
		for (unsigned v = 0; v < 16; v++)
			if (cond_true(c->cond, v, c->th))
				c->ctab |= (uint16_t)(1u << v);
		/* reserved combinations (pmevtyper.c decides which): the value
		 * reads back as written and the counter counts nothing */
		c->reserved = arm64_pmevtyper_check(&u, &ctx, &issue, 1) > 0;
		bool lp = n < h ? pe->pmcr & ARM_EMU_PMCR_LP : pe->mdcr2 & ARM_EMU_MDCR2_HLP;
		c->ovf = p5 && lp ? 64 : 32;
		for (unsigned el = 0; el < ARM_EMU_NR_EL; el++)
			for (unsigned s = 0; s < ARM_EMU_NR_SEC; s++)
				for (unsigned sm = 0; sm < 2; sm++)
					c->pass[el][s][sm] =
					    filter_pass(t, el, s, sm) && !prohibited(pe, n, el, s);
	}
	pe->te_mask = pe->both_mask = 0;
	for (unsigned n = 0; n < f->nr_counters; n++)
		if (pe->c[n].te && !pe->c[n].reserved) {
			pe->te_mask |= UINT32_C(1) << n;
			if (pe->c[n].both)
				pe->both_mask |= UINT32_C(1) << n;
		}
	pe->gen++;
	pe->cc_ovf = pe->pmcr & ARM_EMU_PMCR_LC ? 64 : 32;
	for (unsigned el = 0; el < ARM_EMU_NR_EL; el++)
		for (unsigned s = 0; s < ARM_EMU_NR_SEC; s++)
			for (unsigned sm = 0; sm < 2; sm++)
				pe->cc_pass[el][s][sm] = filter_pass(pe->ccfiltr, el, s, sm) &&
				                         !prohibited(pe, 31, el, s);
	pe->dirty = false;
}

/* --------------------------------------------------------------- adding */

/* Adds t to event counter n: the counter is 64 bits with PMUv3p5, else 32;
 * PMOVS[n] is set when the low `ovf` bits wrap. */
static void add_event(struct arm_emu_pe *pe, unsigned n, u128 t)
{
	uint64_t v = pe->evcntr[n];
	unsigned ovf = pe->c[n].ovf;
	if (t < (UINT64_C(1) << 62)) { /* the usual case, in 64-bit arithmetic */
		uint64_t t64 = (uint64_t)t;
		uint64_t nv = v + t64;
		if (ovf == 64 ? nv < v : (v & UINT32_MAX) + t64 > UINT32_MAX)
			pe->ovs |= UINT32_C(1) << n;
		pe->evcntr[n] = pe->m->f->pmuver < 6 ? (nv & UINT32_MAX) : nv;
		return;
	}
	u128 low = ovf == 64 ? v : (v & UINT32_MAX);
	if (low + t >= ((u128)1 << ovf))
		pe->ovs |= UINT32_C(1) << n;
	v += (uint64_t)t;
	if (pe->m->f->pmuver < 6)
		v &= UINT32_MAX;
	pe->evcntr[n] = v;
}

static void add_cycles(struct arm_emu_pe *pe, uint64_t t)
{
	uint64_t v = pe->ccntr;
	u128 low = pe->cc_ovf == 64 ? v : (v & UINT32_MAX);
	if (low + t >= ((u128)1 << pe->cc_ovf))
		pe->ovs |= (uint32_t)ARM_EMU_CCNT_BIT;
	pe->ccntr = v + t;
}

/* ------------------------------------------------------ software increment */

/* A software increment (PMSWINC_EL0 bit n) at el: counter n counts it when
 * it counts SW_INCR, is enabled, and its filter passes the EL of the write
 * in the PE's security state. Thresholds, edges and linking compare the
 * per-cycle value of an event, which a write has not: they are not applied
 * (the reading in doc-notes). */
void arm_emu_sw_incr(struct arm_emu_pe *pe, unsigned el, uint32_t bits)
{
	if (pe->dirty)
		decode(pe);
	for (unsigned n = 0; n < pe->m->f->nr_counters; n++) {
		const struct ctr *c = &pe->c[n];
		if (!(bits & (UINT32_C(1) << n)) || !(pe->en_mask & (UINT32_C(1) << n)))
			continue;
		if (c->evt != 0 || c->reserved || !c->pass[el][pe->sec][pe->streaming])
			continue;
		add_event(pe, n, 1);
	}
}

/* ---------------------------------------------------------------- runs */

int arm_emu_run_check(const struct arm_emu *m, const struct arm_emu_run *run, char *err,
                      size_t errlen)
{
	const struct arm_emu_features *f = m->f;
	const char *why = NULL;
	if (run->el >= ARM_EMU_NR_EL)
		why = "no such exception level";
	else if (run->sec >= ARM_EMU_NR_SEC)
		why = "no such security state";
	else if (run->el == ARM_EMU_EL3 && run->sec != ARM_EMU_SEC_S &&
	         !(run->sec == ARM_EMU_SEC_ROOT && f->rme))
		why = "EL3 runs in Secure state (Root with FEAT_RME)";
	else if (run->sec == ARM_EMU_SEC_ROOT && (run->el != ARM_EMU_EL3 || !f->rme))
		why = "Root state is EL3 with FEAT_RME only";
	else if (run->sec == ARM_EMU_SEC_REALM && !f->rme)
		why = "Realm state needs FEAT_RME, which the profile does not have";
	else if (run->el == ARM_EMU_EL2 && run->sec == ARM_EMU_SEC_S && !f->sel2)
		why = "Secure EL2 needs FEAT_SEL2, which the profile does not have";
	else if (run->streaming && !f->sme)
		why = "streaming mode needs FEAT_SME, which the profile does not have";
	if (why) {
		if (err)
			snprintf(err, errlen, "%s", why);
		return -1;
	}
	return 0;
}

int arm_emu_core_check(const struct arm_emu *m, unsigned core,
                       const struct arm_emu_run *const *runs)
{
	if (core >= m->nr_pes / m->per_core)
		return -1;
	for (unsigned k = 0; k < m->per_core; k++)
		if (!runs[k] || runs[k]->cycles != runs[0]->cycles ||
		    arm_emu_run_check(m, runs[k], NULL, 0) < 0)
			return -1;
	return 0;
}

unsigned arm_emu_idle_runs(struct arm_emu_pe *pe, const struct arm_emu_run *run,
                           struct arm_emu_run *idle, const struct arm_emu_run **runs)
{
	struct arm_emu *m = pe->m;
	unsigned core = pe->index / m->per_core;
	for (unsigned k = 0; k < m->per_core; k++) {
		struct arm_emu_pe *q = &m->pes[core * m->per_core + k];
		if (q == pe) {
			runs[k] = run;
			continue;
		}
		memset(&idle[k], 0, sizeof(idle[k]));
		idle[k].cycles = run->cycles;
		idle[k].el = q->el;
		idle[k].sec = q->sec;
		idle[k].streaming = q->streaming;
		runs[k] = &idle[k];
	}
	return core;
}

/* The VB of event evt in each cycle of run r: CPU_CYCLES is 1, SW_INCR 0,
 * every other event what its entry says (vals is sorted). */
static unsigned run_vb(const struct arm_emu_run *r, unsigned evt)
{
	if (evt == 0x0011)
		return 1;
	if (evt == 0)
		return 0;
	unsigned lo = 0, hi = r->nr_vals;
	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;
		unsigned e = r->vals[mid].event;
		if (e == evt)
			return r->vals[mid].vb;
		if (e < evt)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* The threshold forms (TE = 0) with linking: SPEC §5's table. */
static uint64_t thresh_value(const struct ctr *c, bool ct, uint64_t vb, uint64_t vm)
{
	if (c->tc0)
		return ct ? 1 : c->tlc == 1 ? vm : 0;
	switch (c->tlc) {
	case 1:
		return ct ? vb : vm;
	case 2:
		return ct ? vm : 0;
	default:
		return ct ? vb : 0;
	}
}

static void compute_rules(struct arm_emu *m, struct arm_emu_pe *pe, unsigned k,
                          const struct arm_emu_run *const *runs, struct rules *out)
{
	const struct arm_emu_run *own = runs[k];
	unsigned K = m->per_core;

	out->ct = out->pass = out->linkd = 0;
	for (unsigned n = 0; n < m->f->nr_counters; n++) {
		const struct ctr *c = &pe->c[n];
		unsigned vbc, vbf;
		bool passing;

		out->steady[n] = 0;
		if (c->reserved)
			continue;
		if (!c->mt || K == 1) {
			vbc = vbf = m->vbtab[c->evt];
			passing = c->pass[own->el][own->sec][own->streaming];
		} else {
			/* MT: every PE of the core, each filtered in its own
			 * context; a cycle event counts once */
			vbc = vbf = 0;
			passing = false;
			for (unsigned q = 0; q < K; q++) {
				const struct arm_emu_run *r = runs[q];
				unsigned v = run_vb(r, c->evt);
				bool ok = c->pass[r->el][r->sec][r->streaming];
				if (c->cycle_evt) {
					vbc = vbc > v ? vbc : v;
					if (ok)
						vbf = vbf > v ? vbf : v;
				} else {
					vbc += v;
					if (ok)
						vbf += v;
				}
				passing |= ok;
			}
		}
		if (c->te) {
			/* the condition on the unfiltered value, every cycle */
			bool ct = vbc < 16 ? (c->ctab >> vbc) & 1u : cond_true(c->cond, vbc, c->th);
			out->ct |= (uint32_t)ct << n;
			out->pass |= (uint32_t)passing << n;
		} else if (passing) {
			bool ct = vbf < 16 ? (c->ctab >> vbf) & 1u : cond_true(c->cond, vbf, c->th);
			bool link = (n & 1u) && c->tlc;
			uint32_t s =
			    (uint32_t)thresh_value(c, ct, vbf, link ? out->steady[n - 1] : 0);
			out->steady[n] = s;
			/* linked to an edge counter: Vm is its edge, 1 in the
			 * cycle the edge fires, 0 in every other */
			if (link && pe->c[n - 1].te && !pe->c[n - 1].reserved &&
			    thresh_value(c, ct, vbf, 1) > s)
				out->linkd |= UINT32_C(1) << n;
		}
	}
	out->cc = pe->cc_pass[own->el][own->sec][own->streaming];
}

/* The edges of a run's first cycle (the only cycle of a run where the
 * condition may change): counts them and the linked counters' extra 1,
 * and moves the edge state on. */
static void run_edges(struct arm_emu_pe *pe, const struct rules *r)
{
	uint32_t te = pe->te_mask;
	uint32_t rise = ~pe->edge_prev & r->ct & ~pe->both_mask;
	uint32_t both = (pe->edge_prev ^ r->ct) & pe->both_mask;
	uint32_t fire = (rise | both) & te & r->pass & pe->edge_valid;
	uint32_t add = (fire | ((fire << 1) & r->linkd)) & pe->en_mask;
	pe->edge_prev = (pe->edge_prev & ~te) | (r->ct & te);
	pe->edge_valid |= te;
	while (add) {
		unsigned n = (unsigned)__builtin_ctz(add);
		add &= add - 1;
		add_event(pe, n, 1);
	}
}

/* Adds `cycles` cycles of steady increments (and of the cycle counter). */
static void run_steady(struct arm_emu_pe *pe, const struct rules *r, uint64_t cycles)
{
	uint32_t en = pe->en_mask & low_bits(pe->m->f->nr_counters);
	while (en) {
		unsigned n = (unsigned)__builtin_ctz(en);
		en &= en - 1;
		if (r->steady[n])
			add_event(pe, n, (u128)cycles * r->steady[n]);
	}
	if ((pe->en_mask & ARM_EMU_CCNT_BIT) && r->cc)
		add_cycles(pe, cycles);
}

/* ----------------------------------------------------- the keyed cache
 *
 * A run with a key promises the contents of every earlier run of its key
 * and source, so its rules are computed once per key (and per register
 * configuration: `gen`). Its edges are counted at once (they depend on the
 * previous run), its steady increments only as cycles pending on the key,
 * folded into the counters at the next register access (sync). The fold
 * adds cycles x steady per counter: increments commute and PMOVS is
 * sticky, so deferring changes neither a value nor an overflow. */

static struct kentry *kcache_find(struct arm_emu_pe *pe, const void *source, uint32_t key)
{
	uint64_t h = ((uint64_t)(uintptr_t)source * UINT64_C(0x9e3779b97f4a7c15)) ^ key;
	h ^= h >> 29;
	/* the first slot a forgotten source left (arm_emu_forget_source): a
	 * new key takes it when its own is not further on, so that a script
	 * replaying trace after trace does not fill the cache with tombstones
	 * and fall back to counting every run directly */
	struct kentry *slot = NULL;
	for (unsigned i = 0; i < KCACHE_PROBE; i++) {
		struct kentry *e = &pe->kc[(h + i) & (KCACHE_SIZE - 1)];
		if (e->key == key && e->source == source)
			return e;
		if (!e->key) {
			slot = slot ? slot : e;
			break;
		}
		if (!slot && e->source == e)
			slot = e;
	}
	if (!slot)
		return NULL; /* full around here: the caller counts the run directly */
	slot->key = key;
	slot->source = source;
	slot->gen = 0; /* never valid: pe->gen starts at 1 */
	slot->pend = 0;
	return slot;
}

static void fold(struct arm_emu_pe *pe, struct kentry *e)
{
	if (e->pend) {
		run_steady(pe, &e->r, e->pend);
		e->pend = 0;
	}
}

/* Completes every deferred count of the PE. */
static void sync(struct arm_emu_pe *pe)
{
	for (unsigned i = 0; i < pe->nr_pending; i++)
		fold(pe, &pe->kc[pe->pending[i]]);
	pe->nr_pending = 0;
}

void arm_emu_sync(struct arm_emu_pe *pe)
{
	sync(pe);
}

void arm_emu_forget_source(struct arm_emu *m, const void *source)
{
	for (unsigned i = 0; i < m->nr_pes; i++) {
		struct arm_emu_pe *pe = &m->pes[i];
		sync(pe);
		for (unsigned j = 0; j < KCACHE_SIZE; j++)
			if (pe->kc[j].key && pe->kc[j].source == source)
				pe->kc[j].source = &pe->kc[j]; /* a tombstone no source matches */
	}
}

static void fill_vbtab(struct arm_emu *m, const struct arm_emu_run *r, bool clear)
{
	for (unsigned i = 0; i < r->nr_vals; i++)
		if (r->vals[i].event != 0x0011 && r->vals[i].event != 0)
			m->vbtab[r->vals[i].event] = clear ? 0 : r->vals[i].vb;
}

int arm_emu_run_core(struct arm_emu *m, unsigned core, const struct arm_emu_run *const *runs)
{
	if (arm_emu_core_check(m, core, runs) < 0)
		return -1;
	uint64_t cycles = runs[0]->cycles;
	unsigned K = m->per_core;
	if (cycles) {
		for (unsigned k = 0; k < K; k++) {
			struct arm_emu_pe *pe = &m->pes[core * K + k];
			if (pe->dirty)
				decode(pe);
		}
		for (unsigned k = 0; k < K; k++) {
			struct arm_emu_pe *pe = &m->pes[core * K + k];
			const struct arm_emu_run *r = runs[k];
			struct kentry *e =
			    K == 1 && r->key ? kcache_find(pe, r->source, r->key) : NULL;
			if (e) {
				if (e->gen != pe->gen) {
					fold(pe, e); /* cycles of the rules before */
					fill_vbtab(m, r, false);
					compute_rules(m, pe, k, runs, &e->r);
					fill_vbtab(m, r, true);
					e->gen = pe->gen;
				}
				run_edges(pe, &e->r);
				if (e->pend > UINT64_MAX - cycles)
					fold(pe, e);
				if (!e->pend)
					pe->pending[pe->nr_pending++] = (uint16_t)(e - pe->kc);
				e->pend += cycles;
				continue;
			}
			struct rules rl;
			fill_vbtab(m, r, false);
			compute_rules(m, pe, k, runs, &rl);
			fill_vbtab(m, r, true);
			run_edges(pe, &rl);
			run_steady(pe, &rl, cycles);
		}
	}
	for (unsigned k = 0; k < K; k++)
		arm_emu_note_run(&m->pes[core * K + k], runs[k]);
	return 0;
}

int arm_emu_run(struct arm_emu_pe *pe, const struct arm_emu_run *run)
{
	struct arm_emu *m = pe->m;
	if (m->per_core == 1) {
		const struct arm_emu_run *runs[1] = {run};
		return arm_emu_run_core(m, pe->index, runs);
	}
	struct arm_emu_run idle[ARM_EMU_MAX_PES_PER_CORE];
	const struct arm_emu_run *runs[ARM_EMU_MAX_PES_PER_CORE];
	unsigned core = arm_emu_idle_runs(pe, run, idle, runs);
	return arm_emu_run_core(m, core, runs);
}

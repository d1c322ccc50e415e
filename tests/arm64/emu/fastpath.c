/* fastpath.c: the fast path against the per-cycle reference on 1000
 * random programs and streams: random profiles, one or two PEs per core,
 * random PMEVTYPER values (reserved ones included), filters, MT, edges,
 * linking, counters near both overflows, HPMN, prohibited regions,
 * EXTPMN, register writes between runs; after each, every register of
 * every PE (read through the external block), the edge state and the
 * interrupt must be equal.
 */
#include "arm-emu-test.h"

static uint64_t seed = 12345;

static uint64_t rnd(void)
{
	uint64_t z = (seed += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static unsigned rn(unsigned n)
{
	return (unsigned)(rnd() % n);
}

static const uint16_t events[] = {0x0000, 0x0008, 0x0011, 0x001d, 0x003d, 0x003f};

static uint64_t random_typer(void)
{
	uint64_t t = events[rn(6)];
	t |= (uint64_t)rn(8) << 61;                    /* TC */
	t |= rn(3) == 0 ? UINT64_C(1) << 60 : 0;       /* TE */
	t |= (uint64_t)(rn(3) == 0 ? rn(4) : 0) << 54; /* TLC */
	t |= (uint64_t)rn(7) << 32;                    /* TH */
	for (unsigned b = 20; b <= 31; b++)            /* filters, MT */
		if (b != 23 && rn(5) == 0)
			t |= UINT64_C(1) << b;
	if (rn(5) == 0)
		t |= (uint64_t)rn(4) << 56; /* VS */
	return t;
}

static uint64_t random_count(void)
{
	switch (rn(4)) {
	case 0:
		return 0xffffffffu - rn(40);
	case 1:
		return UINT64_MAX - rn(40);
	default:
		return rn(1000);
	}
}

static void random_context(const struct arm_emu_features *f, struct arm_emu_run *r)
{
	for (;;) {
		r->el = (uint8_t)rn(4);
		r->sec = (uint8_t)rn(4);
		r->streaming = f->sme && rn(2);
		if (r->el == 3 &&
		    !(r->sec == ARM_EMU_SEC_S || (r->sec == ARM_EMU_SEC_ROOT && f->rme)))
			continue;
		if (r->sec == ARM_EMU_SEC_ROOT && r->el != 3)
			continue;
		if (r->sec == ARM_EMU_SEC_REALM && !f->rme)
			continue;
		if (r->el == 2 && r->sec == ARM_EMU_SEC_S && !f->sel2)
			continue;
		return;
	}
}

struct stream_run {
	struct arm_emu_run r;
	struct arm_emu_val vals[4];
};

static void random_run(const struct arm_emu_features *f, struct stream_run *s, uint64_t cycles)
{
	memset(s, 0, sizeof(*s));
	s->r.cycles = cycles;
	random_context(f, &s->r);
	static const uint16_t ev[4] = {0x0008, 0x001d, 0x003d, 0x003f};
	for (unsigned i = 0; i < 4; i++)
		if (rn(3))
			s->vals[s->r.nr_vals++] = (struct arm_emu_val){ev[i], (uint16_t)rn(9)};
	s->r.vals = s->vals;
	s->r.pc = rn(2) ? 0x1000 + rn(100) * 4 : 0;
	s->r.context = rn(5);
	s->r.vmid = (uint16_t)rn(5);
}

/* the same random register write on both machines */
static void random_write(struct pair *p, unsigned pe, const struct arm_emu_features *f)
{
	unsigned n = rn(f->nr_counters);
	unsigned reg = 0, idx = 0;
	uint64_t v = 0;
	switch (rn(8)) {
	case 0:
		reg = ARM_EMU_PMCNTENSET_EL0, v = rnd();
		break;
	case 1:
		reg = ARM_EMU_PMCNTENCLR_EL0, v = rnd() & rnd();
		break;
	case 2:
		reg = ARM_EMU_PMEVTYPER_EL0, idx = n, v = random_typer();
		break;
	case 3:
		reg = ARM_EMU_PMCR_EL0, v = rnd() & 0xe1;
		break;
	case 4:
		reg = ARM_EMU_PMSWINC_EL0, v = rnd();
		break;
	case 5:
		reg = ARM_EMU_PMEVCNTR_EL0, idx = n, v = random_count();
		break;
	case 6:
		reg = ARM_EMU_MDCR_EL2, v = rn(f->nr_counters + 1) | (rnd() & 0x4020080);
		break;
	default:
		reg = ARM_EMU_PMOVSCLR_EL0, v = rnd();
		break;
	}
	unsigned el = rn(4);
	for (int i = 0; i < 2; i++)
		arm_emu_write(arm_emu_pe(p->m[i], pe), el, reg, idx, v);
}

static unsigned compare(struct pair *p, unsigned nr_pes)
{
	unsigned bad = 0;
	for (unsigned q = 0; q < nr_pes; q++) {
		struct arm_emu_pe *a = arm_emu_pe(p->m[0], q), *b = arm_emu_pe(p->m[1], q);
		for (unsigned reg = 0; reg < ARM_EMU_NR_REGS; reg++) {
			unsigned nidx = arm_emu_reg_indexed(reg) ? 31 : 1;
			for (unsigned idx = 0; idx < nidx; idx++) {
				uint64_t x = 0, y = 0;
				int ex = arm_emu_ext_read(a, reg, idx, &x),
				    ey = arm_emu_ext_read(b, reg, idx, &y);
				if (ex != ey || x != y) {
					char name[40];
					if (bad < 5)
						tap_diag(
						    "PE %u %s: fast 0x%llx reference 0x%llx", q,
						    arm_emu_reg_name(reg, idx, name, sizeof(name)),
						    (unsigned long long)x, (unsigned long long)y);
					bad++;
				}
			}
		}
		for (unsigned n = 0; n < 31; n++) {
			struct arm_emu_edge ex = arm_emu_edge_get(a, n),
			                    ey = arm_emu_edge_get(b, n);
			const struct arm_emu_edge *x = &ex, *y = &ey;
			if (x->valid != y->valid || x->prev != y->prev) {
				if (bad < 5)
					tap_diag("PE %u edge state of counter %u differs", q, n);
				bad++;
			}
		}
		if (arm_emu_irq_pending(a) != arm_emu_irq_pending(b))
			bad++;
	}
	return bad;
}

static void one_program(unsigned iter)
{
	const struct arm_emu_features *f = arm_emu_features_at(rn(3));
	unsigned per_core = f->mtpmu && rn(2) ? 2 : 1;
	unsigned nr_pes = per_core * (1 + rn(2));
	struct pair p = pair_new(f->name, nr_pes, per_core);

	for (unsigned q = 0; q < nr_pes; q++) {
		if (rn(2))
			pw(&p, q, ARM_EMU_MDCR_EL3, 0, ARM_EMU_MDCR3_SPME);
		pw(&p, q, ARM_EMU_MDCR_EL2, 0, rn(f->nr_counters + 1) | (rnd() & 0x4020080));
		pw(&p, q, ARM_EMU_PMCCFILTR_EL0, 0, random_typer());
		pw(&p, q, ARM_EMU_PMCCNTR_EL0, 0, random_count());
		for (unsigned n = 0; n < f->nr_counters; n++) {
			pxw(&p, q, ARM_EMU_PMEVTYPER_EL0, n, random_typer());
			pxw(&p, q, ARM_EMU_PMEVCNTR_EL0, n, random_count());
		}
		if (f->extpmn && rn(2)) {
			pxw(&p, q, ARM_EMU_EXT_EPMN, 0, rn(f->nr_counters + 1));
			pxw(&p, q, ARM_EMU_EXT_EXTE, 0, rn(2));
		}
		pxw(&p, q, ARM_EMU_PMCNTENSET_EL0, 0, rnd() | (rn(2) ? 0xffffffffu : 0));
		pw(&p, q, ARM_EMU_PMINTENSET_EL1, 0, rnd());
		pw(&p, q, ARM_EMU_PMCR_EL0, 0, (rnd() & 0xe0) | (rn(5) ? ARM_EMU_PMCR_E : 0));
	}
	/* keyed contents: a run with key k always has the same contents
	 * (source.h), so the fast path may cache its rules */
	static int source_id;
	struct stream_run keyed[4];
	for (unsigned i = 0; i < 4; i++) {
		random_run(f, &keyed[i], 1);
		keyed[i].r.key = i + 1;
		keyed[i].r.source = &source_id;
	}
	unsigned steps = 1 + rn(30);
	for (unsigned s = 0; s < steps; s++) {
		unsigned what = rn(4);
		if (what == 0) {
			random_write(&p, rn(nr_pes), f);
			continue;
		}
		uint64_t cycles = rn(5) == 0 ? 0 : 1 + rn(rn(4) == 0 ? 2000 : 12);
		unsigned core = rn(nr_pes / per_core);
		struct stream_run sr[2];
		const struct arm_emu_run *runs[2];
		for (unsigned k = 0; k < per_core; k++) {
			if (rn(2)) {
				sr[k] = keyed[rn(4)];
				sr[k].r.vals = sr[k].vals;
				sr[k].r.cycles = cycles;
			} else
				random_run(f, &sr[k], cycles);
			runs[k] = &sr[k].r;
		}
		if (what == 1 && per_core == 2) {
			arm_emu_run_core(p.m[0], core, runs);
			arm_emu_ref_run_core(p.m[1], core, runs);
		} else {
			struct arm_emu_pe *a = arm_emu_pe(p.m[0], core * per_core + rn(per_core));
			unsigned i = arm_emu_pe_index(a);
			arm_emu_run(a, runs[0]);
			arm_emu_ref_run(arm_emu_pe(p.m[1], i), runs[0]);
		}
	}
	unsigned bad = compare(&p, nr_pes);
	arm_emu_forget_source(p.m[0], &source_id);
	tap_ok(bad == 0, "program %u (%s, %u PE%s, %u per core, %u steps): every register equal",
	       iter, f->name, nr_pes, nr_pes > 1 ? "s" : "", per_core, steps);
	pair_free(&p);
}

int main(void)
{
	for (unsigned i = 0; i < 1000; i++)
		one_program(i);
	return tap_done();
}

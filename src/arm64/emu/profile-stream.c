/* profile-stream.c: what a loaded Arm workload profile declares (the
 * arm_src_profile_*() accessors of profile.h) and the stream of runs it
 * makes (arm_src_stream_*()).
 *
 * Owns: struct arm_src_stream; profile.c owns the profile, its parser and
 * its checks.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "arm64/emu/profile-int.h"
#include "emukit/alias.h"
#include "emukit/phase.h"
#include "emukit/rng.h"
#include "util/xalloc.h"

const char *arm_src_profile_name(const struct arm_src_profile *p)
{
	return p->name;
}
const char *arm_src_profile_description(const struct arm_src_profile *p)
{
	return p->description;
}
const char *arm_src_profile_origin(const struct arm_src_profile *p)
{
	return p->origin;
}
unsigned arm_src_profile_slots(const struct arm_src_profile *p)
{
	return p->slots;
}
unsigned arm_src_profile_stall_slot_bias(const struct arm_src_profile *p)
{
	return p->bias;
}

void arm_src_profile_declared(const struct arm_src_profile *p, struct arm_src_topdown *slots,
                              struct arm_src_topdown *cycles)
{
	if (slots)
		*slots = p->td_slots;
	if (cycles)
		*cycles = p->td_cycles;
}

void arm_src_profile_declared_kernel(const struct arm_src_profile *p, struct arm_src_topdown *slots,
                                     struct arm_src_topdown *cycles)
{
	if (slots)
		*slots = p->td_kernel_slots;
	if (cycles)
		*cycles = p->td_kernel_cycles;
}

void arm_src_profile_declared_arm(const struct arm_src_profile *p, enum arm_src_td_form form,
                                  bool kernel, struct arm_src_topdown *out)
{
	*out = kernel ? p->td_kernel_arm[form] : p->td_arm[form];
}

unsigned arm_src_profile_nr_events(const struct arm_src_profile *p)
{
	return p->nr_events;
}
uint16_t arm_src_profile_event(const struct arm_src_profile *p, unsigned i)
{
	return i < p->nr_events ? p->events[i] : 0;
}

double arm_src_profile_el_share(const struct arm_src_profile *p, unsigned el)
{
	return el < ARM_EMU_NR_EL ? p->el_share[el] : 0;
}
double arm_src_profile_sec_share(const struct arm_src_profile *p, unsigned sec)
{
	return sec < ARM_EMU_NR_SEC ? p->sec_share[sec] : 0;
}
double arm_src_profile_streaming_share(const struct arm_src_profile *p)
{
	return p->streaming_share;
}

EMU_PHASE_GETTERS(arm_src_profile, struct arm_src_profile)

unsigned arm_src_profile_nr_functions(const struct arm_src_profile *p)
{
	return p->nr_fns;
}

void arm_src_profile_function(const struct arm_src_profile *p, unsigned i,
                              struct arm_src_function *f)
{
	const struct fn *fn = &p->fns[i];
	f->name = fn->name;
	f->lo = fn->lo;
	f->hi = fn->lo + fn->size;
	f->share = fn->share * p->ctxs[fn->ctx].period_share;
}

uint32_t arm_src_profile_max_key(const struct arm_src_profile *p)
{
	return p->max_key;
}

/* ---------------------------------------------------------------- stream */

/* Uniform in lo..hi (hi - lo < 2^32). */
static uint64_t rng_range(struct hpm_rng *r, uint32_t lo, uint32_t hi)
{
	return lo + hpm_rng_scale(hpm_rng_next(r), (uint64_t)hi - lo + 1);
}

static void rng_seed(struct hpm_rng *r, uint64_t seed, uint64_t stream)
{
	uint64_t x = seed ^ (stream * UINT64_C(0xd1b54a32d192ed03));
	hpm_rng_seed(r, &x);
}

static unsigned alias_draw(struct hpm_rng *r, unsigned n, const uint32_t *thr,
                           const unsigned *alias)
{
	return hpm_alias_pick(hpm_rng_next(r), n, thr, alias);
}

struct arm_src_stream {
	const struct arm_src_profile *p;
	struct hpm_rng cls_rng, ctx_rng, fn_rng, pc_rng;
	unsigned phase;
	uint64_t phase_left;
	int cls; /* -1: draw a class */
	unsigned seg;
	uint64_t seg_left, ctx_left, fn_left;
	unsigned ctx;
	int fn;      /* -1: the context has no functions */
	unsigned pt; /* 0: no PC, else 1 + point */
	uint64_t pc;
};

struct arm_src_stream *arm_src_stream_new(const struct arm_src_profile *p, uint64_t seed)
{
	struct arm_src_stream *s = xcalloc(1, sizeof(*s));
	s->p = p;
	rng_seed(&s->cls_rng, seed, 1);
	rng_seed(&s->ctx_rng, seed, 2);
	rng_seed(&s->fn_rng, seed, 3);
	rng_seed(&s->pc_rng, seed, 4);
	s->phase_left = p->phases[0].cycles;
	s->cls = -1;
	s->fn = -1;
	return s;
}

void arm_src_stream_free(struct arm_src_stream *s)
{
	free(s);
}

unsigned arm_src_stream_phase(const struct arm_src_stream *s)
{
	return s->p->period && !s->phase_left ? (s->phase + 1) % s->p->nr_phases : s->phase;
}

void arm_src_stream_next(struct arm_src_stream *s, uint64_t max_cycles, struct arm_emu_run *run)
{
	const struct arm_src_profile *p = s->p;
	bool piece = false;

	if (!max_cycles) {
		memset(run, 0, sizeof(*run));
		run->source = p;
		return;
	}
	if (p->period && !s->phase_left) {
		s->phase = (s->phase + 1) % p->nr_phases;
		s->phase_left = p->phases[s->phase].cycles;
		s->seg_left = 0;
		s->cls = -1;
		s->ctx_left = 0;
	}
	const struct phase *ph = &p->phases[s->phase];
	if (!s->seg_left) {
		if (s->cls < 0 || ++s->seg == p->clss[s->cls].nr_segs) {
			const struct alias *a = &ph->cls_alias;
			s->cls = (int)a->item[alias_draw(&s->cls_rng, a->n, a->thr, a->alias)];
			s->seg = 0;
		}
		const struct seg *g = &p->clss[s->cls].segs[s->seg];
		s->seg_left = rng_range(&s->cls_rng, g->lo, g->hi);
		piece = true;
	}
	if (!s->ctx_left) {
		const struct alias *a = &ph->ctx_alias;
		s->ctx = a->item[alias_draw(&s->ctx_rng, a->n, a->thr, a->alias)];
		s->ctx_left = rng_range(&s->ctx_rng, p->sw_lo, p->sw_hi);
		s->fn_left = 0;
	}
	const struct ctx *c = &p->ctxs[s->ctx];
	if (!s->fn_left) {
		if (c->nr_fn) {
			s->fn =
			    (int)c->fn[alias_draw(&s->fn_rng, c->nr_fn, c->fn_thr, c->fn_alias)];
			s->fn_left = rng_range(&s->fn_rng, p->fsw_lo, p->fsw_hi);
		} else {
			s->fn = -1;
			s->fn_left = UINT64_MAX;
		}
		piece = true;
	}
	if (piece) {
		if (s->fn < 0) {
			s->pt = 0;
			s->pc = 0;
		} else {
			const struct fn *f = &p->fns[s->fn];
			unsigned j = (unsigned)rng_range(&s->pc_rng, 0, f->npts - 1);
			uint64_t words = f->size / 4;
			/* point j of npts spread evenly over the function's words */
			s->pc = f->lo + 4 * ((2 * j + 1) * words / (2 * f->npts));
			s->pt = 1 + f->pt_base + j;
		}
	}
	uint64_t n = max_cycles;
	if (s->seg_left < n)
		n = s->seg_left;
	if (s->ctx_left < n)
		n = s->ctx_left;
	if (s->fn_left < n)
		n = s->fn_left;
	if (p->period && s->phase_left < n)
		n = s->phase_left;
	s->seg_left -= n;
	s->ctx_left -= n;
	if (s->fn_left != UINT64_MAX)
		s->fn_left -= n;
	if (p->period)
		s->phase_left -= n;

	unsigned cy = p->clss[s->cls].segs[s->seg].cyc;
	const struct cyc *cyc = &p->cycs[cy];
	run->cycles = n;
	run->key = 1 + (uint32_t)(((uint64_t)cy * p->nr_ctxs + s->ctx) * p->nr_pts + s->pt);
	run->source = p;
	run->el = c->el;
	run->sec = c->sec;
	run->streaming = c->streaming;
	run->pc = s->pc;
	run->context = c->contextid;
	run->vmid = c->vmid;
	run->nr_vals = cyc->nr;
	run->vals = cyc->vals;
}

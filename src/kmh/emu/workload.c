/* workload.c: the stream of runs of a workload profile.
 *
 * Owns: the random number generator and the state machine that walks
 * phase -> class -> run of one cycle definition, clipped at mode changes,
 * phase ends and the consumer's max_cycles. Every random draw happens at a
 * fixed position in the cycle stream (the start of a class, the start of a
 * run, a mode change), never because of how the consumer slices it, so the
 * stream depends on (profile, seed) only.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "emukit/alias.h"
#include "emukit/rng.h"
#include "kmh/emu/workload-int.h"
#include "util/xalloc.h"

/* Runs are drawn WL_BATCH at a time: the loop that draws them has no
 * dependence from one run to the next except the generator state, so the
 * CPU overlaps them, and emu_workload_next() only pops. */
#define WL_BATCH 64

struct wl_next {
	const struct wl_cycle *c;
	uint64_t len;
	int fn; /* its function, -1 for none */
};

struct emu_workload {
	const struct emu_profile *p;
	struct hpm_rng run_rng;  /* classes and run lengths */
	struct hpm_rng mode_rng; /* modes: a stream of its own, so that mode
	                          * draws never shift the run draws */
	struct hpm_rng pc_rng;   /* PCs within functions: likewise */
	/* phase */
	const struct wl_phase *ph;
	unsigned phase;
	uint64_t phase_left; /* UINT64_MAX: endless */
	/* the run being emitted */
	const struct wl_cycle *cur;
	uint64_t seg_left;
	int cur_fn;      /* the run's function, -1 for none */
	uint64_t cur_pc; /* and its PC (0 without functions) */
	/* functions: the one being drawn from, and its class draws left */
	int draw_fn;
	uint64_t fn_left;
	/* drawn runs not yet started, and where the drawing is in its class */
	unsigned pos;
	const struct wl_seg *seg, *seg_end;
	struct wl_next next[WL_BATCH];
	/* mode */
	uint64_t mode_left;
	uint8_t mode;
	uint8_t nr_modes;
	uint8_t modes[EMU_NR_MODES]; /* modes with a share, in order */
};

/* Uniform in 0..span-1, exactly (Lemire's multiply-and-reject on 32 bits),
 * so that mean run lengths are exactly (lo + hi) / 2. */
static uint32_t bounded(struct hpm_rng *g, uint32_t span)
{
	return hpm_rng_below(g, span, NULL);
}

/* lo + uniform(0..hi-lo): one code path for fixed and ranged lengths */
static uint64_t draw_len(struct hpm_rng *g, uint32_t lo, uint32_t hi)
{
	return (uint64_t)lo + bounded(g, hi - lo + 1);
}

static void next_mode(struct emu_workload *w)
{
	const struct emu_profile *p = w->p;
	if (w->nr_modes > 1) {
		uint64_t r = hpm_rng_next(&w->mode_rng);
		unsigned i = 0;
		while (i + 1 < w->nr_modes && r > p->mode_cut[w->modes[i]])
			i++;
		w->mode = w->modes[i];
	}
	w->mode_left = draw_len(&w->mode_rng, p->mode_lo, p->mode_hi);
}

static void start_phase(struct emu_workload *w, unsigned i)
{
	w->phase = i;
	w->ph = &w->p->phases[i];
	w->phase_left = w->ph->cycles ? w->ph->cycles : UINT64_MAX;
	/* A phase starts with a fresh class: the one running is cut short and
	 * the runs drawn for the old phase are dropped. */
	w->seg = w->seg_end = NULL;
	w->pos = WL_BATCH;
	w->seg_left = 0;
}

/* The function of the next fn_lo..fn_hi class draws (profile.c: its
 * probability makes its cycle share converge to its share). */
static void draw_function(struct emu_workload *w, struct hpm_rng *g)
{
	const struct emu_profile *p = w->p;
	unsigned n = p->nr_funcs;
	w->draw_fn = (int)hpm_alias_pick(hpm_rng_next(g), n, p->fn_thr, p->fn_alias);
	w->fn_left = draw_len(g, p->fn_lo, p->fn_hi);
}

static void draw_runs(struct emu_workload *w)
{
	const struct wl_phase *ph = w->ph;
	const bool funcs = w->p->nr_funcs > 0;
	const struct wl_class *classes = w->p->classes;
	struct hpm_rng *g = &w->run_rng;
	const struct wl_seg *seg = w->seg, *end = w->seg_end;
	for (unsigned n = 0; n < WL_BATCH; n++) {
		if (seg == end) {
			if (funcs) {
				if (w->fn_left == 0)
					draw_function(w, g);
				w->fn_left--;
				ph = &w->p->funcs[w->draw_fn].mix;
			}
			/* Walker alias draw: a column, exactly uniform, then a
			 * 32-bit coin between the column and its alias. */
			uint64_t r;
			unsigned col = hpm_rng_below(g, ph->nr, &r);
			unsigned k = hpm_alias_at(col, r, ph->thr, ph->alias);
			const struct wl_class *cls = &classes[ph->cls[k]];
			seg = cls->segs;
			end = cls->segs + cls->nr_segs;
		}
		w->next[n].c = seg->c;
		w->next[n].len = draw_len(g, seg->lo, seg->hi);
		w->next[n].fn = w->draw_fn;
		seg++;
	}
	w->seg = seg;
	w->seg_end = end;
	w->pos = 0;
}

struct emu_workload *emu_workload_new_task(const struct emu_profile *p, unsigned task,
                                           uint64_t seed)
{
	struct emu_workload *w = emu_workload_new(p, seed);
	/* one endless phase: the task's mix */
	w->ph = &p->tasks[task].mix;
	w->phase_left = UINT64_MAX;
	return w;
}

struct emu_workload *emu_workload_new(const struct emu_profile *p, uint64_t seed)
{
	struct emu_workload *w = xcalloc(1, sizeof(*w));
	w->p = p;
	uint64_t x = seed;
	hpm_rng_seed(&w->run_rng, &x);
	hpm_rng_seed(&w->mode_rng, &x);
	hpm_rng_seed(&w->pc_rng, &x);
	w->cur_fn = w->draw_fn = -1;
	for (unsigned m = 0; m < EMU_NR_MODES; m++)
		if (p->mode_share[m] > 0)
			w->modes[w->nr_modes++] = (uint8_t)m;
	w->mode = w->modes[0];
	next_mode(w);
	start_phase(w, 0);
	return w;
}

void emu_workload_next(struct emu_workload *w, uint64_t max_cycles, struct emu_run *run)
{
	if (w->seg_left == 0) {
		if (w->pos == WL_BATCH)
			draw_runs(w);
		w->cur = w->next[w->pos].c;
		w->seg_left = w->next[w->pos].len;
		w->cur_fn = w->next[w->pos].fn;
		w->pos++;
		if (w->cur_fn >= 0) {
			/* point j of npts spread evenly over the function's halfwords */
			const struct wl_func *f = &w->p->funcs[w->cur_fn];
			uint64_t j = bounded(&w->pc_rng, f->npts), half = (f->hi - f->lo) / 2;
			w->cur_pc = f->lo + 2 * ((2 * j + 1) * half / (2 * f->npts));
		}
	}
	uint64_t n = w->seg_left;
	if (n > w->mode_left)
		n = w->mode_left;
	if (n > w->phase_left)
		n = w->phase_left;
	if (n > max_cycles)
		n = max_cycles;
	const struct wl_cycle *c = w->cur;
	run->cycles = n;
	run->key = c->key;
	run->source = w;
	run->mode = w->mode;
	run->instret = c->instret;
	for (unsigned b = 0; b < KMH_NR_BANKS; b++)
		run->vals[b] = c->bank[b];
	if (n == 0)
		return;
	w->seg_left -= n;
	w->mode_left -= n;
	if (w->mode_left == 0)
		next_mode(w);
	if (w->phase_left != UINT64_MAX) {
		w->phase_left -= n;
		if (w->phase_left == 0)
			start_phase(w, w->phase + 1 == w->p->nr_phases ? 0 : w->phase + 1);
	}
}

int emu_workload_function(const struct emu_workload *w)
{
	return w->cur_fn;
}

uint64_t emu_workload_pc(const struct emu_workload *w)
{
	return w->cur_fn >= 0 ? w->cur_pc : 0;
}

unsigned emu_workload_phase(const struct emu_workload *w)
{
	return w->phase;
}

void emu_workload_free(struct emu_workload *w)
{
	free(w);
}

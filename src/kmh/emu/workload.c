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

struct wl_rng {
	uint64_t s[4]; /* xoshiro256** state */
};

struct emu_workload {
	const struct emu_profile *p;
	struct wl_rng run_rng;  /* classes and run lengths */
	struct wl_rng mode_rng; /* modes: a stream of its own, so that mode
	                         * draws never shift the run draws */
	struct wl_rng pc_rng;   /* PCs within functions: likewise */
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

/* splitmix64, to spread one 64-bit seed over the generator's state. */
static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* xoshiro256** (Blackman and Vigna): fast, and good in every bit. */
static inline uint64_t rng(struct wl_rng *g)
{
	uint64_t *s = g->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

/* Uniform in 0..span-1, exactly (Lemire's multiply-and-reject on 32 bits),
 * so that mean run lengths are exactly (lo + hi) / 2. */
static uint32_t bounded(struct wl_rng *g, uint32_t span)
{
	uint64_t m = (rng(g) >> 32) * span;
	uint32_t low = (uint32_t)m;
	if (low < span) {
		uint32_t reject = (0u - span) % span;
		while (low < reject) {
			m = (rng(g) >> 32) * span;
			low = (uint32_t)m;
		}
	}
	return (uint32_t)(m >> 32);
}

/* lo + uniform(0..hi-lo): one code path for fixed and ranged lengths */
static uint64_t draw_len(struct wl_rng *g, uint32_t lo, uint32_t hi)
{
	return (uint64_t)lo + bounded(g, hi - lo + 1);
}

static void next_mode(struct emu_workload *w)
{
	const struct emu_profile *p = w->p;
	if (w->nr_modes > 1) {
		uint64_t r = rng(&w->mode_rng);
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
static void draw_function(struct emu_workload *w, struct wl_rng *g)
{
	const struct emu_profile *p = w->p;
	unsigned n = p->nr_funcs;
	uint64_t r = rng(g);
	unsigned col = (unsigned)(((r >> 32) * n) >> 32);
	w->draw_fn = (int)((uint32_t)r < p->fn_thr[col] ? col : p->fn_alias[col]);
	w->fn_left = draw_len(g, p->fn_lo, p->fn_hi);
}

static void draw_runs(struct emu_workload *w)
{
	const struct wl_phase *ph = w->ph;
	const bool funcs = w->p->nr_funcs > 0;
	const struct wl_class *classes = w->p->classes;
	struct wl_rng *g = &w->run_rng;
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
			uint64_t r = rng(g);
			uint64_t m = (r >> 32) * ph->nr;
			if ((uint32_t)m < ph->nr) {
				uint32_t reject = (0u - ph->nr) % ph->nr;
				while ((uint32_t)m < reject) {
					r = rng(g);
					m = (r >> 32) * ph->nr;
				}
			}
			unsigned col = (unsigned)(m >> 32);
			unsigned k = (uint32_t)r < ph->thr[col] ? col : ph->alias[col];
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
	for (unsigned i = 0; i < 4; i++)
		w->run_rng.s[i] = splitmix64(&x);
	for (unsigned i = 0; i < 4; i++)
		w->mode_rng.s[i] = splitmix64(&x);
	for (unsigned i = 0; i < 4; i++)
		w->pc_rng.s[i] = splitmix64(&x);
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

/* hart.c: the emulated machine and its harts: the counter CSR file, the
 * access rules of SPEC §2 and the counting fast path.
 *
 * Owns: struct emu, struct emu_hart, every CSR value and the per-hart result
 * cache. See emu.h for the rules; this file says how they are made fast.
 *
 * The fast path. A run is `cycles` identical cycles, so one evaluation of a
 * counter's tree per run gives the per-cycle result RESULT2 exactly, and the
 * counter adds cycles x RESULT2. Two more steps take the tree evaluation and
 * the 29 additions out of the per-run work:
 *  - Cache. A run with a non-zero key promises the same values as every
 *    earlier run of that key from the same source, so RESULT2 of all 29
 *    counters is computed once per (source, key) and kept in a cache entry.
 *    Keys below 256 (sources number their contents 1, 2, ...) index a
 *    table directly, others are hashed; the last key is checked first.
 *    An mhpmevent write that changes more than OF changes what the trees
 *    select and empties the cache.
 *  - Batch. Each entry accumulates the cycles it ran in each mode; the per-run
 *    work is one addition. The batch is folded into the counters (29
 *    multiply-adds per entry and mode used) when anything could observe the
 *    counters: before every CSR access, in emu_hart_sync(), and when the
 *    batch holds 2^58 cycles. That bound keeps every sum exact in 64 bits
 *    (63 x 2^58 < 2^64): a fold adds less than 2^64, so it wraps a counter at
 *    most once, and the wrap shows as the new value being below the old one.
 *    Deferring is exact because only "wrapped at least once" is observable:
 *    OF is sticky and LCOFIP depends only on OF before the first wrap.
 * Runs with key 0 are evaluated and added at once.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "kmh/emu/emu.h"
#include "kmh/mhpmevent.h"
#include "util/xalloc.h"

#define NR_HPM           KMH_NR_COUNTERS      /* mhpmcounter3..31 */
#define BATCH_LIMIT      (UINT64_C(1) << 58)  /* cycles per fold: 63 x this < 2^64 */
#define CACHE_MAX        (1u << 16)           /* entries before the cache starts over */
#define CACHE_MIN        64u                  /* first allocation */
#define SMALL_KEYS       256u                 /* keys looked up without hashing */
#define CNT_WRITABLE     UINT32_C(0xffffffff) /* counteren bits 31:0 */
#define INHIBIT_WRITABLE UINT32_C(0xfffffffd) /* mcountinhibit: TM reads 0 */

/* One mhpmevent decoded for evaluation. */
struct prog {
	uint16_t idx[KMH_NR_SLOTS]; /* event index; 0 for noEvent and out-of-table */
	uint8_t op[KMH_NR_OPS];     /* legal op (stored values are legal) */
	uint8_t bank;               /* bank the counter sees */
};

/* The cached results of one key. */
struct centry {
	uint64_t cyc[EMU_NR_MODES]; /* batched cycles per mode, not yet counted */
	uint64_t r[NR_HPM];         /* RESULT2 per counter, 0..63 */
	uint32_t key;
	uint8_t instret;
	uint8_t dirty; /* on the dirty list */
};

/* The cache's memory: kept across resets (hart_init), grown by hart_cache_grow. */
struct hart_cache_mem {
	struct centry *ent; /* cache entries */
	unsigned cap_ent;
	uint32_t *tab;     /* keys from SMALL_KEYS, open addressing: entry index + 1, 0 = free */
	unsigned tab_bits; /* tab has 1 << tab_bits slots (twice cap_ent) */
	uint32_t *dirty;   /* entries with batched cycles */
};

struct emu_hart {
	struct emu *emu;
	unsigned index;
	uint8_t mode; /* current mode, enum emu_mode */

	uint64_t mcycle;
	uint64_t minstret;
	uint32_t fixed_wrapped; /* EMU_CNT_CY/IR: passed 2^64 - 1 since last written */
	uint64_t ctr[NR_HPM];   /* mhpmcounter3..31 */
	uint64_t evt[NR_HPM];   /* mhpmevent3..31, as stored (WARL applied) */
	uint32_t mcountinhibit;
	uint32_t mcounteren;
	uint32_t scounteren;
	uint32_t hcounteren;
	uint64_t menvcfg;
	uint64_t henvcfg;
	uint64_t stimecmp;
	uint64_t vstimecmp;
	uint64_t htimedelta;
	uint64_t mip; /* written bits: LCOFIP, and STIP for when menvcfg.STCE = 0 */

	struct prog prog[NR_HPM];
	uint64_t mask[EMU_NR_MODES][NR_HPM]; /* all ones where the counter counts in that mode */

	const void *src; /* source whose keys the cache holds */
	struct hart_cache_mem mem;
	unsigned nr_ent;
	uint32_t small[SMALL_KEYS]; /* entry + 1 of each key below SMALL_KEYS, 0 = none */
	uint32_t last_key;          /* key of the last lookup, 0 = none */
	unsigned last_ent;
	unsigned nr_dirty;
	uint64_t batch; /* cycles batched since the last fold */
};

struct emu {
	uint64_t time;
	unsigned nr_harts;
	struct emu_hart *harts;
	const struct kmh_table *table; /* whose indices mhpmevent's EVENTn fields hold */
};

/* ------------------------------------------------------------ decoding */

/* The value with each OP_TYPE replaced by the op the counter executes. */
static uint64_t mhpmevent_warl(uint64_t v)
{
	for (unsigned n = 0; n < KMH_NR_OPS; n++)
		v = kmh_mhpmevent_set_op(v, n, kmh_op_hardware(kmh_mhpmevent_op(v, n)));
	return v;
}

static uint64_t mode_inh_bit(unsigned mode)
{
	static const uint64_t bit[EMU_NR_MODES] = {
	    [EMU_MODE_M] = KMH_MINH,   [EMU_MODE_HS] = KMH_SINH,  [EMU_MODE_HU] = KMH_UINH,
	    [EMU_MODE_VS] = KMH_VSINH, [EMU_MODE_VU] = KMH_VUINH,
	};
	return bit[mode];
}

unsigned emu_signal_index(const struct kmh_table *t, int bank, unsigned idx)
{
	if (t == &kmh_table_v2)
		return idx;
	const struct kmh_event *ev = kmh_event_by_index(t, bank, idx);
	const struct kmh_event *v2 =
	    ev ? kmh_event_by_name(&kmh_table_v2, bank, kmh_str(t, ev->name)) : NULL;
	return v2 ? v2->index : 0;
}

/* An mhpmevent value of table t's indices as counter `counter` (of the bank
 * it sees) decodes it: each index to the signal the sources produce for it
 * (emu_signal_index), routed as v2's RTL routes that signal. */
static void prog_decode(struct prog *p, const struct kmh_table *t, uint64_t evt, unsigned counter)
{
	int bank = kmh_bank_of_counter(&kmh_table_v2, counter);
	unsigned nr = t->banks[bank].nr_events;

	p->bank = (uint8_t)bank;
	for (unsigned k = 0; k < KMH_NR_SLOTS; k++) {
		unsigned idx = kmh_mhpmevent_event(evt, k);
		/* out of the table: delivers 0, like noEvent */
		p->idx[k] = (uint16_t)(idx < nr ? kmh_event_wire(&kmh_table_v2, bank,
		                                                 emu_signal_index(t, bank, idx))
		                                : 0);
	}
	for (unsigned n = 0; n < KMH_NR_OPS; n++)
		p->op[n] = (uint8_t)kmh_mhpmevent_op(evt, n);
}

static void hart_decode(struct emu_hart *h, unsigned i)
{
	prog_decode(&h->prog[i], h->emu->table, h->evt[i], KMH_FIRST_COUNTER + i);
}

static void hart_update_masks(struct emu_hart *h)
{
	for (unsigned i = 0; i < NR_HPM; i++) {
		bool on = !(h->mcountinhibit & EMU_CNT_HPM(KMH_FIRST_COUNTER + i));
		for (unsigned m = 0; m < EMU_NR_MODES; m++)
			h->mask[m][i] = on && !(h->evt[i] & mode_inh_bit(m)) ? UINT64_MAX : 0;
	}
}

/* RESULT2 of one decoded counter for one cycle of `run`. */
static uint64_t prog_eval(const struct prog *p, const struct emu_run *run)
{
	const uint8_t *v = run->vals[p->bank];
	unsigned e[KMH_NR_SLOTS] = {0, 0, 0, 0};

	if (v)
		for (unsigned k = 0; k < KMH_NR_SLOTS; k++)
			e[k] = p->idx[k] ? v[p->idx[k]] & 63u : 0;
	unsigned r0 = kmh_op_apply(p->op[0], e[0], e[1]);
	unsigned r1 = kmh_op_apply(p->op[1], e[2], e[3]);
	return kmh_op_apply(p->op[2], r0, r1);
}

/* RESULT2 of every counter for one cycle of `run`. */
static void hart_eval(const struct emu_hart *h, const struct emu_run *run, uint64_t r[NR_HPM])
{
	for (unsigned i = 0; i < NR_HPM; i++)
		r[i] = prog_eval(&h->prog[i], run);
}

uint64_t emu_event_per_cycle(uint64_t evt, unsigned counter, const struct emu_run *run)
{
	struct prog p;
	if (run->mode >= EMU_NR_MODES)
		return 0;
	if (counter == 0)
		return 1;
	if (counter == 2)
		return run->instret & 63u;
	if (counter < KMH_FIRST_COUNTER || counter >= KMH_FIRST_COUNTER + NR_HPM ||
	    (mhpmevent_warl(evt) & mode_inh_bit(run->mode)))
		return 0;
	prog_decode(&p, &kmh_table_v2, mhpmevent_warl(evt), counter);
	return prog_eval(&p, run);
}

/* --------------------------------------------------------------- counting */

static void hart_overflow(struct emu_hart *h, unsigned i)
{
	if (!(h->evt[i] & KMH_OF)) {
		h->evt[i] |= KMH_OF;
		h->mip |= EMU_MIP_LCOFIP;
	}
}

/* add < 2^64, so at most one wrap per call. */
static void hart_counter_add(struct emu_hart *h, unsigned i, uint64_t add)
{
	uint64_t old = h->ctr[i];
	h->ctr[i] = old + add;
	if (h->ctr[i] < old)
		hart_overflow(h, i);
}

static void hart_fixed_add(struct emu_hart *h, uint64_t cycles, uint64_t instrs)
{
	/* Kunminghu has no OF for these: the emulator notes a wrap for
	 * hpmstat (adds are below 2^64, so a wrap shows as a smaller sum) */
	if (!(h->mcountinhibit & EMU_CNT_CY)) {
		h->mcycle += cycles;
		if (h->mcycle < cycles)
			h->fixed_wrapped |= EMU_CNT_CY;
	}
	if (!(h->mcountinhibit & EMU_CNT_IR)) {
		h->minstret += instrs;
		if (h->minstret < instrs)
			h->fixed_wrapped |= EMU_CNT_IR;
	}
}

/* Folds the batch into the counters. */
static void hart_fold(struct emu_hart *h)
{
	uint64_t add[NR_HPM] = {0};
	uint64_t cycles = 0, instrs = 0;

	if (!h->nr_dirty)
		return;
	for (unsigned d = 0; d < h->nr_dirty; d++) {
		struct centry *e = &h->mem.ent[h->mem.dirty[d]];
		for (unsigned m = 0; m < EMU_NR_MODES; m++) {
			uint64_t c = e->cyc[m];
			if (!c)
				continue;
			const uint64_t *mask = h->mask[m];
			for (unsigned i = 0; i < NR_HPM; i++)
				add[i] += c * (e->r[i] & mask[i]);
			cycles += c;
			instrs += c * e->instret;
			e->cyc[m] = 0;
		}
		e->dirty = 0;
	}
	h->nr_dirty = 0;
	h->batch = 0;
	for (unsigned i = 0; i < NR_HPM; i++)
		if (add[i])
			hart_counter_add(h, i, add[i]);
	hart_fixed_add(h, cycles, instrs);
}

static void hart_cache_clear(struct emu_hart *h)
{
	hart_fold(h);
	if (h->mem.tab)
		memset(h->mem.tab, 0, sizeof(*h->mem.tab) << h->mem.tab_bits);
	memset(h->small, 0, sizeof(h->small));
	h->nr_ent = 0;
	h->last_key = 0;
}

static unsigned hart_slot(const struct emu_hart *h, uint32_t key)
{
	return (unsigned)((key * UINT32_C(0x9e3779b1)) >> (32 - h->mem.tab_bits));
}

static void hart_cache_grow(struct emu_hart *h)
{
	unsigned cap = h->mem.cap_ent ? h->mem.cap_ent * 2 : CACHE_MIN;

	h->mem.ent = xreallocarray(h->mem.ent, cap, sizeof(*h->mem.ent));
	h->mem.dirty = xreallocarray(h->mem.dirty, cap, sizeof(*h->mem.dirty));
	h->mem.cap_ent = cap;
	free(h->mem.tab);
	h->mem.tab_bits = 1;
	while ((1u << h->mem.tab_bits) < 2 * cap)
		h->mem.tab_bits++;
	h->mem.tab = xcalloc((size_t)1 << h->mem.tab_bits, sizeof(*h->mem.tab));
	for (unsigned e = 0; e < h->nr_ent; e++) {
		if (h->mem.ent[e].key < SMALL_KEYS)
			continue;
		unsigned s = hart_slot(h, h->mem.ent[e].key);
		while (h->mem.tab[s])
			s = (s + 1) & ((1u << h->mem.tab_bits) - 1);
		h->mem.tab[s] = e + 1;
	}
}

/* The cache entry of a keyed run, created (and evaluated) on a miss. */
static unsigned hart_lookup(struct emu_hart *h, const struct emu_run *run)
{
	if (run->source != h->src) {
		hart_cache_clear(h);
		h->src = run->source;
	}
	if (run->key == h->last_key)
		return h->last_ent;
	if (run->key < SMALL_KEYS) {
		/* sources number their contents 1, 2, ...: no hashing for those */
		if (h->small[run->key])
			return h->small[run->key] - 1;
	} else if (h->mem.cap_ent) {
		unsigned mask = (1u << h->mem.tab_bits) - 1;
		for (unsigned s = hart_slot(h, run->key); h->mem.tab[s]; s = (s + 1) & mask) {
			if (h->mem.ent[h->mem.tab[s] - 1].key == run->key) {
				h->last_key = run->key;
				h->last_ent = h->mem.tab[s] - 1;
				return h->last_ent;
			}
		}
	}
	if (h->nr_ent == h->mem.cap_ent) {
		if (h->mem.cap_ent >= CACHE_MAX)
			hart_cache_clear(h); /* too many keys: start over */
		else
			hart_cache_grow(h);
	}
	unsigned e = h->nr_ent++;
	struct centry *ce = &h->mem.ent[e];
	memset(ce->cyc, 0, sizeof(ce->cyc));
	hart_eval(h, run, ce->r);
	ce->key = run->key;
	ce->instret = (uint8_t)(run->instret & 63u);
	ce->dirty = 0;
	if (run->key < SMALL_KEYS) {
		h->small[run->key] = e + 1;
	} else {
		unsigned mask = (1u << h->mem.tab_bits) - 1, s = hart_slot(h, run->key);
		while (h->mem.tab[s])
			s = (s + 1) & mask;
		h->mem.tab[s] = e + 1;
	}
	h->last_key = run->key;
	h->last_ent = e;
	return e;
}

static void hart_batch(struct emu_hart *h, unsigned e, unsigned mode, uint64_t cycles)
{
	struct centry *ce = &h->mem.ent[e];
	ce->cyc[mode] += cycles;
	h->batch += cycles;
	if (!ce->dirty) {
		ce->dirty = 1;
		h->mem.dirty[h->nr_dirty++] = e;
	}
}

/* A run without key: evaluate now, add now (in chunks that keep the
 * products exact). */
static void hart_run_direct(struct emu_hart *h, const struct emu_run *run)
{
	uint64_t r[NR_HPM];
	const uint64_t *mask = h->mask[run->mode];
	uint64_t instret = run->instret & 63u;

	hart_eval(h, run, r);
	for (uint64_t left = run->cycles; left;) {
		uint64_t c = left < BATCH_LIMIT ? left : BATCH_LIMIT;
		for (unsigned i = 0; i < NR_HPM; i++) {
			uint64_t add = c * (r[i] & mask[i]);
			if (add)
				hart_counter_add(h, i, add);
		}
		hart_fixed_add(h, c, c * instret);
		left -= c;
	}
}

void emu_hart_run(struct emu_hart *h, const struct emu_run *run)
{
	uint64_t cycles = run->cycles;

	if (!cycles || run->mode >= EMU_NR_MODES)
		return;
	if (!run->key) {
		hart_run_direct(h, run);
		return;
	}
	unsigned e = hart_lookup(h, run);
	while (cycles > BATCH_LIMIT - h->batch) {
		uint64_t room = BATCH_LIMIT - h->batch;
		hart_batch(h, e, run->mode, room);
		cycles -= room;
		hart_fold(h);
	}
	hart_batch(h, e, run->mode, cycles);
}

/* Cycles of `inc` per cycle until a counter at `ctr` wraps (the cycle in
 * which it goes past 2^64 - 1, counted from 1): ceil((2^64 - ctr) / inc),
 * UINT64_MAX when that is beyond 64 bits. */
static uint64_t cycles_to_wrap(uint64_t ctr, uint64_t inc)
{
	uint64_t below = (0 - ctr) - 1; /* 2^64 - ctr - 1, also for ctr = 0 */
	uint64_t q = below / inc;
	return q == UINT64_MAX ? UINT64_MAX : q + 1;
}

uint64_t emu_hart_run_watch(struct emu_hart *h, const struct emu_run *run, uint32_t watch,
                            uint32_t *overflowed)
{
	uint64_t r[NR_HPM], stop = run->cycles;
	const uint64_t *rr;

	*overflowed = 0;
	watch &= ~(uint32_t)((UINT32_C(1) << KMH_FIRST_COUNTER) - 1);
	if (!watch || !run->cycles || run->mode >= EMU_NR_MODES) {
		emu_hart_run(h, run);
		return run->cycles;
	}
	/* The watched counters' values must be exact: fold the batch (cheap,
	 * one entry at most between watched runs). */
	hart_fold(h);
	if (run->key) {
		unsigned e = hart_lookup(h, run); /* may move h->mem.ent */
		rr = h->mem.ent[e].r;
	} else {
		hart_eval(h, run, r);
		rr = r;
	}
	const uint64_t *mask = h->mask[run->mode];
	uint64_t need[NR_HPM];
	for (unsigned i = 0; i < NR_HPM; i++) {
		need[i] = UINT64_MAX;
		/* a counter whose OF is set raises no new interrupt (Sscofpmf) */
		if (!(watch & EMU_CNT_HPM(KMH_FIRST_COUNTER + i)) || (h->evt[i] & KMH_OF))
			continue;
		uint64_t inc = rr[i] & mask[i];
		if (!inc)
			continue;
		need[i] = cycles_to_wrap(h->ctr[i], inc);
		if (need[i] < stop)
			stop = need[i];
	}
	struct emu_run part = *run;
	part.cycles = stop;
	emu_hart_run(h, &part);
	for (unsigned i = 0; i < NR_HPM; i++)
		if (need[i] == stop)
			*overflowed |= EMU_CNT_HPM(KMH_FIRST_COUNTER + i);
	if (*overflowed)
		hart_fold(h); /* OF and LCOFIP as of the end of the overflow cycle */
	return stop;
}

void emu_hart_sync(struct emu_hart *h)
{
	hart_fold(h);
}

/* ---------------------------------------------------------------- machine */

static void hart_cache_mem_free(struct hart_cache_mem *mem)
{
	free(mem->ent);
	free(mem->tab);
	free(mem->dirty);
}

static void hart_init(struct emu_hart *h, struct emu *emu, unsigned index)
{
	/* keep the cache's memory across resets */
	struct hart_cache_mem mem = h->mem;

	memset(h, 0, sizeof(*h));
	h->emu = emu;
	h->index = index;
	h->mode = EMU_MODE_M;
	h->stimecmp = UINT64_MAX; /* Sstc reset value */
	h->vstimecmp = UINT64_MAX;
	h->mem = mem;
	if (mem.tab)
		memset(mem.tab, 0, sizeof(*mem.tab) << mem.tab_bits);
	for (unsigned i = 0; i < NR_HPM; i++)
		hart_decode(h, i);
	hart_update_masks(h);
}

struct emu *emu_new(unsigned nr_harts)
{
	if (nr_harts < 1 || nr_harts > EMU_MAX_HARTS)
		return NULL;
	struct emu *emu = xcalloc(1, sizeof(*emu));
	emu->nr_harts = nr_harts;
	emu->table = &kmh_table_v2;
	emu->harts = xcalloc(nr_harts, sizeof(*emu->harts));
	for (unsigned i = 0; i < nr_harts; i++)
		hart_init(&emu->harts[i], emu, i);
	return emu;
}

void emu_set_table(struct emu *emu, const struct kmh_table *t)
{
	emu->table = t;
	for (unsigned h = 0; h < emu->nr_harts; h++) {
		struct emu_hart *hart = &emu->harts[h];
		/* what was counted was counted with the old table's meaning */
		hart_fold(hart);
		hart_cache_clear(hart);
		for (unsigned i = 0; i < NR_HPM; i++)
			hart_decode(hart, i);
	}
}

const struct kmh_table *emu_table(const struct emu *emu)
{
	return emu->table;
}

void emu_free(struct emu *emu)
{
	if (!emu)
		return;
	for (unsigned i = 0; i < emu->nr_harts; i++)
		hart_cache_mem_free(&emu->harts[i].mem);
	free(emu->harts);
	free(emu);
}

uint64_t emu_time(const struct emu *emu)
{
	return emu->time;
}

void emu_set_time(struct emu *emu, uint64_t time)
{
	emu->time = time;
}

unsigned emu_nr_harts(const struct emu *emu)
{
	return emu->nr_harts;
}

struct emu_hart *emu_hart(struct emu *emu, unsigned i)
{
	return i < emu->nr_harts ? &emu->harts[i] : NULL;
}

void emu_forget_source(struct emu *emu, const void *source)
{
	for (unsigned i = 0; i < emu->nr_harts; i++) {
		struct emu_hart *h = &emu->harts[i];
		if (h->src == source) {
			hart_cache_clear(h);
			h->src = NULL;
		}
	}
}

enum emu_mode emu_hart_mode(const struct emu_hart *h)
{
	return (enum emu_mode)h->mode;
}

void emu_hart_set_mode(struct emu_hart *h, enum emu_mode mode)
{
	if ((unsigned)mode < EMU_NR_MODES)
		h->mode = (uint8_t)mode;
}

void emu_hart_reset(struct emu_hart *h)
{
	hart_init(h, h->emu, h->index);
}

/* -------------------------------------------------------------------- CSRs */

static bool csr_is_counter(unsigned csr) /* cycle, time, instret, hpmcounter3..31 */
{
	return csr >= EMU_CSR_CYCLE && csr <= EMU_CSR_HPMCOUNTER(31);
}

static bool csr_read_only(unsigned csr)
{
	return (csr >> 10) == 3;
}

static unsigned csr_level(unsigned csr) /* 0 U, 1 S, 2 H (and VS CSRs), 3 M */
{
	return (csr >> 8) & 3;
}

static bool stce(const struct emu_hart *h)
{
	return h->menvcfg & EMU_ENVCFG_STCE;
}

static bool hstce(const struct emu_hart *h)
{
	return h->henvcfg & EMU_ENVCFG_STCE;
}

/* The check of HS-mode (also the first step of VS and VU). */
static int csr_check_hs(const struct emu_hart *h, unsigned csr)
{
	if (csr_level(csr) == 3)
		return EMU_EXC_ILLEGAL;
	if (csr_is_counter(csr) && !(h->mcounteren & EMU_CNT_HPM(csr & 31)))
		return EMU_EXC_ILLEGAL;
	if ((csr == EMU_CSR_STIMECMP || csr == EMU_CSR_VSTIMECMP) &&
	    !(stce(h) && (h->mcounteren & EMU_CNT_TM)))
		return EMU_EXC_ILLEGAL;
	return EMU_OK;
}

static int csr_check(const struct emu_hart *h, unsigned mode, unsigned csr, bool write)
{
	int exc;

	if (!emu_csr_name(csr))
		return EMU_EXC_ILLEGAL;
	if (write && csr_read_only(csr))
		return EMU_EXC_ILLEGAL;
	switch (mode) {
	case EMU_MODE_M:
		return EMU_OK;
	case EMU_MODE_HS:
		return csr_check_hs(h, csr);
	case EMU_MODE_HU:
		if (csr_level(csr) != 0)
			return EMU_EXC_ILLEGAL;
		if (csr_is_counter(csr) && !(h->mcounteren & h->scounteren & EMU_CNT_HPM(csr & 31)))
			return EMU_EXC_ILLEGAL;
		return EMU_OK;
	case EMU_MODE_VS:
		if ((exc = csr_check_hs(h, csr)))
			return exc;
		if (csr_level(csr) == 2)
			return EMU_EXC_VIRTUAL;
		if (csr_is_counter(csr) && !(h->hcounteren & EMU_CNT_HPM(csr & 31)))
			return EMU_EXC_VIRTUAL;
		if (csr == EMU_CSR_STIMECMP && !(hstce(h) && (h->hcounteren & EMU_CNT_TM)))
			return EMU_EXC_VIRTUAL;
		return EMU_OK;
	case EMU_MODE_VU:
		if ((exc = csr_check_hs(h, csr)))
			return exc;
		if (csr_level(csr) != 0)
			return EMU_EXC_VIRTUAL;
		if (csr_is_counter(csr) && !(h->hcounteren & h->scounteren & EMU_CNT_HPM(csr & 31)))
			return EMU_EXC_VIRTUAL;
		return EMU_OK;
	default:
		return EMU_EXC_ILLEGAL;
	}
}

uint32_t emu_hart_fixed_wrapped(struct emu_hart *h)
{
	hart_fold(h);
	return h->fixed_wrapped;
}

uint64_t emu_hart_mip(struct emu_hart *h)
{
	uint64_t time = h->emu->time, v;

	hart_fold(h); /* a batched wrap may set LCOFIP */
	v = h->mip & EMU_MIP_LCOFIP;
	if (stce(h))
		v |= time >= h->stimecmp ? EMU_MIP_STIP : 0;
	else
		v |= h->mip & EMU_MIP_STIP;
	if (hstce(h) && time + h->htimedelta >= h->vstimecmp)
		v |= EMU_MIP_VSTIP;
	return v;
}

static uint64_t csr_get(struct emu_hart *h, unsigned mode, unsigned csr)
{
	bool virt = mode == EMU_MODE_VS || mode == EMU_MODE_VU;

	if (csr >= EMU_CSR_MHPMCOUNTER(3) && csr <= EMU_CSR_MHPMCOUNTER(31))
		return h->ctr[csr - EMU_CSR_MHPMCOUNTER(3)];
	if (csr >= EMU_CSR_HPMCOUNTER(3) && csr <= EMU_CSR_HPMCOUNTER(31))
		return h->ctr[csr - EMU_CSR_HPMCOUNTER(3)];
	if (csr >= EMU_CSR_MHPMEVENT(3) && csr <= EMU_CSR_MHPMEVENT(31))
		return h->evt[csr - EMU_CSR_MHPMEVENT(3)];
	switch (csr) {
	case EMU_CSR_MCYCLE:
	case EMU_CSR_CYCLE:
		return h->mcycle;
	case EMU_CSR_MINSTRET:
	case EMU_CSR_INSTRET:
		return h->minstret;
	case EMU_CSR_TIME:
		return h->emu->time + (virt ? h->htimedelta : 0);
	case EMU_CSR_MCOUNTINHIBIT:
		return h->mcountinhibit;
	case EMU_CSR_MCOUNTEREN:
		return h->mcounteren;
	case EMU_CSR_SCOUNTEREN:
		return h->scounteren;
	case EMU_CSR_HCOUNTEREN:
		return h->hcounteren;
	case EMU_CSR_SCOUNTOVF: {
		uint64_t v = 0;
		for (unsigned i = 0; i < NR_HPM; i++)
			if (h->evt[i] & KMH_OF)
				v |= EMU_CNT_HPM(KMH_FIRST_COUNTER + i);
		if (mode == EMU_MODE_HS)
			v &= h->mcounteren;
		else if (mode == EMU_MODE_VS)
			v &= h->mcounteren & h->hcounteren;
		return v;
	}
	case EMU_CSR_STIMECMP:
		return mode == EMU_MODE_VS ? h->vstimecmp : h->stimecmp;
	case EMU_CSR_VSTIMECMP:
		return h->vstimecmp;
	case EMU_CSR_HTIMEDELTA:
		return h->htimedelta;
	case EMU_CSR_MENVCFG:
		return h->menvcfg;
	case EMU_CSR_HENVCFG:
		return h->henvcfg;
	case EMU_CSR_MIP:
		return emu_hart_mip(h);
	case EMU_CSR_SIP:
		if (mode == EMU_MODE_VS) /* vsip: VSTI shows as STI */
			return emu_hart_mip(h) & EMU_MIP_VSTIP ? EMU_MIP_STIP : 0;
		return emu_hart_mip(h) & (EMU_MIP_STIP | EMU_MIP_LCOFIP);
	default:
		return 0;
	}
}

static void csr_put(struct emu_hart *h, unsigned mode, unsigned csr, uint64_t v)
{
	if (csr >= EMU_CSR_MHPMCOUNTER(3) && csr <= EMU_CSR_MHPMCOUNTER(31)) {
		h->ctr[csr - EMU_CSR_MHPMCOUNTER(3)] = v;
		return;
	}
	if (csr >= EMU_CSR_MHPMEVENT(3) && csr <= EMU_CSR_MHPMEVENT(31)) {
		unsigned i = csr - EMU_CSR_MHPMEVENT(3);
		uint64_t old = h->evt[i];
		h->evt[i] = mhpmevent_warl(v);
		/* OF alone changes nothing that is cached */
		if ((old ^ h->evt[i]) & ~KMH_OF) {
			hart_cache_clear(h);
			hart_decode(h, i);
			hart_update_masks(h);
		}
		return;
	}
	switch (csr) {
	case EMU_CSR_MCYCLE:
		h->mcycle = v;
		h->fixed_wrapped &= ~EMU_CNT_CY;
		break;
	case EMU_CSR_MINSTRET:
		h->minstret = v;
		h->fixed_wrapped &= ~EMU_CNT_IR;
		break;
	case EMU_CSR_MCOUNTINHIBIT:
		/* cached RESULT2 values do not depend on it: the masks apply at fold time,
		 * and the batch was folded before this write */
		h->mcountinhibit = (uint32_t)v & INHIBIT_WRITABLE;
		hart_update_masks(h);
		break;
	case EMU_CSR_MCOUNTEREN:
		h->mcounteren = (uint32_t)(v & CNT_WRITABLE);
		break;
	case EMU_CSR_SCOUNTEREN:
		h->scounteren = (uint32_t)(v & CNT_WRITABLE);
		break;
	case EMU_CSR_HCOUNTEREN:
		h->hcounteren = (uint32_t)(v & CNT_WRITABLE);
		break;
	case EMU_CSR_STIMECMP:
		if (mode == EMU_MODE_VS)
			h->vstimecmp = v;
		else
			h->stimecmp = v;
		break;
	case EMU_CSR_VSTIMECMP:
		h->vstimecmp = v;
		break;
	case EMU_CSR_HTIMEDELTA:
		h->htimedelta = v;
		break;
	case EMU_CSR_MENVCFG:
		h->menvcfg = v & EMU_ENVCFG_STCE;
		if (!stce(h)) /* henvcfg.STCE is read-only 0 while menvcfg.STCE = 0 */
			h->henvcfg &= ~EMU_ENVCFG_STCE;
		break;
	case EMU_CSR_HENVCFG:
		h->henvcfg = v & h->menvcfg & EMU_ENVCFG_STCE;
		break;
	case EMU_CSR_MIP: {
		uint64_t w = EMU_MIP_LCOFIP | (stce(h) ? 0 : EMU_MIP_STIP);
		h->mip = (h->mip & ~w) | (v & w);
		break;
	}
	case EMU_CSR_SIP:
		if (mode != EMU_MODE_VS) /* vsip has no writable bit here */
			h->mip = (h->mip & ~EMU_MIP_LCOFIP) | (v & EMU_MIP_LCOFIP);
		break;
	default:
		break;
	}
}

enum csr_op { CSR_READ, CSR_WRITE, CSR_SET, CSR_CLEAR };

static int csr_access(struct emu_hart *h, enum emu_mode mode, unsigned csr, enum csr_op op,
                      uint64_t arg, uint64_t *val)
{
	int exc;

	/* Every access observes or changes what counting depends on. */
	hart_fold(h);
	if ((exc = csr_check(h, (unsigned)mode, csr, op != CSR_READ)))
		return exc;
	uint64_t old = csr_get(h, (unsigned)mode, csr);
	switch (op) {
	case CSR_READ:
		*val = old;
		break;
	case CSR_WRITE:
		csr_put(h, (unsigned)mode, csr, arg);
		break;
	case CSR_SET:
		csr_put(h, (unsigned)mode, csr, old | arg);
		break;
	case CSR_CLEAR:
		csr_put(h, (unsigned)mode, csr, old & ~arg);
		break;
	}
	return EMU_OK;
}

int emu_hart_csr_read(struct emu_hart *h, enum emu_mode mode, unsigned csr, uint64_t *val)
{
	return csr_access(h, mode, csr, CSR_READ, 0, val);
}

int emu_hart_csr_write(struct emu_hart *h, enum emu_mode mode, unsigned csr, uint64_t val)
{
	return csr_access(h, mode, csr, CSR_WRITE, val, NULL);
}

int emu_hart_csr_set(struct emu_hart *h, enum emu_mode mode, unsigned csr, uint64_t mask)
{
	return csr_access(h, mode, csr, CSR_SET, mask, NULL);
}

int emu_hart_csr_clear(struct emu_hart *h, enum emu_mode mode, unsigned csr, uint64_t mask)
{
	return csr_access(h, mode, csr, CSR_CLEAR, mask, NULL);
}

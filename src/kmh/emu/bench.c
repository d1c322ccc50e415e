/* bench.c: the engine of `hpmstat emu bench` (see kmh/emu/bench.h).
 *
 * The stream is drawn from the workload once, into a recording, and the
 * timed passes replay the recording: so both paths see the same runs, and
 * neither timing includes drawing them.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emukit/bench.h"
#include "kmh/emu/bench.h"
#include "kmh/emu/emu.h"
#include "kmh/emu/workload.h"
#include "kmh/kmh.h"
#include "kmh/mhpmevent.h"
#include "util/xalloc.h"

#define BENCH_CHUNK (1u << 18) /* runs recorded, then timed, at a time */
#define BENCH_FAST  3          /* fast-path passes over each chunk */

/* The recorded stream: each distinct run content once, runs as references. */
struct rec {
	uint8_t *dense;   /* per content: all banks' values, concatenated */
	uint8_t *instret; /* per content */
	uint64_t *hash;   /* per content */
	size_t nr;
	size_t cap;
	unsigned size; /* bytes of one content */
	unsigned off[KMH_NR_BANKS];
	uint32_t *bykey;  /* open addressing on workload keys: content + 1 */
	uint32_t *keyof;  /* the workload key of each bykey slot */
	uint32_t *byhash; /* open addressing on content hashes: content + 1 */
	size_t nr_keys;   /* entries in bykey */
	size_t tabsize;
};

/* BENCH_FAST harts count on the fast path, hart BENCH_FAST with the
 * reference: the harness's machines are the harts. */
struct emu_bench {
	struct emu *emu;
	struct hpm_emu_bench_machines m;
};

static uint64_t rec_hash(const uint8_t *d, size_t n, uint8_t instret)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325) ^ instret;
	for (size_t i = 0; i < n; i++)
		h = (h ^ d[i]) * UINT64_C(0x100000001b3);
	return h ^ (h >> 31);
}

/* Rebuilds the tables at `size` slots. The key map starts empty again:
 * forgetting keys only costs hashing their contents once more. */
static void rec_rehash(struct rec *r, size_t size)
{
	free(r->bykey);
	free(r->keyof);
	free(r->byhash);
	r->bykey = xcalloc(size, sizeof(*r->bykey));
	r->keyof = xcalloc(size, sizeof(*r->keyof));
	r->byhash = xcalloc(size, sizeof(*r->byhash));
	r->tabsize = size;
	for (size_t c = 0; c < r->nr; c++) {
		size_t s = r->hash[c] & (size - 1);
		while (r->byhash[s])
			s = (s + 1) & (size - 1);
		r->byhash[s] = (uint32_t)c + 1;
	}
	r->nr_keys = 0;
}

/* Content id of a workload run. Runs with a key are looked up by key (the
 * key promises equal contents); others by hashing their values. */
static uint32_t rec_intern(struct rec *r, const struct emu_run *run)
{
	if (2 * (r->nr + 1) > r->tabsize)
		rec_rehash(r, r->tabsize ? 2 * r->tabsize : 1024);
	else if (2 * (r->nr_keys + 1) > r->tabsize)
		rec_rehash(r, r->tabsize);
	size_t mask = r->tabsize - 1, ks = 0;
	if (run->key) {
		ks = (run->key * (size_t)0x9e3779b1u) & mask;
		for (; r->bykey[ks]; ks = (ks + 1) & mask)
			if (r->keyof[ks] == run->key)
				return r->bykey[ks] - 1;
	}
	uint8_t *tmp = xcalloc(1, r->size);
	for (int b = 0; b < KMH_NR_BANKS; b++)
		if (run->vals[b])
			for (unsigned i = 1; i < kmh_table_v2.banks[b].nr_events; i++)
				tmp[r->off[b] + i] = run->vals[b][i] & 63u;
	uint8_t instret = run->instret & 63u;
	uint64_t h = rec_hash(tmp, r->size, instret);
	size_t s = h & mask;
	uint32_t id = UINT32_MAX;
	for (; r->byhash[s]; s = (s + 1) & mask) {
		uint32_t c = r->byhash[s] - 1;
		if (r->hash[c] == h && r->instret[c] == instret &&
		    memcmp(r->dense + (size_t)c * r->size, tmp, r->size) == 0) {
			id = c;
			break;
		}
	}
	if (id == UINT32_MAX) {
		if (r->nr == r->cap) {
			r->cap = r->cap ? 2 * r->cap : 256;
			r->dense = xreallocarray(r->dense, r->cap, r->size);
			r->instret = xreallocarray(r->instret, r->cap, 1);
			r->hash = xreallocarray(r->hash, r->cap, sizeof(*r->hash));
		}
		id = (uint32_t)r->nr++;
		memcpy(r->dense + (size_t)id * r->size, tmp, r->size);
		r->instret[id] = instret;
		r->hash[id] = h;
		r->byhash[s] = id + 1;
	}
	if (run->key) {
		r->bykey[ks] = id + 1;
		r->keyof[ks] = run->key;
		r->nr_keys++;
	}
	free(tmp);
	return id;
}

static void rec_free(struct rec *r)
{
	free(r->dense);
	free(r->instret);
	free(r->hash);
	free(r->bykey);
	free(r->keyof);
	free(r->byhash);
}

/* The bench program: counter n gets 1 + (n % 4) events of its bank (events
 * the profile produces where it has enough), ops rotating through OR, AND,
 * XOR and ADD with AND kept away from empty slots (SPEC §1), and a rotating
 * set of modes. */
static uint64_t bench_event(const struct emu_profile *p, unsigned n, unsigned *nr_events)
{
	static const unsigned ops[4] = {KMH_OP_OR, KMH_OP_AND, KMH_OP_XOR, KMH_OP_ADD};
	static const uint64_t inh[5] = {
	    KMH_MINH,                        /* U, S, VU, VS: what Linux sets */
	    KMH_MINH | KMH_SINH | KMH_VSINH, /* u */
	    KMH_MINH | KMH_UINH | KMH_VUINH, /* k */
	    0,                               /* every mode, M included */
	    KMH_MINH | KMH_SINH | KMH_UINH,  /* G */
	};
	int bank = kmh_bank_of_counter(&kmh_table_v2, n);
	unsigned nr = kmh_table_v2.banks[bank].nr_events, have = 0, pick[KMH_NR_SLOTS];
	unsigned want = 1 + n % 4;

	/* spread the picks over the produced events, starting at a counter-specific one */
	unsigned produced[1024], np = 0;
	for (unsigned i = 1; i < nr && np < 1024; i++)
		if (emu_profile_produces(p, bank, i))
			produced[np++] = i;
	for (unsigned k = 0; k < want; k++) {
		if (np >= want)
			pick[k] = produced[(n * 7 + k * (np / want + 1)) % np];
		else
			pick[k] = 1 + (n * 5 + k * 11) % (nr - 1);
		have++;
	}
	unsigned a = ops[n % 4], b = ops[(n + 1) % 4], c = ops[(n + 2) % 4];
	uint64_t v = inh[n % 5];
	for (unsigned k = 0; k < have; k++)
		v = kmh_mhpmevent_set_event(v, k, pick[k]);
	switch (want) {
	case 1: /* all ops OR: a | 0 | 0 */
		break;
	case 2: /* (a op b) op2 (0 | 0) */
		v = kmh_mhpmevent_set_op(v, 0, a);
		v = kmh_mhpmevent_set_op(v, 2, c == KMH_OP_AND ? KMH_OP_ADD : c);
		break;
	case 3: /* (a op b) op2 (c op1 0) */
		v = kmh_mhpmevent_set_op(v, 0, a);
		v = kmh_mhpmevent_set_op(v, 1, b == KMH_OP_AND ? KMH_OP_XOR : b);
		v = kmh_mhpmevent_set_op(v, 2, c);
		break;
	default:
		v = kmh_mhpmevent_set_op(v, 0, a);
		v = kmh_mhpmevent_set_op(v, 1, b);
		v = kmh_mhpmevent_set_op(v, 2, c);
		break;
	}
	*nr_events = want;
	return v;
}

static void bench_program(struct emu_hart *h, const struct emu_profile *p)
{
	for (unsigned n = KMH_FIRST_COUNTER; n <= KMH_LAST_COUNTER; n++) {
		unsigned nev;
		uint64_t v = bench_event(p, n, &nev);
		if (n % 6 == 0)
			v |= KMH_OF; /* a wrap with OF already set: no new interrupt */
		emu_hart_csr_write(h, EMU_MODE_M, EMU_CSR_MHPMEVENT(n), v);
		/* some counters start just below 2^64 so that the stream wraps them */
		uint64_t start = n % 3 == 0 ? UINT64_MAX - (UINT64_C(1000003) * n) : 0;
		emu_hart_csr_write(h, EMU_MODE_M, EMU_CSR_MHPMCOUNTER(n), start);
	}
}

/* The run of recorded content cid[i] (cycles cyc[i], mode mode[i]) in *r. */
static void rec_run(const struct rec *rec, const uint64_t *cyc, const uint32_t *cid,
                    const uint8_t *mode, unsigned i, struct emu_run *r)
{
	const uint8_t *d = rec->dense + (size_t)cid[i] * rec->size;
	r->cycles = cyc[i];
	r->key = cid[i] + 1;
	r->mode = mode[i];
	r->instret = rec->instret[cid[i]];
	for (int b = 0; b < KMH_NR_BANKS; b++)
		r->vals[b] = d + rec->off[b];
}

/* The recorded chunk and what it is drawn from. */
struct bench_player {
	struct emu_workload *w;
	struct rec rec;
	uint64_t *cyc;
	uint32_t *cid;
	uint8_t *mode;
	const char *profile; /* for the error */
};

static uint64_t bench_record(void *ctx, size_t i, uint64_t max_cycles, char *err, size_t errlen)
{
	struct bench_player *pl = ctx;
	struct emu_run run;
	memset(&run, 0, sizeof(run));
	emu_workload_next(pl->w, max_cycles, &run);
	if (run.cycles == 0 || run.cycles > max_cycles || run.mode >= EMU_NR_MODES) {
		snprintf(err, errlen, "profile '%s' produced a bad run", pl->profile);
		return 0;
	}
	pl->cyc[i] = run.cycles;
	pl->mode[i] = run.mode;
	pl->cid[i] = rec_intern(&pl->rec, &run);
	return run.cycles;
}

static void bench_play(void *ctx, void *m, bool ref, size_t n)
{
	struct bench_player *pl = ctx;
	struct emu_hart *h = m;
	struct emu_run r;
	memset(&r, 0, sizeof(r));
	r.source = &pl->rec;
	if (ref) {
		for (unsigned i = 0; i < n; i++) {
			rec_run(&pl->rec, pl->cyc, pl->cid, pl->mode, i, &r);
			emu_ref_run(h, &r);
		}
		return;
	}
	for (unsigned i = 0; i < n; i++) {
		rec_run(&pl->rec, pl->cyc, pl->cid, pl->mode, i, &r);
		emu_hart_run(h, &r);
	}
	emu_hart_sync(h);
}

struct emu_bench *emu_bench_run(const struct emu_profile *p, uint64_t seed, uint64_t cycles,
                                struct hpm_emu_bench_result *out, char *err, size_t errlen)
{
	struct emu_bench *bench = xcalloc(1, sizeof(*bench));
	bench->emu = emu_new(BENCH_FAST + 1);
	for (unsigned k = 0; k <= BENCH_FAST; k++)
		bench_program(emu_hart(bench->emu, k), p);
	bench->m.nr_fast = BENCH_FAST;
	for (unsigned k = 0; k < BENCH_FAST; k++)
		bench->m.fast[k] = emu_hart(bench->emu, k);
	bench->m.ref = emu_hart(bench->emu, BENCH_FAST);

	struct bench_player pl = {.profile = emu_profile_name(p)};
	for (int b = 0; b < KMH_NR_BANKS; b++) {
		pl.rec.off[b] = pl.rec.size;
		pl.rec.size += kmh_table_v2.banks[b].nr_events;
	}
	pl.cyc = xmalloc(BENCH_CHUNK * sizeof(*pl.cyc));
	pl.cid = xmalloc(BENCH_CHUNK * sizeof(*pl.cid));
	pl.mode = xmalloc(BENCH_CHUNK);
	pl.w = emu_workload_new(p, seed);
	struct hpm_emu_bench_player player = {
	    .record = bench_record, .play = bench_play, .ctx = &pl};
	int ret = hpm_emu_bench_time(&bench->m, &player, cycles, BENCH_CHUNK, out, err, errlen);
	out->distinct = pl.rec.nr;
	emu_workload_free(pl.w);
	free(pl.cyc);
	free(pl.cid);
	free(pl.mode);
	rec_free(&pl.rec);
	if (ret < 0) {
		emu_bench_free(bench);
		return NULL;
	}
	return bench;
}

/* Every readable CSR of the fast-path hart against the reference's. */
static void bench_compare(void *fast, void *ref, struct hpm_emu_bench_diff *d)
{
	for (int i = 0; emu_csr_at((unsigned)i) >= 0; i++) {
		unsigned csr = (unsigned)emu_csr_at((unsigned)i);
		uint64_t a, r;
		if (emu_hart_csr_read(fast, EMU_MODE_M, csr, &a) != EMU_OK)
			continue;
		emu_hart_csr_read(ref, EMU_MODE_M, csr, &r);
		if (a != r)
			hpm_emu_bench_differ(d, emu_csr_name(csr), a, r);
	}
}

unsigned emu_bench_compare(struct emu_bench *b, hpm_emu_bench_mismatch_fn mismatch, void *ctx)
{
	return hpm_emu_bench_compare(&b->m, bench_compare, mismatch, ctx);
}

void emu_bench_free(struct emu_bench *b)
{
	if (!b)
		return;
	emu_free(b->emu);
	free(b);
}

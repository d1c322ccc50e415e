/* profile.c: the profile file parser, its validation, the declared Topdown
 * breakdown (profile-registry.c keeps the profiles and answers what they
 * declare).
 *
 * Owns: the text format of hpmstat-emu-profile(5). A profile is checked
 * completely when it is loaded (syntax, references, shares, every cycle
 * vector against the invariants), so that a stream never has to check
 * anything and a bad profile is refused with the line that is wrong.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emukit/alias.h"
#include "emukit/profile.h"
#include "kmh/emu/workload-int.h"
#include "kmh/kmh.h"
#include "util/lex.h"
#include "util/str.h"
#include "util/xalloc.h"

#define SHARE_EPSILON 1e-9

/* ----------------------------------------------------------- parse state */

struct ovr {
	unsigned off, line;
	uint8_t val;
};

struct pcycle {
	struct wl_params par;
	struct ovr *ovr;
	unsigned nr_ovr;
};

struct pseg {
	char *cycle;
	uint32_t lo, hi;
};

struct pclass {
	struct pseg *segs;
	unsigned nr_segs, runs_line;
};

/* a [phase]'s, [function]'s or [task]'s mix, resolved after the last line */
static void mix_lists_free(struct emu_profile_shares *l, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		emu_profile_shares_free(&l[i]);
	free(l);
}

struct parser {
	struct emu_profile_parser kit;
	struct emu_profile *p;
	struct pcycle *pc;
	struct pclass *pk;
	struct emu_profile_shares *pp;
	unsigned nr_pp; /* [phase] sections of the file (p->phases may add one) */
	struct emu_profile_shares *pf, *pt;
	unsigned slice_line; /* of task-slice, 0: none */
};

/* An error at a line of the profile (0: the file): the kit's diag. */
#define perr(ps, line, ...) emu_profile_error(&(ps)->kit, line, __VA_ARGS__)

static void phase_destroy(struct wl_phase *ph)
{
	free(ph->name);
	free(ph->cls);
	free(ph->share);
	free(ph->thr);
	free(ph->alias);
	free(ph->mean);
}

void wl_profile_destroy(struct emu_profile *p)
{
	if (!p)
		return;
	free(p->name);
	free(p->description);
	free(p->origin);
	for (unsigned i = 0; i < p->nr_cycles; i++) {
		free(p->cycles[i].name);
		free(p->cycles[i].vals);
	}
	free(p->cycles);
	for (unsigned i = 0; i < p->nr_classes; i++) {
		free(p->classes[i].name);
		free(p->classes[i].segs);
	}
	free(p->classes);
	for (unsigned i = 0; i < p->nr_phases; i++)
		phase_destroy(&p->phases[i]);
	free(p->phases);
	for (unsigned i = 0; i < p->nr_funcs; i++) {
		free(p->funcs[i].name);
		phase_destroy(&p->funcs[i].mix);
	}
	free(p->funcs);
	for (unsigned i = 0; i < p->nr_tasks; i++) {
		free(p->tasks[i].name);
		phase_destroy(&p->tasks[i].mix);
	}
	free(p->tasks);
	free(p->fn_thr);
	free(p->fn_alias);
	free(p->produced);
	free(p->mean);
	free(p);
}

static void parser_free(struct parser *ps)
{
	struct emu_profile *p = ps->p;
	for (unsigned i = 0; p && i < p->nr_cycles; i++)
		free(ps->pc[i].ovr);
	free(ps->pc);
	for (unsigned i = 0; p && i < p->nr_classes; i++) {
		for (unsigned j = 0; j < ps->pk[i].nr_segs; j++)
			free(ps->pk[i].segs[j].cycle);
		free(ps->pk[i].segs);
	}
	free(ps->pk);
	mix_lists_free(ps->pp, ps->nr_pp);
	mix_lists_free(ps->pf, p ? p->nr_funcs : 0);
	mix_lists_free(ps->pt, p ? p->nr_tasks : 0);
}

/* ---------------------------------------------------------------- values */

/* An unsigned decimal (or 0x hex) integer up to max; the whole string. */
static bool parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	return lex_u64(s, strlen(s), LEX_NUM_HEX, 0, max, out, NULL) == LEX_NUM_OK;
}

/* LEN or LO..HI, 1 <= LO <= HI < 2^32 - 1. */
static bool parse_range(const char *s, uint32_t *lo, uint32_t *hi)
{
	return emu_profile_range(s, UINT32_MAX - 1, lo, hi);
}

#define MAX_WORDS 64

static const char *const mode_names[EMU_NR_MODES] = {
    [EMU_MODE_M] = "M",   [EMU_MODE_HS] = "HS", [EMU_MODE_HU] = "HU",
    [EMU_MODE_VS] = "VS", [EMU_MODE_VU] = "VU",
};

static int mode_by_name(const char *s)
{
	if (strcmp(s, "S") == 0)
		return EMU_MODE_HS;
	if (strcmp(s, "U") == 0)
		return EMU_MODE_HU;
	for (int m = 0; m < EMU_NR_MODES; m++)
		if (strcmp(s, mode_names[m]) == 0)
			return m;
	return -1;
}

/* ------------------------------------------------------------ key = value */

/* modes = MODE:SHARE ...: the privilege modes' shares of the cycles. */
static bool modes_key(struct emu_profile_parser *kps, void *rec, const char *key, char *value)
{
	struct parser *ps = kps->model;
	struct emu_profile *p = rec;
	(void)key;
	char *w[MAX_WORDS];
	unsigned n = lex_words(value, w, MAX_WORDS);
	if (n > MAX_WORDS)
		return perr(ps, ps->kit.line, "too many modes");
	bool seen[EMU_NR_MODES] = {false};
	double sum = 0;
	for (unsigned i = 0; i < n; i++) {
		char *colon = strchr(w[i], ':');
		if (!colon)
			return perr(ps, ps->kit.line, "'%s' is not MODE:SHARE", w[i]);
		*colon = '\0';
		int m = mode_by_name(w[i]);
		if (m < 0)
			return perr(ps, ps->kit.line,
			            "unknown mode '%s' (one of M, HS, HU, VS, VU; S = HS, U = HU)",
			            w[i]);
		if (seen[m])
			return perr(ps, ps->kit.line, "mode %s given twice", mode_names[m]);
		seen[m] = true;
		double sh;
		if (colon[1] == '-')
			return perr(ps, ps->kit.line, "share of mode %s is negative", w[i]);
		if (!emu_profile_share(colon + 1, &sh))
			return perr(ps, ps->kit.line,
			            "bad share '%s' for mode %s (a fraction 0..1)", colon + 1,
			            w[i]);
		p->mode_share[m] = sh;
		sum += sh;
	}
	if (fabs(sum - 1.0) > SHARE_EPSILON)
		return perr(ps, ps->kit.line, "mode shares sum to %.12g, not 1", sum);
	return true;
}

static bool task_slice_key(struct emu_profile_parser *kps, void *rec, const char *key, char *value)
{
	struct parser *ps = kps->model;
	struct emu_profile *p = rec;
	(void)key;
	ps->slice_line = ps->kit.line;
	if (!parse_range(value, &p->slice_lo, &p->slice_hi))
		return perr(ps, ps->kit.line,
		            "bad task-slice '%s' (cycles: N or LO..HI, 1 <= LO <= HI)", value);
	return true;
}

/* The keys before the first section. */
static const struct emu_profile_key top_keys[] = {
    {.name = "name",
     .type = EMU_KEY_NAME,
     EMU_KEY_AT(struct emu_profile, name),
     .required = "no 'name'",
     .bad = "bad name '%s' (letters, digits, '-', '_', '.')"},
    {.name = "description",
     .type = EMU_KEY_TEXT,
     EMU_KEY_AT(struct emu_profile, description),
     .required = "no 'description'"},
    {.name = "modes", .type = EMU_KEY_CALL, .call = modes_key},
    {.name = "mode-switch",
     .type = EMU_KEY_RANGE,
     EMU_KEY_AT(struct emu_profile, mode_lo),
     .offset_hi = offsetof(struct emu_profile, mode_hi),
     .min = 1,
     .max = UINT32_MAX - 1,
     .bad = "bad mode-switch '%s' (cycles: N or LO..HI, 1 <= LO <= HI)"},
    {.name = "function-classes",
     .type = EMU_KEY_RANGE,
     EMU_KEY_AT(struct emu_profile, fn_lo),
     .offset_hi = offsetof(struct emu_profile, fn_hi),
     .min = 1,
     .max = UINT32_MAX - 1,
     .bad = "bad function-classes '%s' (class draws: N or LO..HI, 1 <= LO <= HI)"},
    {.name = "task-slice", .type = EMU_KEY_CALL, .call = task_slice_key},
    {.name = NULL},
};

static bool cycle_key(struct emu_profile_parser *kps, void *rec, const char *key, char *value)
{
	struct parser *ps = kps->model;
	(void)rec;
	struct emu_profile *p = ps->p;
	struct pcycle *pc = &ps->pc[p->nr_cycles - 1];
	const char *colon = strchr(key, ':');
	if (colon) {
		/* BANK:EVENT = VALUE: an explicit per-cycle value */
		char bank[32];
		size_t bl = (size_t)(colon - key);
		if (bl >= sizeof(bank))
			return perr(ps, ps->kit.line, "unknown bank in '%s'", key);
		memcpy(bank, key, bl);
		bank[bl] = '\0';
		const struct kmh_bank_desc *bd = kmh_bank_by_name(&kmh_table_v2, bank);
		if (!bd)
			return perr(ps, ps->kit.line,
			            "unknown bank '%s' (frontend, backend, memblock, cache)", bank);
		int b = (int)(bd - kmh_table_v2.banks);
		const struct kmh_event *ev = kmh_event_by_name(&kmh_table_v2, b, colon + 1);
		if (!ev || ev->bank != b) {
			if (kmh_alias_by_name(&kmh_table_v2, b, colon + 1))
				return perr(
				    ps, ps->kit.line,
				    "'%s' names several events; give one instance (%s.0, ...)", key,
				    colon + 1);
			return perr(ps, ps->kit.line, "unknown event '%s' in bank %s", colon + 1,
			            bank);
		}
		if (ev->index == 0)
			return perr(ps, ps->kit.line, "noEvent is always 0");
		uint64_t v;
		if (value[0] == '-')
			return perr(ps, ps->kit.line, "%s: negative value %s", key, value);
		if (!parse_u64(value, UINT64_MAX, &v))
			return perr(ps, ps->kit.line, "%s: '%s' is not a number", key, value);
		if (v > 63)
			return perr(ps, ps->kit.line, "%s = %s: per-cycle values are 0..63", key,
			            value);
		unsigned off = wl_layout.off[b] + ev->index;
		for (unsigned i = 0; i < pc->nr_ovr; i++)
			if (pc->ovr[i].off == off)
				return perr(ps, ps->kit.line, "'%s' given twice", key);
		pc->ovr = xreallocarray(pc->ovr, pc->nr_ovr + 1, sizeof(*pc->ovr));
		pc->ovr[pc->nr_ovr++] = (struct ovr){off, ps->kit.line, (uint8_t)v};
		return true;
	}
	char msg[256];
	if (value[0] == '-')
		return perr(ps, ps->kit.line, "%s: negative value %s", key, value);
	int r = wl_params_set(&pc->par, key, value, msg, sizeof(msg));
	if (r < 0)
		return perr(ps, ps->kit.line, "%s", msg);
	if (r == 0)
		return perr(ps, ps->kit.line,
		            "unknown cycle parameter '%s' (see hpmstat-emu-profile(5); events are "
		            "BANK:EVENT)",
		            key);
	return true;
}

/* runs = CYCLE[:LEN] ...: a class's runs, resolved after the last line. */
static bool runs_key(struct emu_profile_parser *kps, void *rec, const char *key, char *value)
{
	struct parser *ps = kps->model;
	struct emu_profile *p = ps->p;
	struct pclass *pk = &ps->pk[p->nr_classes - 1];
	(void)rec;
	(void)key;
	pk->runs_line = ps->kit.line;
	char *w[MAX_WORDS];
	unsigned n = lex_words(value, w, MAX_WORDS);
	if (n > MAX_WORDS)
		return perr(ps, ps->kit.line, "more than %u runs in one class", MAX_WORDS);
	if (n == 0)
		return perr(ps, ps->kit.line, "'runs' is empty");
	pk->segs = xcalloc(n, sizeof(*pk->segs));
	for (unsigned i = 0; i < n; i++) {
		char *colon = strchr(w[i], ':');
		uint32_t lo = 1, hi = 1;
		if (colon) {
			*colon = '\0';
			if (colon[1] == '-')
				return perr(ps, ps->kit.line, "negative run length for '%s'", w[i]);
			if (!parse_range(colon + 1, &lo, &hi))
				return perr(ps, ps->kit.line,
				            "bad run length '%s' for '%s' (N or LO..HI, 1 "
				            "<= LO <= HI)",
				            colon + 1, w[i]);
		}
		if (!emu_profile_valid_name(w[i]))
			return perr(ps, ps->kit.line, "bad cycle name '%s'", w[i]);
		pk->segs[i] = (struct pseg){xstrdup(w[i]), lo, hi};
		pk->nr_segs = i + 1;
	}
	return true;
}

/* mix = CLASS:SHARE ...: may be repeated, the entries accumulate in the
 * section's parse state (its twin), resolved after the last line. */
static const struct emu_profile_share_format mix_format = {
    .blanks = " \t\r",
    .max = MAX_WORDS,
    .too_many = "too many entries in one mix line",
    .not_pair = "'%s' is not CLASS:SHARE",
    .negative = "share of class '%s' is negative",
    .bad = "bad share '%s' for class '%s' (a fraction 0..1)",
    .twice = "class '%s' twice in the mix",
};

#define MIX_KEY                                                                                    \
	{                                                                                          \
		.name = "mix", .type = EMU_KEY_SHARES, .in_twin = true, .repeat = true,            \
		.shares = &mix_format                                                              \
	}

static const struct emu_profile_key class_keys[] = {
    {.name = "runs", .type = EMU_KEY_CALL, .call = runs_key},
    {.name = "share",
     .type = EMU_KEY_SHARE,
     EMU_KEY_AT(struct wl_class, share),
     .has = offsetof(struct wl_class, has_share),
     .negative = "share %s is negative",
     .bad = "bad share '%s' (a fraction 0..1)"},
    {.name = NULL},
};

static const struct emu_profile_key phase_keys[] = {
    {.name = "cycles",
     .type = EMU_KEY_UINT,
     EMU_KEY_AT(struct wl_phase, cycles),
     .min = 1,
     .max = UINT64_C(1) << 48,
     .negative = "cycles %s is negative",
     .bad = "bad cycles '%s' (1..2^48)"},
    MIX_KEY,
    {.name = NULL},
};

/* A function's range: address and size in bytes, both even (RISC-V
 * instructions are 2 or 4 bytes, at even addresses). */
static const struct emu_profile_key function_keys[] = {
    {.name = "address",
     .type = EMU_KEY_UINT,
     EMU_KEY_AT(struct wl_func, lo),
     .has = offsetof(struct wl_func, has_addr),
     .max = UINT64_MAX,
     .multiple = 2,
     .bad = "bad address '%s' (a 64-bit number, a multiple of 2)"},
    {.name = "size",
     .type = EMU_KEY_UINT,
     EMU_KEY_AT(struct wl_func, size),
     .has = offsetof(struct wl_func, has_size),
     .min = 1,
     .max = UINT64_C(1) << 48,
     .multiple = 2,
     .bad = "bad size '%s' (bytes, a multiple of 2, 2..2^48)"},
    {.name = "share",
     .type = EMU_KEY_SHARE,
     EMU_KEY_AT(struct wl_func, share),
     .has = offsetof(struct wl_func, has_share),
     .negative = "share %s is negative",
     .bad = "bad share '%s' (a fraction 0..1)"},
    MIX_KEY,
    {.name = NULL},
};

#define TASK_PID_MAX   4194304 /* Linux's PID_MAX_LIMIT */
#define TASK_COMM_MAX  15      /* TASK_COMM_LEN - 1 */
#define TASK_HART_MAX  1023u   /* EMU_MAX_HARTS - 1 */
#define TASK_CYCLE_MAX (UINT64_C(1) << 62)

/* A task's pid, process, hart, share, mix and life time. */
static const struct emu_profile_key task_keys[] = {
    {.name = "pid",
     .type = EMU_KEY_UINT,
     EMU_KEY_AT(struct wl_task, pid),
     .has = offsetof(struct wl_task, has_pid),
     .min = 1,
     .max = TASK_PID_MAX,
     .bad = "bad pid '%s' (1..%llu)"},
    {.name = "tgid",
     .type = EMU_KEY_UINT,
     EMU_KEY_AT(struct wl_task, tgid),
     .has = offsetof(struct wl_task, has_tgid),
     .min = 1,
     .max = TASK_PID_MAX,
     .bad = "bad tgid '%s' (1..%llu)"},
    {.name = "hart",
     .type = EMU_KEY_UINT,
     EMU_KEY_AT(struct wl_task, hart),
     .max = TASK_HART_MAX,
     .bad = "bad hart '%s' (0..%llu)"},
    {.name = "share",
     .type = EMU_KEY_SHARE,
     EMU_KEY_AT(struct wl_task, share),
     .has = offsetof(struct wl_task, has_share),
     .min = 1, /* above 0 */
     .negative = "share %s is negative",
     .bad = "bad share '%s' (the task's fraction of its hart, above 0, at most 1)"},
    {.name = "start",
     .type = EMU_KEY_UINT,
     EMU_KEY_AT(struct wl_task, start),
     .max = TASK_CYCLE_MAX,
     .negative = "start %s is negative",
     .bad = "bad start '%s' (hart cycles, 0..2^62)"},
    {.name = "exit",
     .type = EMU_KEY_UINT,
     EMU_KEY_AT(struct wl_task, exit),
     .min = 1,
     .max = TASK_CYCLE_MAX,
     .negative = "exit %s is negative",
     .bad = "bad exit '%s' (hart cycles, 1..2^62)"},
    MIX_KEY,
    {.name = NULL},
};

/* -------------------------------------------------------------- sections */

/* A [cycle]'s parameters start unset (the model's defaults fill them). */
static bool opened_cycle(struct emu_profile_parser *kps, void *rec, unsigned i)
{
	struct parser *ps = kps->model;
	(void)rec;
	wl_params_init(&ps->pc[i].par);
	return true;
}

/* A task's name is its comm; it runs until the end unless it exits. */
static bool opened_task(struct emu_profile_parser *kps, void *rec, unsigned i)
{
	struct wl_task *t = rec;
	(void)i;
	if (strlen(t->name) > TASK_COMM_MAX)
		return perr((struct parser *)kps->model, kps->line,
		            "task name '%s' is longer than %d characters (a comm)", t->name,
		            TASK_COMM_MAX);
	t->exit = UINT64_MAX;
	return true;
}

static const struct emu_profile_section top_section = {
    .keys = top_keys,
    .unknown = "unknown key '%s' (before the first section: %s)",
};

/* each kind's records in the profile, and their parse state beside them */
#define RECORDS(arr, nr, rec, twin, twin_rec)                                                      \
	EMU_PROFILE_RECORDS(struct emu_profile, arr, nr, rec),                                     \
	    EMU_PROFILE_TWIN(struct parser, twin, twin_rec)

static const struct emu_profile_section sections[] = {
    {.name = "cycle",
     RECORDS(cycles, nr_cycles, struct wl_cycle, pc, struct pcycle),
     .opened = opened_cycle,
     .required = "no [cycle] section",
     .other = cycle_key},
    {.name = "class",
     RECORDS(classes, nr_classes, struct wl_class, pk, struct pclass),
     .required = "no [class] section",
     .keys = class_keys,
     .unknown = "unknown class key '%s' (%s)"},
    {.name = "phase",
     RECORDS(phases, nr_phases, struct wl_phase, pp, struct emu_profile_shares),
     .keys = phase_keys,
     .unknown = "unknown phase key '%s' (%s)"},
    {.name = "function",
     RECORDS(funcs, nr_funcs, struct wl_func, pf, struct emu_profile_shares),
     .keys = function_keys,
     .unknown = "unknown function key '%s' (%s)"},
    {.name = "task",
     RECORDS(tasks, nr_tasks, struct wl_task, pt, struct emu_profile_shares),
     .opened = opened_task,
     .keys = task_keys,
     .unknown = "unknown task key '%s' (%s)"},
    {.name = NULL},
};

/* hpmstat-emu-profile(5) and its wording of the errors. */
static const struct emu_profile_format kmh_format = {
    .top = &top_section,
    .sections = sections,
    .nul_byte = "not a text file (NUL byte)",
    .bad_section = "section header without ']'",
    .bad_header = "section header is not [cycle NAME], [class NAME], [phase NAME], "
                  "[function NAME] or [task NAME]",
    .bad_name = "bad name '%s' (letters, digits, '-', '_', '.')",
    .not_key_value = "expected KEY = VALUE or [SECTION NAME]",
    .empty_key = "missing key before '='",
    .empty_value = "missing value for '%s'",
    .twice = "'%s' given twice",
    .twice_says_first_line = true,
};

/* ---------------------------------------------------- after the last line */

/* cum in [0, 1] to a 64-bit threshold */
static uint64_t to_cut(double cum)
{
	if (cum >= 1.0)
		return UINT64_MAX;
	return (uint64_t)(cum * 18446744073709551616.0);
}

static bool build_cycles(struct parser *ps)
{
	struct emu_profile *p = ps->p;
	char msg[256];
	for (unsigned i = 0; i < p->nr_cycles; i++) {
		struct wl_cycle *c = &p->cycles[i];
		struct pcycle *pc = &ps->pc[i];
		c->vals = xcalloc(wl_layout.total, 1);
		if (!wl_model_fill(&pc->par, c->vals, msg, sizeof(msg)))
			return perr(ps, c->line, "cycle '%s': %s", c->name, msg);
		for (unsigned j = 0; j < pc->nr_ovr; j++) {
			c->vals[pc->ovr[j].off] = pc->ovr[j].val;
			p->produced[pc->ovr[j].off] = 1;
		}
		if (!wl_model_check(c->vals, msg, sizeof(msg)))
			return perr(ps, c->line, "cycle '%s' breaks %s", c->name, msg);
		for (unsigned b = 0; b < KMH_NR_BANKS; b++)
			c->bank[b] = c->vals + wl_layout.off[b];
		c->instret = c->vals[wl_td_offset(WL_TD_INST_RETIRED)];
		c->key = i + 1;
	}
	return true;
}

static bool build_classes(struct parser *ps)
{
	struct emu_profile *p = ps->p;
	for (unsigned i = 0; i < p->nr_classes; i++) {
		struct wl_class *k = &p->classes[i];
		struct pclass *pk = &ps->pk[i];
		if (!pk->runs_line)
			return perr(ps, k->line, "class '%s' has no 'runs'", k->name);
		k->segs = xcalloc(pk->nr_segs, sizeof(*k->segs));
		k->nr_segs = pk->nr_segs;
		k->mean_cycles = 0;
		for (unsigned j = 0; j < pk->nr_segs; j++) {
			int c = EMU_PROFILE_INDEX(p->cycles, p->nr_cycles, pk->segs[j].cycle);
			if (c < 0)
				return perr(ps, pk->runs_line, "class '%s': unknown cycle '%s'",
				            k->name, pk->segs[j].cycle);
			p->cycles[c].used = true;
			k->segs[j] = (struct wl_seg){(unsigned)c, &p->cycles[c], pk->segs[j].lo,
			                             pk->segs[j].hi};
			k->mean_cycles += ((double)pk->segs[j].lo + (double)pk->segs[j].hi) / 2.0;
		}
	}
	for (unsigned i = 0; i < p->nr_cycles; i++)
		if (!p->cycles[i].used)
			return perr(ps, p->cycles[i].line, "cycle '%s' is not used by any class",
			            p->cycles[i].name);
	return true;
}

/* Fills one phase's draw table and expectations from (class, share) pairs. */
static bool build_phase(struct parser *ps, struct wl_phase *ph, unsigned line)
{
	struct emu_profile *p = ps->p;
	double sum = 0, wsum = 0;
	for (unsigned j = 0; j < ph->nr; j++)
		sum += ph->share[j];
	if (fabs(sum - 1.0) > SHARE_EPSILON)
		return perr(ps, line, "class shares sum to %.12g, not 1", sum);
	/* Draw class k with probability proportional to share/mean length,
	 * so that its expected share of cycles is its share. */
	for (unsigned j = 0; j < ph->nr; j++) {
		ph->share[j] /= sum;
		wsum += ph->share[j] / p->classes[ph->cls[j]].mean_cycles;
	}
	double *prob = xcalloc(ph->nr, sizeof(*prob));
	ph->mean = xcalloc(wl_layout.total, sizeof(*ph->mean));
	ph->runs_per_cycle = 0;
	for (unsigned j = 0; j < ph->nr; j++) {
		const struct wl_class *k = &p->classes[ph->cls[j]];
		prob[j] = ph->share[j] / k->mean_cycles / wsum;
		ph->runs_per_cycle += ph->share[j] * k->nr_segs / k->mean_cycles;
		for (unsigned s = 0; s < k->nr_segs; s++) {
			const struct wl_seg *sg = &k->segs[s];
			double w = ph->share[j] * (((double)sg->lo + (double)sg->hi) / 2.0) /
			           k->mean_cycles;
			const uint8_t *v = p->cycles[sg->cycle].vals;
			for (unsigned e = 0; e < wl_layout.total; e++)
				ph->mean[e] += w * v[e];
		}
	}
	hpm_alias_build(prob, ph->nr, 1.0, &ph->thr, &ph->alias);
	free(prob);
	ph->mean_instret = ph->mean[wl_td_offset(WL_TD_INST_RETIRED)];
	double td[WL_NR_TD_EVENTS];
	for (unsigned e = 0; e < WL_NR_TD_EVENTS; e++)
		td[e] = ph->mean[wl_td_offset((enum wl_td_event)e)];
	wl_topdown(td, &ph->td);
	return true;
}

/* A phase's classes and shares from its (or a function's) mix entries; the
 * classes named are marked used. `what` names the owner in messages. */
static bool mix_classes(struct parser *ps, struct wl_phase *ph, const struct emu_profile_shares *l,
                        const char *what)
{
	struct emu_profile *p = ps->p;
	ph->cls = xcalloc(l->nr, sizeof(*ph->cls));
	ph->share = xcalloc(l->nr, sizeof(*ph->share));
	double sum = 0;
	for (unsigned j = 0; j < l->nr; j++) {
		int k = EMU_PROFILE_INDEX(p->classes, p->nr_classes, l->v[j].name);
		if (k < 0)
			return perr(ps, l->line, "%s: unknown class '%s'", what, l->v[j].name);
		sum += l->v[j].share;
		if (l->v[j].share > 0) {
			p->classes[k].used = true;
			ph->cls[ph->nr] = (unsigned)k;
			ph->share[ph->nr++] = l->v[j].share;
		}
	}
	if (fabs(sum - 1.0) > SHARE_EPSILON)
		return perr(ps, l->line, "%s: class shares sum to %.12g, not 1", what, sum);
	return true;
}

/* The profile's one endless phase "all" (at line; 0: none), with room for
 * every class in its mix: for a profile without [phase] sections. */
static struct wl_phase *all_phase(struct emu_profile *p, unsigned line)
{
	p->phases = xcalloc(1, sizeof(*p->phases));
	p->nr_phases = 1;
	struct wl_phase *ph = &p->phases[0];
	ph->name = xstrdup("all");
	ph->line = line;
	ph->cls = xcalloc(p->nr_classes, sizeof(*ph->cls));
	ph->share = xcalloc(p->nr_classes, sizeof(*ph->share));
	return ph;
}

#define MAX_FN_POINTS 16u /* PCs per function */

/* [function] sections: each function's mix is a phase of its own; the
 * profile's one phase is their combined mix (class k's cycle share is
 * sum over f of share_f x mix_f,k, and every expectation is linear in
 * those), and the function draw table weighs each function by its share
 * over the expected cycles of one class draw in it, so that its cycle
 * share converges to its share. */
static bool build_functions(struct parser *ps)
{
	struct emu_profile *p = ps->p;
	char what[160];
	if (ps->nr_pp)
		return perr(ps, p->phases[0].line,
		            "a profile with [function] sections has no [phase] sections (each "
		            "function has its own mix)");
	for (unsigned i = 0; i < p->nr_classes; i++)
		if (p->classes[i].has_share)
			return perr(ps, p->classes[i].line,
			            "class '%s' has a 'share', but with [function] sections the "
			            "shares are the functions' 'mix'",
			            p->classes[i].name);
	double sum = 0;
	for (unsigned i = 0; i < p->nr_funcs; i++) {
		struct wl_func *f = &p->funcs[i];
		struct emu_profile_shares *pf = &ps->pf[i];
		if (!f->has_addr || !f->has_size || !f->has_share)
			return perr(ps, f->line, "function '%s' needs address, size and share",
			            f->name);
		if (!pf->nr)
			return perr(ps, f->line, "function '%s' has no 'mix'", f->name);
		if (f->lo > UINT64_MAX - f->size)
			return perr(ps, f->line, "function '%s' runs past 2^64 - 1", f->name);
		f->hi = f->lo + f->size;
		for (unsigned j = 0; j < i; j++)
			if (f->lo < p->funcs[j].hi && p->funcs[j].lo < f->hi)
				return perr(ps, f->line,
				            "function '%s' overlaps function '%s' (line %u)",
				            f->name, p->funcs[j].name, p->funcs[j].line);
		f->npts = f->size / 2 < MAX_FN_POINTS ? (unsigned)(f->size / 2) : MAX_FN_POINTS;
		f->mix.name = xstrdup(f->name);
		f->mix.line = f->line;
		snprintf(what, sizeof(what), "function '%s'", f->name);
		if (!mix_classes(ps, &f->mix, pf, what) || !build_phase(ps, &f->mix, pf->line))
			return false;
		sum += f->share;
	}
	if (fabs(sum - 1.0) > SHARE_EPSILON)
		return perr(ps, p->funcs[0].line, "the functions' shares sum to %.12g, not 1", sum);
	for (unsigned i = 0; i < p->nr_classes; i++)
		if (!p->classes[i].used)
			return perr(ps, p->classes[i].line, "class '%s' is in no function's mix",
			            p->classes[i].name);

	/* the draw table of functions */
	double *q = xcalloc(p->nr_funcs, sizeof(*q)), qsum = 0;
	for (unsigned i = 0; i < p->nr_funcs; i++) {
		const struct wl_phase *m = &p->funcs[i].mix;
		double draws = 0; /* class draws per cycle in this function */
		for (unsigned j = 0; j < m->nr; j++)
			draws += m->share[j] / p->classes[m->cls[j]].mean_cycles;
		q[i] = p->funcs[i].share * draws;
		qsum += q[i];
	}
	for (unsigned i = 0; i < p->nr_funcs; i++)
		q[i] /= qsum;
	hpm_alias_build(q, p->nr_funcs, 1.0, &p->fn_thr, &p->fn_alias);
	free(q);

	/* the whole profile: one endless phase of the combined mix */
	struct wl_phase *ph = all_phase(p, p->funcs[0].line);
	for (unsigned k = 0; k < p->nr_classes; k++) {
		double sh = 0;
		for (unsigned i = 0; i < p->nr_funcs; i++) {
			const struct wl_phase *m = &p->funcs[i].mix;
			for (unsigned j = 0; j < m->nr; j++)
				if (m->cls[j] == k)
					sh += p->funcs[i].share * m->share[j];
		}
		if (sh > 0) {
			ph->cls[ph->nr] = k;
			ph->share[ph->nr++] = sh;
		}
	}
	return build_phase(ps, ph, ph->line);
}

/* [task] sections: each task's mix is a phase of its own (as a
 * function's); the profile's one phase is their mix weighted by share (the
 * expectations of every task runnable all the time, each hart's shares
 * normalized to the tasks'), for what the profile declares as a whole. */
static bool build_tasks(struct parser *ps)
{
	struct emu_profile *p = ps->p;
	char what[160];
	if (ps->nr_pp || p->nr_funcs)
		return perr(ps, ps->nr_pp ? p->phases[0].line : p->funcs[0].line,
		            "a profile with [task] sections has no [phase] or [function] sections "
		            "(each task has its own mix)");
	for (unsigned i = 0; i < p->nr_classes; i++)
		if (p->classes[i].has_share)
			return perr(ps, p->classes[i].line,
			            "class '%s' has a 'share', but with [task] sections the shares "
			            "are the tasks' 'mix'",
			            p->classes[i].name);
	double total = 0;
	for (unsigned i = 0; i < p->nr_tasks; i++) {
		struct wl_task *t = &p->tasks[i];
		struct emu_profile_shares *pt = &ps->pt[i];
		if (!t->has_pid || !t->has_share)
			return perr(ps, t->line, "task '%s' needs pid and share", t->name);
		if (!pt->nr)
			return perr(ps, t->line, "task '%s' has no 'mix'", t->name);
		if (!t->has_tgid)
			t->tgid = t->pid;
		if (t->start >= t->exit)
			return perr(ps, t->line,
			            "task '%s' exits (%" PRIu64 ") before it starts (%" PRIu64 ")",
			            t->name, t->exit, t->start);
		for (unsigned j = 0; j < i; j++)
			if (p->tasks[j].pid == t->pid)
				return perr(ps, t->line,
				            "task '%s' has pid %d of task '%s' (line %u)", t->name,
				            t->pid, p->tasks[j].name, p->tasks[j].line);
		snprintf(what, sizeof(what), "task '%s'", t->name);
		t->mix.name = xstrdup(t->name);
		t->mix.line = t->line;
		if (!mix_classes(ps, &t->mix, pt, what) || !build_phase(ps, &t->mix, pt->line))
			return false;
		total += t->share;
	}
	for (unsigned i = 0; i < p->nr_tasks; i++) {
		const struct wl_task *t = &p->tasks[i];
		bool leader = false;
		double sum = 0;
		for (unsigned j = 0; j < p->nr_tasks; j++) {
			const struct wl_task *u = &p->tasks[j];
			leader |= u->pid == t->tgid && u->tgid == u->pid;
			if (u->hart == t->hart && j <= i)
				sum += u->share;
		}
		if (!leader)
			return perr(
			    ps, t->line,
			    "task '%s': tgid %d is the pid of no task that leads its process "
			    "(pid = tgid)",
			    t->name, t->tgid);
		if (sum > 1.0 + SHARE_EPSILON)
			return perr(ps, t->line,
			            "the shares of the tasks on hart %u sum to %.12g, above 1",
			            t->hart, sum);
	}
	for (unsigned i = 0; i < p->nr_classes; i++)
		if (!p->classes[i].used)
			return perr(ps, p->classes[i].line, "class '%s' is in no task's mix",
			            p->classes[i].name);

	struct wl_phase *ph = all_phase(p, p->tasks[0].line);
	for (unsigned k = 0; k < p->nr_classes; k++) {
		double sh = 0;
		for (unsigned i = 0; i < p->nr_tasks; i++) {
			const struct wl_phase *m = &p->tasks[i].mix;
			for (unsigned j = 0; j < m->nr; j++)
				if (m->cls[j] == k)
					sh += p->tasks[i].share / total * m->share[j];
		}
		if (sh > 0) {
			ph->cls[ph->nr] = k;
			ph->share[ph->nr++] = sh;
		}
	}
	return build_phase(ps, ph, ph->line);
}

static bool build_phases(struct parser *ps)
{
	struct emu_profile *p = ps->p;
	if (p->nr_tasks)
		return build_tasks(ps);
	if (ps->slice_line)
		return perr(ps, ps->slice_line, "'task-slice' without [task] sections");
	if (p->nr_funcs)
		return build_functions(ps);
	if (p->nr_phases == 0) {
		/* One endless phase with the classes' own shares. */
		struct wl_phase *ph = all_phase(p, 0);
		for (unsigned i = 0; i < p->nr_classes; i++) {
			const struct wl_class *k = &p->classes[i];
			if (!k->has_share)
				return perr(ps, k->line,
				            "class '%s' has no 'share' (and the profile has no "
				            "[phase] mix)",
				            k->name);
			if (k->share > 0) {
				ph->cls[ph->nr] = i;
				ph->share[ph->nr++] = k->share;
			}
		}
		double sum = 0;
		for (unsigned i = 0; i < p->nr_classes; i++)
			sum += p->classes[i].share;
		if (fabs(sum - 1.0) > SHARE_EPSILON)
			return perr(ps, p->classes[0].line, "class shares sum to %.12g, not 1",
			            sum);
		for (unsigned i = 0; i < p->nr_classes; i++)
			p->classes[i].used = true;
		return build_phase(ps, ph, p->classes[0].line);
	}
	for (unsigned i = 0; i < p->nr_classes; i++)
		if (p->classes[i].has_share)
			return perr(ps, p->classes[i].line,
			            "class '%s' has a 'share', but with [phase] sections the "
			            "shares are the phases' 'mix'",
			            p->classes[i].name);
	for (unsigned i = 0; i < p->nr_phases; i++) {
		struct wl_phase *ph = &p->phases[i];
		struct emu_profile_shares *pp = &ps->pp[i];
		if (!ph->cycles) /* the kit refuses 0 */
			return perr(ps, ph->line, "phase '%s' has no 'cycles'", ph->name);
		if (!pp->nr)
			return perr(ps, ph->line, "phase '%s' has no 'mix'", ph->name);
		char what[160];
		snprintf(what, sizeof(what), "phase '%s'", ph->name);
		if (!mix_classes(ps, ph, pp, what) || !build_phase(ps, ph, pp->line))
			return false;
		p->period += ph->cycles;
	}
	for (unsigned i = 0; i < p->nr_classes; i++)
		if (!p->classes[i].used)
			return perr(ps, p->classes[i].line, "class '%s' is in no phase's mix",
			            p->classes[i].name);
	return true;
}

static void build_totals(struct emu_profile *p)
{
	p->mean = xcalloc(wl_layout.total, sizeof(*p->mean));
	double rpc = 0;
	for (unsigned i = 0; i < p->nr_phases; i++) {
		const struct wl_phase *ph = &p->phases[i];
		double w = p->period ? (double)ph->cycles / (double)p->period : 1.0;
		for (unsigned e = 0; e < wl_layout.total; e++)
			p->mean[e] += w * ph->mean[e];
		rpc += w * ph->runs_per_cycle;
	}
	p->mean_instret = p->mean[wl_td_offset(WL_TD_INST_RETIRED)];
	p->mean_run = rpc > 0 ? 1.0 / rpc : 0;
	double td[WL_NR_TD_EVENTS];
	for (unsigned e = 0; e < WL_NR_TD_EVENTS; e++)
		td[e] = p->mean[wl_td_offset((enum wl_td_event)e)];
	wl_topdown(td, &p->td);

	double cum = 0, sum = 0;
	for (unsigned m = 0; m < EMU_NR_MODES; m++)
		sum += p->mode_share[m];
	for (unsigned m = 0; m < EMU_NR_MODES; m++) {
		p->mode_share[m] /= sum;
		cum += p->mode_share[m];
		p->mode_cut[m] = to_cut(cum);
	}
	/* The last mode with a share takes the rounding rest. */
	for (int m = EMU_NR_MODES - 1; m >= 0; m--)
		if (p->mode_share[m] > 0) {
			p->mode_cut[m] = UINT64_MAX;
			break;
		}
}

struct emu_profile *wl_profile_parse_text(const char *file, const char *text, size_t len, char *err,
                                          size_t errlen)
{
	char msg[256];
	if (!wl_model_init(msg, sizeof(msg))) {
		str_seterr(err, errlen, "%s: %s", file, msg);
		return NULL;
	}
	struct parser ps = {.kit.model = NULL};
	ps.kit.model = &ps;
	ps.p = xcalloc(1, sizeof(*ps.p));
	ps.p->produced = xcalloc(wl_layout.total, 1);
	wl_model_produced(ps.p->produced);
	ps.p->mode_share[EMU_MODE_HU] = 1.0;
	ps.p->mode_lo = 10000;
	ps.p->mode_hi = 50000;
	ps.p->fn_lo = 4;
	ps.p->fn_hi = 16;
	ps.p->slice_lo = ps.p->slice_hi = 100000;

	bool ok = emu_profile_read(&ps.kit, &kmh_format, ps.p, file, text, len);
	emu_profile_parser_free(&ps.kit);
	struct emu_profile *p = ps.p;
	ps.nr_pp = p->nr_phases; /* the file's; a build may add one */
	ok = ok && build_cycles(&ps) && build_classes(&ps) && build_phases(&ps);
	if (ok)
		build_totals(p);
	parser_free(&ps);
	if (!ok) {
		hpm_diag_format(&ps.kit.diag, err, errlen);
		wl_profile_destroy(p);
		return NULL;
	}
	return p;
}

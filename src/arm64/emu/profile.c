/* profile.c: Arm workload profiles: the parser, the declared figures and
 * the stream of runs (see profile.h and hpmstat-emu-profile(5), "ARM
 * PROFILES").
 *
 * Owns: the parser and checks of struct arm_src_profile (profile-int.h),
 * the declared figures and the registry; profile-stream.c answers what a
 * loaded profile declares and draws its stream of runs.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arm64/emu/profile.h"
#include "arm64/emu/profiles-gen.h"
#include "arm64/emu/stimulus.h"
#include "emukit/alias.h"
#include "emukit/profile.h"
#include "emukit/rng.h"
#include "util/lex.h"
#include "util/xalloc.h"

#define DEFAULT_SLOTS 8u
#define MAX_PC_POINTS 16u
#define SHARE_EPS     1e-6
#define MAX_LEN       100000000u /* cycles of one run, or of one stretch */

#include "arm64/emu/profile-int.h"

/* --------------------------------------------------------------- parsing */

struct parser {
	struct emu_profile_parser kit;
	struct arm_src_profile *p;
};

/* An error at a line of the profile (0: the file): the kit's diag; -1. */
#define fail_at(ps, line, ...) (emu_profile_error(&(ps)->kit, line, __VA_ARGS__), -1)

/* LO..HI or N, 1 <= LO <= HI <= MAX_LEN. */
static int parse_range(const char *s, uint32_t *lo, uint32_t *hi)
{
	return emu_profile_range(s, MAX_LEN, lo, hi) ? 0 : -1;
}

static bool cycle_key(struct emu_profile_parser *kps, void *rec, const char *key, char *val)
{
	struct parser *ps = kps->model;
	struct cyc *c = rec;
	char msg[256];
	uint16_t code;
	uint64_t vb;

	if (arm_src_event_parse(NULL, key, strlen(key), &code, msg, sizeof(msg)) < 0)
		return emu_profile_error(kps, kps->line, "%s", msg);
	if (lex_u64(val, strlen(val), LEX_NUM_HEX, 0, UINT64_MAX, &vb, NULL))
		return emu_profile_error(kps, kps->line, "bad value '%s' for %s", val, key);
	unsigned max = arm_src_event_max_vb(code, ps->p->slots);
	if (vb > max) {
		const char *name = arm_src_event_name(NULL, code);
		if (max == 1)
			return emu_profile_error(
			    kps, kps->line,
			    "%s = %llu is impossible: it counts cycles, at most 1 "
			    "per cycle",
			    name, (unsigned long long)vb);
		if (max == ps->p->slots)
			return emu_profile_error(
			    kps, kps->line,
			    "%s = %llu is impossible: more than the %u slots per cycle", name,
			    (unsigned long long)vb, ps->p->slots);
		return emu_profile_error(kps, kps->line, "%s = %llu is out of range (0..%u)", key,
		                         (unsigned long long)vb, max);
	}
	for (unsigned i = 0; i < c->nr; i++)
		if (c->vals[i].event == code)
			return emu_profile_error(kps, kps->line,
			                         "%s given twice in cycle '%s' (line %u)", key,
			                         c->name, c->vline[i]);
	if (c->nr == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 16;
		c->vals = xreallocarray(c->vals, c->cap, sizeof(*c->vals));
		c->vline = xreallocarray(c->vline, c->cap, sizeof(*c->vline));
	}
	c->vals[c->nr] = (struct arm_emu_val){.event = code, .vb = (uint16_t)vb};
	c->vline[c->nr++] = kps->line;
	return true;
}

static bool runs_key(struct emu_profile_parser *kps, void *rec, const char *key, char *val)
{
	struct cls *c = rec;
	(void)key;
	free(c->runs);
	c->runs = xstrdup(val);
	c->runs_line = kps->line;
	return true;
}

static bool el_key(struct emu_profile_parser *kps, void *rec, const char *key, char *val)
{
	struct ctx *c = rec;
	uint64_t v;
	(void)key;
	const char *d =
	    (val[0] == 'E' || val[0] == 'e') && (val[1] == 'L' || val[1] == 'l') ? val + 2 : val;
	if (lex_u64(d, strlen(d), LEX_NUM_HEX, 0, 3, &v, NULL))
		return emu_profile_error(kps, kps->line, "bad el '%s' (0, 1, 2 or 3)", val);
	c->el = (uint8_t)v;
	return true;
}

static bool state_key(struct emu_profile_parser *kps, void *rec, const char *key, char *val)
{
	static const char *const st[] = {"ns", "s", "realm", "root"};
	struct ctx *c = rec;
	(void)key;
	for (unsigned i = 0; i < 4; i++)
		if (strcmp(val, st[i]) == 0) {
			c->sec = (uint8_t)i;
			return true;
		}
	return emu_profile_error(kps, kps->line, "bad state '%s' (ns, s, realm or root)", val);
}

static bool streaming_key(struct emu_profile_parser *kps, void *rec, const char *key, char *val)
{
	struct ctx *c = rec;
	(void)key;
	if (strcmp(val, "on") != 0 && strcmp(val, "off") != 0)
		return emu_profile_error(kps, kps->line, "bad streaming '%s' (on or off)", val);
	c->streaming = strcmp(val, "on") == 0;
	return true;
}

/* mix, contexts = NAME:SHARE ...: each line's entries appended */
static const struct emu_profile_share_format share_format = {
    .blanks = " \t",
    .last_colon = true,
    .not_pair = "bad entry '%s' (NAME:SHARE)",
};

#define GROW(arr, n) ((arr) = xreallocarray((arr), (n) + 1, sizeof(*(arr))), &(arr)[(n)++])

#define SHARE_KEY(rec)                                                                             \
	{                                                                                          \
		.name = "share", .type = EMU_KEY_SHARE, EMU_KEY_AT(rec, share),                    \
		.has = offsetof(rec, has_share), .bad = "bad share '%s' (a fraction 0..1)"         \
	}

static const struct emu_profile_key top_keys[] = {
    {.name = "name",
     .type = EMU_KEY_NAME,
     EMU_KEY_AT(struct arm_src_profile, name),
     .required = "no 'name = ...'",
     .bad = "bad name '%s' (letters, digits, - _ .)"},
    {.name = "description",
     .type = EMU_KEY_TEXT,
     EMU_KEY_AT(struct arm_src_profile, description),
     .required = "no 'description = ...'"},
    {.name = "slots",
     .type = EMU_KEY_UINT,
     EMU_KEY_AT(struct arm_src_profile, slots),
     .min = 1,
     .max = ARM_SRC_MAX_SLOTS,
     .bad = "bad slots '%s' (1..%llu: PMMIR_EL1.SLOTS)"},
    {.name = "stall_slot_bias",
     .type = EMU_KEY_UINT,
     EMU_KEY_AT(struct arm_src_profile, bias),
     .max = 1,
     .unlisted = true, /* a core's quirk, not a key every profile writes */
     .bad = "bad stall_slot_bias '%s' (0, or 1 for a PMU that counts one extra slot a cycle in "
            "STALL_SLOT_FRONTEND and STALL_SLOT, as Neoverse N2 does)"},
    {.name = "switch",
     .type = EMU_KEY_RANGE,
     EMU_KEY_AT(struct arm_src_profile, sw_lo),
     .offset_hi = offsetof(struct arm_src_profile, sw_hi),
     .min = 1,
     .max = MAX_LEN,
     .bad = "bad switch '%s' (LO..HI cycles, 1..%llu)"},
    {.name = "function-switch",
     .type = EMU_KEY_RANGE,
     EMU_KEY_AT(struct arm_src_profile, fsw_lo),
     .offset_hi = offsetof(struct arm_src_profile, fsw_hi),
     .min = 1,
     .max = MAX_LEN,
     .bad = "bad function-switch '%s' (LO..HI cycles, 1..%llu)"},
    {.name = NULL},
};

static const struct emu_profile_key class_keys[] = {
    {.name = "runs", .type = EMU_KEY_CALL, .call = runs_key},
    SHARE_KEY(struct cls),
    {.name = NULL},
};

static const struct emu_profile_key context_keys[] = {
    {.name = "el", .type = EMU_KEY_CALL, .call = el_key},
    {.name = "state", .type = EMU_KEY_CALL, .call = state_key},
    {.name = "streaming", .type = EMU_KEY_CALL, .call = streaming_key},
    {.name = "contextid",
     .type = EMU_KEY_UINT,
     EMU_KEY_AT(struct ctx, contextid),
     .max = UINT32_MAX,
     .bad = "bad contextid '%s' (32 bits)"},
    {.name = "vmid",
     .type = EMU_KEY_UINT,
     EMU_KEY_AT(struct ctx, vmid),
     .max = UINT16_MAX,
     .bad = "bad vmid '%s' (16 bits)"},
    SHARE_KEY(struct ctx),
    {.name = NULL},
};

static const struct emu_profile_key phase_keys[] = {
    {.name = "cycles",
     .type = EMU_KEY_UINT,
     EMU_KEY_AT(struct phase, cycles),
     .min = 1,
     .max = UINT64_C(1) << 48,
     .bad = "bad cycles '%s' (1..2^48)"},
    {.name = "mix",
     .type = EMU_KEY_SHARES,
     .offset = offsetof(struct phase, mix),
     .shares = &share_format},
    {.name = "contexts",
     .type = EMU_KEY_SHARES,
     .offset = offsetof(struct phase, ctx_mix),
     .shares = &share_format},
    {.name = NULL},
};

static const struct emu_profile_key function_keys[] = {
    {.name = "address",
     .type = EMU_KEY_UINT,
     EMU_KEY_AT(struct fn, lo),
     .has = offsetof(struct fn, has_addr),
     .max = UINT64_MAX,
     .multiple = 4,
     .bad = "bad address '%s' (a 64-bit number, a multiple of 4)"},
    {.name = "size",
     .type = EMU_KEY_UINT,
     EMU_KEY_AT(struct fn, size),
     .has = offsetof(struct fn, has_size),
     .min = 1,
     .max = UINT64_C(1) << 48,
     .multiple = 4,
     .bad = "bad size '%s' (a multiple of 4, 4..2^48)"},
    SHARE_KEY(struct fn),
    {.name = "context", .type = EMU_KEY_TEXT, EMU_KEY_AT(struct fn, ctx_name)},
    {.name = NULL},
};

static const struct emu_profile_section top_section = {
    .keys = top_keys,
    .unknown = "unknown key '%s' before the first section (%s)",
};

#define RECORDS(arr, nr, rec) EMU_PROFILE_RECORDS(struct arm_src_profile, arr, nr, rec)

static const struct emu_profile_section sections[] = {
    {.name = "cycle",
     RECORDS(cycs, nr_cycs, struct cyc),
     .required = "no [cycle] section",
     .other = cycle_key},
    {.name = "class",
     RECORDS(clss, nr_clss, struct cls),
     .required = "no [class] section",
     .keys = class_keys,
     .unknown = "unknown key '%s' in a class (%s)"},
    {.name = "context",
     RECORDS(ctxs, nr_ctxs, struct ctx),
     .keys = context_keys,
     .unknown = "unknown key '%s' in a context (%s)"},
    {.name = "phase",
     RECORDS(phases, nr_phases, struct phase),
     .keys = phase_keys,
     .unknown = "unknown key '%s' in a phase (%s)"},
    {.name = "function",
     RECORDS(fns, nr_fns, struct fn),
     .keys = function_keys,
     .unknown = "unknown key '%s' in a function (%s)"},
    {.name = NULL},
};

/* hpmstat-emu-profile(5), "ARM PROFILES", and its wording of the errors. */
static const struct emu_profile_format arm_format = {
    .top = &top_section,
    .sections = sections,
    .nul_byte = "cannot read: a NUL byte in the file",
    .bad_section = "bad section header '%s' ([KIND NAME])",
    .bad_name = "bad or missing section name '%s'",
    .not_key_value = "expected KEY = VALUE or [KIND NAME], got '%s'",
    .empty_key = "empty key or value",
    .empty_value = "empty key or value",
};

/* ------------------------------------------------------------ validation */

static unsigned vb_of(const struct cyc *c, uint16_t code)
{
	for (unsigned i = 0; i < c->nr; i++)
		if (c->vals[i].event == code)
			return c->vals[i].vb;
	return 0;
}

static int cmp_val(const void *a, const void *b)
{
	const struct arm_emu_val *x = a, *y = b;
	return x->event < y->event ? -1 : x->event > y->event;
}

/* The pairs whose first is at most the second in every cycle. */
static const char *const not_above[][2] = {
    {"OP_RETIRED", "OP_SPEC"},
    {"INST_RETIRED", "INST_SPEC"},
    {"BR_MIS_PRED_RETIRED", "BR_RETIRED"},
    {"L1D_CACHE_REFILL", "L1D_CACHE"},
    {"L1I_CACHE_REFILL", "L1I_CACHE"},
    {"L2D_CACHE_REFILL", "L2D_CACHE"},
    {"L1D_TLB_REFILL", "L1D_TLB"},
    {"L1I_TLB_REFILL", "L1I_TLB"},
    {"L2D_TLB_REFILL", "L2D_TLB"},
    {"LL_CACHE_MISS_RD", "LL_CACHE_RD"},
    {"L3D_CACHE_REFILL", "L3D_CACHE"},
    {"ITLB_WALK", "L1I_TLB_REFILL"},
    {"DTLB_WALK", "L1D_TLB_REFILL"},
};

static uint16_t code_of(const char *name)
{
	uint16_t code = 0;
	char msg[128];
	arm_src_event_parse(NULL, name, strlen(name), &code, msg, sizeof(msg));
	return code;
}

static int check_cycle(struct parser *ps, struct cyc *c)
{
	unsigned slots = ps->p->slots;
	unsigned fe = vb_of(c, ARM_SRC_STALL_SLOT_FRONTEND),
	         be = vb_of(c, ARM_SRC_STALL_SLOT_BACKEND);
	bool has_ss = false;
	for (unsigned i = 0; i < c->nr; i++)
		has_ss |= c->vals[i].event == ARM_SRC_STALL_SLOT;
	if (!has_ss && fe + be) {
		/* STALL_SLOT not given: the slots stalled for either reason */
		if (fe + be > slots)
			return fail_at(ps, c->line,
			               "cycle '%s': STALL_SLOT_FRONTEND + STALL_SLOT_BACKEND = %u "
			               "is more than the %u slots",
			               c->name, fe + be, slots);
		if (c->nr == c->cap) {
			c->cap = c->cap ? 2 * c->cap : 16;
			c->vals = xreallocarray(c->vals, c->cap, sizeof(*c->vals));
		}
		c->vals[c->nr++] =
		    (struct arm_emu_val){.event = ARM_SRC_STALL_SLOT, .vb = (uint16_t)(fe + be)};
	}
	unsigned ss = vb_of(c, ARM_SRC_STALL_SLOT), op = vb_of(c, ARM_SRC_OP_SPEC);
	unsigned bias = ps->p->bias;
	if (fe < bias)
		return fail_at(
		    ps, c->line,
		    "cycle '%s': STALL_SLOT_FRONTEND %u is below stall_slot_bias %u (the "
		    "PMU counts that many every cycle)",
		    c->name, fe, bias);
	if (ss < fe + be)
		return fail_at(ps, c->line,
		               "cycle '%s': STALL_SLOT (%u) is less than STALL_SLOT_FRONTEND + "
		               "STALL_SLOT_BACKEND (%u)",
		               c->name, ss, fe + be);
	if (op + ss - bias > slots)
		return fail_at(ps, c->line,
		               "cycle '%s': OP_SPEC + STALL_SLOT%s = %u is more than the %u slots "
		               "(each slot sends an operation or stalls)",
		               c->name, bias ? " - stall_slot_bias" : "", op + ss - bias, slots);
	if (vb_of(c, ARM_SRC_STALL_FRONTEND) + vb_of(c, ARM_SRC_STALL_BACKEND) > 1)
		return fail_at(ps, c->line,
		               "cycle '%s': STALL_FRONTEND + STALL_BACKEND is more than 1 (a "
		               "cycle stalls for one reason)",
		               c->name);
	for (size_t i = 0; i < sizeof(not_above) / sizeof(not_above[0]); i++) {
		unsigned a = vb_of(c, code_of(not_above[i][0])),
		         b = vb_of(c, code_of(not_above[i][1]));
		if (a > b)
			return fail_at(ps, c->line, "cycle '%s': %s (%u) is more than %s (%u)",
			               c->name, not_above[i][0], a, not_above[i][1], b);
	}
	/* sorted, without zeros: what a run carries (a cycle without events
	 * has no vals to sort: qsort takes no NULL, even for 0 elements) */
	if (c->nr)
		qsort(c->vals, c->nr, sizeof(*c->vals), cmp_val);
	unsigned k = 0;
	for (unsigned i = 0; i < c->nr; i++)
		if (c->vals[i].vb)
			c->vals[k++] = c->vals[i];
	c->nr = k;
	return 0;
}

static int resolve_runs(struct parser *ps, struct cls *c)
{
	struct arm_src_profile *p = ps->p;
	if (!c->runs)
		return fail_at(ps, c->line, "class '%s' has no runs", c->name);
	char *save = NULL, *text = xstrdup(c->runs);
	int ret = 0;
	c->mean = 0;
	for (char *t = strtok_r(text, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
		char *colon = strchr(t, ':');
		uint32_t lo = 1, hi = 1;
		if (colon) {
			*colon = '\0';
			if (parse_range(colon + 1, &lo, &hi) < 0) {
				ret = fail_at(ps, c->runs_line,
				              "bad run length '%s' (LEN or LO..HI, 1..%u)",
				              colon + 1, MAX_LEN);
				break;
			}
		}
		int k = EMU_PROFILE_INDEX(p->cycs, p->nr_cycs, t);
		if (k < 0) {
			ret = fail_at(ps, c->runs_line, "unknown cycle '%s'", t);
			break;
		}
		p->cycs[k].used = true;
		struct seg *s = GROW(c->segs, c->nr_segs);
		*s = (struct seg){.cyc = (unsigned)k, .lo = lo, .hi = hi};
		c->mean += (lo + (double)hi) / 2;
	}
	free(text);
	if (!ret && !c->nr_segs)
		ret = fail_at(ps, c->runs_line, "class '%s' has no runs", c->name);
	return ret;
}

/* The alias table (emukit/alias.h) over weights w[0..n) of items item[0..n). */
static void alias_build(struct alias *a, const double *w, const unsigned *item, unsigned n)
{
	double sum = 0;
	a->n = n;
	a->item = xcalloc(n, sizeof(*a->item));
	for (unsigned i = 0; i < n; i++) {
		sum += w[i];
		a->item[i] = item[i];
	}
	hpm_alias_build(w, n, sum, &a->thr, &a->alias);
}

static void alias_free(struct alias *a)
{
	free(a->thr);
	free(a->alias);
	free(a->item);
}

static double shares_sum(const double *v, unsigned n)
{
	double s = 0;
	for (unsigned i = 0; i < n; i++)
		s += v[i];
	return s;
}

static int event_index(const struct arm_src_profile *p, uint16_t code)
{
	unsigned lo = 0, hi = p->nr_events;
	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;
		if (p->events[mid] < code)
			lo = mid + 1;
		else if (p->events[mid] > code)
			hi = mid;
		else
			return (int)mid;
	}
	return -1;
}

static double mean_of(const struct arm_src_profile *p, const double *mean, uint16_t code)
{
	int i = event_index(p, code);
	return i < 0 ? 0 : mean[i];
}

/* Arm's level-1 formulas over the SBSA slot form ts, with BM the
 * expected BR_MIS_PRED per cycle (CPU_CYCLES is 1 per cycle): Neoverse V1
 * moves 4 BM from frontend to bad speculation; V2 and N2 take BM off
 * frontend and 3 BM off backend and add the 4 to bad speculation.
 * Retiring is the SBSA one in both. */
static void arm_forms(const struct arm_src_topdown *ts, double bm,
                      struct arm_src_topdown out[ARM_SRC_TD_NR])
{
	out[ARM_SRC_TD_V1] = *ts;
	out[ARM_SRC_TD_V1].frontend -= 4 * bm;
	out[ARM_SRC_TD_V1].bad_spec += 4 * bm;
	out[ARM_SRC_TD_V2] = *ts;
	out[ARM_SRC_TD_V2].frontend -= bm;
	out[ARM_SRC_TD_V2].backend -= 3 * bm;
	out[ARM_SRC_TD_V2].bad_spec += 4 * bm;
}

static void topdown(const struct arm_src_profile *p, const double *mean, struct arm_src_topdown *ts,
                    struct arm_src_topdown *tc, struct arm_src_topdown arm[ARM_SRC_TD_NR])
{
	double slots = p->slots;
	double fe = mean_of(p, mean, ARM_SRC_STALL_SLOT_FRONTEND),
	       be = mean_of(p, mean, ARM_SRC_STALL_SLOT_BACKEND),
	       ss = mean_of(p, mean, ARM_SRC_STALL_SLOT),
	       opr = mean_of(p, mean, ARM_SRC_OP_RETIRED), ops = mean_of(p, mean, ARM_SRC_OP_SPEC);
	/* per cycle: CPU_CYCLES is 1; the bias counted every cycle is no stall
	 * (Neoverse N2's metrics subtract CPU_CYCLES for it) */
	fe -= p->bias;
	ss -= p->bias;
	ts->frontend = fe / slots;
	ts->backend = be / slots;
	ts->retiring = ops > 0 ? opr / ops * (1 - ss / slots) : (double)NAN;
	ts->bad_spec = ops > 0 ? (1 - opr / ops) * (1 - ss / slots) : (double)NAN;
	double sf = mean_of(p, mean, ARM_SRC_STALL_FRONTEND),
	       sb = mean_of(p, mean, ARM_SRC_STALL_BACKEND),
	       ir = mean_of(p, mean, code_of("INST_RETIRED")),
	       is = mean_of(p, mean, code_of("INST_SPEC"));
	tc->frontend = sf;
	tc->backend = sb;
	tc->retiring = is > 0 ? ir / is * (1 - (sf + sb)) : (double)NAN;
	tc->bad_spec = is > 0 ? (1 - ir / is) * (1 - (sf + sb)) : (double)NAN;
	arm_forms(ts, mean_of(p, mean, code_of("BR_MIS_PRED")), arm);
}

/* Arm's formulas keep every node of a profile in [0, 1] only when its
 * mispredictions leave frontend and backend stalls to take them off
 * (V1: STALL_SLOT_FRONTEND >= 4 x SLOTS x BR_MIS_PRED; V2 and N2: >= 1 x
 * and STALL_SLOT_BACKEND >= 3 x SLOTS x BR_MIS_PRED): the mix of the
 * whole period, and of each phase, must. Returns the first node out of
 * range, or NULL. */
static const char *arm_out_of_range(const struct arm_src_topdown arm[ARM_SRC_TD_NR], char *buf,
                                    size_t len)
{
	static const char *const form[ARM_SRC_TD_NR] = {"Neoverse V1", "Neoverse V2 and N2"};
	for (unsigned f = 0; f < ARM_SRC_TD_NR; f++) {
		const double v[4] = {arm[f].frontend, arm[f].backend, arm[f].retiring,
		                     arm[f].bad_spec};
		static const char *const node[4] = {"frontend_bound", "backend_bound", "retiring",
		                                    "bad_speculation"};
		for (unsigned k = 0; k < 4; k++)
			if (v[k] < -1e-9 || v[k] > 1 + 1e-9) {
				snprintf(buf, len, "%s is %.4f by %s's formula (BR_MIS_PRED %s)",
				         node[k], v[k], form[f],
				         k == 3 ? "leaves too little for bad speculation"
				                : "takes off more stalls than the cycles give");
				return buf;
			}
	}
	return NULL;
}

/* The implicit context when none is declared; each context's EL and
 * security state together. */
static int finish_contexts(struct parser *ps)
{
	struct arm_src_profile *p = ps->p;
	if (!p->nr_ctxs) {
		struct ctx *c = GROW(p->ctxs, p->nr_ctxs);
		memset(c, 0, sizeof(*c));
		c->name = xstrdup("default");
		c->share = 1;
		c->has_share = true;
	}
	for (unsigned i = 0; i < p->nr_ctxs; i++) {
		struct ctx *c = &p->ctxs[i];
		if (c->el == 3 && (c->sec == ARM_EMU_SEC_NS || c->sec == ARM_EMU_SEC_REALM))
			return fail_at(ps, c->line,
			               "context '%s': EL3 is never Non-secure or Realm (state s or "
			               "root)",
			               c->name);
		if (c->el != 3 && c->sec == ARM_EMU_SEC_ROOT)
			return fail_at(ps, c->line, "context '%s': Root is EL3's state only",
			               c->name);
	}
	if (p->nr_ctxs == 1 && !p->ctxs[0].has_share) {
		p->ctxs[0].share = 1;
		p->ctxs[0].has_share = true;
	}

	return 0;
}

/* A phase's classes: known, once each, their shares summing to 1; its
 * alias table of classes. */
static int phase_classes(struct parser *ps, struct phase *ph, bool phased)
{
	struct arm_src_profile *p = ps->p;
	if (phased && !ph->cycles)
		return fail_at(ps, ph->line, "phase '%s' has no cycles", ph->name);
	if (!ph->mix.nr)
		return fail_at(ps, ph->line, "phase '%s' has no mix", ph->name);
	ph->mix_cls = xcalloc(ph->mix.nr, sizeof(unsigned));
	double *w = xcalloc(ph->mix.nr, sizeof(double));
	for (unsigned k = 0; k < ph->mix.nr; k++) {
		const struct emu_profile_share *m = &ph->mix.v[k];
		int c = EMU_PROFILE_INDEX(p->clss, p->nr_clss, m->name);
		if (c < 0) {
			free(w);
			return fail_at(ps, m->line, "unknown class '%s'", m->name);
		}
		for (unsigned j = 0; j < k; j++)
			if (ph->mix_cls[j] == (unsigned)c) {
				free(w);
				return fail_at(ps, m->line,
				               "class '%s' twice in the mix of phase '%s'", m->name,
				               ph->name);
			}
		ph->mix_cls[k] = (unsigned)c;
		p->clss[c].used = true;
		w[k] = m->share / p->clss[c].mean;
	}
	if (phased && fabs(emu_profile_shares_sum(&ph->mix) - 1) > SHARE_EPS) {
		free(w);
		return fail_at(ps, ph->line, "the mix of phase '%s' sums to %g, not 1", ph->name,
		               emu_profile_shares_sum(&ph->mix));
	}
	/* a class with share 0 is never drawn */
	alias_build(&ph->cls_alias, w, ph->mix_cls, ph->mix.nr);
	free(w);

	return 0;
}

/* A phase's contexts: its own list, or every context's share. */
static int phase_contexts(struct parser *ps, struct phase *ph)
{
	struct arm_src_profile *p = ps->p;
	ph->ctxs = xcalloc(p->nr_ctxs, sizeof(double));
	if (ph->ctx_mix.nr) {
		for (unsigned k = 0; k < ph->ctx_mix.nr; k++) {
			const struct emu_profile_share *m = &ph->ctx_mix.v[k];
			int c = EMU_PROFILE_INDEX(p->ctxs, p->nr_ctxs, m->name);
			if (c < 0)
				return fail_at(ps, m->line, "unknown context '%s'", m->name);
			if (ph->ctxs[c] > 0)
				return fail_at(ps, m->line, "context '%s' twice in phase '%s'",
				               m->name, ph->name);
			ph->ctxs[c] = m->share;
		}
		if (fabs(shares_sum(ph->ctxs, p->nr_ctxs) - 1) > SHARE_EPS)
			return fail_at(ps, ph->line, "the contexts of phase '%s' sum to %g, not 1",
			               ph->name, shares_sum(ph->ctxs, p->nr_ctxs));
	} else {
		for (unsigned c = 0; c < p->nr_ctxs; c++) {
			if (!p->ctxs[c].has_share)
				return fail_at(ps, p->ctxs[c].line,
				               "context '%s' has no share (and phase '%s' gives "
				               "no contexts)",
				               p->ctxs[c].name, ph->name);
			ph->ctxs[c] = p->ctxs[c].share;
		}
		if (fabs(shares_sum(ph->ctxs, p->nr_ctxs) - 1) > SHARE_EPS)
			return fail_at(ps, 0, "the contexts' shares sum to %g, not 1",
			               shares_sum(ph->ctxs, p->nr_ctxs));
	}
	return 0;
}

/* The phases (an implicit endless one when none is declared), their
 * classes and contexts, and the period. */
static int finish_phases(struct parser *ps)
{
	struct arm_src_profile *p = ps->p;
	bool phased = p->nr_phases > 0;
	if (!phased) {
		struct phase *ph = GROW(p->phases, p->nr_phases);
		memset(ph, 0, sizeof(*ph));
		ph->name = xstrdup("all");
		for (unsigned i = 0; i < p->nr_clss; i++) {
			struct cls *c = &p->clss[i];
			if (!c->has_share)
				return fail_at(ps, c->line, "class '%s' has no share", c->name);
			emu_profile_shares_add(&ph->mix, c->name, c->share, c->line);
		}
		if (fabs(emu_profile_shares_sum(&ph->mix) - 1) > SHARE_EPS)
			return fail_at(ps, 0, "the classes' shares sum to %g, not 1",
			               emu_profile_shares_sum(&ph->mix));
	} else {
		for (unsigned i = 0; i < p->nr_clss; i++)
			if (p->clss[i].has_share)
				return fail_at(
				    ps, p->clss[i].line,
				    "class '%s' has a share, but the profile has phases: "
				    "give shares in each phase's mix",
				    p->clss[i].name);
	}
	p->period = 0;
	for (unsigned i = 0; i < p->nr_phases; i++) {
		struct phase *ph = &p->phases[i];
		if (phase_classes(ps, ph, phased) < 0)
			return -1;
		p->period += ph->cycles;
		if (phase_contexts(ps, ph) < 0)
			return -1;
		unsigned *items = xcalloc(p->nr_ctxs, sizeof(unsigned));
		for (unsigned c = 0; c < p->nr_ctxs; c++)
			items[c] = c;
		alias_build(&ph->ctx_alias, ph->ctxs, items, p->nr_ctxs);
		free(items);
	}
	for (unsigned i = 0; i < p->nr_clss; i++)
		if (!p->clss[i].used)
			return fail_at(ps, p->clss[i].line, "class '%s' is in no phase's mix",
			               p->clss[i].name);

	return 0;
}

/* The functions: complete, in a context, not overlapping; each context's
 * alias table of its functions; the keys. */
static int finish_functions(struct parser *ps)
{
	struct arm_src_profile *p = ps->p;
	p->nr_pts = 1;
	for (unsigned i = 0; i < p->nr_fns; i++) {
		struct fn *f = &p->fns[i];
		if (!f->has_addr || !f->has_size || !f->has_share)
			return fail_at(ps, f->line, "function '%s' needs address, size and share",
			               f->name);
		if (f->lo + f->size < f->lo)
			return fail_at(ps, f->line, "function '%s' runs past 2^64", f->name);
		if (f->ctx_name) {
			int c = EMU_PROFILE_INDEX(p->ctxs, p->nr_ctxs, f->ctx_name);
			if (c < 0)
				return fail_at(ps, f->line, "unknown context '%s'", f->ctx_name);
			f->ctx = (unsigned)c;
		} else if (p->nr_ctxs == 1) {
			f->ctx = 0;
		} else {
			return fail_at(ps, f->line,
			               "function '%s' needs a context (the profile has %u)",
			               f->name, p->nr_ctxs);
		}
		for (unsigned j = 0; j < i; j++)
			if (p->fns[j].ctx == f->ctx && f->lo < p->fns[j].lo + p->fns[j].size &&
			    p->fns[j].lo < f->lo + f->size)
				return fail_at(ps, f->line, "function '%s' overlaps function '%s'",
				               f->name, p->fns[j].name);
		f->npts = f->size / 4 < MAX_PC_POINTS ? (unsigned)(f->size / 4) : MAX_PC_POINTS;
		f->pt_base = p->nr_pts - 1;
		p->nr_pts += f->npts;
		struct ctx *c = &p->ctxs[f->ctx];
		c->fn = xreallocarray(c->fn, c->nr_fn + 1, sizeof(unsigned));
		c->fn_share = xreallocarray(c->fn_share, c->nr_fn + 1, sizeof(double));
		c->fn[c->nr_fn] = i;
		c->fn_share[c->nr_fn++] = f->share;
	}
	for (unsigned i = 0; i < p->nr_ctxs; i++) {
		struct ctx *c = &p->ctxs[i];
		if (!c->nr_fn)
			continue;
		if (fabs(shares_sum(c->fn_share, c->nr_fn) - 1) > SHARE_EPS)
			return fail_at(ps, c->line,
			               "the functions of context '%s' sum to %g, not 1", c->name,
			               shares_sum(c->fn_share, c->nr_fn));
		struct alias a;
		alias_build(&a, c->fn_share, c->fn, c->nr_fn);
		c->fn_thr = a.thr;
		c->fn_alias = a.alias;
		free(a.item);
	}
	uint64_t keys = (uint64_t)p->nr_cycs * p->nr_ctxs * p->nr_pts;
	if (keys > UINT32_MAX - 1)
		return fail_at(ps, 0, "too many (cycle, context, PC) combinations for 32-bit keys");
	p->max_key = (uint32_t)keys;

	return 0;
}

/* The events some cycle delivers, the expectations per phase and over the
 * period, their Topdown (within Arm's ranges), and the kernel's view. */
static int finish_expectations(struct parser *ps)
{
	struct arm_src_profile *p = ps->p;
	for (unsigned i = 0; i < p->nr_cycs; i++)
		for (unsigned k = 0; k < p->cycs[i].nr; k++) {
			uint16_t code = p->cycs[i].vals[k].event;
			if (event_index(p, code) >= 0)
				continue;
			unsigned j = p->nr_events;
			p->events = xreallocarray(p->events, j + 1, sizeof(*p->events));
			while (j && p->events[j - 1] > code) {
				p->events[j] = p->events[j - 1];
				j--;
			}
			p->events[j] = code;
			p->nr_events++;
		}
	p->mean = xcalloc(p->nr_events + 1, sizeof(double));
	for (unsigned i = 0; i < p->nr_phases; i++) {
		struct phase *ph = &p->phases[i];
		double wph = p->period ? (double)ph->cycles / (double)p->period : 1;
		ph->mean = xcalloc(p->nr_events + 1, sizeof(double));
		for (unsigned k = 0; k < ph->mix.nr; k++) {
			const struct cls *c = &p->clss[ph->mix_cls[k]];
			for (unsigned s = 0; s < c->nr_segs; s++) {
				const struct cyc *cy = &p->cycs[c->segs[s].cyc];
				double w = ph->mix.v[k].share *
				           (c->segs[s].lo + (double)c->segs[s].hi) / 2 / c->mean;
				for (unsigned v = 0; v < cy->nr; v++)
					ph->mean[event_index(p, cy->vals[v].event)] +=
					    w * cy->vals[v].vb;
			}
		}
		for (unsigned e = 0; e < p->nr_events; e++)
			p->mean[e] += wph * ph->mean[e];
		for (unsigned c = 0; c < p->nr_ctxs; c++) {
			struct ctx *cx = &p->ctxs[c];
			double sh = wph * ph->ctxs[c];
			cx->period_share += sh;
			p->el_share[cx->el] += sh;
			p->sec_share[cx->sec] += sh;
			if (cx->streaming)
				p->streaming_share += sh;
		}
	}
	topdown(p, p->mean, &p->td_slots, &p->td_cycles, p->td_arm);
	char why[160];
	if (event_index(p, ARM_SRC_OP_SPEC) >= 0) { /* the slot form exists */
		struct arm_src_topdown s, c, a[ARM_SRC_TD_NR];
		if (arm_out_of_range(p->td_arm, why, sizeof(why)))
			return fail_at(ps, 0, "%s", why);
		for (unsigned i = 0; i < p->nr_phases; i++) {
			topdown(p, p->phases[i].mean, &s, &c, a);
			if (arm_out_of_range(a, why, sizeof(why)))
				return fail_at(ps, 0, "phase '%s': %s", p->phases[i].name, why);
		}
	}

	/* the kernel's view: per cycle of all cycles, the events of the
	 * contexts where counting is not prohibited (events do not depend on
	 * the context within a phase: a phase's mean times that share) */
	double *kmean = xcalloc(p->nr_events + 1, sizeof(double));
	for (unsigned i = 0; i < p->nr_phases; i++) {
		const struct phase *ph = &p->phases[i];
		double wph = p->period ? (double)ph->cycles / (double)p->period : 1, counted = 0;
		for (unsigned c = 0; c < p->nr_ctxs; c++) {
			const struct ctx *cx = &p->ctxs[c];
			if (cx->sec != ARM_EMU_SEC_S && cx->sec != ARM_EMU_SEC_ROOT &&
			    cx->el != ARM_EMU_EL3)
				counted += ph->ctxs[c];
		}
		for (unsigned e = 0; e < p->nr_events; e++)
			kmean[e] += wph * counted * ph->mean[e];
	}
	topdown(p, kmean, &p->td_kernel_slots, &p->td_kernel_cycles, p->td_kernel_arm);
	free(kmean);
	return 0;
}

static int finish(struct parser *ps)
{
	struct arm_src_profile *p = ps->p;
	ps->kit.line = 0;
	for (unsigned i = 0; i < p->nr_cycs; i++)
		if (check_cycle(ps, &p->cycs[i]) < 0)
			return -1;
	for (unsigned i = 0; i < p->nr_clss; i++)
		if (resolve_runs(ps, &p->clss[i]) < 0)
			return -1;
	for (unsigned i = 0; i < p->nr_cycs; i++)
		if (!p->cycs[i].used)
			return fail_at(ps, p->cycs[i].line, "cycle '%s' is used by no class",
			               p->cycs[i].name);

	if (finish_contexts(ps) < 0 || finish_phases(ps) < 0 || finish_functions(ps) < 0)
		return -1;
	return finish_expectations(ps);
}

/* ------------------------------------------------------------- lifetime */

static void profile_free(struct arm_src_profile *p)
{
	if (!p)
		return;
	free(p->name);
	free(p->description);
	free(p->origin);
	for (unsigned i = 0; i < p->nr_cycs; i++) {
		free(p->cycs[i].name);
		free(p->cycs[i].vals);
		free(p->cycs[i].vline);
	}
	free(p->cycs);
	for (unsigned i = 0; i < p->nr_clss; i++) {
		free(p->clss[i].name);
		free(p->clss[i].segs);
		free(p->clss[i].runs);
	}
	free(p->clss);
	for (unsigned i = 0; i < p->nr_ctxs; i++) {
		struct ctx *c = &p->ctxs[i];
		free(c->name);
		free(c->fn);
		free(c->fn_share);
		free(c->fn_thr);
		free(c->fn_alias);
	}
	free(p->ctxs);
	for (unsigned i = 0; i < p->nr_fns; i++) {
		free(p->fns[i].name);
		free(p->fns[i].ctx_name);
	}
	free(p->fns);
	for (unsigned i = 0; i < p->nr_phases; i++) {
		struct phase *ph = &p->phases[i];
		free(ph->name);
		free(ph->mix_cls);
		emu_profile_shares_free(&ph->mix);
		emu_profile_shares_free(&ph->ctx_mix);
		alias_free(&ph->cls_alias);
		alias_free(&ph->ctx_alias);
		free(ph->mean);
		free(ph->ctxs);
	}
	free(p->phases);
	free(p->events);
	free(p->mean);
	free(p);
}

static struct arm_src_profile *parse(const char *file, const char *text, size_t len, bool builtin,
                                     char *err, size_t errlen)
{
	struct arm_src_profile *p = xcalloc(1, sizeof(*p));
	struct parser ps = {.p = p};
	ps.kit.model = &ps;
	p->slots = DEFAULT_SLOTS;
	p->sw_lo = 10000;
	p->sw_hi = 50000;
	p->fsw_lo = 1000;
	p->fsw_hi = 5000;
	p->builtin = builtin;
	p->origin = xstrdup(builtin ? "built-in" : file);
	bool ok = emu_profile_read(&ps.kit, &arm_format, p, file, text, len) && finish(&ps) == 0;
	emu_profile_parser_free(&ps.kit);
	if (!ok) {
		hpm_diag_format(&ps.kit.diag, err, errlen);
		profile_free(p);
		return NULL;
	}
	return p;
}

/* a built-in that does not parse is a build error the tests catch */
static void *parse_builtin(unsigned i)
{
	char err[320];
	const char *text = arm_src_builtin_texts[i].text;
	return parse(arm_src_builtin_texts[i].file, text, strlen(text), true, err, sizeof(err));
}

static const char *registry_name(const void *p)
{
	return ((const struct arm_src_profile *)p)->name;
}

static void registry_free(void *p)
{
	profile_free(p);
}

/* a file's text, all of it (a NUL byte is refused) */
static void *parse_file(const char *path, const char *text, size_t len, char *err, size_t errlen)
{
	return parse(path, text, len, false, err, errlen);
}

static struct emu_profile_registry registry = {
    .nr_builtin_at = &arm_src_builtin_count,
    .builtin = parse_builtin,
    .name = registry_name,
    .destroy = registry_free,
    .parse_file = parse_file,
    .max_bytes = 16u << 20,
    .too_large = "larger than 16 MiB",
    .unknown = "unknown Arm profile '%s' (known: %s)",
    .file_suffix = ".profile",
};

unsigned arm_src_profile_count(void)
{
	return emu_profile_registry_count(&registry);
}

const struct arm_src_profile *arm_src_profile_at(unsigned i)
{
	return emu_profile_registry_at(&registry, i);
}

const struct arm_src_profile *arm_src_profile_parse(const char *file, const char *text, char *err,
                                                    size_t errlen)
{
	struct arm_src_profile *p = parse(file, text, strlen(text), false, err, errlen);
	return p ? emu_profile_registry_keep(&registry, p) : NULL;
}

const struct arm_src_profile *arm_src_profile_find(const char *name_or_path, char *err,
                                                   size_t errlen)
{
	return emu_profile_registry_find(&registry, name_or_path, err, errlen);
}

void arm_src_profile_free(const struct arm_src_profile *p)
{
	emu_profile_registry_release(&registry, p);
}

double arm_src_profile_mean(const struct arm_src_profile *p, uint16_t code)
{
	return mean_of(p, p->mean, code);
}

/* profile.c: the profile file parser, its validation, the declared Topdown
 * breakdown, and the registry of built-in and file profiles.
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

#include "emu/alias.h"
#include "kmh/emu/workload-int.h"
#include "kmh/kmh.h"
#include "util/str.h"
#include "util/xalloc.h"

#define SHARE_EPSILON     1e-9
#define MAX_PROFILE_BYTES (1u << 20)

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

struct pmix {
	char *cls;
	double share;
};

struct pphase {
	struct pmix *mix;
	unsigned nr_mix, mix_line;
	bool has_cycles;
};

struct pfunc {
	struct pmix *mix;
	unsigned nr_mix, mix_line;
	bool has_addr, has_size, has_share;
	uint64_t size;
};

struct ptask {
	struct pmix *mix;
	unsigned nr_mix, mix_line;
	bool has_pid, has_tgid, has_share, has_start, has_exit, has_hart;
};

enum section { SEC_TOP, SEC_CYCLE, SEC_CLASS, SEC_PHASE, SEC_FUNCTION, SEC_TASK };

struct parser {
	const char *file;
	unsigned line;
	char *err;
	size_t errlen;
	struct emu_profile *p;
	struct pcycle *pc;
	struct pclass *pk;
	struct pphase *pp;
	unsigned nr_pp; /* [phase] sections of the file (p->phases may add one) */
	struct pfunc *pf;
	struct ptask *pt;
	enum section sec;
	bool has_modes, has_mode_switch, has_fn_classes;
	unsigned slice_line; /* of task-slice, 0: none */
};

static bool perr(struct parser *ps, unsigned line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static bool perr(struct parser *ps, unsigned line, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (line)
		str_seterr(ps->err, ps->errlen, "%s:%u: %s", ps->file, line, msg);
	else
		str_seterr(ps->err, ps->errlen, "%s: %s", ps->file, msg);
	return false;
}

static void phase_destroy(struct wl_phase *ph)
{
	free(ph->name);
	free(ph->cls);
	free(ph->share);
	free(ph->thr);
	free(ph->alias);
	free(ph->mean);
}

static void profile_destroy(struct emu_profile *p)
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
	for (unsigned i = 0; i < ps->nr_pp; i++) {
		for (unsigned j = 0; j < ps->pp[i].nr_mix; j++)
			free(ps->pp[i].mix[j].cls);
		free(ps->pp[i].mix);
	}
	free(ps->pp);
	for (unsigned i = 0; p && i < p->nr_funcs; i++) {
		for (unsigned j = 0; j < ps->pf[i].nr_mix; j++)
			free(ps->pf[i].mix[j].cls);
		free(ps->pf[i].mix);
	}
	free(ps->pf);
	for (unsigned i = 0; p && i < p->nr_tasks; i++) {
		for (unsigned j = 0; j < ps->pt[i].nr_mix; j++)
			free(ps->pt[i].mix[j].cls);
		free(ps->pt[i].mix);
	}
	free(ps->pt);
}

/* ---------------------------------------------------------------- values */

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static bool valid_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '-' || *s == '_' || *s == '.'))
			return false;
	return true;
}

/* Unsigned decimal (or 0x hex) integer up to max; the whole string. */
static bool parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	int base = 10;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return false;
	uint64_t v = 0;
	for (; *s; s++) {
		unsigned d;
		if (*s >= '0' && *s <= '9')
			d = (unsigned)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = (unsigned)(*s - 'a' + 10);
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = (unsigned)(*s - 'A' + 10);
		else
			return false;
		if (v > (max - d) / (uint64_t)base)
			return false;
		v = v * (uint64_t)base + d;
	}
	*out = v;
	return true;
}

/* A share: a decimal fraction 0..1 such as 1, 0.25 or .5. Parsed by hand
 * so that the C locale's decimal point is not needed. */
static bool parse_share(const char *s, double *out)
{
	uint64_t mant = 0, scale = 1;
	bool digits = false, point = false;
	for (; *s; s++) {
		if (*s == '.' && !point) {
			point = true;
			continue;
		}
		if (*s < '0' || *s > '9')
			return false;
		if (mant > UINT64_C(100000000000000))
			return false; /* more than 15 digits */
		mant = mant * 10 + (uint64_t)(*s - '0');
		if (point)
			scale *= 10;
		digits = true;
	}
	if (!digits)
		return false;
	*out = (double)mant / (double)scale;
	return *out <= 1.0;
}

/* LEN or LO..HI, 1 <= LO <= HI < 2^32 - 1. */
static bool parse_range(const char *s, uint32_t *lo, uint32_t *hi)
{
	char buf[64];
	const char *dots = strstr(s, "..");
	uint64_t a, b;
	if (strlen(s) >= sizeof(buf))
		return false;
	if (!dots) {
		if (!parse_u64(s, UINT32_MAX - 1, &a))
			return false;
		b = a;
	} else {
		memcpy(buf, s, (size_t)(dots - s));
		buf[dots - s] = '\0';
		if (!parse_u64(buf, UINT32_MAX - 1, &a) || !parse_u64(dots + 2, UINT32_MAX - 1, &b))
			return false;
	}
	if (a < 1 || b < a)
		return false;
	*lo = (uint32_t)a;
	*hi = (uint32_t)b;
	return true;
}

/* Splits `s` in place into whitespace-separated words. */
static unsigned split_words(char *s, char **words, unsigned max)
{
	unsigned n = 0;
	while (*s) {
		while (is_space(*s))
			s++;
		if (!*s)
			break;
		if (n == max)
			return max + 1;
		words[n++] = s;
		while (*s && !is_space(*s))
			s++;
		if (*s)
			*s++ = '\0';
	}
	return n;
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

static bool top_key(struct parser *ps, const char *key, char *value)
{
	struct emu_profile *p = ps->p;
	if (strcmp(key, "name") == 0) {
		if (p->name)
			return perr(ps, ps->line, "'name' given twice");
		if (!valid_name(value))
			return perr(ps, ps->line, "bad name '%s' (letters, digits, '-', '_', '.')",
			            value);
		p->name = xstrdup(value);
		return true;
	}
	if (strcmp(key, "description") == 0) {
		if (p->description)
			return perr(ps, ps->line, "'description' given twice");
		p->description = xstrdup(value);
		return true;
	}
	if (strcmp(key, "modes") == 0) {
		if (ps->has_modes)
			return perr(ps, ps->line, "'modes' given twice");
		ps->has_modes = true;
		char *w[MAX_WORDS];
		unsigned n = split_words(value, w, MAX_WORDS);
		if (n > MAX_WORDS)
			return perr(ps, ps->line, "too many modes");
		bool seen[EMU_NR_MODES] = {false};
		double sum = 0;
		for (unsigned i = 0; i < n; i++) {
			char *colon = strchr(w[i], ':');
			if (!colon)
				return perr(ps, ps->line, "'%s' is not MODE:SHARE", w[i]);
			*colon = '\0';
			int m = mode_by_name(w[i]);
			if (m < 0)
				return perr(
				    ps, ps->line,
				    "unknown mode '%s' (one of M, HS, HU, VS, VU; S = HS, U = HU)",
				    w[i]);
			if (seen[m])
				return perr(ps, ps->line, "mode %s given twice", mode_names[m]);
			seen[m] = true;
			double sh;
			if (colon[1] == '-')
				return perr(ps, ps->line, "share of mode %s is negative", w[i]);
			if (!parse_share(colon + 1, &sh))
				return perr(ps, ps->line,
				            "bad share '%s' for mode %s (a fraction 0..1)",
				            colon + 1, w[i]);
			p->mode_share[m] = sh;
			sum += sh;
		}
		if (fabs(sum - 1.0) > SHARE_EPSILON)
			return perr(ps, ps->line, "mode shares sum to %.12g, not 1", sum);
		return true;
	}
	if (strcmp(key, "mode-switch") == 0) {
		if (ps->has_mode_switch)
			return perr(ps, ps->line, "'mode-switch' given twice");
		ps->has_mode_switch = true;
		if (!parse_range(value, &p->mode_lo, &p->mode_hi))
			return perr(ps, ps->line,
			            "bad mode-switch '%s' (cycles: N or LO..HI, 1 <= LO <= HI)",
			            value);
		return true;
	}
	if (strcmp(key, "function-classes") == 0) {
		if (ps->has_fn_classes)
			return perr(ps, ps->line, "'function-classes' given twice");
		ps->has_fn_classes = true;
		if (!parse_range(value, &p->fn_lo, &p->fn_hi))
			return perr(ps, ps->line,
			            "bad function-classes '%s' (class draws: N or LO..HI, 1 <= LO "
			            "<= HI)",
			            value);
		return true;
	}
	if (strcmp(key, "task-slice") == 0) {
		if (ps->slice_line)
			return perr(ps, ps->line, "'task-slice' given twice");
		ps->slice_line = ps->line;
		if (!parse_range(value, &p->slice_lo, &p->slice_hi))
			return perr(ps, ps->line,
			            "bad task-slice '%s' (cycles: N or LO..HI, 1 <= LO <= HI)",
			            value);
		return true;
	}
	return perr(ps, ps->line,
	            "unknown key '%s' (before the first section: name, description, modes, "
	            "mode-switch, function-classes, task-slice)",
	            key);
}

static bool cycle_key(struct parser *ps, const char *key, const char *value)
{
	struct emu_profile *p = ps->p;
	struct pcycle *pc = &ps->pc[p->nr_cycles - 1];
	const char *colon = strchr(key, ':');
	if (colon) {
		/* BANK:EVENT = VALUE: an explicit per-cycle value */
		char bank[32];
		size_t bl = (size_t)(colon - key);
		if (bl >= sizeof(bank))
			return perr(ps, ps->line, "unknown bank in '%s'", key);
		memcpy(bank, key, bl);
		bank[bl] = '\0';
		const struct kmh_bank_desc *bd = kmh_bank_by_name(&kmh_table_v2, bank);
		if (!bd)
			return perr(ps, ps->line,
			            "unknown bank '%s' (frontend, backend, memblock, cache)", bank);
		int b = (int)(bd - kmh_table_v2.banks);
		const struct kmh_event *ev = kmh_event_by_name(&kmh_table_v2, b, colon + 1);
		if (!ev || ev->bank != b) {
			if (kmh_alias_by_name(&kmh_table_v2, b, colon + 1))
				return perr(
				    ps, ps->line,
				    "'%s' names several events; give one instance (%s.0, ...)", key,
				    colon + 1);
			return perr(ps, ps->line, "unknown event '%s' in bank %s", colon + 1, bank);
		}
		if (ev->index == 0)
			return perr(ps, ps->line, "noEvent is always 0");
		uint64_t v;
		if (value[0] == '-')
			return perr(ps, ps->line, "%s: negative value %s", key, value);
		if (!parse_u64(value, UINT64_MAX, &v))
			return perr(ps, ps->line, "%s: '%s' is not a number", key, value);
		if (v > 63)
			return perr(ps, ps->line, "%s = %s: per-cycle values are 0..63", key,
			            value);
		unsigned off = wl_layout.off[b] + ev->index;
		for (unsigned i = 0; i < pc->nr_ovr; i++)
			if (pc->ovr[i].off == off)
				return perr(ps, ps->line, "'%s' given twice", key);
		pc->ovr = xreallocarray(pc->ovr, pc->nr_ovr + 1, sizeof(*pc->ovr));
		pc->ovr[pc->nr_ovr++] = (struct ovr){off, ps->line, (uint8_t)v};
		return true;
	}
	char msg[256];
	if (value[0] == '-')
		return perr(ps, ps->line, "%s: negative value %s", key, value);
	int r = wl_params_set(&pc->par, key, value, msg, sizeof(msg));
	if (r < 0)
		return perr(ps, ps->line, "%s", msg);
	if (r == 0)
		return perr(ps, ps->line,
		            "unknown cycle parameter '%s' (see hpmstat-emu-profile(5); events are "
		            "BANK:EVENT)",
		            key);
	return true;
}

static bool class_key(struct parser *ps, const char *key, char *value)
{
	struct emu_profile *p = ps->p;
	struct wl_class *k = &p->classes[p->nr_classes - 1];
	struct pclass *pk = &ps->pk[p->nr_classes - 1];
	if (strcmp(key, "runs") == 0) {
		if (pk->runs_line)
			return perr(ps, ps->line, "'runs' given twice");
		pk->runs_line = ps->line;
		char *w[MAX_WORDS];
		unsigned n = split_words(value, w, MAX_WORDS);
		if (n > MAX_WORDS)
			return perr(ps, ps->line, "more than %u runs in one class", MAX_WORDS);
		if (n == 0)
			return perr(ps, ps->line, "'runs' is empty");
		pk->segs = xcalloc(n, sizeof(*pk->segs));
		for (unsigned i = 0; i < n; i++) {
			char *colon = strchr(w[i], ':');
			uint32_t lo = 1, hi = 1;
			if (colon) {
				*colon = '\0';
				if (colon[1] == '-')
					return perr(ps, ps->line, "negative run length for '%s'",
					            w[i]);
				if (!parse_range(colon + 1, &lo, &hi))
					return perr(ps, ps->line,
					            "bad run length '%s' for '%s' (N or LO..HI, 1 "
					            "<= LO <= HI)",
					            colon + 1, w[i]);
			}
			if (!valid_name(w[i]))
				return perr(ps, ps->line, "bad cycle name '%s'", w[i]);
			pk->segs[i] = (struct pseg){xstrdup(w[i]), lo, hi};
			pk->nr_segs = i + 1;
		}
		return true;
	}
	if (strcmp(key, "share") == 0) {
		if (k->has_share)
			return perr(ps, ps->line, "'share' given twice");
		if (value[0] == '-')
			return perr(ps, ps->line, "share %s is negative", value);
		if (!parse_share(value, &k->share))
			return perr(ps, ps->line, "bad share '%s' (a fraction 0..1)", value);
		k->has_share = true;
		return true;
	}
	return perr(ps, ps->line, "unknown class key '%s' (runs, share)", key);
}

/* mix = CLASS:SHARE ...: may be repeated, the entries accumulate. */
static bool mix_key(struct parser *ps, char *value, struct pmix **mix, unsigned *nr_mix,
                    unsigned *mix_line)
{
	if (!*mix_line)
		*mix_line = ps->line;
	char *w[MAX_WORDS];
	unsigned n = split_words(value, w, MAX_WORDS);
	if (n > MAX_WORDS)
		return perr(ps, ps->line, "too many entries in one mix line");
	for (unsigned i = 0; i < n; i++) {
		char *colon = strchr(w[i], ':');
		if (!colon)
			return perr(ps, ps->line, "'%s' is not CLASS:SHARE", w[i]);
		*colon = '\0';
		double sh;
		if (colon[1] == '-')
			return perr(ps, ps->line, "share of class '%s' is negative", w[i]);
		if (!parse_share(colon + 1, &sh))
			return perr(ps, ps->line, "bad share '%s' for class '%s' (a fraction 0..1)",
			            colon + 1, w[i]);
		for (unsigned j = 0; j < *nr_mix; j++)
			if (strcmp((*mix)[j].cls, w[i]) == 0)
				return perr(ps, ps->line, "class '%s' twice in the mix", w[i]);
		*mix = xreallocarray(*mix, *nr_mix + 1, sizeof(**mix));
		(*mix)[(*nr_mix)++] = (struct pmix){xstrdup(w[i]), sh};
	}
	return true;
}

static bool phase_key(struct parser *ps, const char *key, char *value)
{
	struct emu_profile *p = ps->p;
	struct wl_phase *ph = &p->phases[p->nr_phases - 1];
	struct pphase *pp = &ps->pp[p->nr_phases - 1];
	if (strcmp(key, "cycles") == 0) {
		if (pp->has_cycles)
			return perr(ps, ps->line, "'cycles' given twice");
		if (value[0] == '-')
			return perr(ps, ps->line, "cycles %s is negative", value);
		if (!parse_u64(value, UINT64_C(1) << 48, &ph->cycles) || ph->cycles == 0)
			return perr(ps, ps->line, "bad cycles '%s' (1..2^48)", value);
		pp->has_cycles = true;
		return true;
	}
	if (strcmp(key, "mix") == 0)
		return mix_key(ps, value, &pp->mix, &pp->nr_mix, &pp->mix_line);
	return perr(ps, ps->line, "unknown phase key '%s' (cycles, mix)", key);
}

/* A function's range: address and size in bytes, both even (RISC-V
 * instructions are 2 or 4 bytes, at even addresses). */
static bool function_key(struct parser *ps, const char *key, char *value)
{
	struct emu_profile *p = ps->p;
	struct wl_func *f = &p->funcs[p->nr_funcs - 1];
	struct pfunc *pf = &ps->pf[p->nr_funcs - 1];
	if (strcmp(key, "address") == 0) {
		if (pf->has_addr)
			return perr(ps, ps->line, "'address' given twice");
		if (!parse_u64(value, UINT64_MAX, &f->lo) || (f->lo & 1))
			return perr(ps, ps->line,
			            "bad address '%s' (a 64-bit number, a multiple of 2)", value);
		pf->has_addr = true;
		return true;
	}
	if (strcmp(key, "size") == 0) {
		if (pf->has_size)
			return perr(ps, ps->line, "'size' given twice");
		if (!parse_u64(value, UINT64_C(1) << 48, &pf->size) || pf->size == 0 ||
		    (pf->size & 1))
			return perr(ps, ps->line, "bad size '%s' (bytes, a multiple of 2, 2..2^48)",
			            value);
		pf->has_size = true;
		return true;
	}
	if (strcmp(key, "share") == 0) {
		if (pf->has_share)
			return perr(ps, ps->line, "'share' given twice");
		if (value[0] == '-')
			return perr(ps, ps->line, "share %s is negative", value);
		if (!parse_share(value, &f->share))
			return perr(ps, ps->line, "bad share '%s' (a fraction 0..1)", value);
		pf->has_share = true;
		return true;
	}
	if (strcmp(key, "mix") == 0)
		return mix_key(ps, value, &pf->mix, &pf->nr_mix, &pf->mix_line);
	return perr(ps, ps->line, "unknown function key '%s' (address, size, share, mix)", key);
}

#define TASK_PID_MAX   4194304 /* Linux's PID_MAX_LIMIT */
#define TASK_COMM_MAX  15      /* TASK_COMM_LEN - 1 */
#define TASK_HART_MAX  1023u   /* EMU_MAX_HARTS - 1 */
#define TASK_CYCLE_MAX (UINT64_C(1) << 62)

/* A task's pid, process, hart, share, mix and life time. */
static bool task_key(struct parser *ps, const char *key, char *value)
{
	struct emu_profile *p = ps->p;
	struct wl_task *t = &p->tasks[p->nr_tasks - 1];
	struct ptask *pt = &ps->pt[p->nr_tasks - 1];
	uint64_t v;
	if (strcmp(key, "pid") == 0 || strcmp(key, "tgid") == 0) {
		bool pid = key[0] == 'p';
		bool *has = pid ? &pt->has_pid : &pt->has_tgid;
		if (*has)
			return perr(ps, ps->line, "'%s' given twice", key);
		if (!parse_u64(value, TASK_PID_MAX, &v) || v == 0)
			return perr(ps, ps->line, "bad %s '%s' (1..%d)", key, value, TASK_PID_MAX);
		*(pid ? &t->pid : &t->tgid) = (int)v;
		*has = true;
		return true;
	}
	if (strcmp(key, "hart") == 0) {
		if (pt->has_hart)
			return perr(ps, ps->line, "'hart' given twice");
		if (!parse_u64(value, TASK_HART_MAX, &v))
			return perr(ps, ps->line, "bad hart '%s' (0..%u)", value, TASK_HART_MAX);
		t->hart = (unsigned)v;
		pt->has_hart = true;
		return true;
	}
	if (strcmp(key, "share") == 0) {
		if (pt->has_share)
			return perr(ps, ps->line, "'share' given twice");
		if (value[0] == '-')
			return perr(ps, ps->line, "share %s is negative", value);
		if (!parse_share(value, &t->share) || t->share <= 0)
			return perr(ps, ps->line,
			            "bad share '%s' (the task's fraction of its hart, above 0, at "
			            "most 1)",
			            value);
		pt->has_share = true;
		return true;
	}
	if (strcmp(key, "start") == 0 || strcmp(key, "exit") == 0) {
		bool start = key[0] == 's';
		bool *has = start ? &pt->has_start : &pt->has_exit;
		if (*has)
			return perr(ps, ps->line, "'%s' given twice", key);
		if (value[0] == '-')
			return perr(ps, ps->line, "%s %s is negative", key, value);
		if (!parse_u64(value, TASK_CYCLE_MAX, &v) || (!start && v == 0))
			return perr(ps, ps->line, "bad %s '%s' (hart cycles, %s..2^62)", key, value,
			            start ? "0" : "1");
		*(start ? &t->start : &t->exit) = v;
		*has = true;
		return true;
	}
	if (strcmp(key, "mix") == 0)
		return mix_key(ps, value, &pt->mix, &pt->nr_mix, &pt->mix_line);
	return perr(ps, ps->line,
	            "unknown task key '%s' (pid, tgid, hart, share, start, exit, mix)", key);
}

static bool section(struct parser *ps, char *s)
{
	struct emu_profile *p = ps->p;
	size_t len = strlen(s);
	if (s[len - 1] != ']')
		return perr(ps, ps->line, "section header without ']'");
	s[len - 1] = '\0';
	char *w[3];
	unsigned n = split_words(s + 1, w, 2);
	if (n != 2)
		return perr(ps, ps->line,
		            "section header is not [cycle NAME], [class NAME], [phase NAME], "
		            "[function NAME] or [task NAME]");
	if (!valid_name(w[1]))
		return perr(ps, ps->line, "bad name '%s' (letters, digits, '-', '_', '.')", w[1]);
	if (strcmp(w[0], "cycle") == 0) {
		for (unsigned i = 0; i < p->nr_cycles; i++)
			if (strcmp(p->cycles[i].name, w[1]) == 0)
				return perr(ps, ps->line,
				            "cycle '%s' defined twice (first at line %u)", w[1],
				            p->cycles[i].line);
		p->cycles = xreallocarray(p->cycles, p->nr_cycles + 1, sizeof(*p->cycles));
		ps->pc = xreallocarray(ps->pc, p->nr_cycles + 1, sizeof(*ps->pc));
		memset(&p->cycles[p->nr_cycles], 0, sizeof(*p->cycles));
		memset(&ps->pc[p->nr_cycles], 0, sizeof(*ps->pc));
		p->cycles[p->nr_cycles].name = xstrdup(w[1]);
		p->cycles[p->nr_cycles].line = ps->line;
		wl_params_init(&ps->pc[p->nr_cycles].par);
		p->nr_cycles++;
		ps->sec = SEC_CYCLE;
	} else if (strcmp(w[0], "class") == 0) {
		for (unsigned i = 0; i < p->nr_classes; i++)
			if (strcmp(p->classes[i].name, w[1]) == 0)
				return perr(ps, ps->line,
				            "class '%s' defined twice (first at line %u)", w[1],
				            p->classes[i].line);
		p->classes = xreallocarray(p->classes, p->nr_classes + 1, sizeof(*p->classes));
		ps->pk = xreallocarray(ps->pk, p->nr_classes + 1, sizeof(*ps->pk));
		memset(&p->classes[p->nr_classes], 0, sizeof(*p->classes));
		memset(&ps->pk[p->nr_classes], 0, sizeof(*ps->pk));
		p->classes[p->nr_classes].name = xstrdup(w[1]);
		p->classes[p->nr_classes].line = ps->line;
		p->nr_classes++;
		ps->sec = SEC_CLASS;
	} else if (strcmp(w[0], "phase") == 0) {
		for (unsigned i = 0; i < p->nr_phases; i++)
			if (strcmp(p->phases[i].name, w[1]) == 0)
				return perr(ps, ps->line,
				            "phase '%s' defined twice (first at line %u)", w[1],
				            p->phases[i].line);
		p->phases = xreallocarray(p->phases, p->nr_phases + 1, sizeof(*p->phases));
		ps->pp = xreallocarray(ps->pp, p->nr_phases + 1, sizeof(*ps->pp));
		memset(&p->phases[p->nr_phases], 0, sizeof(*p->phases));
		memset(&ps->pp[p->nr_phases], 0, sizeof(*ps->pp));
		p->phases[p->nr_phases].name = xstrdup(w[1]);
		p->phases[p->nr_phases].line = ps->line;
		p->nr_phases++;
		ps->nr_pp++;
		ps->sec = SEC_PHASE;
	} else if (strcmp(w[0], "function") == 0) {
		for (unsigned i = 0; i < p->nr_funcs; i++)
			if (strcmp(p->funcs[i].name, w[1]) == 0)
				return perr(ps, ps->line,
				            "function '%s' defined twice (first at line %u)", w[1],
				            p->funcs[i].line);
		p->funcs = xreallocarray(p->funcs, p->nr_funcs + 1, sizeof(*p->funcs));
		ps->pf = xreallocarray(ps->pf, p->nr_funcs + 1, sizeof(*ps->pf));
		memset(&p->funcs[p->nr_funcs], 0, sizeof(*p->funcs));
		memset(&ps->pf[p->nr_funcs], 0, sizeof(*ps->pf));
		p->funcs[p->nr_funcs].name = xstrdup(w[1]);
		p->funcs[p->nr_funcs].line = ps->line;
		p->nr_funcs++;
		ps->sec = SEC_FUNCTION;
	} else if (strcmp(w[0], "task") == 0) {
		if (strlen(w[1]) > TASK_COMM_MAX)
			return perr(ps, ps->line,
			            "task name '%s' is longer than %d characters (a comm)", w[1],
			            TASK_COMM_MAX);
		for (unsigned i = 0; i < p->nr_tasks; i++)
			if (strcmp(p->tasks[i].name, w[1]) == 0)
				return perr(ps, ps->line,
				            "task '%s' defined twice (first at line %u)", w[1],
				            p->tasks[i].line);
		p->tasks = xreallocarray(p->tasks, p->nr_tasks + 1, sizeof(*p->tasks));
		ps->pt = xreallocarray(ps->pt, p->nr_tasks + 1, sizeof(*ps->pt));
		memset(&p->tasks[p->nr_tasks], 0, sizeof(*p->tasks));
		memset(&ps->pt[p->nr_tasks], 0, sizeof(*ps->pt));
		p->tasks[p->nr_tasks].name = xstrdup(w[1]);
		p->tasks[p->nr_tasks].line = ps->line;
		p->tasks[p->nr_tasks].exit = UINT64_MAX;
		p->nr_tasks++;
		ps->sec = SEC_TASK;
	} else {
		return perr(ps, ps->line,
		            "unknown section '%s' (cycle, class, phase, function, task)", w[0]);
	}
	return true;
}

static bool parse_line(struct parser *ps, char *s)
{
	char *hash = strchr(s, '#');
	if (hash)
		*hash = '\0';
	while (is_space(*s))
		s++;
	size_t len = strlen(s);
	while (len && is_space(s[len - 1]))
		s[--len] = '\0';
	if (!len)
		return true;
	if (s[0] == '[')
		return section(ps, s);
	char *eq = strchr(s, '=');
	if (!eq)
		return perr(ps, ps->line, "expected KEY = VALUE or [SECTION NAME]");
	char *key = s, *value = eq + 1;
	*eq = '\0';
	len = strlen(key);
	while (len && is_space(key[len - 1]))
		key[--len] = '\0';
	while (is_space(*value))
		value++;
	if (!*key)
		return perr(ps, ps->line, "missing key before '='");
	if (!*value)
		return perr(ps, ps->line, "missing value for '%s'", key);
	switch (ps->sec) {
	case SEC_TOP:
		return top_key(ps, key, value);
	case SEC_CYCLE:
		return cycle_key(ps, key, value);
	case SEC_CLASS:
		return class_key(ps, key, value);
	case SEC_PHASE:
		return phase_key(ps, key, value);
	case SEC_FUNCTION:
		return function_key(ps, key, value);
	case SEC_TASK:
		return task_key(ps, key, value);
	}
	return false;
}

/* ---------------------------------------------------- after the last line */

static int find_cycle(const struct emu_profile *p, const char *name)
{
	for (unsigned i = 0; i < p->nr_cycles; i++)
		if (strcmp(p->cycles[i].name, name) == 0)
			return (int)i;
	return -1;
}

static int find_class(const struct emu_profile *p, const char *name)
{
	for (unsigned i = 0; i < p->nr_classes; i++)
		if (strcmp(p->classes[i].name, name) == 0)
			return (int)i;
	return -1;
}

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
			int c = find_cycle(p, pk->segs[j].cycle);
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
static bool mix_classes(struct parser *ps, struct wl_phase *ph, const struct pmix *mix, unsigned nr,
                        unsigned line, const char *what)
{
	struct emu_profile *p = ps->p;
	ph->cls = xcalloc(nr, sizeof(*ph->cls));
	ph->share = xcalloc(nr, sizeof(*ph->share));
	double sum = 0;
	for (unsigned j = 0; j < nr; j++) {
		int k = find_class(p, mix[j].cls);
		if (k < 0)
			return perr(ps, line, "%s: unknown class '%s'", what, mix[j].cls);
		sum += mix[j].share;
		if (mix[j].share > 0) {
			p->classes[k].used = true;
			ph->cls[ph->nr] = (unsigned)k;
			ph->share[ph->nr++] = mix[j].share;
		}
	}
	if (fabs(sum - 1.0) > SHARE_EPSILON)
		return perr(ps, line, "%s: class shares sum to %.12g, not 1", what, sum);
	return true;
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
		struct pfunc *pf = &ps->pf[i];
		if (!pf->has_addr || !pf->has_size || !pf->has_share)
			return perr(ps, f->line, "function '%s' needs address, size and share",
			            f->name);
		if (!pf->nr_mix)
			return perr(ps, f->line, "function '%s' has no 'mix'", f->name);
		if (f->lo > UINT64_MAX - pf->size)
			return perr(ps, f->line, "function '%s' runs past 2^64 - 1", f->name);
		f->hi = f->lo + pf->size;
		for (unsigned j = 0; j < i; j++)
			if (f->lo < p->funcs[j].hi && p->funcs[j].lo < f->hi)
				return perr(ps, f->line,
				            "function '%s' overlaps function '%s' (line %u)",
				            f->name, p->funcs[j].name, p->funcs[j].line);
		f->npts = pf->size / 2 < MAX_FN_POINTS ? (unsigned)(pf->size / 2) : MAX_FN_POINTS;
		f->mix.name = xstrdup(f->name);
		f->mix.line = f->line;
		snprintf(what, sizeof(what), "function '%s'", f->name);
		if (!mix_classes(ps, &f->mix, pf->mix, pf->nr_mix, pf->mix_line, what) ||
		    !build_phase(ps, &f->mix, pf->mix_line))
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
	p->phases = xcalloc(1, sizeof(*p->phases));
	p->nr_phases = 1;
	struct wl_phase *ph = &p->phases[0];
	ph->name = xstrdup("all");
	ph->line = p->funcs[0].line;
	ph->cls = xcalloc(p->nr_classes, sizeof(*ph->cls));
	ph->share = xcalloc(p->nr_classes, sizeof(*ph->share));
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
		struct ptask *pt = &ps->pt[i];
		if (!pt->has_pid || !pt->has_share)
			return perr(ps, t->line, "task '%s' needs pid and share", t->name);
		if (!pt->nr_mix)
			return perr(ps, t->line, "task '%s' has no 'mix'", t->name);
		if (!pt->has_tgid)
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
		if (!mix_classes(ps, &t->mix, pt->mix, pt->nr_mix, pt->mix_line, what) ||
		    !build_phase(ps, &t->mix, pt->mix_line))
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

	p->phases = xcalloc(1, sizeof(*p->phases));
	p->nr_phases = 1;
	struct wl_phase *ph = &p->phases[0];
	ph->name = xstrdup("all");
	ph->line = p->tasks[0].line;
	ph->cls = xcalloc(p->nr_classes, sizeof(*ph->cls));
	ph->share = xcalloc(p->nr_classes, sizeof(*ph->share));
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
		p->phases = xcalloc(1, sizeof(*p->phases));
		p->nr_phases = 1;
		struct wl_phase *ph = &p->phases[0];
		ph->name = xstrdup("all");
		ph->cls = xcalloc(p->nr_classes, sizeof(*ph->cls));
		ph->share = xcalloc(p->nr_classes, sizeof(*ph->share));
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
		struct pphase *pp = &ps->pp[i];
		if (!pp->has_cycles)
			return perr(ps, ph->line, "phase '%s' has no 'cycles'", ph->name);
		if (!pp->nr_mix)
			return perr(ps, ph->line, "phase '%s' has no 'mix'", ph->name);
		char what[160];
		snprintf(what, sizeof(what), "phase '%s'", ph->name);
		if (!mix_classes(ps, ph, pp->mix, pp->nr_mix, pp->mix_line, what) ||
		    !build_phase(ps, ph, pp->mix_line))
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

static struct emu_profile *parse_text(const char *file, const char *text, size_t len, char *err,
                                      size_t errlen)
{
	char msg[256];
	if (!wl_model_init(msg, sizeof(msg))) {
		str_seterr(err, errlen, "%s: %s", file, msg);
		return NULL;
	}
	struct parser ps = {.file = file, .err = err, .errlen = errlen};
	ps.p = xcalloc(1, sizeof(*ps.p));
	ps.p->produced = xcalloc(wl_layout.total, 1);
	wl_model_produced(ps.p->produced);
	ps.p->mode_share[EMU_MODE_HU] = 1.0;
	ps.p->mode_lo = 10000;
	ps.p->mode_hi = 50000;
	ps.p->fn_lo = 4;
	ps.p->fn_hi = 16;
	ps.p->slice_lo = ps.p->slice_hi = 100000;

	bool ok = true;
	char *buf = xmalloc(len + 1);
	memcpy(buf, text, len);
	buf[len] = '\0';
	if (memchr(text, '\0', len)) {
		ok = perr(&ps, 0, "not a text file (NUL byte)");
	}
	char *s = buf;
	while (ok && *s) {
		char *nl = strchr(s, '\n');
		if (nl)
			*nl = '\0';
		ps.line++;
		ok = parse_line(&ps, s);
		if (!nl)
			break;
		s = nl + 1;
	}
	free(buf);
	struct emu_profile *p = ps.p;
	if (ok && !p->name)
		ok = perr(&ps, 0, "no 'name'");
	if (ok && !p->description)
		ok = perr(&ps, 0, "no 'description'");
	if (ok && !p->nr_cycles)
		ok = perr(&ps, 0, "no [cycle] section");
	if (ok && !p->nr_classes)
		ok = perr(&ps, 0, "no [class] section");
	ok = ok && build_cycles(&ps) && build_classes(&ps) && build_phases(&ps);
	if (ok)
		build_totals(p);
	parser_free(&ps);
	if (!ok) {
		profile_destroy(p);
		return NULL;
	}
	return p;
}

/* -------------------------------------------------------------- registry */

static struct emu_profile **builtins;
static unsigned nr_builtins;
static bool builtins_loaded;
static struct emu_profile *file_profiles; /* kept reachable until freed */

static int cmp_profile(const void *a, const void *b)
{
	const struct emu_profile *const *pa = a, *const *pb = b;
	return strcmp((*pa)->name, (*pb)->name);
}

static void load_builtins(void)
{
	if (builtins_loaded)
		return;
	builtins_loaded = true;
	builtins = xcalloc(wl_nr_builtin_texts + 1, sizeof(*builtins));
	for (unsigned i = 0; i < wl_nr_builtin_texts; i++) {
		char err[512];
		const struct wl_builtin_text *t = &wl_builtin_texts[i];
		/* A built-in that does not load is a build error that the tests
		 * catch (every file must load); here it is simply left out. */
		struct emu_profile *p =
		    parse_text(t->file, t->text, strlen(t->text), err, sizeof(err));
		if (!p)
			continue;
		p->builtin = true;
		p->origin = xstrdup("built-in");
		builtins[nr_builtins++] = p;
	}
	qsort(builtins, nr_builtins, sizeof(*builtins), cmp_profile);
}

unsigned emu_profile_count(void)
{
	load_builtins();
	return nr_builtins;
}

const struct emu_profile *emu_profile_at(unsigned i)
{
	load_builtins();
	return i < nr_builtins ? builtins[i] : NULL;
}

static const struct emu_profile *keep(struct emu_profile *p, const char *origin)
{
	p->origin = xstrdup(origin);
	p->next = file_profiles;
	file_profiles = p;
	return p;
}

const struct emu_profile *emu_profile_parse(const char *file, const char *text, char *err,
                                            size_t errlen)
{
	struct emu_profile *p = parse_text(file, text, strlen(text), err, errlen);
	return p ? keep(p, file) : NULL;
}

/* Reads the whole file; NULL with the reason in err. */
static char *read_file(const char *path, size_t *len, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		str_seterr(err, errlen, "%s: cannot read: %s", path, strerror(errno));
		return NULL;
	}
	size_t cap = 4096, n = 0;
	char *buf = xmalloc(cap);
	for (;;) {
		if (n == cap) {
			if (cap >= MAX_PROFILE_BYTES) {
				str_seterr(err, errlen, "%s: cannot read: larger than %u bytes", path,
				        MAX_PROFILE_BYTES);
				free(buf);
				fclose(f);
				return NULL;
			}
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
		size_t r = fread(buf + n, 1, cap - n, f);
		n += r;
		if (r == 0)
			break;
	}
	if (ferror(f)) {
		str_seterr(err, errlen, "%s: cannot read: %s", path, strerror(errno));
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	*len = n;
	return buf;
}

const struct emu_profile *emu_profile_builtin(const char *name)
{
	load_builtins();
	for (unsigned i = 0; i < nr_builtins; i++)
		if (strcmp(builtins[i]->name, name) == 0)
			return builtins[i];
	return NULL;
}

const struct emu_profile *emu_profile_find(const char *name_or_path, char *err, size_t errlen)
{
	const struct emu_profile *builtin = emu_profile_builtin(name_or_path);
	if (builtin)
		return builtin;
	/* Not a built-in name: a path if it looks like one or names a file. */
	FILE *probe = NULL;
	if (!strchr(name_or_path, '/') && !(probe = fopen(name_or_path, "rb"))) {
		char list[1024] = "";
		for (unsigned i = 0; i < nr_builtins; i++) {
			strncat(list, i ? ", " : "", sizeof(list) - strlen(list) - 1);
			strncat(list, builtins[i]->name, sizeof(list) - strlen(list) - 1);
		}
		str_seterr(err, errlen, "unknown profile '%s' (known: %s; or a profile file path)",
		        name_or_path, list);
		return NULL;
	}
	if (probe)
		fclose(probe);
	size_t len;
	char *text = read_file(name_or_path, &len, err, errlen);
	if (!text)
		return NULL;
	struct emu_profile *p = parse_text(name_or_path, text, len, err, errlen);
	free(text);
	return p ? keep(p, name_or_path) : NULL;
}

void emu_profile_free(const struct emu_profile *cp)
{
	if (!cp || cp->builtin)
		return;
	for (struct emu_profile **pp = &file_profiles; *pp; pp = &(*pp)->next)
		if (*pp == cp) {
			struct emu_profile *p = *pp;
			*pp = p->next;
			profile_destroy(p);
			return;
		}
}

/* ------------------------------------------------------------- accessors */

const char *emu_profile_name(const struct emu_profile *p)
{
	return p->name;
}

const char *emu_profile_description(const struct emu_profile *p)
{
	return p->description;
}

const char *emu_profile_origin(const struct emu_profile *p)
{
	return p->origin;
}

void emu_profile_declared(const struct emu_profile *p, struct emu_topdown *td)
{
	*td = p->td;
}

void emu_profile_declared_slots(const struct emu_profile *p, struct emu_topdown *td)
{
	double ev[WL_NR_TD_EVENTS];
	for (unsigned e = 0; e < WL_NR_TD_EVENTS; e++)
		ev[e] = p->mean[wl_td_offset((enum wl_td_event)e)];
	/* the document's formulas with RECOVERY_BUBBLE x 6 are the variant's */
	ev[WL_TD_RECOVERY_BUBBLE] *= 6;
	wl_topdown(ev, td);
}

static bool in_range(int bank, unsigned index)
{
	return bank >= 0 && bank < KMH_NR_BANKS && index > 0 && index < wl_layout.nr[bank];
}

bool emu_profile_produces(const struct emu_profile *p, int bank, unsigned index)
{
	return in_range(bank, index) && p->produced[wl_layout.off[bank] + index];
}

unsigned emu_profile_unproduced(const struct emu_profile *p,
                                void (*visit)(void *ctx, const char *bank_colon_name), void *ctx)
{
	unsigned n = 0;
	char buf[160];
	for (int b = 0; b < KMH_NR_BANKS; b++)
		for (unsigned i = 1; i < kmh_table_v2.banks[b].nr_events; i++)
			if (!emu_profile_produces(p, b, i)) {
				n++;
				if (visit) {
					snprintf(buf, sizeof(buf), "%s:%s",
					         kmh_table_v2.banks[b].name,
					         kmh_table_v2.banks[b].events[i].name);
					visit(ctx, buf);
				}
			}
	return n;
}

double emu_profile_mean(const struct emu_profile *p, int bank, unsigned index)
{
	if (!emu_profile_produces(p, bank, index))
		return 0;
	return p->mean[wl_layout.off[bank] + index];
}

double emu_profile_mean_instret(const struct emu_profile *p)
{
	return p->mean_instret;
}

unsigned emu_profile_nr_phases(const struct emu_profile *p)
{
	return p->nr_phases;
}

const char *emu_profile_phase_name(const struct emu_profile *p, unsigned i)
{
	return i < p->nr_phases ? p->phases[i].name : NULL;
}

uint64_t emu_profile_phase_cycles(const struct emu_profile *p, unsigned i)
{
	return i < p->nr_phases ? p->phases[i].cycles : 0;
}

void emu_profile_phase_declared(const struct emu_profile *p, unsigned i, struct emu_topdown *td)
{
	*td = p->phases[i < p->nr_phases ? i : 0].td;
}

double emu_profile_mode_share(const struct emu_profile *p, unsigned mode)
{
	return mode < EMU_NR_MODES ? p->mode_share[mode] : 0;
}

double emu_profile_mean_run_cycles(const struct emu_profile *p)
{
	return p->mean_run;
}

unsigned emu_profile_nr_functions(const struct emu_profile *p)
{
	return p->nr_funcs;
}

bool emu_profile_function(const struct emu_profile *p, unsigned i, struct emu_function *f)
{
	if (i >= p->nr_funcs)
		return false;
	const struct wl_func *w = &p->funcs[i];
	f->name = w->name;
	f->start = w->lo;
	f->end = w->hi;
	f->share = w->share;
	f->line = w->line;
	f->td = w->mix.td;
	return true;
}

int emu_profile_function_at(const struct emu_profile *p, uint64_t pc)
{
	for (unsigned i = 0; i < p->nr_funcs; i++)
		if (pc >= p->funcs[i].lo && pc < p->funcs[i].hi)
			return (int)i;
	return -1;
}

bool emu_profile_check_vals(const uint8_t *const vals[KMH_NR_BANKS], char *err, size_t errlen)
{
	if (!wl_model_init(err, errlen))
		return false;
	uint8_t *flat = xcalloc(wl_layout.total, 1);
	for (unsigned b = 0; b < KMH_NR_BANKS; b++)
		if (vals[b])
			memcpy(flat + wl_layout.off[b], vals[b], wl_layout.nr[b]);
	bool ok = wl_model_check(flat, err, errlen);
	free(flat);
	return ok;
}

unsigned emu_profile_nr_tasks(const struct emu_profile *p)
{
	return p->nr_tasks;
}

bool emu_profile_task(const struct emu_profile *p, unsigned i, struct emu_task *t)
{
	if (i >= p->nr_tasks)
		return false;
	const struct wl_task *w = &p->tasks[i];
	t->name = w->name;
	t->pid = w->pid;
	t->tgid = w->tgid;
	t->hart = w->hart;
	t->share = w->share;
	t->start = w->start;
	t->exit = w->exit;
	t->line = w->line;
	t->td = w->mix.td;
	return true;
}

void emu_profile_task_slice(const struct emu_profile *p, uint32_t *lo, uint32_t *hi)
{
	*lo = p->slice_lo;
	*hi = p->slice_hi;
}

unsigned emu_profile_nr_keys(const struct emu_profile *p)
{
	return p->nr_cycles;
}

bool emu_profile_key_run(const struct emu_profile *p, uint32_t key, unsigned mode,
                         struct emu_run *run)
{
	if (key < 1 || key > p->nr_cycles)
		return false;
	const struct wl_cycle *c = &p->cycles[key - 1];
	memset(run, 0, sizeof(*run));
	run->cycles = 1;
	run->key = c->key;
	run->mode = (uint8_t)mode;
	run->instret = c->instret;
	for (unsigned b = 0; b < KMH_NR_BANKS; b++)
		run->vals[b] = c->bank[b];
	return true;
}

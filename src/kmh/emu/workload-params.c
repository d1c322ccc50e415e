/* workload-params.c: the parameters of one cycle definition (a profile's
 * [cycle] keys, hpmstat-emu-profile(5)): their names, ranges and the
 * unset state the model's defaults fill in.
 *
 * Owns: the key table of struct wl_params and its number syntax;
 * workload-model.c derives every event's value from them.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmh/emu/workload-int.h"
#include "util/str.h"

void wl_params_init(struct wl_params *p)
{
	int *f = (int *)p;
	for (size_t i = 0; i < sizeof(*p) / sizeof(int); i++)
		f[i] = WL_UNSET;
}

static const char *const stall_words[] = {"none", "core", "l1", "l2", "l3", "dram", "store", NULL};
static const char *const flush_words[] = {"none", "branch", "stld", "ldld", "pipe", NULL};
static const char *const level_words[] = {"none", "l2", "l3", "dram", NULL};
static const char *const redirect_words[] = {"none", "s2", "s3", "predecode", NULL};
static const char *const cause_words[] = {"iq", "div", "freelist", NULL};
const char *const wl_btype_words[] = {"B", "J", "I", "C", "R", NULL};

struct param_def {
	const char *key;
	size_t off;
	int min, max;
	const char *const *words; /* an enum given by name */
};

/* An enum given by name has words and no range (0, 0); a number has no
 * words (NULL). */
/* clang-format off */
#define P(key, field, min, max, words) {key, offsetof(struct wl_params, field), min, max, words}
/* clang-format on */

static const struct param_def param_defs[] = {
    P("commit", commit, 0, 6, NULL),
    P("spec", spec, 0, 6, NULL),
    P("bubble", bubble, 0, 6, NULL),
    P("recovery", recovery, 0, 1, NULL),
    P("stall", stall, 0, 0, stall_words),
    P("exec-stall", exec_stall, 0, 1, NULL),
    P("core-cause", cause, 0, 0, cause_words),
    P("flush", flush, 0, 0, flush_words),
    P("wrong", wrong, 0, 0, wl_btype_words),
    P("loads", loads, 0, 6, NULL),
    P("stores", stores, 0, 6, NULL),
    P("branches", branches, 0, 6, NULL),
    P("cond", btype[WL_BR_B], 0, 6, NULL),
    P("jump", btype[WL_BR_J], 0, 6, NULL),
    P("indirect", btype[WL_BR_I], 0, 6, NULL),
    P("call", btype[WL_BR_C], 0, 6, NULL),
    P("ret", btype[WL_BR_R], 0, 6, NULL),
    P("fused", fused, 0, 3, NULL),
    P("fetch", fetch, 0, 1, NULL),
    P("lines", lines, 1, 2, NULL),
    P("icache-miss", icache_miss, 0, 3, NULL),
    P("icache-wait", icache_wait, 0, 1, NULL),
    P("itlb-miss", itlb_miss, 0, 1, NULL),
    P("redirect", redirect, 0, 0, redirect_words),
    P("walk", walk, 0, 6, NULL),
    P("ld-issue", ld_issue, 0, WL_NR_LOAD_PIPES, NULL),
    P("st-issue", st_issue, 0, 2, NULL),
    P("dcache-miss", dcache_miss, 0, WL_NR_LOAD_PIPES, NULL),
    P("dtlb-miss", dtlb_miss, 0, WL_NR_LOAD_PIPES, NULL),
    P("dtlb-st-miss", dtlb_st_miss, 0, 2, NULL),
    P("forward", forward, 0, WL_NR_LOAD_PIPES, NULL),
    P("prefetch", prefetch, 0, WL_NR_LOAD_PIPES, NULL),
    P("prefetch-miss", prefetch_miss, 0, WL_NR_LOAD_PIPES, NULL),
    P("load-miss", load_miss, 0, 0, level_words),
    P("store-miss", store_miss, 0, 0, level_words),
    P("slices", slices, 1, 15, NULL),
    P("l2-read-hit", l2_rd_hit, 0, 15, NULL),
    P("l2-read-miss", l2_rd_miss, 0, 15, NULL),
    P("l2-write-hit", l2_wr_hit, 0, 15, NULL),
    P("l2-write-miss", l2_wr_miss, 0, 15, NULL),
    P("l2-prefetch", l2_pf, 0, 15, NULL),
    P("l2-prefetch-miss", l2_pf_miss, 0, 15, NULL),
    P("l2-writeback", l2_wb, 0, 15, NULL),
    P("l1-writeback", l1_wb, 0, 15, NULL),
    P("long-miss", long_miss, 0, 1, NULL),
    P("ibuffer", ibuf, 0, 4, NULL),
    P("ibuffer-full", ibuf_full, 0, 1, NULL),
    P("rob", rob, 0, 4, NULL),
    P("freelist", freelist, 0, 4, NULL),
    P("sbuffer", sbuffer, 0, 4, NULL),
    P("stq", stq, 0, 4, NULL),
    P("missq", missq, 0, 4, NULL),
    P("sbuffer-merge", merge, 0, 6, NULL),
};

/* Decimal, 0x hex or 0b binary, no sign, no junk. */
static bool parse_uint(const char *s, long *out)
{
	int base = 10;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	} else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
		base = 2;
		s += 2;
	}
	if (!*s)
		return false;
	long v = 0;
	for (; *s; s++) {
		int d;
		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (*s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			return false;
		if (d >= base || v > 1000000)
			return false;
		v = v * base + d;
	}
	*out = v;
	return true;
}

int wl_params_set(struct wl_params *p, const char *key, const char *value, char *err, size_t errlen)
{
	const struct param_def *d = NULL;
	for (size_t i = 0; i < sizeof(param_defs) / sizeof(param_defs[0]); i++)
		if (strcmp(param_defs[i].key, key) == 0)
			d = &param_defs[i];
	if (!d)
		return 0;
	int *field = (int *)((char *)p + d->off);
	if (*field != WL_UNSET) {
		str_seterr(err, errlen, "'%s' given twice", key);
		return -1;
	}
	if (d->words) {
		for (int i = 0; d->words[i]; i++)
			if (strcmp(d->words[i], value) == 0) {
				*field = i;
				return 1;
			}
		char list[128] = "";
		for (int i = 0; d->words[i]; i++) {
			strncat(list, i ? ", " : "", sizeof(list) - strlen(list) - 1);
			strncat(list, d->words[i], sizeof(list) - strlen(list) - 1);
		}
		str_seterr(err, errlen, "bad %s '%s' (one of: %s)", key, value, list);
		return -1;
	}
	long v;
	if (!parse_uint(value, &v)) {
		str_seterr(err, errlen, "bad %s '%s': not a number", key, value);
		return -1;
	}
	if (v < d->min || v > d->max) {
		str_seterr(err, errlen, "%s %ld out of range %d..%d", key, v, d->min, d->max);
		return -1;
	}
	*field = (int)v;
	return 1;
}

/* evlist.c: building an event list from -e text, and reading counts back.
 *
 * Owns: the splitting of perf's -e syntax (comma lists, {...} groups, commas
 * inside perf-style terms and parentheses), evsel allocation, the scaled
 * value of a count, and what every back end does with the base of its
 * instances (which rows it takes, their units, their release).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/evlist.h"
#include "util/xalloc.h"

struct hpm_evsel *hpm_evlist_add(struct hpm_evlist *list, const char *spec, int group)
{
	list->ev = xgrow(list->ev, list->nr, sizeof(*list->ev));
	struct hpm_evsel *e = &list->ev[list->nr++];
	memset(e, 0, sizeof(*e));
	e->name = xstrdup(spec);
	e->spec = xstrdup(spec);
	e->group = group;
	e->unit = "";
	e->scale = 1.0;
	return e;
}

void hpm_evlist_alloc_counts(struct hpm_evlist *list, unsigned nr_units, const char *prefix)
{
	list->nr_units = nr_units;
	list->unit_names = xcalloc(nr_units, sizeof(*list->unit_names));
	for (unsigned u = 0; u < nr_units; u++)
		list->unit_names[u] = xasprintf("%s%u", prefix, u);
	for (unsigned i = 0; i < list->nr; i++)
		list->ev[i].counts = xcalloc(nr_units, sizeof(struct hpm_count));
}

void hpm_evlist_free(struct hpm_evlist *list)
{
	for (unsigned i = 0; i < list->nr; i++) {
		free(list->ev[i].name);
		free(list->ev[i].spec);
		free(list->ev[i].placement);
		free(list->ev[i].counts);
		free(list->ev[i].cgroup);
	}
	hpm_unit_names_free(list->unit_names, list->nr_units);
	free(list->ev);
	memset(list, 0, sizeof(*list));
}

unsigned hpm_evlist_select(const struct hpm_evlist *list, const unsigned *rows, unsigned nr_rows,
                           bool (*takes)(const struct hpm_evsel *e, const void *ctx),
                           const void *ctx, unsigned **out)
{
	unsigned n = rows ? nr_rows : list->nr, nr = 0;
	*out = xcalloc(n ? n : 1, sizeof(**out));
	for (unsigned k = 0; k < n; k++) {
		unsigned i = rows ? rows[k] : k;
		if (takes(&list->ev[i], ctx))
			(*out)[nr++] = i;
	}
	return nr;
}

int hpm_backend_inst_init(struct hpm_backend_inst *b, const struct hpm_backend *ops,
                          struct hpm_evlist *list, const unsigned *rows, unsigned nr_rows,
                          bool (*takes)(const struct hpm_evsel *e, const void *ctx),
                          const void *ctx)
{
	unsigned *mine;
	unsigned nr = hpm_evlist_select(list, rows, nr_rows, takes, ctx, &mine);
	for (unsigned k = 0; k < nr; k++)
		if (list->ev[mine[k]].counted_by) {
			free(mine);
			return -EBUSY;
		}
	memset(b, 0, sizeof(*b));
	b->ops = ops;
	b->list = list;
	b->rows = mine;
	b->nr_rows = nr;
	for (unsigned k = 0; k < nr; k++)
		list->ev[mine[k]].counted_by = b;
	return 0;
}

void hpm_backend_inst_set_units(struct hpm_backend_inst *b, unsigned nr_units, char **names)
{
	hpm_unit_names_free(b->unit_names, b->nr_units);
	b->nr_units = nr_units;
	b->unit_names = names;
	for (unsigned k = 0; k < b->nr_rows; k++) {
		struct hpm_evsel *e = &b->list->ev[b->rows[k]];
		e->nr_units = nr_units;
		e->unit_names = names;
	}
}

void hpm_backend_inst_name_units(struct hpm_backend_inst *b, unsigned nr_units, const char *prefix)
{
	char **names = xcalloc(nr_units ? nr_units : 1, sizeof(*names));
	for (unsigned u = 0; u < nr_units; u++)
		names[u] = xasprintf("%s%u", prefix, u);
	hpm_backend_inst_set_units(b, nr_units, names);
}

void hpm_backend_inst_fini(struct hpm_backend_inst *b)
{
	for (unsigned k = 0; b->list && k < b->nr_rows; k++) {
		struct hpm_evsel *e = &b->list->ev[b->rows[k]];
		if (e->counted_by == b)
			e->counted_by = NULL;
	}
	hpm_unit_names_free(b->unit_names, b->nr_units);
	free(b->rows);
	memset(b, 0, sizeof(*b));
}

void hpm_unit_names_free(char **names, unsigned nr)
{
	for (unsigned u = 0; names && u < nr; u++)
		free(names[u]);
	free(names);
}

/* "'TEXT': column N: why", the style of hpmstat encode's errors; col is
 * 0-based here and shown 1-based. */
static int evlist_error(char *err, size_t errlen, const char *text, size_t col, const char *why)
{
	snprintf(err, errlen, "'%s': column %zu: %s", text, col + 1, why);
	return -1;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* One event's text as perf's lexer sees it: no blanks at the ends, around
 * ':' (outside /terms/: "page-faults : k" is page-faults:k) or inside
 * /terms/ ("msr/ event = 0 /"). Blanks between the operands of an
 * expression stay. In place. */
static void normalize_event(char *s)
{
	size_t w = 0, len = strlen(s);
	bool in_term = false;
	for (size_t r = 0; r < len; r++) {
		char c = s[r];
		if (c == '/')
			in_term = !in_term;
		if (is_blank(c)) {
			size_t next = r;
			while (next < len && is_blank(s[next]))
				next++;
			/* drop: leading, trailing, inside a term, before or after ':' */
			if (in_term || w == 0 || next == len || s[next] == ':' ||
			    (w > 0 && s[w - 1] == ':'))
				continue;
		}
		s[w++] = c;
	}
	s[w] = '\0';
}

/* Group modifiers perf takes on {...}: W (weak), S (sample read: nothing to
 * do for counting; record samples on the leader alone, reading the group) and the privilege
 * letters, which go to every member. */
static int group_modifiers(struct hpm_evlist *list, unsigned first, const char *text, size_t col,
                           const char *mods, size_t len, char *err, size_t errlen)
{
	char pass[16];
	size_t np = 0;
	bool weak = false, sample_read = false;
	if (len == 0)
		return evlist_error(err, errlen, text, col, "empty modifier after '}:'");
	for (size_t i = 0; i < len; i++) {
		char c = mods[i];
		if (c == 'W')
			weak = true;
		else if (c == 'S')
			sample_read = true;
		else if (strchr("ukhmHG", c) && np + 1 < sizeof(pass))
			pass[np++] = c;
		else {
			char why[96];
			snprintf(why, sizeof(why),
			         "group modifier '%c' is not supported for counting (u k h m H G "
			         "S W are)",
			         c);
			return evlist_error(err, errlen, text, col + i, why);
		}
	}
	pass[np] = '\0';
	for (unsigned i = first; i < list->nr; i++) {
		struct hpm_evsel *e = &list->ev[i];
		e->weak_group = weak;
		e->sample_read = sample_read;
		if (!np)
			continue;
		/* the member's spec gets the letters, its name stays as written
		 * (perf: "{task-clock,page-faults}:u" shows "task-clock") */
		const char *sp = e->spec, *colon = strrchr(sp, ':'), *slash = strrchr(sp, '/');
		char *ns;
		if (slash && (!colon || colon < slash))
			ns = xasprintf("%s%s", sp, pass); /* PMU/terms/MODS */
		else if (!colon)
			ns = xasprintf("%s:%s", sp, pass);
		else if (strspn(colon + 1, "ukhmHG") == strlen(colon + 1) &&
		         !strpbrk(sp, " &|^+()"))
			ns = xasprintf("%s%s", sp, pass); /* NAME:k -> NAME:ku */
		else
			ns = xasprintf("(%s):%s", sp, pass); /* an expression, BANK:NAME */
		free(e->spec);
		e->spec = ns;
	}
	return 0;
}

/* Whether the comma before `next` continues the terms of the event in
 * buf[0..n) instead of starting a new event: the event has a modifier
 * part (a ':') and what follows the comma is a term with a value, a word
 * and then '=', '<', '>' or '!' ("edge=rise,th>=5", an Arm event's
 * readable terms). No event name of any namespace has that shape, so
 * "a:u,b" still splits; a bare word ("a:th>=2,count") starts an event. */
static bool continues_terms(const char *buf, size_t n, const char *next)
{
	if (!memchr(buf, ':', n))
		return false;
	size_t w = 0;
	while ((next[w] >= 'a' && next[w] <= 'z') || (next[w] >= 'A' && next[w] <= 'Z') ||
	       next[w] == '_')
		w++;
	return w > 0 && next[w] && strchr("=<>!", next[w]) != NULL;
}

int hpm_evlist_parse(struct hpm_evlist *list, const char *text, char *err, size_t errlen)
{
	/* Split at commas outside (), {} and perf-style /terms/: a comma inside
	 * "kunminghu/event0=1,event1=2/" belongs to the term. Every character
	 * ends up in an event or in an error: a '(' or '/' that is never closed
	 * would otherwise swallow the rest of the list. */
	size_t len = strlen(text);
	char *buf = xmalloc(len + 1);
	size_t *open_paren = xmalloc((len + 1) * sizeof(*open_paren)); /* columns of open '(' */
	size_t nparen = 0, term_col = 0, group_col = 0, n = 0;
	int group = -1, rc = 0;
	unsigned first_new = list->nr, first_group = list->nr_groups, group_first = 0;
	bool in_term = false, after_group = false;

	for (size_t i = 0; i <= len && !rc; i++) {
		char c = text[i];
		if (n == 0 && !in_term && is_blank(c))
			continue; /* blanks before an event, a '{' or a ',' */
		if (c == '{' && !in_term && nparen == 0 && n == 0) {
			if (group >= 0) {
				rc = evlist_error(err, errlen, text, i, "groups do not nest");
				break;
			}
			group = (int)list->nr_groups++;
			group_col = i;
			group_first = list->nr;
			after_group = false;
			continue;
		}
		if (c == '/') {
			in_term = !in_term;
			term_col = i;
		} else if (!in_term && c == '(') {
			open_paren[nparen++] = i;
		} else if (!in_term && c == ')') {
			if (nparen == 0) {
				rc = evlist_error(err, errlen, text, i,
				                  "')' without a matching '('");
				break;
			}
			nparen--;
		}
		if (c == '\0' && in_term) {
			rc = evlist_error(err, errlen, text, term_col,
			                  "the '/' is never closed (a PMU event is PMU/TERMS/)");
			break;
		}
		if (c == '\0' && nparen) {
			rc = evlist_error(err, errlen, text, open_paren[nparen - 1],
			                  "the '(' is never closed");
			break;
		}
		bool end_group = c == '}' && !in_term && nparen == 0;
		if (c == ',' && !in_term && nparen == 0 && continues_terms(buf, n, text + i + 1)) {
			buf[n++] = c; /* "br_mis_pred:edge=rise,th>=5": one event */
			continue;
		}
		if ((c == ',' || c == '\0' || end_group) && !in_term && nparen == 0) {
			buf[n] = '\0';
			normalize_event(buf);
			if (n == 0 && !end_group && c == ',' && after_group) {
				/* "{a,b},c": the comma after a group */
			} else if (n == 0 && !(c == '\0' && after_group)) {
				rc = evlist_error(err, errlen, text, i, "empty event");
				break;
			} else if (n) {
				hpm_evlist_add(list, buf, group);
			}
			n = 0;
			after_group = false;
			if (end_group) {
				if (group < 0) {
					rc = evlist_error(err, errlen, text, i, "'}' without '{'");
					break;
				}
				group = -1;
				after_group = true;
				size_t j = i + 1;
				while (is_blank(text[j]))
					j++;
				if (text[j] == ':') {
					/* "{a,b}:uW" */
					size_t m = ++j;
					while (is_blank(text[m]))
						m++;
					size_t ml = strcspn(text + m, ", \t\n\r");
					if ((rc = group_modifiers(list, group_first, text, m,
					                          text + m, ml, err, errlen)))
						break;
					j = m + ml;
					while (is_blank(text[j]))
						j++;
				}
				if (text[j] != ',' && text[j] != '\0') {
					rc = evlist_error(err, errlen, text, j,
					                  "expected ',' after '}'");
					break;
				}
				i = j - 1; /* the ',' or end is read next */
			}
			continue;
		}
		buf[n++] = c;
	}
	if (!rc && group >= 0)
		rc = evlist_error(err, errlen, text, group_col, "the '{' is never closed");
	if (rc) {
		/* nothing half-added: an error leaves the list as it was */
		for (unsigned i = first_new; i < list->nr; i++) {
			free(list->ev[i].name);
			free(list->ev[i].spec);
		}
		list->nr = first_new;
		list->nr_groups = first_group;
	}
	free(open_paren);
	free(buf);
	return rc;
}

bool hpm_evsel_set_level(struct hpm_evsel *e, enum hpm_level_only level, bool fixed_unfiltered)
{
	if (level == HPM_LEVEL_ANY)
		return true;
	if (e->kind == HPM_EV_HOST) {
		e->level_only = level;
		return true;
	}
	if (e->kind == HPM_EV_MODEL_FIXED && fixed_unfiltered)
		return false;
	e->level_only = level;
	e->enc.model->restrict_level(e->enc.model, &e->enc, level == HPM_LEVEL_USER);
	return true;
}

int hpm_evlist_set_cgroups(struct hpm_evlist *list, const char *names, unsigned *next, char *err,
                           size_t errlen)
{
	bool single = *next == 0 && !strchr(names, ',') && *names;
	for (const char *p = names;;) {
		size_t n = strcspn(p, ",");
		if (*next >= list->nr) {
			snprintf(
			    err, errlen,
			    "-G '%s': more cgroups than events (%u): the n-th cgroup is for the "
			    "n-th event",
			    names, list->nr);
			return -1;
		}
		struct hpm_evsel *e = &list->ev[(*next)++];
		free(e->cgroup);
		e->cgroup = n ? xstrndup(p, n) : NULL;
		if (!p[n])
			break;
		p += n + 1;
	}
	for (unsigned i = 1; single && i < list->nr; i++) {
		free(list->ev[i].cgroup);
		list->ev[i].cgroup = xstrdup(list->ev[0].cgroup);
	}
	return 0;
}

void hpm_counts_total(const struct hpm_count *c, unsigned nr_units, int unit, struct hpm_total *t)
{
	memset(t, 0, sizeof(*t));
	for (unsigned u = 0; c && u < nr_units; u++) {
		if (unit >= 0 && u != (unsigned)unit)
			continue;
		t->wrapped |= c[u].wrapped;
		if (!c[u].run)
			continue;
		t->ran = true;
		/* perf's scaling: what ran, stretched to the whole enabled time;
		 * unscaled (run == ena) it is val itself */
		hpm_u128 v =
		    c[u].run == c[u].ena ? c[u].val : count_muldiv(c[u].val, c[u].ena, c[u].run);
		t->count = t->count + v < t->count ? ~(hpm_u128)0 : t->count + v;
	}
}

bool hpm_counts_wrapped(const struct hpm_count *c, unsigned nr_units, int unit)
{
	for (unsigned u = 0; c && u < nr_units; u++)
		if ((unit < 0 || u == (unsigned)unit) && c[u].wrapped)
			return true;
	return false;
}

double hpm_counts_value(const struct hpm_count *c, unsigned nr_units, int unit, double scale,
                        double *share)
{
	double ena = 0, run = 0;
	struct hpm_total t;
	if (share)
		*share = 0;
	if (!c)
		return (double)NAN;
	for (unsigned u = 0; u < nr_units; u++) {
		if (unit >= 0 && u != (unsigned)unit)
			continue;
		ena += (double)c[u].ena;
		run += (double)c[u].run;
	}
	if (share)
		*share = ena > 0 ? run / ena : 0;
	hpm_counts_total(c, nr_units, unit, &t);
	/* a wrapped count is mod 2^64: no metric may use it */
	if (!t.ran || t.wrapped)
		return (double)NAN;
	return (double)t.count * scale;
}

double hpm_evsel_value(const struct hpm_evlist *list, const struct hpm_evsel *e, int unit,
                       double *share)
{
	if (share)
		*share = 0;
	if (e->state != HPM_EV_OK)
		return (double)NAN;
	return hpm_counts_value(e->counts, e->nr_units ? e->nr_units : list->nr_units, unit,
	                        e->scale, share);
}

/* evlist.c: building an event list from -e text, and reading counts back.
 *
 * Owns: the splitting of perf's -e syntax (comma lists, {...} groups, commas
 * inside perf-style terms and parentheses), evsel allocation, and the
 * scaled value of a count.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stat/evlist.h"
#include "util/xalloc.h"

struct hpm_evsel *hpm_evlist_add(struct hpm_evlist *list, const char *spec, int group)
{
	list->ev = xreallocarray(list->ev, list->nr + 1, sizeof(*list->ev));
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
	}
	for (unsigned u = 0; list->unit_names && u < list->nr_units; u++)
		free(list->unit_names[u]);
	free(list->unit_names);
	free(list->ev);
	memset(list, 0, sizeof(*list));
}

/* "'TEXT': column N: why", the style of hpmstat encode's errors; col is
 * 0-based here and shown 1-based. */
static int evlist_error(char *err, size_t errlen, const char *text, size_t col, const char *why)
{
	snprintf(err, errlen, "'%s': column %zu: %s", text, col + 1, why);
	return -1;
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
	unsigned first_new = list->nr, first_group = list->nr_groups;
	bool in_term = false;

	for (size_t i = 0; i <= len && !rc; i++) {
		char c = text[i];
		if (c == '{' && !in_term && nparen == 0 && n == 0) {
			if (group >= 0) {
				rc = evlist_error(err, errlen, text, i, "groups do not nest");
				break;
			}
			group = (int)list->nr_groups++;
			group_col = i;
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
		if ((c == ',' || c == '\0' || end_group) && !in_term && nparen == 0) {
			buf[n] = '\0';
			if (n == 0 && !end_group && c == ',' && i > 0 && text[i - 1] == '}') {
				/* "{a,b},c": the comma after a group */
			} else if (n == 0 && !(c == '\0' && i > 0 && text[i - 1] == '}')) {
				rc = evlist_error(err, errlen, text, i, "empty event");
				break;
			} else if (n) {
				hpm_evlist_add(list, buf, group);
			}
			n = 0;
			if (end_group) {
				if (group < 0) {
					rc = evlist_error(err, errlen, text, i, "'}' without '{'");
					break;
				}
				group = -1;
				/* a modifier after the group ("{a,b}:u") is not supported */
				if (text[i + 1] != ',' && text[i + 1] != '\0') {
					rc = evlist_error(err, errlen, text, i + 1,
					                  "expected ',' after '}'");
					break;
				}
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

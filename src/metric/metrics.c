/* metrics.c: a model's metric table put to use: lookups, selections,
 * event lists, mergeable sums, evaluation with substitution, thresholds,
 * range flags and the Topdown bottleneck marker (see metric.h).
 *
 * The tables themselves are generated into the model folders by
 * src/gen/metrics2c.c; their expressions are parsed here at first use,
 * once per table.
 */
#include "metric/metric.h"

#include <ctype.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/suggest.h"
#include "util/str.h"
#include "util/xalloc.h"

/* NAN is a float constant; -Wdouble-promotion wants the double spelled out. */
#define NA ((double)NAN)

/* A metric referencing a metric referencing ... deeper than this is a
 * cycle the generator should have refused; stop rather than recurse. */
#define METRIC_MAX_NESTING 32
/* See metric_out_of_range. */
#define METRIC_RANGE_SLACK 1e-9

/* ----------------------------------------------------------------- lookups */

static struct metric_cache empty_cache;
const struct metric_table metric_table_empty = {.cache = &empty_cache};

/* The metric named name (case ignored when icase); "tma_X" also names
 * Topdown node X when t has no metric tma_X: the Arm tables named their
 * level 1 tma_frontend_bound ... before they took Arm's and Linux's
 * frontend_bound ..., and scripts and run files keep the old names. */
static const struct metric *by_name(const struct metric_table *t, const char *name, bool icase)
{
	for (unsigned i = 0; i < t->nr; i++)
		if ((icase ? strcasecmp : strcmp)(metric_str(&t->metrics[i], t->metrics[i].name),
		                                  name) == 0)
			return &t->metrics[i];
	if ((icase ? strncasecmp : strncmp)(name, "tma_", 4) == 0 && name[4]) {
		const struct metric *m = by_name(t, name + 4, icase);
		if (m && m->level)
			return m;
	}
	return NULL;
}

const struct metric *metric_by_name(const struct metric_table *t, const char *name)
{
	return by_name(t, name, false);
}

const struct metric *metric_by_name_icase(const struct metric_table *t, const char *name)
{
	return by_name(t, name, true);
}

unsigned metric_index(const struct metric_table *t, const struct metric *m)
{
	return (unsigned)(m - t->metrics);
}

const struct metric *metric_parent(const struct metric_table *t, const struct metric *m)
{
	return m->parent >= 0 ? &t->metrics[m->parent] : NULL;
}

const struct metric *metric_child(const struct metric_table *t, const struct metric *m, unsigned i)
{
	return i < m->nr_children ? &t->metrics[t->children[m->first_child + i]] : NULL;
}

bool metric_in_group(const struct metric *m, const char *group)
{
	size_t len = strlen(group);
	const char *g = metric_str(m, m->groups);
	while (*g) {
		size_t n = strcspn(g, ";");
		if (n == len && n > 0 && strncasecmp(g, group, n) == 0)
			return true;
		g += n;
		if (*g == ';')
			g++;
	}
	return false;
}

bool metric_group_exists(const struct metric_table *t, const char *group)
{
	for (unsigned i = 0; i < t->nr_groups; i++)
		if (strcasecmp(t->groups[i], group) == 0)
			return true;
	return false;
}

unsigned metric_max_level(const struct metric_table *t)
{
	unsigned max = 0;
	for (unsigned i = 0; i < t->nr; i++) {
		const struct metric *m = &t->metrics[i];
		/* stage-2 groups are one level below their node */
		unsigned deepest = *metric_str(m, m->stage2) ? m->level + 1 : m->level;
		if (deepest > max)
			max = deepest;
	}
	return max;
}

/* Keep the max closest candidates, nearest first, no repeats. */

unsigned metric_suggest(const struct metric_table *t, const char *name, const char **out,
                        unsigned max)
{
	struct suggest sg;
	size_t len = strlen(name);
	/* further away than about a third of the name is noise; a prefix
	 * ("tma_front") is a strong hint */
	suggest_init(&sg, name, len, (unsigned)(len / 3 + 1), true, out, max);
	for (unsigned i = 0; i < t->nr; i++)
		suggest_offer(&sg, metric_str(&t->metrics[i], t->metrics[i].name));
	for (unsigned i = 0; i < t->nr_groups; i++)
		suggest_offer(&sg, t->groups[i]);
	return sg.n;
}

/* --------------------------------------------------------- parsed forms */

static struct metric_cache *ensure_cache(const struct metric_table *t)
{
	struct metric_cache *c = t->cache;
	if (!c->expr) {
		c->expr = xcalloc(t->nr ? t->nr : 1, sizeof(*c->expr));
		c->thresh = xcalloc(t->nr ? t->nr : 1, sizeof(*c->thresh));
	}
	return c;
}

const struct mexpr *metric_expr(const struct metric_table *t, const struct metric *m)
{
	unsigned i = metric_index(t, m);
	struct metric_cache *c = ensure_cache(t);
	/* The generator parsed every expression of the table, so this cannot
	 * fail; if it did, NULL makes evaluation report a syntax error. */
	if (!c->expr[i] && mexpr_parse(metric_str(m, m->expr), &c->expr[i], NULL))
		c->expr[i] = NULL;
	return c->expr[i];
}

const struct mexpr *metric_threshold_expr(const struct metric_table *t, const struct metric *m)
{
	unsigned i = metric_index(t, m);
	if (!m->threshold)
		return NULL;
	struct metric_cache *c = ensure_cache(t);
	if (!c->thresh[i] && mexpr_parse(metric_str(m, m->threshold), &c->thresh[i], NULL))
		c->thresh[i] = NULL;
	return c->thresh[i];
}

static void release_cache(const struct metric_table *t)
{
	struct metric_cache *c = t->cache;
	if (!c->expr)
		return;
	for (unsigned i = 0; i < t->nr; i++) {
		mexpr_free(c->expr[i]);
		mexpr_free(c->thresh[i]);
	}
	free(c->expr);
	free(c->thresh);
	c->expr = c->thresh = NULL;
}

void metric_release(const struct metric_table *t)
{
	release_cache(t);
	for (unsigned v = 0; v < t->nr_variants; v++)
		release_cache(t->variants[v].table);
}

/* -------------------------------------------------------------- selections */

void metric_set_init(struct metric_set *s, const struct metric_table *t)
{
	memset(s, 0, sizeof(*s));
	s->table = t;
}

void metric_set_free(struct metric_set *s)
{
	free(s->m);
	free(s->under);
	metric_set_init(s, s->table);
}

int metric_set_find(const struct metric_set *s, const struct metric *m)
{
	for (unsigned i = 0; i < s->nr; i++)
		if (s->m[i] == m)
			return (int)i;
	return -1;
}

/* Append m unless present, under set position `under` (-1: none). */
static void set_add_under(struct metric_set *s, const struct metric *m, int under)
{
	if (metric_set_find(s, m) >= 0)
		return;
	if (s->nr == s->alloc) {
		s->alloc = s->alloc ? 2 * s->alloc : 16;
		s->m = xreallocarray(s->m, s->alloc, sizeof(*s->m));
		s->under = xreallocarray(s->under, s->alloc, sizeof(*s->under));
	}
	s->under[s->nr] = under;
	s->m[s->nr++] = m;
}

void metric_set_add_metric(struct metric_set *s, const struct metric *m)
{
	set_add_under(s, m, -1);
}

int metric_set_under(const struct metric_set *s, unsigned i)
{
	return i < s->nr && s->under ? s->under[i] : -1;
}

/* After node m (in s), the metrics of the stage-2 groups m names, each
 * group's in table order, when the selection goes below m's level. A
 * metric already in s stays where it is (one row per metric). */
static void add_stage2(struct metric_set *s, const struct metric *m, unsigned level)
{
	const struct metric_table *t = s->table;
	const char *g = metric_str(m, m->stage2);
	int node = metric_set_find(s, m);
	if (!g || m->level >= level || node < 0)
		return;
	while (*g) {
		size_t n = strcspn(g, ";");
		char group[128];
		if (n && n < sizeof(group)) {
			memcpy(group, g, n);
			group[n] = '\0';
			for (unsigned i = 0; i < t->nr; i++)
				if (metric_in_group(&t->metrics[i], group))
					set_add_under(s, &t->metrics[i], node);
		}
		g += n;
		if (*g == ';')
			g++;
	}
}

/* ---------------------------------------------------------------- variants */

const char *metric_variant_name(const struct metric_table *t)
{
	return t->nr_variants ? t->variants[t->variant].name : NULL;
}

int metric_variant_find(const struct metric_table *t, const char *name,
                        const struct metric_table **out, struct hpm_diag *err)
{
	char esc[96], known[160];
	size_t n = 0;
	const char *sugg[1];
	struct suggest sg;

	if (!t->nr_variants) {
		hpm_diag_fail(err, METRIC_ERANGE, -1, "no Topdown variants");
		return METRIC_ERANGE;
	}
	known[0] = '\0';
	/* the same "did you mean" rule as metric names: a third of the name */
	suggest_init(&sg, name, strlen(name), (unsigned)(strlen(name) / 3 + 1), true, sugg, 1);
	for (unsigned v = 0; v < t->nr_variants; v++) {
		if (strcmp(t->variants[v].name, name) == 0) {
			*out = t->variants[v].table;
			return 0;
		}
		suggest_offer(&sg, t->variants[v].name);
		if (n < sizeof(known))
			n += (size_t)snprintf(known + n, sizeof(known) - n, "%s%s", v ? ", " : "",
			                      t->variants[v].name);
	}
	str_escape(name, esc, sizeof(esc));
	if (sg.n)
		hpm_diag_fail(err, METRIC_EUNKNOWN, -1,
		              "unknown Topdown variant '%s'; did you mean '%s'? (known: %s)", esc,
		              sugg[0], known);
	else
		hpm_diag_fail(err, METRIC_EUNKNOWN, -1, "unknown Topdown variant '%s' (known: %s)",
		              esc, known);
	return METRIC_EUNKNOWN;
}

const struct metric *metric_in_variant(const struct metric_table *t, const struct metric *m,
                                       unsigned v)
{
	if (v >= t->nr_variants)
		return m;
	return &t->variants[v].table->metrics[metric_index(t, m)];
}

bool metric_has_variants(const struct metric_table *t, const struct metric *m)
{
	for (unsigned v = 0; v < t->nr_variants; v++) {
		const struct metric *vm = metric_in_variant(t, m, v);
		if (strcmp(metric_str(vm, vm->expr), metric_str(m, m->expr)) != 0)
			return true;
	}
	return false;
}

/* The first metric m references (depth bounded: the generator refused
 * cycles) that has variants of its own. */
static const struct metric *variant_source(const struct metric_table *t, const struct metric *m,
                                           unsigned depth)
{
	const struct mexpr *e = metric_expr(t, m);
	if (!e || depth > t->nr)
		return NULL;
	for (unsigned i = 0; i < mexpr_nr_names(e); i++) {
		const struct metric *r = metric_by_name(t, mexpr_name(e, i));
		const struct metric *src;
		if (!r)
			continue;
		if (metric_has_variants(t, r))
			return r;
		if ((src = variant_source(t, r, depth + 1)))
			return src;
	}
	return NULL;
}

const struct metric *metric_variant_source(const struct metric_table *t, const struct metric *m)
{
	if (!t->nr_variants || metric_has_variants(t, m))
		return NULL;
	return variant_source(t, m, 0);
}

int metric_set_add(struct metric_set *s, const char *list, struct hpm_diag *err)
{
	const struct metric_table *t = s->table;
	struct metric_set add;
	const char *p = list;

	metric_set_init(&add, t);
	for (;;) {
		size_t n = strcspn(p, ",");
		char item[128], esc[160];
		if (n == 0 || n >= sizeof(item)) {
			str_escape(n ? p : "", esc, sizeof(esc));
			if (n)
				hpm_diag_fail(err, METRIC_EUNKNOWN, -1,
				              "unknown metric or metric group '%.40s...'", esc);
			else
				hpm_diag_fail(err, METRIC_EUNKNOWN, -1,
				              "empty metric name in '%.100s'", list);
			metric_set_free(&add);
			return METRIC_EUNKNOWN;
		}
		memcpy(item, p, n);
		item[n] = '\0';
		const struct metric *m = metric_by_name_icase(t, item);
		if (m) {
			metric_set_add_metric(&add, m);
		} else if (metric_group_exists(t, item)) {
			for (unsigned i = 0; i < t->nr; i++)
				if (metric_in_group(&t->metrics[i], item))
					metric_set_add_metric(&add, &t->metrics[i]);
		} else {
			const char *sugg[1];
			str_escape(item, esc, sizeof(esc));
			if (metric_suggest(t, item, sugg, 1))
				hpm_diag_fail(
				    err, METRIC_EUNKNOWN, -1,
				    "unknown metric or metric group '%s'; did you mean '%s'?", esc,
				    sugg[0]);
			else
				hpm_diag_fail(err, METRIC_EUNKNOWN, -1,
				              "unknown metric or metric group '%s'", esc);
			metric_set_free(&add);
			return METRIC_EUNKNOWN;
		}
		p += n;
		if (*p != ',')
			break;
		p++;
	}
	for (unsigned i = 0; i < add.nr; i++)
		metric_set_add_metric(s, add.m[i]);
	metric_set_free(&add);
	return 0;
}

static void add_subtree(struct metric_set *s, const struct metric *m, unsigned level)
{
	if (m->level > level)
		return;
	metric_set_add_metric(s, m);
	add_stage2(s, m, level);
	for (unsigned i = 0; i < m->nr_children; i++)
		add_subtree(s, metric_child(s->table, m, i), level);
}

int metric_set_add_topdown(struct metric_set *s, unsigned level, struct hpm_diag *err)
{
	const struct metric_table *t = s->table;
	unsigned max = metric_max_level(t);
	if (level < 1 || level > max) {
		hpm_diag_fail(err, METRIC_ERANGE, -1, "Topdown level %u out of range (1 to %u)",
		              level, max);
		return METRIC_ERANGE;
	}
	for (unsigned i = 0; i < t->nr; i++)
		if (t->metrics[i].level == 1)
			add_subtree(s, &t->metrics[i], level);
	s->tree = true;
	return 0;
}

/* ------------------------------------------------------------------ nodes */

#define NODE_TEXT_MAX 256

/* text lowercased, without a leading "tma_" (any case), into buf */
static const char *node_key(const char *text, size_t len, char *buf, size_t buflen)
{
	if (len >= 4 && strncasecmp(text, "tma_", 4) == 0) {
		text += 4;
		len -= 4;
	}
	if (len >= buflen)
		len = buflen - 1;
	for (size_t i = 0; i < len; i++)
		buf[i] = (char)tolower((unsigned char)text[i]);
	buf[len] = '\0';
	return buf;
}

/* The node's path from level 1, keys joined by '.': backend_bound.memory_bound */
static void node_path(const struct metric_table *t, const struct metric *m, char *buf, size_t len)
{
	char key[NODE_TEXT_MAX];
	size_t at = 0;
	const struct metric *p = metric_parent(t, m);
	buf[0] = '\0';
	if (p) {
		node_path(t, p, buf, len);
		at = strlen(buf);
		if (at + 1 < len)
			buf[at++] = '.';
	}
	node_key(metric_str(m, m->name), strlen(metric_str(m, m->name)), key, sizeof(key));
	size_t n = strlen(key);
	if (at + n >= len)
		n = at < len ? len - at - 1 : 0;
	memcpy(buf + at, key, n);
	buf[at + n] = '\0';
}

/* One parsed --nodes item. */
struct node_item {
	bool remove;
	unsigned max_level; /* "/N"; 0 none */
	char pat[NODE_TEXT_MAX];
	char dotted[NODE_TEXT_MAX + 2]; /* "*." pat */
	char text[NODE_TEXT_MAX];       /* as written, for messages */
};

static bool node_matches(const struct metric_table *t, const struct node_item *it,
                         const struct metric *m)
{
	char key[NODE_TEXT_MAX], path[NODE_TEXT_MAX];
	if (m->level == 0 || (it->max_level && m->level > it->max_level))
		return false;
	node_key(metric_str(m, m->name), strlen(metric_str(m, m->name)), key, sizeof(key));
	node_path(t, m, path, sizeof(path));
	return fnmatch(it->pat, key, 0) == 0 || fnmatch(it->pat, path, 0) == 0 ||
	       fnmatch(it->dotted, path, 0) == 0;
}

/* Parses item p[0..n) into it; -1 with err set when it is malformed. */
static int node_item_parse(const struct metric_table *t, const char *p, size_t n,
                           struct node_item *it, struct hpm_diag *err)
{
	char esc[NODE_TEXT_MAX + 32];
	memset(it, 0, sizeof(*it));
	snprintf(it->text, sizeof(it->text), "%.*s",
	         (int)(n < NODE_TEXT_MAX ? n : NODE_TEXT_MAX - 1), p);
	str_escape(it->text, esc, sizeof(esc));
	if (n >= NODE_TEXT_MAX) {
		hpm_diag_fail(err, METRIC_EUNKNOWN, -1, "unknown Topdown node '%.40s...'", esc);
		return -1;
	}
	if (n && (*p == '+' || *p == '-' || *p == '^')) {
		it->remove = *p != '+';
		p++;
		n--;
	}
	const char *slash = memchr(p, '/', n);
	if (slash) {
		char *end;
		unsigned long lv = strtoul(slash + 1, &end, 10);
		if (end != p + n || end == slash + 1 || lv < 1 || lv > metric_max_level(t)) {
			hpm_diag_fail(err, METRIC_ERANGE, -1,
			              "'%s': the level after '/' must be 1 to %u", esc,
			              metric_max_level(t));
			return -1;
		}
		it->max_level = (unsigned)lv;
		n = (size_t)(slash - p);
	}
	if (!n) {
		hpm_diag_fail(err, METRIC_EUNKNOWN, -1, "'%s': no node name", esc);
		return -1;
	}
	node_key(p, n, it->pat, sizeof(it->pat));
	snprintf(it->dotted, sizeof(it->dotted), "*.%s", it->pat);
	return 0;
}

/* Node m's name in the spelling of what the user typed: with tma_ (the
 * metric name) or without, and in the tree's case (Memory_Bound, DRAM_Bound),
 * all lower case or all upper case as typed. */
static const char *node_spelt_as(const struct metric *m, const char *typed, char *buf, size_t len)
{
	bool upper = false, lower = false;
	const char *t = typed + strspn(typed, "+-^");
	for (const char *c = t; *c; c++) {
		upper |= isupper((unsigned char)*c) != 0;
		lower |= islower((unsigned char)*c) != 0;
	}
	char *shown = metric_node_display_name(m);
	const char *name = strncasecmp(t, "tma_", 4) == 0 ? metric_str(m, m->name) : shown;
	if (strncasecmp(t, "tma_", 4) == 0 && strncasecmp(name, "tma_", 4) != 0)
		snprintf(buf, len, "tma_%s", name);
	else
		snprintf(buf, len, "%s", name);
	free(shown);
	for (char *c = buf; *c && upper != lower; c++)
		*c = (char)(upper ? toupper((unsigned char)*c) : tolower((unsigned char)*c));
	return buf;
}

/* Node m as the user would have written it (node_spelt_as), with its
 * ancestors joined by '.' when dotted (Backend_Bound.Memory_Bound). */
static void node_spelt_path(const struct metric_table *t, const struct metric *m, bool dotted,
                            const char *typed, char *buf, size_t len)
{
	const struct metric *p = dotted ? metric_parent(t, m) : NULL;
	char own[NODE_TEXT_MAX + 8];
	buf[0] = '\0';
	if (p)
		node_spelt_path(t, p, dotted, typed, buf, len);
	/* only the path's first name may carry tma_ (node_key) */
	const char *bare = typed + strspn(typed, "+-^");
	if (p && strncasecmp(bare, "tma_", 4) == 0)
		typed = bare + 4;
	size_t at = strlen(buf);
	snprintf(buf + at, len - at, "%s%s", p ? "." : "",
	         node_spelt_as(m, typed, own, sizeof(own)));
}

static void unknown_node(const struct metric_table *t, const struct node_item *it,
                         struct hpm_diag *err)
{
	char esc[NODE_TEXT_MAX + 32], keys[64][NODE_TEXT_MAX];
	const struct metric *node[64];
	const char *sugg[1];
	struct suggest sg;
	size_t len = strlen(it->pat);
	unsigned nk = 0;
	/* a dotted name is compared with the nodes' paths */
	bool dotted = strchr(it->pat, '.') != NULL;
	suggest_init(&sg, it->pat, len, (unsigned)(len / 3 + 1), true, sugg, 1);
	for (unsigned i = 0; i < t->nr && nk < 64; i++)
		if (t->metrics[i].level) {
			node[nk] = &t->metrics[i];
			if (dotted)
				node_path(t, node[nk], keys[nk], sizeof(keys[nk]));
			else
				node_key(metric_str(node[nk], node[nk]->name),
				         strlen(metric_str(node[nk], node[nk]->name)), keys[nk],
				         sizeof(keys[nk]));
			suggest_offer(&sg, keys[nk++]);
		}
	str_escape(it->text, esc, sizeof(esc));
	for (unsigned k = 0; sg.n && k < nk; k++)
		if (sugg[0] == keys[k]) {
			char spelt[2 * NODE_TEXT_MAX];
			node_spelt_path(t, node[k], dotted, it->text, spelt, sizeof(spelt));
			hpm_diag_fail(err, METRIC_EUNKNOWN, -1,
			              "unknown Topdown node '%s'; did you mean '%s'?", esc, spelt);
			return;
		}
	hpm_diag_fail(err, METRIC_EUNKNOWN, -1,
	              "unknown Topdown node '%s' (the tree is in hpmstat-stat(1))", esc);
}

int metric_set_add_nodes(struct metric_set *s, unsigned level, const char *list,
                         struct hpm_diag *err)
{
	const struct metric_table *t = s->table;
	struct metric_set def;
	struct node_item *items = NULL;
	unsigned nr = 0, max = metric_max_level(t);
	unsigned char *in = NULL;
	int rc = 0;
	const char *p = list;

	if (level < 1 || level > max) {
		hpm_diag_fail(err, METRIC_ERANGE, -1, "Topdown level %u out of range (1 to %u)",
		              level, max);
		return METRIC_ERANGE;
	}
	metric_set_init(&def, t);
	if (*p == '!')
		p++;
	else
		metric_set_add_topdown(&def, level, NULL);
	for (;;) {
		size_t n = strcspn(p, ",");
		/* blanks around an item are not part of it, as toplev strips them */
		const char *q = p;
		size_t m = n;
		while (m && isspace((unsigned char)*q)) {
			q++;
			m--;
		}
		while (m && isspace((unsigned char)q[m - 1]))
			m--;
		if (m) {
			items = xreallocarray(items, nr + 1, sizeof(*items));
			if ((rc = node_item_parse(t, q, m, &items[nr], err)) != 0) {
				rc = err ? err->code : METRIC_EUNKNOWN;
				goto out;
			}
			nr++;
		}
		p += n;
		if (*p != ',')
			break;
		p++;
	}
	/* every item names some node, or it is a typo */
	for (unsigned k = 0; k < nr; k++) {
		bool any = false;
		for (unsigned i = 0; i < t->nr && !any; i++)
			any = node_matches(t, &items[k], &t->metrics[i]);
		if (!any) {
			unknown_node(t, &items[k], err);
			rc = METRIC_EUNKNOWN;
			goto out;
		}
	}
	in = xcalloc(t->nr ? t->nr : 1, 1);
	for (unsigned i = 0; i < t->nr; i++) {
		const struct metric *m = &t->metrics[i];
		if (!m->level)
			continue;
		bool add = metric_set_find(&def, m) >= 0, del = false;
		for (unsigned k = 0; k < nr; k++)
			if (node_matches(t, &items[k], m)) {
				if (items[k].remove)
					del = true;
				else
					add = true;
			}
		in[i] = add && !del;
	}
	struct metric_set sel;
	metric_set_init(&sel, t);
	/* depth first, as the tree is shown */
	for (unsigned i = 0; i < t->nr; i++)
		if (t->metrics[i].level == 1)
			add_subtree(&sel, &t->metrics[i], max);
	unsigned chosen = 0;
	for (unsigned i = 0; i < sel.nr; i++)
		if (sel.m[i]->level && in[metric_index(t, sel.m[i])]) {
			metric_set_add_metric(s, sel.m[i]);
			add_stage2(s, sel.m[i], level);
			chosen++;
		}
	metric_set_free(&sel);
	s->tree = true;
	if (!chosen) {
		char esc[160];
		str_escape(list, esc, sizeof(esc));
		hpm_diag_fail(err, METRIC_ERANGE, -1, "'%s' selects no Topdown node", esc);
		rc = METRIC_ERANGE;
	}
out:
	free(in);
	free(items);
	metric_set_free(&def);
	return rc;
}

unsigned metric_set_max_level(const struct metric_set *s)
{
	unsigned max = 0;
	for (unsigned i = 0; i < s->nr; i++)
		if (s->m[i]->level > max)
			max = s->m[i]->level;
	return max;
}

/* ------------------------------------------------------------------- names */

void metric_names_free(struct metric_names *n)
{
	for (unsigned i = 0; i < n->nr; i++)
		free(n->name[i]);
	free(n->name);
	memset(n, 0, sizeof(*n));
}

int metric_names_find(const struct metric_names *n, const char *name)
{
	for (unsigned i = 0; i < n->nr; i++)
		if (strcmp(n->name[i], name) == 0)
			return (int)i;
	return -1;
}

static void names_add(struct metric_names *n, const char *name)
{
	if (metric_names_find(n, name) >= 0)
		return;
	if (n->nr == n->alloc) {
		n->alloc = n->alloc ? 2 * n->alloc : 16;
		n->name = xreallocarray(n->name, n->alloc, sizeof(*n->name));
	}
	n->name[n->nr++] = xstrdup(name);
}

static const char *subst_name(const struct metric_subst *subst, unsigned nr, const char *name)
{
	for (unsigned i = 0; i < nr; i++)
		if (strcmp(subst[i].from, name) == 0)
			return subst[i].to;
	return name;
}

bool metric_sum_mergeable(const struct metric_table *t, const char *a, const char *b,
                          metric_counts_sum_fn counts_sum, void *sum_ctx)
{
	if (!counts_sum || metric_by_name(t, a) || metric_by_name(t, b))
		return false;
	/* only plain names: "A+B" must mean exactly the sum of the two */
	if (strpbrk(a, "+|&^:/(), ") || strpbrk(b, "+|&^:/(), "))
		return false;
	char *sum = xasprintf("%s+%s", a, b);
	bool ok = counts_sum(sum_ctx, sum);
	free(sum);
	return ok;
}

/* Walk state for event lists: plain names and merged sums, after
 * substitution, with the metrics already expanded (each expanded once). */
struct walk {
	const struct metric_table *t;
	const struct metric_subst *subst;
	unsigned nr_subst;
	metric_counts_sum_fn counts_sum; /* NULL: no sum is merged */
	void *sum_ctx;
	struct metric_names plain, sums;
	unsigned char *expanded; /* [t->nr] */
	unsigned depth;
};

static void walk_expr(struct walk *w, const struct mexpr *e);

static bool walk_merge(void *ctx, const char *a, const char *b)
{
	struct walk *w = ctx;
	if (!w->counts_sum || metric_by_name(w->t, a) || metric_by_name(w->t, b))
		return false;
	return metric_sum_mergeable(w->t, subst_name(w->subst, w->nr_subst, a),
	                            subst_name(w->subst, w->nr_subst, b), w->counts_sum,
	                            w->sum_ctx);
}

static void walk_visit(void *ctx, const char *a, const char *b)
{
	struct walk *w = ctx;
	if (b) {
		char *sum = xasprintf("%s+%s", subst_name(w->subst, w->nr_subst, a),
		                      subst_name(w->subst, w->nr_subst, b));
		names_add(&w->sums, sum);
		free(sum);
		return;
	}
	const struct metric *m = metric_by_name(w->t, a);
	if (!m) {
		names_add(&w->plain, subst_name(w->subst, w->nr_subst, a));
		return;
	}
	unsigned i = metric_index(w->t, m);
	if (w->expanded[i] || w->depth >= METRIC_MAX_NESTING)
		return;
	w->expanded[i] = 1;
	const struct mexpr *e = metric_expr(w->t, m);
	if (e) {
		w->depth++;
		walk_expr(w, e);
		w->depth--;
	}
}

static void walk_expr(struct walk *w, const struct mexpr *e)
{
	mexpr_visit(e, walk_merge, walk_visit, w);
}

static void walk_set(struct walk *w, const struct metric_set *s, const struct metric_subst *subst,
                     unsigned nr_subst, unsigned flags, metric_counts_sum_fn counts_sum,
                     void *sum_ctx)
{
	memset(w, 0, sizeof(*w));
	w->t = s->table;
	w->subst = subst;
	w->nr_subst = nr_subst;
	w->counts_sum = counts_sum;
	w->sum_ctx = sum_ctx;
	w->expanded = xcalloc(w->t->nr ? w->t->nr : 1, 1);
	for (unsigned i = 0; i < s->nr; i++)
		walk_visit(w, metric_str(s->m[i], s->m[i]->name), NULL);
	if (flags & METRIC_EV_THRESHOLDS)
		for (unsigned i = 0; i < s->nr; i++) {
			const struct mexpr *t = metric_threshold_expr(w->t, s->m[i]);
			if (t)
				walk_expr(w, t);
		}
}

static void walk_free(struct walk *w)
{
	metric_names_free(&w->plain);
	metric_names_free(&w->sums);
	free(w->expanded);
}

/* Split "A+B" (names never contain '+') into its two parts. */
static void split_sum(const char *sum, char *a, char *b, size_t len)
{
	size_t n = strcspn(sum, "+");
	snprintf(a, len, "%.*s", (int)n, sum);
	snprintf(b, len, "%s", sum[n] ? sum + n + 1 : "");
}

void metric_set_events(const struct metric_set *s, const struct metric_subst *subst,
                       unsigned nr_subst, unsigned flags, metric_counts_sum_fn counts_sum,
                       void *sum_ctx, struct metric_names *out)
{
	struct walk w;
	walk_set(&w, s, subst, nr_subst, flags, (flags & METRIC_EV_MERGE) ? counts_sum : NULL,
	         sum_ctx);
	/* A merged counter saves one only when neither part is needed alone;
	 * otherwise count the parts and let evaluation add them. The plain
	 * names keep their order; sums that stay merged follow them. */
	struct metric_names keep = {0};
	for (unsigned i = 0; i < w.sums.nr; i++) {
		char a[256], b[256];
		split_sum(w.sums.name[i], a, b, sizeof(a));
		if (metric_names_find(&w.plain, a) >= 0 || metric_names_find(&w.plain, b) >= 0) {
			names_add(&w.plain, a);
			names_add(&w.plain, b);
		} else {
			names_add(&keep, w.sums.name[i]);
		}
	}
	for (unsigned i = 0; i < w.plain.nr; i++)
		names_add(out, w.plain.name[i]);
	for (unsigned i = 0; i < keep.nr; i++)
		names_add(out, keep.name[i]);
	metric_names_free(&keep);
	walk_free(&w);
}

void metric_set_sums(const struct metric_set *s, const struct metric_subst *subst,
                     unsigned nr_subst, unsigned flags, metric_counts_sum_fn counts_sum,
                     void *sum_ctx, struct metric_names *out)
{
	struct walk w;
	walk_set(&w, s, subst, nr_subst, flags, counts_sum, sum_ctx);
	for (unsigned i = 0; i < w.sums.nr; i++)
		names_add(out, w.sums.name[i]);
	walk_free(&w);
}

/* -------------------------------------------------------------- evaluation */

enum { MEMO_NONE, MEMO_BUSY, MEMO_DONE };

struct memo {
	unsigned char state;
	double val;
	double mag; /* the magnitudes val came from (mexpr_eval_mag) */
	int err;
	const char *missing;
};

struct ectx {
	const struct metric_table *t;
	const struct metric_env *env; /* may be NULL: no events known */
	struct memo *memo;            /* [t->nr] */
	unsigned depth;
	const char *missing; /* the first event the lookup did not know */
};

static int eval_index(struct ectx *c, unsigned i, double *val);

/* A metric's value carries the magnitudes it was computed from: a
 * difference of two metrics near 0 is judged against those, not against
 * the two small values. */
static double resolve_mag(void *vctx, const char *name, double val)
{
	struct ectx *c = vctx;
	const struct metric *m = metric_by_name(c->t, name);
	if (m && c->memo[metric_index(c->t, m)].state == MEMO_DONE)
		return c->memo[metric_index(c->t, m)].mag;
	return fabs(val);
}

static int resolve(void *vctx, const char *name, double *val)
{
	struct ectx *c = vctx;
	const struct metric_env *env = c->env;
	const struct metric *m = metric_by_name(c->t, name);

	if (m)
		return eval_index(c, metric_index(c->t, m), val);
	if (strchr(name, '+')) {
		/* MEXPR_MERGED probe: only for two events, and never recorded
		 * as missing, since "not found" means "add the parts". */
		char a[256], b[256], sum[520];
		split_sum(name, a, b, sizeof(a));
		if (!env || metric_by_name(c->t, a) || metric_by_name(c->t, b))
			return METRIC_ENAME;
		snprintf(sum, sizeof(sum), "%s+%s", subst_name(env->subst, env->nr_subst, a),
		         subst_name(env->subst, env->nr_subst, b));
		return env->lookup(env->ctx, sum, val);
	}
	if (!env) {
		if (!c->missing)
			c->missing = name;
		return METRIC_ENAME;
	}
	const char *ev = subst_name(env->subst, env->nr_subst, name);
	int r = env->lookup(env->ctx, ev, val);
	if (r == METRIC_ENAME && !c->missing)
		c->missing = ev;
	return r;
}

static int eval_index(struct ectx *c, unsigned i, double *val)
{
	struct memo *mm = &c->memo[i];
	const struct metric *m = &c->t->metrics[i];

	if (mm->state == MEMO_DONE) {
		*val = mm->val;
		if (mm->err == METRIC_ENAME && !c->missing)
			c->missing = mm->missing;
		return mm->err;
	}
	if (mm->state == MEMO_BUSY || c->depth >= METRIC_MAX_NESTING) {
		*val = NA;
		return METRIC_ECYCLE;
	}
	const struct mexpr *e = metric_expr(c->t, m);
	if (!e) {
		*val = NA;
		return METRIC_ESYNTAX;
	}
	mm->state = MEMO_BUSY;
	const char *outer_missing = c->missing;
	c->missing = NULL;
	c->depth++;
	struct hpm_diag err;
	unsigned flags = c->env && c->env->merged ? MEXPR_MERGED : 0;
	double mag = 0;
	int r = mexpr_eval_mag(e, flags, resolve, resolve_mag, c, val, &mag, &err);
	c->depth--;
	mm->state = MEMO_DONE;
	mm->val = r ? NA : *val;
	mm->mag = mag;
	mm->err = r;
	mm->missing = r == METRIC_ENAME ? c->missing : NULL;
	c->missing = outer_missing ? outer_missing : mm->missing;
	return r;
}

static struct memo *memo_new(const struct metric_table *t)
{
	return xcalloc(t->nr ? t->nr : 1, sizeof(struct memo));
}

static void explain(struct hpm_diag *err, int r, const struct metric *m, const char *missing)
{
	char esc[128];
	switch (r) {
	case METRIC_ENAME:
		str_escape(missing ? missing : "?", esc, sizeof(esc));
		hpm_diag_fail(err, r, -1, "unknown event '%s' (needed by %s)", esc,
		              metric_str(m, m->name));
		break;
	case METRIC_ECYCLE:
		hpm_diag_fail(err, r, -1, "metric %s references itself through other metrics",
		              metric_str(m, m->name));
		break;
	case METRIC_ESYNTAX:
		hpm_diag_fail(err, r, -1, "metric %s does not parse", metric_str(m, m->name));
		break;
	default:
		hpm_diag_fail(err, r, -1, "metric %s: an event count could not be read",
		              metric_str(m, m->name));
		break;
	}
}

int metric_eval(const struct metric_table *t, const struct metric *m, const struct metric_env *env,
                double *val, struct hpm_diag *err)
{
	struct ectx c = {.t = t, .env = env, .memo = memo_new(t)};
	int r = eval_index(&c, metric_index(t, m), val);
	if (r)
		explain(err, r, m, c.memo[metric_index(t, m)].missing);
	free(c.memo);
	return r;
}

double metric_out_of_range_by(const struct metric *m, double value, double err)
{
	if (!m->scale_unit || m->scale != 100.0 || strcmp(metric_str(m, m->unit), "%") != 0 ||
	    isnan(value))
		return 0;
	if (!(err >= METRIC_RANGE_SLACK))
		err = METRIC_RANGE_SLACK;
	if (value < -err)
		return value;
	if (value > 1.0 + err)
		return value - 1.0;
	return 0;
}

const char *metric_range_text(double shown, char *buf, size_t len)
{
	if (shown < 0)
		snprintf(buf, len, "%.2f below 0", -shown);
	else
		snprintf(buf, len, "%.2f above 100", shown - 100);
	return buf;
}

bool metric_out_of_range(const struct metric *m, double value)
{
	return metric_out_of_range_by(m, value, METRIC_RANGE_SLACK) != 0;
}

static void judge(const struct metric_set *s, struct ectx *c, struct metric_value *vals)
{
	for (unsigned i = 0; i < s->nr; i++) {
		const struct metric *m = s->m[i];
		struct metric_value *v = &vals[i];
		const struct mexpr *t = metric_threshold_expr(s->table, m);

		v->flags &= ~(unsigned)(METRIC_F_NA | METRIC_F_ERROR | METRIC_F_OUT_OF_RANGE);
		if (v->err) {
			v->value = NA;
			v->flags |= METRIC_F_ERROR;
		}
		if (isnan(v->value))
			v->flags |= METRIC_F_NA;
		if (metric_out_of_range(m, v->value))
			v->flags |= METRIC_F_OUT_OF_RANGE;
		if (!m->threshold) {
			v->thresh = METRIC_THRESH_NONE;
			continue;
		}
		double tv;
		unsigned flags = c->env && c->env->merged ? MEXPR_MERGED : 0;
		c->missing = NULL;
		if (!t || mexpr_eval(t, flags, resolve, c, &tv, NULL) || isnan(tv))
			v->thresh = METRIC_THRESH_UNKNOWN;
		else
			v->thresh = tv != 0 ? METRIC_THRESH_YES : METRIC_THRESH_NO;
	}
	metric_set_mark_bottleneck(s, vals);
}

void metric_set_eval(const struct metric_set *s, const struct metric_env *env,
                     struct metric_value *vals)
{
	struct ectx c = {.t = s->table, .env = env, .memo = memo_new(s->table)};
	for (unsigned i = 0; i < s->nr; i++) {
		unsigned k = metric_index(s->table, s->m[i]);
		struct metric_value *v = &vals[i];
		memset(v, 0, sizeof(*v));
		c.missing = NULL;
		v->err = eval_index(&c, k, &v->value);
		v->missing = v->err == METRIC_ENAME ? c.memo[k].missing : NULL;
	}
	judge(s, &c, vals);
	free(c.memo);
}

void metric_set_judge(const struct metric_set *s, const struct metric_env *env,
                      struct metric_value *vals)
{
	struct ectx c = {.t = s->table, .env = env, .memo = memo_new(s->table)};
	/* the thresholds see exactly the values given */
	for (unsigned i = 0; i < s->nr; i++) {
		struct memo *mm = &c.memo[metric_index(s->table, s->m[i])];
		mm->state = MEMO_DONE;
		mm->val = vals[i].err ? NA : vals[i].value;
		mm->mag = fabs(mm->val);
		mm->err = vals[i].err;
		mm->missing = vals[i].missing;
	}
	judge(s, &c, vals);
	free(c.memo);
}

void metric_set_mark_bottleneck(const struct metric_set *s, struct metric_value *vals)
{
	const unsigned mark = METRIC_F_BOTTLENECK | METRIC_F_BOTTLENECK_LEAF;
	int parent = -1, last = -1;
	unsigned top = 0; /* the smallest Topdown level in s */

	for (unsigned i = 0; i < s->nr; i++) {
		vals[i].flags &= ~mark;
		if (s->m[i]->level && (!top || s->m[i]->level < top))
			top = s->m[i]->level;
	}
	/* each round goes one level down, so a round per metric always suffices */
	for (unsigned round = 0; round < s->table->nr; round++) {
		int best = -1;
		unsigned siblings = 0;
		for (unsigned i = 0; i < s->nr; i++) {
			const struct metric *m = s->m[i];
			if (m->level == 0)
				continue;
			if (parent < 0 ? m->level != top : m->parent != parent)
				continue;
			siblings++;
			if (vals[i].thresh != METRIC_THRESH_YES || isnan(vals[i].value))
				continue;
			if (best < 0 || vals[i].value > vals[best].value)
				best = (int)i;
		}
		/* -M's nodes alone: a node is the bottleneck among others only */
		if (best < 0 || (!s->tree && siblings < 2))
			break;
		vals[best].flags |= METRIC_F_BOTTLENECK;
		last = best;
		parent = (int)metric_index(s->table, s->m[best]);
	}
	if (last >= 0)
		vals[last].flags |= METRIC_F_BOTTLENECK_LEAF;
}

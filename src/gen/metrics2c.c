/* metrics2c.c: build-time generator of a PMU model's metric table.
 *
 * Owns: the translation of a model's metrics JSON (Linux perf's metric
 * format: MetricName, MetricExpr, MetricGroup, MetricThreshold, ScaleUnit,
 * BriefDescription, PublicDescription) into one struct metric_table object
 * (metric/metric.h) of the given name, in C the model's folder compiles
 * (Kunminghu: src/kmh/metrics-gen.c), so nothing parses JSON at run time;
 * and the validation that makes the table trustworthy: every expression and
 * threshold parses with the run-time engine (src/metric/expr.c), every name
 * is a metric of the file, an EventName of the model's event files (perf's
 * pmu-events JSON), `cycles` or `instructions`; metrics do not reference
 * each other in a cycle; the Topdown tree implied by the TopdownL<n> and
 * tma_<X>_group groups is consistent (every group parent exists, one level
 * up); and every Topdown metric has a threshold, ScaleUnit "100%" and a
 * BriefDescription that says whether it is a share "of slots" or "of
 * cycles". A Topdown metric may also name, in TopdownStage2, the metric
 * groups a decision tree descends into below it (Arm's stage 2: sets of
 * metrics, not shares of the node); each must be a group of the file. It
 * knows no model: the events and the retired-instructions event come from
 * the command line. An entry with "Revisions" belongs to those revisions of
 * the core only (N2's "r0p0-r0p2" and "r0p3-", whose Topdown formulas
 * differ): it is read when --revisions gives that text, and left out
 * otherwise; a file with such entries needs --revisions.
 *
 * Named variants (hpmstat stat --topdown-variant): a metric may carry
 * "MetricVariants", a list of {"VariantName", "VariantDescription",
 * "MetricExpr", "PublicDescription"} objects, a field perf's jevents.py
 * ignores. The first entry names the metric's own MetricExpr (it has no
 * MetricExpr of its own) and is the model's default variant; each other
 * entry gives the MetricExpr (and optionally the PublicDescription) the
 * metric has under that variant. The table's variants are every name any
 * metric lists, in order of first use; a metric that does not list one
 * keeps its own formula there, and metrics that reference it follow. Every
 * variant is validated as the default is (names, cycles) and generated as a
 * whole table of its own (struct metric_variant in metric/metric.h), so the
 * engine and its users need no notion of variants.
 *
 * Usage: metrics2c --table NAME [--retired EVENT] [--revisions REVS]
 * [--events EVENTS.json]... METRICS.json > metrics-gen.c. --retired names
 * the event the metrics read for retired instructions, which
 * --topdown-retired=minstret reads as "instructions". Any problem: one
 * line on stderr naming the file and the metric, exit 1, nothing on
 * stdout.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "gen/gen-die.h"
#include "gen/gen-pool.h"
#include "metric/metric.h"

#define MAX_METRICS 1024
#define MAX_GROUPS  4096
#define MAX_EVENTS  65536

/* named variants of one table (stat --topdown-variant) */
#define MAX_VARIANTS 8

/* A variant of the table: its name, its one-line description. */
struct gvariant {
	const char *name, *desc;
};

struct gm {
	const char *name, *expr, *groups, *threshold, *scale_unit, *brief, *desc;
	const char *stage2; /* TopdownStage2, "" when none */
	double scale;
	const char *unit;
	struct mexpr *e, *t;
	unsigned level;
	int share; /* enum metric_share */
	int parent;
	unsigned first_child, nr_children;
	int color; /* cycle search: 0 new, 1 on the stack, 2 done */
	/* per table variant (index into variants[]): the MetricExpr and
	 * PublicDescription there, NULL where the metric keeps its own */
	const char *var_expr[MAX_VARIANTS], *var_desc[MAX_VARIANTS];
	struct mexpr *var_e[MAX_VARIANTS];
	struct mexpr *own_e; /* the default's parsed MetricExpr, while e is a variant's */
};

static const char *prog = "metrics2c";
static const char *want_revisions; /* --revisions, NULL when not given */
static bool saw_revisions;         /* some entry is for want_revisions */
static const char *cur_file = "";
static struct gm metrics[MAX_METRICS];
static unsigned nr_metrics;
static char *groups[MAX_GROUPS];
static unsigned nr_groups;
/* the EventNames of the event files (strings owned by their documents) */
static const char **events;
static unsigned nr_events;
static json_t **event_docs;
static unsigned nr_event_docs;
/* the table's variants, the default first; none when no metric has any */
static struct gvariant variants[MAX_VARIANTS];
static unsigned nr_variants;

static void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
static void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	gen_vdie(prog, cur_file, fmt, ap);
}

static const char *get_str(json_t *obj, const char *key, const char *mname, bool required)
{
	json_t *v = json_object_get(obj, key);
	if (!v) {
		if (required)
			die("metric '%s': missing field %s", mname, key);
		return NULL;
	}
	if (!json_is_string(v) || json_string_length(v) == 0)
		die("metric '%s': field %s must be a non-empty string", mname, key);
	if (strlen(json_string_value(v)) != json_string_length(v))
		die("metric '%s': field %s contains a NUL character", mname, key);
	return json_string_value(v);
}

static bool valid_name(const char *s)
{
	if (!(isalpha((unsigned char)*s) || *s == '_'))
		return false;
	for (; *s; s++)
		if (!(isalnum((unsigned char)*s) || *s == '_' || *s == '.'))
			return false;
	return true;
}

static int find_metric(const char *name)
{
	for (unsigned i = 0; i < nr_metrics; i++)
		if (strcmp(metrics[i].name, name) == 0)
			return (int)i;
	return -1;
}

static bool is_model_event(const char *name)
{
	for (unsigned i = 0; i < nr_events; i++)
		if (strcmp(events[i], name) == 0)
			return true;
	return false;
}

static bool is_event(const char *name)
{
	return strcmp(name, "cycles") == 0 || strcmp(name, "instructions") == 0 ||
	       is_model_event(name);
}

/* The EventName (or ArchStdEvent) of every row of a pmu-events file; the
 * model's own generator checks the rest of the row. */
static void read_events(const char *path)
{
	cur_file = path;
	json_t *root = gen_load_array(prog, path, 0, "events");
	event_docs = realloc(event_docs, (nr_event_docs + 1) * sizeof(*event_docs));
	if (!event_docs)
		die("out of memory");
	event_docs[nr_event_docs++] = root;
	for (size_t i = 0; i < json_array_size(root); i++) {
		/* an Arm core's row {"ArchStdEvent": NAME} is the standard event
		 * NAME, as perf's jevents.py reads it */
		json_t *row = json_array_get(root, i);
		json_t *name = json_object_get(row, "EventName");
		if (!name)
			name = json_object_get(row, "ArchStdEvent");
		if (!json_is_string(name))
			die("event #%zu has no EventName (or ArchStdEvent) string", i);
		if (nr_events == MAX_EVENTS)
			die("more than %d events", MAX_EVENTS);
		if (nr_events % 256 == 0) {
			events = realloc(events, (nr_events + 256) * sizeof(*events));
			if (!events)
				die("out of memory");
		}
		events[nr_events++] = json_string_value(name);
	}
}

static struct mexpr *parse(const char *text, const char *mname, const char *what)
{
	struct mexpr *e;
	struct hpm_diag err;
	if (mexpr_parse(text, &e, &err))
		die("metric '%s': %s does not parse: %s", mname, what, err.msg);
	return e;
}

static void check_names(const struct gm *m, const struct mexpr *e, const char *what)
{
	for (unsigned i = 0; i < mexpr_nr_names(e); i++) {
		const char *n = mexpr_name(e, i);
		if (strcmp(n, "noEvent") == 0)
			die("metric '%s': %s references noEvent, which counts nothing", m->name,
			    what);
		if (find_metric(n) < 0 && !is_event(n))
			die("metric '%s': %s references '%s', which is neither a metric of this "
			    "file, an event of the event files, cycles nor instructions",
			    m->name, what, n);
	}
}

/* Depth-first search over MetricExpr references; a name met again while on
 * the stack closes a cycle. Thresholds are left out: they see computed
 * values, so "tma_x > 0.1" in tma_x's own threshold is no cycle. */
static void check_cycles(unsigned i, unsigned depth)
{
	struct gm *m = &metrics[i];
	if (m->color == 2)
		return;
	if (m->color == 1 || depth > nr_metrics)
		die("metric '%s': metrics reference each other in a cycle", m->name);
	m->color = 1;
	for (unsigned k = 0; k < mexpr_nr_names(m->e); k++) {
		int j = find_metric(mexpr_name(m->e, k));
		if (j >= 0)
			check_cycles((unsigned)j, depth + 1);
	}
	m->color = 2;
}

static bool group_is_level(const char *g, size_t len, unsigned *level)
{
	/* tma_L<n>_group: the level groups, not a parent */
	if (len == 12 && strncmp(g, "tma_L", 5) == 0 && isdigit((unsigned char)g[5]) &&
	    strncmp(g + 6, "_group", 6) == 0) {
		*level = (unsigned)(g[5] - '0');
		return true;
	}
	return false;
}

static void add_group(const char *g, size_t len)
{
	for (unsigned i = 0; i < nr_groups; i++)
		if (strlen(groups[i]) == len && strncasecmp(groups[i], g, len) == 0)
			return;
	if (nr_groups == MAX_GROUPS)
		die("more than %d metric groups", MAX_GROUPS);
	char *s = malloc(len + 1);
	if (!s)
		die("out of memory");
	memcpy(s, g, len);
	s[len] = '\0';
	groups[nr_groups++] = s;
}

/* Read MetricGroup: level from TopdownL<n>, the tma_L<n>_group that must
 * agree with it, and the parent from tma_<X>_group. */
static void read_groups(struct gm *m, char parent[128])
{
	unsigned level = 0, tma_level = 0, nr_parents = 0;
	const char *g = m->groups;
	parent[0] = '\0';
	while (*g) {
		size_t len = strcspn(g, ";");
		unsigned lv;
		if (len == 0)
			die("metric '%s': empty group in MetricGroup '%s'", m->name, m->groups);
		for (size_t k = 0; k < len; k++)
			if (!(isalnum((unsigned char)g[k]) || g[k] == '_'))
				die("metric '%s': group '%.*s' has a character other than letters, "
				    "digits and '_'",
				    m->name, (int)len, g);
		for (const char *h = m->groups; h < g;) {
			size_t hl = strcspn(h, ";");
			if (hl == len && strncasecmp(h, g, len) == 0)
				die("metric '%s': group '%.*s' given twice", m->name, (int)len, g);
			h += hl + 1;
		}
		add_group(g, len);
		if (len == 9 && strncmp(g, "TopdownL", 8) == 0 && g[8] >= '1' && g[8] <= '9') {
			if (level)
				die("metric '%s': two TopdownL groups", m->name);
			level = (unsigned)(g[8] - '0');
		} else if (group_is_level(g, len, &lv)) {
			tma_level = lv;
		} else if (len > 10 && strncmp(g, "tma_", 4) == 0 &&
		           strncmp(g + len - 6, "_group", 6) == 0) {
			if (len - 6 >= 128)
				die("metric '%s': group name too long", m->name);
			snprintf(parent, 128, "%.*s", (int)(len - 6), g);
			nr_parents++;
		}
		g += len;
		if (*g == ';')
			g++;
	}
	if (tma_level != level)
		die("metric '%s': TopdownL%u and tma_L%u_group disagree", m->name, level,
		    tma_level);
	if (nr_parents > 1)
		die("metric '%s': more than one parent group tma_<X>_group", m->name);
	if (nr_parents && !level)
		die("metric '%s': a parent group but no TopdownL<n> group", m->name);
	if (level > 1 && !nr_parents)
		die("metric '%s': Topdown level %u needs a parent group tma_<X>_group", m->name,
		    level);
	if (level == 1 && nr_parents)
		die("metric '%s': a level-1 metric has no parent group", m->name);
	m->level = level;
}

static void read_scale(struct gm *m)
{
	m->scale = 1.0;
	m->unit = "";
	if (!m->scale_unit)
		return;
	char *end;
	m->scale = strtod(m->scale_unit, &end);
	if (end == m->scale_unit || !(m->scale > 0) || m->scale > 1e18)
		die("metric '%s': ScaleUnit '%s' does not start with a positive number", m->name,
		    m->scale_unit);
	m->unit = end;
}

static void read_share(struct gm *m)
{
	bool slots = strstr(m->brief, "of slots") != NULL;
	bool cycles = strstr(m->brief, "of cycles") != NULL;
	m->share = METRIC_SHARE_NONE;
	if (!m->level)
		return;
	if (slots == cycles)
		die("metric '%s': a Topdown BriefDescription must say either 'of slots' or 'of "
		    "cycles'",
		    m->name);
	m->share = slots ? METRIC_SHARE_SLOTS : METRIC_SHARE_CYCLES;
	if (!m->threshold)
		die("metric '%s': a Topdown metric needs a MetricThreshold", m->name);
	if (!m->scale_unit || strcmp(m->scale_unit, "100%") != 0)
		die("metric '%s': a Topdown metric needs ScaleUnit \"100%%\"", m->name);
}

/* TopdownStage2: only on a Topdown metric, each item (case as written) a
 * group that some metric of the file lists in its MetricGroup. */
static void check_stage2(const struct gm *m)
{
	const char *g = m->stage2;
	if (!*g)
		return;
	if (!m->level)
		die("metric '%s': TopdownStage2 on a metric outside the Topdown tree", m->name);
	while (*g) {
		size_t n = strcspn(g, ";");
		bool found = false;
		for (unsigned i = 0; i < nr_metrics && n && !found; i++) {
			const char *h = metrics[i].groups;
			while (*h && !found) {
				size_t k = strcspn(h, ";");
				found = k == n && strncmp(h, g, n) == 0;
				h += k;
				if (*h == ';')
					h++;
			}
		}
		if (!found)
			die("metric '%s': TopdownStage2 names '%.*s', which no metric of the file "
			    "lists in its MetricGroup",
			    m->name, (int)n, g);
		g += n;
		if (*g == ';')
			g++;
	}
}

static bool valid_variant_name(const char *s)
{
	if (!islower((unsigned char)*s))
		return false;
	for (; *s; s++)
		if (!(islower((unsigned char)*s) || isdigit((unsigned char)*s) || *s == '-'))
			return false;
	return true;
}

/* The table's index of variant name, added (with desc) when new; a
 * description must read the same wherever it is given. */
static unsigned table_variant(const char *mname, const char *name, const char *desc)
{
	for (unsigned v = 0; v < nr_variants; v++)
		if (strcmp(variants[v].name, name) == 0) {
			if (strcmp(variants[v].desc, desc) != 0)
				die("metric '%s': variant '%s' has another VariantDescription than "
				    "in an earlier metric",
				    mname, name);
			return v;
		}
	if (nr_variants == MAX_VARIANTS)
		die("metric '%s': more than %d variants", mname, MAX_VARIANTS);
	variants[nr_variants].name = name;
	variants[nr_variants].desc = desc;
	return nr_variants++;
}

/* MetricVariants: see the head of this file. */
static void read_variants(struct gm *m, json_t *list)
{
	static const char *const keys[] = {"VariantName", "VariantDescription", "MetricExpr",
	                                   "PublicDescription"};
	if (!json_is_array(list) || json_array_size(list) < 2)
		die("metric '%s': MetricVariants must be a list of at least two variants (the "
		    "default first)",
		    m->name);
	for (size_t k = 0; k < json_array_size(list); k++) {
		json_t *o = json_array_get(list, k), *val;
		const char *key;
		if (!json_is_object(o))
			die("metric '%s': MetricVariants entry %zu is not an object", m->name, k);
		json_object_foreach(o, key, val)
		{
			bool known = false;
			for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
				known |= strcmp(key, keys[i]) == 0;
			if (!known)
				die("metric '%s': MetricVariants entry %zu: unknown field %s",
				    m->name, k, key);
		}
		const char *name = get_str(o, "VariantName", m->name, true);
		const char *desc = get_str(o, "VariantDescription", m->name, true);
		const char *expr = get_str(o, "MetricExpr", m->name, false);
		const char *pub = get_str(o, "PublicDescription", m->name, false);
		if (!valid_variant_name(name))
			die("metric '%s': VariantName '%s' must be a lower-case letter then "
			    "lower-case "
			    "letters, digits or '-'",
			    m->name, name);
		if (k == 0 && (expr || pub))
			die("metric '%s': the first variant, '%s', is the metric's own formula and "
			    "takes no MetricExpr or PublicDescription",
			    m->name, name);
		if (k > 0 && !expr)
			die("metric '%s': variant '%s' has no MetricExpr", m->name, name);
		if (k == 0 && nr_variants && strcmp(variants[0].name, name) != 0)
			die("metric '%s': its first variant '%s' is not the default '%s' of an "
			    "earlier metric",
			    m->name, name, variants[0].name);
		if (k > 0 && nr_variants && strcmp(variants[0].name, name) == 0)
			die("metric '%s': the default variant '%s' must come first", m->name, name);
		unsigned v = table_variant(m->name, name, desc);
		if (k > 0) {
			if (m->var_expr[v])
				die("metric '%s': variant '%s' given twice", m->name, name);
			m->var_expr[v] = expr;
			m->var_desc[v] = pub ? pub : m->desc;
			m->var_e[v] = parse(expr, m->name, "a variant's MetricExpr");
		}
	}
}

static void read_metric(json_t *obj, unsigned idx)
{
	static const char *const keys[] = {"MetricName",        "MetricExpr",    "MetricGroup",
	                                   "MetricThreshold",   "ScaleUnit",     "BriefDescription",
	                                   "PublicDescription", "TopdownStage2", "Revisions",
	                                   "MetricVariants"};
	struct gm *m = &metrics[nr_metrics];
	const char *key;
	json_t *val;
	char tmp[32];

	if (!json_is_object(obj))
		die("entry %u is not an object", idx);
	snprintf(tmp, sizeof(tmp), "#%u", idx);
	m->name = get_str(obj, "MetricName", tmp, true);
	json_object_foreach(obj, key, val)
	{
		bool known = false;
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			known |= strcmp(key, keys[k]) == 0;
		if (!known)
			die("metric '%s': unknown field %s", m->name, key);
	}
	const char *revs = get_str(obj, "Revisions", m->name, false);
	if (revs) {
		if (!want_revisions)
			die("metric '%s': an entry for revisions %s, and no --revisions", m->name,
			    revs);
		if (strcmp(revs, want_revisions) != 0)
			return; /* another revision's */
		saw_revisions = true;
	}
	if (!valid_name(m->name))
		die("metric '%s': MetricName must be a letter or '_' then letters, digits, '_' "
		    "or '.'",
		    m->name);
	if (!strcmp(m->name, "if") || !strcmp(m->name, "else") || !strcmp(m->name, "min") ||
	    !strcmp(m->name, "max"))
		die("metric '%s': MetricName is a keyword of the expression syntax", m->name);
	for (unsigned i = 0; i < nr_metrics; i++)
		if (strcasecmp(metrics[i].name, m->name) == 0)
			die("metric '%s': MetricName given twice (case ignored, as -M does)",
			    m->name);
	if (is_event(m->name))
		die("metric '%s': MetricName is also an event name", m->name);
	m->expr = get_str(obj, "MetricExpr", m->name, true);
	m->groups = get_str(obj, "MetricGroup", m->name, false);
	if (!m->groups)
		m->groups = "";
	m->threshold = get_str(obj, "MetricThreshold", m->name, false);
	m->scale_unit = get_str(obj, "ScaleUnit", m->name, false);
	m->brief = get_str(obj, "BriefDescription", m->name, true);
	m->desc = get_str(obj, "PublicDescription", m->name, false);
	if (!m->desc)
		m->desc = m->brief;
	m->stage2 = get_str(obj, "TopdownStage2", m->name, false);
	if (!m->stage2)
		m->stage2 = "";
	m->e = parse(m->expr, m->name, "MetricExpr");
	if (m->threshold)
		m->t = parse(m->threshold, m->name, "MetricThreshold");
	if (json_object_get(obj, "MetricVariants"))
		read_variants(m, json_object_get(obj, "MetricVariants"));
	m->parent = -1;
	nr_metrics++;
}

static const char *share_name(int share)
{
	return share == METRIC_SHARE_SLOTS    ? "METRIC_SHARE_SLOTS"
	       : share == METRIC_SHARE_CYCLES ? "METRIC_SHARE_CYCLES"
	                                      : "METRIC_SHARE_NONE";
}

static bool valid_c_name(const char *s)
{
	if (!(isalpha((unsigned char)*s) || *s == '_'))
		return false;
	for (; *s; s++)
		if (!(isalnum((unsigned char)*s) || *s == '_'))
			return false;
	return true;
}

/* The texts of every metric, in the blob after the metrics arrays. */
static struct gen_pool pool;

/* The text fields of a struct metric, in its order. */
enum {
	T_NAME,
	T_EXPR,
	T_GROUPS,
	T_THRESHOLD,
	T_SCALE_UNIT,
	T_UNIT,
	T_BRIEF,
	T_DESC,
	T_STAGE2,
	NR_T
};
static const char *const text_field[NR_T] = {
    "name", "expr", "groups", "threshold", "scale_unit", "unit", "brief", "description", "stage2"};

/* The metrics array of variant v (0: the default, also when the table has
 * no variants): the blob's metrics_<v>. A text field is its offset from
 * the metric itself to its text in the blob's pool (metric_str in
 * metric/metric.h), 0 for none; the texts are written in a comment above
 * each metric, for the reader of the C. */
static void emit_metrics(FILE *out, unsigned v)
{
	fprintf(out, "\t.metrics_%u = {\n", v);
	for (unsigned i = 0; i < nr_metrics; i++) {
		const struct gm *m = &metrics[i];
		const char *text[NR_T] = {m->name,       m->var_expr[v] ? m->var_expr[v] : m->expr,
		                          m->groups,     m->threshold,
		                          m->scale_unit, m->unit,
		                          m->brief,      m->var_desc[v] ? m->var_desc[v] : m->desc,
		                          m->stage2};
		fputs("\t\t/*\n", out);
		for (unsigned f = 0; f < NR_T; f++)
			if (text[f]) {
				fprintf(out, "\t\t *\t.%s = ", text_field[f]);
				gen_put_note_cstr(out, text[f]);
				fputs(",\n", out);
			}
		fputs("\t\t */\n\t\t{\n", out);
		for (unsigned f = 0; f < NR_T; f++) {
			if (f == T_UNIT)
				fprintf(out, "\t\t\t.scale = %.17g,\n", m->scale);
			if (text[f])
				fprintf(out, "\t\t\t.%s = METRIC_TEXT(%u, %u, %" PRIu32 "),\n",
				        text_field[f], v, i, gen_pool_add(&pool, prog, text[f]));
		}
		fprintf(out,
		        "\t\t\t.level = %u,\n\t\t\t.share = %s,\n\t\t\t.parent = %d,\n"
		        "\t\t\t.first_child = %u,\n\t\t\t.nr_children = %u,\n\t\t},\n",
		        m->level, share_name(m->share), m->parent, m->first_child, m->nr_children);
	}
	if (!nr_metrics) {
		/* C has no empty array: one metric nobody reads, every text "" but
		 * its formula "0" */
		uint32_t empty = gen_pool_add(&pool, prog, ""),
		         zero = gen_pool_add(&pool, prog, "0");
		fputs("\t\t{", out);
		for (unsigned f = 0; f < NR_T; f++)
			if (f != T_THRESHOLD && f != T_SCALE_UNIT)
				fprintf(out, ".%s = METRIC_TEXT(%u, 0, %" PRIu32 "), ",
				        text_field[f], v, f == T_EXPR ? zero : empty);
		fputs(".parent = -1},\n", out);
	}
	fputs("\t},\n", out);
}

/* The metrics arrays of every variant and the pool of their texts, as one
 * object, so that a text's offset from its metric is a constant. */
static void emit_blob(FILE *out)
{
	unsigned nr_tables = nr_variants ? nr_variants : 1, n = nr_metrics ? nr_metrics : 1;
	char *rows = NULL;
	size_t len = 0;
	FILE *r = open_memstream(&rows, &len);
	if (!r)
		die("out of memory");
	for (unsigned v = 0; v < nr_tables; v++)
		emit_metrics(r, v);
	if (fclose(r) != 0)
		die("out of memory");
	fputs("struct metrics_blob {\n", out);
	for (unsigned v = 0; v < nr_tables; v++)
		fprintf(out, "\tstruct metric metrics_%u[%u];\n", v, n);
	fprintf(out, "\tchar pool[%zu];\n};\n\n", pool.len);
	fputs(
	    "/* text OFF of the pool, from metric I of variant V */\n"
	    "#define METRIC_TEXT(V, I, OFF)                                                     "
	    "\\\n"
	    "\t((uint32_t)(offsetof(struct metrics_blob, pool) + (OFF) -                      \\\n"
	    "\t             offsetof(struct metrics_blob, metrics_##V) - (I) * sizeof(struct "
	    "metric)))\n\n",
	    out);
	fputs("static const struct metrics_blob blob = {\n", out);
	fwrite(rows, 1, len, out);
	free(rows);
	fputs("\t.pool =\n", out);
	gen_pool_put_literal(out, &pool);
	fputs(",\n};\n\n", out);
	gen_pool_free(&pool);
}

/* One struct metric_table: the default (named table, exported) or variant
 * v's (static). */
static void emit_table(FILE *out, const char *table, const char *retired, unsigned v)
{
	if (v == 0)
		fprintf(out, "const struct metric_table %s = {\n", table);
	else
		fprintf(out, "static const struct metric_table variant_table_%u = {\n", v);
	fprintf(out, "\t.metrics = blob.metrics_%u,\n\t.nr = %u,\n\t.children = children,\n", v,
	        nr_metrics);
	fprintf(out, "\t.groups = groups,\n\t.nr_groups = %u,\n", nr_groups);
	if (retired) {
		fputs("\t.retired = {", out);
		gen_put_cstr(out, retired);
		fputs(", \"instructions\"},\n", out);
	}
	fprintf(out, "\t.cache = &cache_%u,\n", v);
	if (nr_variants)
		fprintf(out, "\t.variants = variants,\n\t.nr_variants = %u,\n\t.variant = %u,\n",
		        nr_variants, v);
	fputs("};\n", out);
}

static int usage(void)
{
	fprintf(stderr,
	        "usage: %s --table NAME [--retired EVENT] [--revisions REVS] "
	        "[--events EVENTS.json]... METRICS.json > metrics-gen.c\n",
	        prog);
	return 2;
}

/* Every metric's names, group, scale, share and stage-2 fields, its parent
 * one level up, and no formula that reaches itself. */
static void check_metrics(void)
{
	for (unsigned i = 0; i < nr_metrics; i++) {
		struct gm *m = &metrics[i];
		char parent[128];
		check_names(m, m->e, "MetricExpr");
		if (m->t)
			check_names(m, m->t, "MetricThreshold");
		read_groups(m, parent);
		read_scale(m);
		read_share(m);
		check_stage2(m);
		if (parent[0]) {
			m->parent = find_metric(parent);
			if (m->parent < 0)
				die("metric '%s': group %s_group names parent '%s', which is not a "
				    "metric of this file",
				    m->name, parent, parent);
		}
	}
	for (unsigned i = 0; i < nr_metrics; i++) {
		struct gm *m = &metrics[i];
		if (m->parent >= 0 && metrics[m->parent].level + 1 != m->level)
			die("metric '%s': level %u under '%s' of level %u (want one level down)",
			    m->name, m->level, metrics[m->parent].name, metrics[m->parent].level);
		check_cycles(i, 0);
	}
}

/* Each variant's formulas: names of this file, and no cycle. */
static void check_variants(void)
{
	for (unsigned v = 1; v < nr_variants; v++) {
		for (unsigned i = 0; i < nr_metrics; i++) {
			struct gm *m = &metrics[i];
			m->color = 0;
			m->own_e = m->e;
			if (m->var_e[v]) {
				check_names(m, m->var_e[v], "a variant's MetricExpr");
				m->e = m->var_e[v];
			}
		}
		for (unsigned i = 0; i < nr_metrics; i++)
			check_cycles(i, 0);
		for (unsigned i = 0; i < nr_metrics; i++)
			metrics[i].e = metrics[i].own_e;
	}
}

/* children[]: parent by parent, each list in table order; sets each
 * metric's first_child and nr_children. */
static void emit_children(FILE *out)
{
	unsigned nr_children = 0;
	fputs("static const unsigned short children[] = {\n", out);
	for (unsigned i = 0; i < nr_metrics; i++) {
		metrics[i].first_child = nr_children;
		for (unsigned j = 0; j < nr_metrics; j++)
			if (metrics[j].parent == (int)i) {
				fprintf(out, "\t%u, /* %s -> %s */\n", j, metrics[i].name,
				        metrics[j].name);
				metrics[i].nr_children++;
				nr_children++;
			}
	}
	if (!nr_children)
		fputs("\t0, /* none: a placeholder so the array is not empty */\n", out);
	fputs("};\n\n", out);
}

static void emit_groups(FILE *out)
{
	fputs("static const char *const groups[] = {\n", out);
	for (unsigned i = 0; i < nr_groups; i++) {
		fputc('\t', out);
		gen_put_cstr(out, groups[i]);
		fputs(",\n", out);
	}
	if (!nr_groups)
		fputs("\t\"\",\n", out);
	fputs("};\n\n", out);
}

/* The caches, the variants and one table per variant. */
static void emit_tables(FILE *out, const char *table, const char *retired)
{
	/* the engine's parsed expressions, one cache per table; each variant
	 * is a table, and every table of the model lists them all */
	unsigned nr_tables = nr_variants ? nr_variants : 1;
	for (unsigned v = 0; v < nr_tables; v++)
		fprintf(out, "static struct metric_cache cache_%u;\n", v);
	fprintf(out, "\nextern const struct metric_table %s;\n", table);
	for (unsigned v = 1; v < nr_tables; v++)
		fprintf(out, "static const struct metric_table variant_table_%u;\n", v);
	if (nr_variants) {
		fputs("\nstatic const struct metric_variant variants[] = {\n", out);
		for (unsigned v = 0; v < nr_variants; v++) {
			gen_put_row_texts(out, variants[v].name, variants[v].desc);
			if (v == 0)
				fprintf(out, ", &%s},\n", table);
			else
				fprintf(out, ", &variant_table_%u},\n", v);
		}
		fputs("};\n", out);
	}
	for (unsigned v = 0; v < nr_tables; v++) {
		fputc('\n', out);
		emit_table(out, table, retired, v);
	}
}

static void free_metrics(void)
{
	for (unsigned i = 0; i < nr_metrics; i++) {
		mexpr_free(metrics[i].e);
		mexpr_free(metrics[i].t);
		for (unsigned v = 0; v < nr_variants; v++)
			mexpr_free(metrics[i].var_e[v]);
	}
	for (unsigned i = 0; i < nr_groups; i++)
		free(groups[i]);
	for (unsigned i = 0; i < nr_event_docs; i++)
		json_decref(event_docs[i]);
	free(event_docs);
	free(events);
}

int main(int argc, char **argv)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out;
	const char *table = NULL, *retired = NULL, *path = NULL;

	for (int i = 1; i < argc; i++) {
		bool has_value = i + 1 < argc;
		if (strcmp(argv[i], "--table") == 0 && has_value)
			table = argv[++i];
		else if (strcmp(argv[i], "--retired") == 0 && has_value)
			retired = argv[++i];
		else if (strcmp(argv[i], "--revisions") == 0 && has_value)
			want_revisions = argv[++i];
		else if (strcmp(argv[i], "--events") == 0 && has_value)
			read_events(argv[++i]);
		else if (argv[i][0] == '-' || path)
			return usage();
		else
			path = argv[i];
	}
	if (!table || !path)
		return usage();
	cur_file = path;
	if (!valid_c_name(table))
		die("--table '%s' is not a C identifier", table);
	if (retired && !is_model_event(retired))
		die("--retired '%s' is not an event of the event files", retired);
	json_t *root = gen_load_array(prog, path, JSON_REJECT_DUPLICATES, "metrics");
	if (json_array_size(root) > MAX_METRICS)
		die("more than %d metrics", MAX_METRICS);
	for (size_t i = 0; i < json_array_size(root); i++)
		read_metric(json_array_get(root, i), (unsigned)i);
	if (want_revisions && !saw_revisions)
		die("--revisions %s: no entry of the file is for those revisions", want_revisions);

	check_metrics();
	check_variants();

	out = open_memstream(&buf, &len);
	if (!out)
		die("out of memory");
	fprintf(out, "/* Generated by metrics2c from %s: do not edit. */\n", path);
	fputs("#include \"metric/metric.h\"\n\n", out);

	emit_children(out);
	emit_blob(out);

	emit_groups(out);
	emit_tables(out, table, retired);
	if (fclose(out) != 0)
		die("out of memory");

	free_metrics();
	json_decref(root);
	if (fwrite(buf, 1, len, stdout) != len || fflush(stdout) != 0) {
		free(buf);
		die("cannot write the output");
	}
	free(buf);
	return 0;
}

/* metric.h: metrics as data: the expression engine and the metric tables.
 *
 * Owns: the metric expression engine (expr.c: perf's MetricExpr syntax, parsed
 * once into a tree and evaluated with a name-lookup callback), struct
 * metric_table (one PMU model's metrics: the model's folder holds its table,
 * generated at build time from the model's metrics JSON by
 * src/gen/metrics2c.c, which also validates it; the model points at it from
 * struct hpm_pmu_model), and everything derived from a table (metrics.c):
 * lookups by name and group, the parsed expressions of each table, -M and
 * --topdown selections, the events a selection needs, the A + B sums one
 * counter can count (the PMU model answers through a callback: this library
 * knows none), evaluation with an event-name substitution map,
 * MetricThreshold, the out-of-range flag and the Topdown bottleneck marker;
 * and (counted.c) the reading of the events a run counted that stat and
 * report share: which row a name means, multiplexing, the retired
 * instructions substitution, the shown value and display name.
 *
 * The library never prints and never exits (xmalloc may abort on OOM):
 * fallible calls return 0 or a negative METRIC_E* code with a one-line
 * message in struct hpm_diag.
 *
 * Values are doubles. NaN means "no number" (division by zero, a count that
 * does not exist): callers print "n/a", never a figure.
 */
#ifndef HPM_METRIC_METRIC_H
#define HPM_METRIC_METRIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/diag.h"

/* ------------------------------------------------------------------ errors */

enum metric_errcode {
	METRIC_OK = 0,
	METRIC_ESYNTAX = -1,  /* malformed expression */
	METRIC_EDEPTH = -2,   /* nested deeper than METRIC_MAX_DEPTH, or too long */
	METRIC_ENAME = -3,    /* evaluation: the lookup does not know a name */
	METRIC_ELOOKUP = -4,  /* evaluation: the lookup failed for another reason */
	METRIC_EUNKNOWN = -5, /* no metric or metric group of that name */
	METRIC_ERANGE = -6,   /* argument out of range (e.g. a Topdown level) */
	METRIC_ECYCLE = -7,   /* metrics that reference each other in a cycle */
};

/* Errors are a struct hpm_diag (util/diag.h): code an enum metric_errcode,
 * column the place in the expression text (0: none), msg one line (parse
 * errors say "at offset N", 0-based). */

/* ======================================================= expression engine */

/* Syntax (perf's MetricExpr, the parts this project needs), loosest first:
 *
 *   expr   := or [ "if" or "else" expr ]     Python-style, right-associative
 *   or     := and { "|" and }                logical or
 *   and    := cmp { "&" cmp }                logical and
 *   cmp    := add { ("<" | ">" | "<=" | ">=" | "==" | "!=") add }
 *   add    := mul { ("+" | "-") mul }
 *   mul    := unary { ("*" | "/") unary }
 *   unary  := "-" unary | primary
 *   primary:= NUMBER | NAME | "(" expr ")" | ("min" | "max") "(" expr "," expr ")"
 *
 * NUMBER: decimal, optional fraction and exponent (6, 0.15, .5, 1e9, 2.5E-3),
 * read without the C locale. NAME: a letter or '_' then letters, digits, '_'
 * and '.' (so NAME.K event instances are names); "if", "else", "min" and
 * "max" are keywords. Comparisons give 1 or 0; & and | treat non-zero as
 * true, as perf's thresholds use them.
 *
 * NaN (no number) propagates: any arithmetic, comparison or min/max with a
 * NaN operand is NaN; x / 0 is NaN (not an infinity); "c if NaN else d" is
 * NaN. & and | follow three-valued logic: 0 & NaN is 0 and 1 | NaN is 1, as
 * the answer does not depend on the unknown side; otherwise NaN. A final
 * result that is not finite is reported as NaN. Only the taken branch of an
 * if/else is evaluated; every other operand is always evaluated, so a missing
 * name is reported whatever the values.
 *
 * Limits, so hostile input cannot exhaust the stack: the tree is at most
 * METRIC_MAX_DEPTH levels high (this also bounds parentheses and chains of
 * unary minus) and the text at most METRIC_MAX_TEXT characters. */
#define METRIC_MAX_DEPTH 128
#define METRIC_MAX_TEXT  4096

struct mexpr; /* a parsed expression; immutable after mexpr_parse */

/* Parse text. On error *out is NULL and err says what and where. */
int mexpr_parse(const char *text, struct mexpr **out, struct hpm_diag *err);
void mexpr_free(struct mexpr *e);
const char *mexpr_text(const struct mexpr *e);

/* Value of a name. Return 0 and set *val (NaN is a valid answer: it
 * propagates), METRIC_ENAME when the name is unknown, or another negative
 * code to abort the evaluation with that code. */
typedef int (*mexpr_lookup_fn)(void *ctx, const char *name, double *val);

enum mexpr_eval_flags {
	/* For every sub-expression "A + B" where A and B are both names, first
	 * ask the lookup for the merged name: A and B exactly as written in
	 * the expression, joined by one '+' with no spaces, e.g.
	 *     INST_SPEC+RECOVERY_BUBBLE
	 * Only when the lookup answers METRIC_ENAME for it are A and B looked
	 * up and added. Where the PMU model's counter can add two events,
	 * the merged name is the model's event expression for that one
	 * counter. */
	MEXPR_MERGED = 1u << 0,
};

/* Evaluate e. A lookup that answers METRIC_ENAME for a plain name is an
 * error (METRIC_ENAME, "unknown name 'x' at offset N"). */
int mexpr_eval(const struct mexpr *e, unsigned flags, mexpr_lookup_fn lookup, void *ctx,
               double *val, struct hpm_diag *err);

/* The same, also giving *mag: a bound on the magnitudes v was computed
 * from (the sum of |operands| of every + and -, scaled through * and /), so
 * that its rounding error is a few DBL_EPSILON x mag. A + or - whose result
 * is within MEXPR_ZERO_ULPS x DBL_EPSILON x mag of 0 gives exactly 0: a
 * difference of equal shares is 0.00, never -0.00 or -6.9e-17. mag_of
 * (NULL: |value|) gives the magnitude behind a name's value, e.g. a metric
 * that was itself computed from larger terms. */
#define MEXPR_ZERO_ULPS 16
typedef double (*mexpr_mag_fn)(void *ctx, const char *name, double val);
int mexpr_eval_mag(const struct mexpr *e, unsigned flags, mexpr_lookup_fn lookup,
                   mexpr_mag_fn mag_of, void *ctx, double *val, double *mag, struct hpm_diag *err);

/* The distinct names of e, in order of first appearance. The strings live
 * as long as e. */
unsigned mexpr_nr_names(const struct mexpr *e);
const char *mexpr_name(const struct mexpr *e, unsigned i);

/* A sub-expression "A + B" of two names. */
struct mexpr_sum {
	const char *a, *b;  /* as written, live as long as the expression */
	const char *merged; /* "A+B": the name MEXPR_MERGED asks for */
	int pos;            /* offset of the '+' */
};
typedef bool (*mexpr_name_pred)(void *ctx, const char *name);
/* Find the distinct "A + B" sub-expressions where is_event(ctx, A) and
 * is_event(ctx, B) both hold (is_event NULL: any two names), in order of
 * appearance. Writes up to max and returns how many there are. Only a '+'
 * whose two operands are names counts: in "A + B + C" that is A + B. */
unsigned mexpr_sums(const struct mexpr *e, mexpr_name_pred is_event, void *ctx,
                    struct mexpr_sum *out, unsigned max);

/* Visit every name evaluation may look up, every branch included, once per
 * occurrence. Where merge is given and merge(ctx, A, B) is true for an
 * "A + B" of two names, visit(ctx, A, B) is called once for it instead of
 * visit(ctx, A, NULL) and visit(ctx, B, NULL). */
typedef bool (*mexpr_merge_pred)(void *ctx, const char *a, const char *b);
typedef void (*mexpr_visit_fn)(void *ctx, const char *a, const char *b);
void mexpr_visit(const struct mexpr *e, mexpr_merge_pred merge, mexpr_visit_fn visit, void *ctx);

/* ============================================================ metric tables */

/* What a Topdown value is a share of (its BriefDescription says so too). */
enum metric_share {
	METRIC_SHARE_NONE,   /* not a Topdown metric */
	METRIC_SHARE_SLOTS,  /* of the 6 x cycles issue slots */
	METRIC_SHARE_CYCLES, /* of the cycles */
};

/* A metric's texts are offsets from the metric itself to its text, in the
 * string pool that its generated table's blob keeps after the metrics
 * (src/gen/metrics2c.c), read through metric_str: a table of pointers
 * would be relocated by the loader at every start, a table of offsets is
 * read-only data the loader leaves alone. So a struct metric is never
 * copied: only pointers into its table hold. */
struct metric {
	uint32_t name;        /* MetricName */
	uint32_t expr;        /* MetricExpr */
	uint32_t groups;      /* MetricGroup, ';'-separated, "" when none */
	uint32_t threshold;   /* MetricThreshold, 0 when none */
	uint32_t scale_unit;  /* ScaleUnit as written ("100%"), 0 when none */
	double scale;         /* its number: shown value = value * scale (1 when none) */
	uint32_t unit;        /* its unit: "%", "per cycle"; "" when none */
	uint32_t brief;       /* BriefDescription */
	uint32_t description; /* PublicDescription, or the brief one */
	/* TopdownStage2: the metric groups a decision tree descends into
	 * below this node (Arm's stage 2), ';'-separated, "" when none. They
	 * are sets of metrics, not shares of the node: --topdown one level
	 * deeper lists their metrics under it (metric_set_under), outside the
	 * tree (level 0), never marked as a bottleneck. */
	uint32_t stage2;
	/* The Topdown tree. A metric in group TopdownL<n> is at level n; one in
	 * group tma_<X>_group is a child of metric tma_<X> (Intel's convention,
	 * the tma_L<n>_group groups excepted). */
	unsigned level; /* 1..3; 0 for a metric outside the tree */
	enum metric_share share;
	int parent;           /* index in the table's metrics, -1 for level 1 and non-Topdown */
	unsigned first_child; /* children: the table's children[first_child ...] */
	unsigned nr_children; /* in table order */
};

/* The text at offset off from m: one of m's text fields, which is not 0
 * (threshold and scale_unit are 0 when the metric has none). */
static inline const char *metric_str(const struct metric *m, uint32_t off)
{
	return (const char *)m + off;
}

/* Event name substitution: look up `to` wherever a metric names event
 * `from`. hpmstat stat --topdown-retired=minstret passes the table's
 * `retired` (the model's retired-instructions event read as "instructions"). Applies
 * to events only, never to metric names, at every step: event lists, sums
 * and evaluation. */
struct metric_subst {
	const char *from, *to;
};

/* The parsed MetricExpr and MetricThreshold of a table's metrics, parsed at
 * first use (metric_expr) and kept until metric_release. The engine's: a
 * table points at a zeroed one of its own. */
struct metric_cache {
	struct mexpr **expr, **thresh; /* [nr], NULL until first use */
};

struct metric_table;

/* A named variant of a model's metrics (hpmstat stat --topdown-variant):
 * the same metrics and tree, some of them with another MetricExpr (and
 * PublicDescription), from the model's metrics JSON ("MetricVariants", see
 * src/gen/metrics2c.c). Each variant is a whole table of its own, so
 * everything that takes a table takes a variant's. */
struct metric_variant {
	const char *name;                 /* "document", "slots" */
	const char *description;          /* one line */
	const struct metric_table *table; /* the metrics under this variant */
};

/* One PMU model's metrics (struct hpm_pmu_model's `metrics`), as
 * src/gen/metrics2c.c generates them into the model's folder. */
struct metric_table {
	const struct metric *metrics; /* [nr] */
	unsigned nr;
	const unsigned short *children; /* indices into metrics */
	/* Every MetricGroup name of the table, distinct, in order of first use. */
	const char *const *groups;
	unsigned nr_groups;
	/* INST_RETIRED counted by the fixed instruction counter (hpmstat stat
	 * --topdown-retired=minstret): the event the metrics read for retired
	 * instructions, read as perf's "instructions"; from is NULL when the
	 * table has no such event. */
	struct metric_subst retired;
	struct metric_cache *cache;
	/* The model's variants, its default (the model's own table) first;
	 * every variant's table lists the same ones, and `variant` is the
	 * table's own entry. nr_variants is 0 for a model without variants. */
	const struct metric_variant *variants;
	unsigned nr_variants;
	unsigned variant;
};

/* A table without metrics, for a model that has none. */
extern const struct metric_table metric_table_empty;

/* The name of t's variant; NULL when its model has no variants. */
const char *metric_variant_name(const struct metric_table *t);
/* The table of t's model's variant `name` (t being any of its variants).
 * METRIC_ERANGE when the model has no variants ("no Topdown variants");
 * METRIC_EUNKNOWN when it has none of that name ("unknown Topdown variant
 * 'x'; did you mean 'y'? (known: a, b)"). */
int metric_variant_find(const struct metric_table *t, const char *name,
                        const struct metric_table **out, struct hpm_diag *err);
/* Metric m of table t (one of t's) as variant v of t's model has it:
 * the same metric, maybe another MetricExpr. */
const struct metric *metric_in_variant(const struct metric_table *t, const struct metric *m,
                                       unsigned v);
/* Whether some variant of t's model gives m (one of t's) another MetricExpr. */
bool metric_has_variants(const struct metric_table *t, const struct metric *m);
/* For a metric without variants of its own whose value still depends on
 * the variant (it references, maybe through others, one with variants,
 * e.g. Backend Bound = 1 - (... + Bad Speculation + ...)): that metric,
 * the first found; NULL otherwise. */
const struct metric *metric_variant_source(const struct metric_table *t, const struct metric *m);

/* Exact name, as metric expressions reference metrics; NULL when none.
 * "tma_X" also names Topdown node X when t has no metric tma_X (the Arm
 * tables' names before Arm's own frontend_bound ..., kept as aliases for
 * scripts and run files). */
const struct metric *metric_by_name(const struct metric_table *t, const char *name);
/* Name ignoring case, as -M takes it (with the same alias). */
const struct metric *metric_by_name_icase(const struct metric_table *t, const char *name);
/* m's position in t's metrics (m must be one of them). */
unsigned metric_index(const struct metric_table *t, const struct metric *m);
const struct metric *metric_parent(const struct metric_table *t, const struct metric *m);
const struct metric *metric_child(const struct metric_table *t, const struct metric *m, unsigned i);
/* m lists group in its MetricGroup (case-insensitive). */
bool metric_in_group(const struct metric *m, const char *group);
/* Some metric of t lists group (case-insensitive). */
bool metric_group_exists(const struct metric_table *t, const char *group);
/* Deepest Topdown level of t; 0 without a tree. */
unsigned metric_max_level(const struct metric_table *t);
/* Up to max metric or group names of t closest to name; returns how many. */
unsigned metric_suggest(const struct metric_table *t, const char *name, const char **out,
                        unsigned max);

/* The parsed MetricExpr / MetricThreshold of m, one of t's metrics, parsed
 * at first use and kept in t's cache (metric_release frees them). NULL for
 * a metric without a threshold. */
const struct mexpr *metric_expr(const struct metric_table *t, const struct metric *m);
const struct mexpr *metric_threshold_expr(const struct metric_table *t, const struct metric *m);
/* Free t's parsed expressions, and those of its model's other variants
 * (they are parsed again when needed). For leak checkers; nothing the
 * library returned for t may be used afterwards. */
void metric_release(const struct metric_table *t);

/* ============================================================= selections */

/* A list of metrics of one table, no duplicates, in display order. */
struct metric_set {
	const struct metric_table *table; /* set by metric_set_init */
	const struct metric **m;
	int *under; /* [nr]: see metric_set_under */
	unsigned nr, alloc;
	/* a Topdown tree was asked for (--topdown, --nodes), not only -M
	 * metrics: metric_set_mark_bottleneck */
	bool tree;
};

/* An empty selection from table t. */
void metric_set_init(struct metric_set *s, const struct metric_table *t);
void metric_set_free(struct metric_set *s);
/* Position of m in s, or -1. */
int metric_set_find(const struct metric_set *s, const struct metric *m);
/* Append m (one of the set's table) unless present. */
void metric_set_add_metric(struct metric_set *s, const struct metric *m);
/* The position in s of the Topdown node whose stage-2 group (struct
 * metric's stage2) brought metric i into s, or -1. */
int metric_set_under(const struct metric_set *s, unsigned i);
/* -M: a comma-separated list of metric names and metric group names, case
 * ignored; a group adds its members in table order. An unknown item is
 * METRIC_EUNKNOWN ("unknown metric or metric group 'x'; did you mean 'y'?")
 * and adds nothing of the list. */
int metric_set_add(struct metric_set *s, const char *list, struct hpm_diag *err);
/* --topdown=LEVEL: the Topdown tree down to LEVEL (1..metric_max_level(table)),
 * depth first: each node followed by the metrics of its stage-2 groups
 * (when LEVEL is below the node's) and then its children. */
int metric_set_add_topdown(struct metric_set *s, unsigned level, struct hpm_diag *err);
/* --nodes LIST: toplev's node selection over the Topdown tree. The default
 * set is the tree down to LEVEL (as metric_set_add_topdown), or nothing when
 * LIST starts with '!'. LIST is comma-separated; each item is an optional
 * prefix ('+' or none: add, '-' or '^': remove), a node pattern and an
 * optional "/N" (only nodes at level N or above match). A pattern is a glob
 * ('*', '?', '[...]'), case ignored, with or without the "tma_" prefix,
 * matched against the node's name (memory_bound) and its path from level 1
 * (backend_bound.memory_bound), also as "*.PATTERN" on the path, so that
 * "Memory_Bound*" is the node and all its descendants. A node is selected
 * when it is in the default set or an adding item matches it, and no
 * removing item matches it (order does not matter). Appends the selection
 * depth first. An item that matches no node is METRIC_EUNKNOWN ("unknown
 * Topdown node 'x'; did you mean 'y'?"); a selection without a node is
 * METRIC_ERANGE. Nothing is added on error. */
int metric_set_add_nodes(struct metric_set *s, unsigned level, const char *list,
                         struct hpm_diag *err);
/* The deepest Topdown level among the metrics of s; 0 when none is in the tree. */
unsigned metric_set_max_level(const struct metric_set *s);

/* ============================================================ event names */

/* An owned list of names. */
struct metric_names {
	char **name;
	unsigned nr, alloc;
};
void metric_names_free(struct metric_names *n);
/* Position of name in n, or -1. */
int metric_names_find(const struct metric_names *n, const char *name);

/* Whether the PMU counts the event expression `sum`, two event names
 * joined by one '+' ("INST_SPEC+RECOVERY_BUBBLE"), in one counter. The
 * metric engine knows no PMU model: the caller that wants sums merged
 * supplies the model's answer (the stat session asks its model's encoder);
 * ctx is the caller's, passed through. */
typedef bool (*metric_counts_sum_fn)(void *ctx, const char *sum);

enum metric_events_flags {
	/* Also the events the MetricThresholds need (their metrics expanded). */
	METRIC_EV_THRESHOLDS = 1u << 0,
	/* Give a mergeable sum (see metric_sum_mergeable) as the one name
	 * "A+B" in place of A and B, when that saves a counter: when neither A
	 * nor B is needed on its own elsewhere. Evaluate with env.merged. */
	METRIC_EV_MERGE = 1u << 1,
};

/* The events (after substitution) that evaluating every metric of s needs,
 * referenced metrics expanded recursively, distinct, in order of first
 * appearance (with METRIC_EV_MERGE, the parts of sums that are not kept
 * merged come after the other names, and the kept merged names last). Names that are not
 * events of the PMU model, such as "cycles" and "instructions", are listed like any other: the
 * stat layer maps them. Sums are merged (METRIC_EV_MERGE) where counts_sum(sum_ctx, ...) says so
 * (NULL: none is). Appends to out. */
void metric_set_events(const struct metric_set *s, const struct metric_subst *subst,
                       unsigned nr_subst, unsigned flags, metric_counts_sum_fn counts_sum,
                       void *sum_ctx, struct metric_names *out);
/* The merged names "A+B" (after substitution) of the sums in the metrics of
 * s that counts_sum says merge (referenced metrics expanded; thresholds
 * with METRIC_EV_THRESHOLDS), distinct. Appends to out. */
void metric_set_sums(const struct metric_set *s, const struct metric_subst *subst,
                     unsigned nr_subst, unsigned flags, metric_counts_sum_fn counts_sum,
                     void *sum_ctx, struct metric_names *out);
/* A and B are both plain event names (not metrics of t) and
 * counts_sum(sum_ctx, "A+B") holds (the PMU model counts the sum in one
 * counter); false when counts_sum is NULL. */
bool metric_sum_mergeable(const struct metric_table *t, const char *a, const char *b,
                          metric_counts_sum_fn counts_sum, void *sum_ctx);

/* ============================================================= evaluation */

struct metric_env {
	mexpr_lookup_fn lookup; /* counts by event name (after substitution) */
	void *ctx;
	const struct metric_subst *subst;
	unsigned nr_subst;
	/* MEXPR_MERGED: the lookup is first asked for "A+B" (after
	 * substitution, joined by '+', no spaces) for every sum of two events;
	 * METRIC_ENAME from it falls back to A and B. */
	bool merged;
};

/* Evaluate one metric of t; metric names in its expression are evaluated
 * recursively, everything else goes to env->lookup. A missing event is
 * METRIC_ENAME, "unknown event 'x' (needed by m)". */
int metric_eval(const struct metric_table *t, const struct metric *m, const struct metric_env *env,
                double *val, struct hpm_diag *err);

enum metric_thresh {
	METRIC_THRESH_NONE,    /* the metric has no MetricThreshold */
	METRIC_THRESH_UNKNOWN, /* NaN, or a name it needs has no value */
	METRIC_THRESH_NO,
	METRIC_THRESH_YES,
};

enum metric_value_flags {
	METRIC_F_NA = 1u << 0,              /* value is NaN: print "n/a" */
	METRIC_F_ERROR = 1u << 1,           /* could not be evaluated: err, missing */
	METRIC_F_OUT_OF_RANGE = 1u << 2,    /* see metric_out_of_range */
	METRIC_F_BOTTLENECK = 1u << 3,      /* on the bottleneck path: print "<==" */
	METRIC_F_BOTTLENECK_LEAF = 1u << 4, /* the deepest node of that path */
};

/* The computed state of one metric of a set. */
struct metric_value {
	double value;   /* NaN when n/a */
	unsigned flags; /* enum metric_value_flags */
	enum metric_thresh thresh;
	int err;             /* 0 or the METRIC_E* code */
	const char *missing; /* METRIC_ENAME: the event the lookup did not know
	                      * (after substitution); lives until metric_release
	                      * or, when substituted, as long as the map */
};

/* A share (ScaleUnit "100%") outside [0, 1], beyond rounding (a slack of
 * 1e-9, so 1 - (a + b + c) = -1e-17 is not flagged). The value itself is
 * never changed: it is shown as computed, with the flag. */
bool metric_out_of_range(const struct metric *m, double value);
/* The same for a value known only within +- err (its noise or scaling
 * error, unscaled as value): when value lies outside [0, 1] by more than
 * err, how far: value itself below 0, value - 1 above 1 (e.g. -0.05 for
 * a share of -0.05 +- 0.02); 0 when it is in range within err (or within
 * the 1e-9 slack), not a share, or NaN.
 * So a mean whose repeats straddle 0 is not flagged, and a flag says by
 * how much. */
double metric_out_of_range_by(const struct metric *m, double value, double err);
/* What an out-of-range flag says, from the value as shown (a percentage,
 * range 0 to 100): "5.00 below 0" or "3.10 above 100". */
const char *metric_range_text(double shown, char *buf, size_t len);

/* Evaluate every metric of s into vals[s->nr] (each metric once, so a
 * metric referenced by several others has one value), then metric_set_judge. */
void metric_set_eval(const struct metric_set *s, const struct metric_env *env,
                     struct metric_value *vals);

/* From vals[i].value and .err (as computed, or hand-made), set for every
 * metric of s: thresh (MetricThreshold evaluated by the engine, metric names
 * resolved to the values in vals, other metrics and events through env;
 * env may be NULL, and then anything outside s is unknown), flags NA, ERROR
 * and OUT_OF_RANGE, and the bottleneck marks below. */
void metric_set_judge(const struct metric_set *s, const struct metric_env *env,
                      struct metric_value *vals);

/* The Topdown bottleneck path, modelled on toplev's "<==" marker: start with
 * the Topdown metrics of s at the smallest level present in s (level 1
 * unless --nodes removed it) as siblings. Among the siblings, the candidates
 * are those whose threshold is METRIC_THRESH_YES and whose value is not NaN;
 * the one with the largest value (the first in s on a tie) gets
 * METRIC_F_BOTTLENECK, and its children in s become the next siblings.
 * Stop when no sibling is a candidate; the last marked metric also gets
 * METRIC_F_BOTTLENECK_LEAF. A value outside [0, 1] takes part as it is.
 * Metrics outside the Topdown tree are never marked. Clears old marks.
 * This is the one bottleneck rule: stat's printers, report (run files and
 * the per-function Topdown of samples), top's tree and its BOTTLENECK
 * column all read these marks; none of them picks a node of its own. */
void metric_set_mark_bottleneck(const struct metric_set *s, struct metric_value *vals);

/* ========================================================= counted events */

/* The events a run counted, as metrics read them: the stat session's rows,
 * a run file's events. The owner says what each row is and what it
 * counted; the rules of reading them (which row a name means, when a value
 * is multiplexed, the minstret substitution) are here, one for stat and
 * report. */
struct metric_events {
	unsigned nr;
	/* Row i's name, and in *host whether it is a host event: metrics read
	 * the PMU model's rows only, never a host event of the same name. */
	const char *(*name)(void *ctx, unsigned i, bool *host);
	/* Row i's value for what is evaluated (a unit, an interval), scaled
	 * for multiplexing and by the event's display scale; NAN when it has
	 * none. *share (1 on entry): running / enabled time. */
	double (*value)(void *ctx, unsigned i, double *share);
	void *ctx;
};

/* ev's PMU rows hold t's retired.to ("instructions") and no retired.from
 * (the model's own event): its metrics were counted with t->retired
 * (hpmstat stat --topdown-retired=minstret). False when t has none. */
bool metric_events_retired_subst(const struct metric_table *t, const struct metric_events *ev);

/* Evaluate every metric of s on the rows of ev (metric_set_eval, with the
 * substitutions and sums counted merged) into vals[s->nr]. True when some
 * value read was multiplexed (0 < share < 1). */
bool metric_set_eval_events(const struct metric_set *s, const struct metric_events *ev,
                            const struct metric_subst *subst, unsigned nr_subst,
                            struct metric_value *vals);

/* What metric m shows for v: its value times ScaleUnit (a share as a
 * percentage); NAN when n/a or in error. */
double metric_value_shown(const struct metric *m, const struct metric_value *v);

/* (names.c) The name a tree shows for a metric, as toplev names its nodes
 * (tma_frontend_bound -> Frontend_Bound, tma_l1_bound -> L1_Bound, Dram ->
 * DRAM); other metrics keep their name. A new string. */
char *metric_display_name(const char *name);
/* The same for a metric of a table: every Topdown node is named as a tree
 * node, with or without the tma_ prefix (Arm's frontend_bound ->
 * Frontend_Bound). */
char *metric_node_display_name(const struct metric *m);

#endif

/* test-expr.c: the metric expression engine, as a golden table.
 *
 * Truth: the syntax and NaN rules documented in src/metric/metric.h (perf's
 * MetricExpr precedence: if-else loosest, then |, &, comparisons, + -, * /,
 * unary minus), values worked out by hand. Each row carries its __LINE__ so
 * a failure points at the row.
 */
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metric/metric.h"
#include "tap.h"

#define NA ((double)NAN)

/* The names every row may use. */
static int lookup(void *ctx, const char *name, double *val)
{
	static const struct {
		const char *name;
		double val;
	} vars[] = {
	    {"a", 2},
	    {"b", 3},
	    {"c", 0},
	    {"x.1", 10},
	    {"big", 1e300},
	    {"_u", 7},
	    {"ev_2.0", 0.5},
	    {"a+b", 100},
	    {"INST_SPEC", 40},
	    {"RB", 2},
	    {"INST_SPEC+RB", 42},
	};
	unsigned *calls = ctx;
	if (calls)
		(*calls)++;
	if (strcmp(name, "n") == 0) {
		*val = NA;
		return 0;
	}
	if (strcmp(name, "broken") == 0)
		return METRIC_ELOOKUP;
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		if (strcmp(vars[i].name, name) == 0) {
			*val = vars[i].val;
			return 0;
		}
	return METRIC_ENAME;
}

struct gold {
	int line;
	const char *expr;
	double want;     /* NaN: want NaN */
	int code;        /* 0, or the error wanted (parse or evaluation) */
	int pos;         /* error offset */
	const char *msg; /* part of the error message */
	unsigned flags;  /* mexpr_eval flags */
};

static const struct gold golden[] = {
    /* numbers */
    {.line = __LINE__, .expr = "6", .want = 6},
    {.line = __LINE__, .expr = "1e9", .want = 1e9},
    {.line = __LINE__, .expr = "2.5e-3", .want = 0.0025},
    {.line = __LINE__, .expr = "1E+2", .want = 100},
    {.line = __LINE__, .expr = ".5", .want = 0.5},
    {.line = __LINE__, .expr = "0.15", .want = 0.15},
    {.line = __LINE__, .expr = "0.0015", .want = 0.0015},
    {.line = __LINE__, .expr = "007", .want = 7},
    {.line = __LINE__, .expr = "  3\t", .want = 3},
    /* precedence and associativity */
    {.line = __LINE__, .expr = "1 + 2 * 3", .want = 7},
    {.line = __LINE__, .expr = "(1 + 2) * 3", .want = 9},
    {.line = __LINE__, .expr = "10 - 4 - 3", .want = 3},
    {.line = __LINE__, .expr = "64 / 4 / 2", .want = 8},
    {.line = __LINE__, .expr = "2 * 3 / 4", .want = 1.5},
    {.line = __LINE__, .expr = "a * b + c", .want = 6},
    {.line = __LINE__, .expr = "1 - a * b", .want = -5},
    {.line = __LINE__, .expr = "-2 * 3", .want = -6},
    {.line = __LINE__, .expr = "--2", .want = 2},
    {.line = __LINE__, .expr = "2 - -3", .want = 5},
    {.line = __LINE__, .expr = "-a", .want = -2},
    {.line = __LINE__, .expr = "-(a + b)", .want = -5},
    {.line = __LINE__, .expr = "x.1 * 2 + _u", .want = 27},
    {.line = __LINE__, .expr = "ev_2.0 * 4", .want = 2},
    /* comparisons: 1 or 0, looser than + - */
    {.line = __LINE__, .expr = "1 < 2", .want = 1},
    {.line = __LINE__, .expr = "2 < 1", .want = 0},
    {.line = __LINE__, .expr = "2 <= 2", .want = 1},
    {.line = __LINE__, .expr = "3 >= 4", .want = 0},
    {.line = __LINE__, .expr = "2 == 2", .want = 1},
    {.line = __LINE__, .expr = "2 != 2", .want = 0},
    {.line = __LINE__, .expr = "a > 1.5", .want = 1},
    {.line = __LINE__, .expr = "1 + 1 > 1", .want = 1},
    {.line = __LINE__, .expr = "1 < 2 == 1", .want = 1}, /* (1 < 2) == 1 */
    /* logical & |: & binds tighter than |, both looser than comparisons */
    {.line = __LINE__, .expr = "1 < 2 & 3 < 4", .want = 1},
    {.line = __LINE__, .expr = "1 < 2 & 3 > 4", .want = 0},
    {.line = __LINE__, .expr = "0 | 1", .want = 1},
    {.line = __LINE__, .expr = "0 | 0", .want = 0},
    {.line = __LINE__, .expr = "1 | 0 & 0", .want = 1},
    {.line = __LINE__, .expr = "(1 | 0) & 0", .want = 0},
    {.line = __LINE__, .expr = "2 & 3", .want = 1}, /* logical, not bitwise 2 */
    {.line = __LINE__, .expr = "a > 1 & b > 2.5 | c", .want = 1},
    /* if-else: loosest, right-associative, only the taken branch runs */
    {.line = __LINE__, .expr = "1 if 1 else 2", .want = 1},
    {.line = __LINE__, .expr = "1 if 0 else 2", .want = 2},
    {.line = __LINE__, .expr = "1 if a > b else 2", .want = 2},
    {.line = __LINE__, .expr = "1 if 0 else 2 if 0 else 3", .want = 3},
    {.line = __LINE__, .expr = "1 if 0 else 2 if 1 else 3", .want = 2},
    {.line = __LINE__, .expr = "1 + 1 if 0 else 5 + 5", .want = 10},
    {.line = __LINE__, .expr = "(1 if 0 else 2) * 3", .want = 6},
    {.line = __LINE__, .expr = "1 if 1 else zz", .want = 1},
    {.line = __LINE__, .expr = "zz if 0 else 4", .want = 4},
    {.line = __LINE__, .expr = "7 if 0.5 | 0 else 8", .want = 7},
    /* min, max */
    {.line = __LINE__, .expr = "min(3, 2)", .want = 2},
    {.line = __LINE__, .expr = "max(3, 2)", .want = 3},
    {.line = __LINE__, .expr = "max(a, min(b, 1))", .want = 2},
    {.line = __LINE__, .expr = "min(-1, 1) * 2", .want = -2},
    {.line = __LINE__, .expr = "max(1 if 0 else 5, 4)", .want = 5},
    /* no number: division by zero and NaN propagate */
    {.line = __LINE__, .expr = "a / c", .want = NA},
    {.line = __LINE__, .expr = "0 / 0", .want = NA},
    {.line = __LINE__, .expr = "-1 / c", .want = NA},
    {.line = __LINE__, .expr = "a / c * 0", .want = NA},
    {.line = __LINE__, .expr = "1 / c + 1", .want = NA},
    {.line = __LINE__, .expr = "1 - 1 / (a - 2)", .want = NA},
    {.line = __LINE__, .expr = "n + 1", .want = NA},
    {.line = __LINE__, .expr = "-n", .want = NA},
    {.line = __LINE__, .expr = "n * 0", .want = NA},
    {.line = __LINE__, .expr = "n > 1", .want = NA},
    {.line = __LINE__, .expr = "n == n", .want = NA},
    {.line = __LINE__, .expr = "n & 0", .want = 0},
    {.line = __LINE__, .expr = "0 & n", .want = 0},
    {.line = __LINE__, .expr = "n & 1", .want = NA},
    {.line = __LINE__, .expr = "n | 1", .want = 1},
    {.line = __LINE__, .expr = "n | 0", .want = NA},
    {.line = __LINE__, .expr = "a / c > 0.1 & 1", .want = NA},
    {.line = __LINE__, .expr = "1 if n else 2", .want = NA},
    {.line = __LINE__, .expr = "min(n, 1)", .want = NA},
    {.line = __LINE__, .expr = "max(1, n)", .want = NA},
    {.line = __LINE__, .expr = "big * big", .want = NA}, /* inf is no number */
    {.line = __LINE__, .expr = "big * big - big * big", .want = NA},
    {.line = __LINE__, .expr = "n / 0 if 1 else 3", .want = NA},
    /* merged lookups */
    {.line = __LINE__, .expr = "a + b", .want = 5},
    {.line = __LINE__, .expr = "a + b", .want = 100, .flags = MEXPR_MERGED},
    {.line = __LINE__, .expr = "(a + b) / 4", .want = 25, .flags = MEXPR_MERGED},
    {.line = __LINE__, .expr = "b + a", .want = 5, .flags = MEXPR_MERGED}, /* no "b+a" */
    {.line = __LINE__, .expr = "a + b + c", .want = 100, .flags = MEXPR_MERGED},
    {.line = __LINE__, .expr = "c + a + b", .want = 5, .flags = MEXPR_MERGED},
    {.line = __LINE__, .expr = "a + 1", .want = 3, .flags = MEXPR_MERGED},
    {.line = __LINE__, .expr = "((INST_SPEC + RB) - 2) / 4", .want = 10, .flags = MEXPR_MERGED},
    /* evaluation errors */
    {.line = __LINE__, .expr = "zz + 1", .code = METRIC_ENAME, .pos = 0, .msg = "'zz'"},
    {.line = __LINE__, .expr = "1 + zz", .code = METRIC_ENAME, .pos = 4, .msg = "offset 4"},
    {.line = __LINE__, .expr = "zz + a", .code = METRIC_ENAME, .pos = 0, .flags = MEXPR_MERGED},
    {.line = __LINE__, .expr = "1 + broken", .code = METRIC_ELOOKUP, .pos = 4},
    {.line = __LINE__, .expr = "n & zz", .code = METRIC_ENAME, .pos = 4},
    /* parse errors, with the offending offset */
    {.line = __LINE__, .expr = "", .code = METRIC_ESYNTAX, .pos = 0, .msg = "empty"},
    {.line = __LINE__, .expr = "   ", .code = METRIC_ESYNTAX, .pos = 3, .msg = "empty"},
    {.line = __LINE__, .expr = "1 +", .code = METRIC_ESYNTAX, .pos = 3, .msg = "end of expr"},
    {.line = __LINE__, .expr = "(1 + 2", .code = METRIC_ESYNTAX, .pos = 6, .msg = "')'"},
    {.line = __LINE__, .expr = "1 + * 2", .code = METRIC_ESYNTAX, .pos = 4, .msg = "'*'"},
    {.line = __LINE__, .expr = "1 2", .code = METRIC_ESYNTAX, .pos = 2, .msg = "operator"},
    {.line = __LINE__, .expr = "a b", .code = METRIC_ESYNTAX, .pos = 2, .msg = "name 'b'"},
    {.line = __LINE__, .expr = "a = b", .code = METRIC_ESYNTAX, .pos = 2, .msg = "'=='"},
    {.line = __LINE__, .expr = "a ! b", .code = METRIC_ESYNTAX, .pos = 2, .msg = "'!'"},
    {.line = __LINE__, .expr = "a $ b", .code = METRIC_ESYNTAX, .pos = 2, .msg = "'$'"},
    {.line = __LINE__, .expr = "a \001 b", .code = METRIC_ESYNTAX, .pos = 2, .msg = "\\x01"},
    {.line = __LINE__, .expr = ")", .code = METRIC_ESYNTAX, .pos = 0, .msg = "')'"},
    {.line = __LINE__, .expr = "()", .code = METRIC_ESYNTAX, .pos = 1},
    {.line = __LINE__, .expr = "min(1)", .code = METRIC_ESYNTAX, .pos = 5, .msg = "','"},
    {.line = __LINE__, .expr = "min 1", .code = METRIC_ESYNTAX, .pos = 4, .msg = "'('"},
    {.line = __LINE__, .expr = "max(1, 2", .code = METRIC_ESYNTAX, .pos = 8, .msg = "')'"},
    {.line = __LINE__, .expr = "max(1, 2, 3)", .code = METRIC_ESYNTAX, .pos = 8},
    {.line = __LINE__, .expr = "min", .code = METRIC_ESYNTAX, .pos = 3},
    {.line = __LINE__, .expr = "1 if 2", .code = METRIC_ESYNTAX, .pos = 6, .msg = "'else'"},
    {.line = __LINE__, .expr = "1 if 2 else", .code = METRIC_ESYNTAX, .pos = 11},
    {.line = __LINE__, .expr = "if 1 else 2", .code = METRIC_ESYNTAX, .pos = 0},
    {.line = __LINE__, .expr = "a else b", .code = METRIC_ESYNTAX, .pos = 2, .msg = "'else'"},
    {.line = __LINE__, .expr = "2x", .code = METRIC_ESYNTAX, .pos = 0, .msg = "malformed"},
    {.line = __LINE__, .expr = "1 + 1e", .code = METRIC_ESYNTAX, .pos = 4, .msg = "malformed"},
    {.line = __LINE__, .expr = "1.2.3", .code = METRIC_ESYNTAX, .pos = 0, .msg = "malformed"},
    {.line = __LINE__, .expr = "1e999", .code = METRIC_ESYNTAX, .pos = 0, .msg = "range"},
    {.line = __LINE__, .expr = "a +\n+", .code = METRIC_ESYNTAX, .pos = 4},
    {.line = __LINE__, .expr = "1 & & 2", .code = METRIC_ESYNTAX, .pos = 4},
    {.line = __LINE__, .expr = "1 < < 2", .code = METRIC_ESYNTAX, .pos = 4},
    {.line = __LINE__, .expr = ".", .code = METRIC_ESYNTAX, .pos = 0},
};

/* Row text for a TAP description: one line, control characters escaped. */
static const char *shown(const char *expr, char *buf, size_t len)
{
	size_t n = 0;
	for (; *expr && n + 5 < len; expr++) {
		unsigned char c = (unsigned char)*expr;
		if (c < 0x20)
			n += (size_t)snprintf(buf + n, len - n, "\\x%02x", c);
		else
			buf[n++] = (char)c;
	}
	buf[n] = '\0';
	return buf;
}

static bool same(double got, double want)
{
	return isnan(want) ? isnan(got) : got == want;
}

static void test_golden(void)
{
	for (size_t i = 0; i < sizeof(golden) / sizeof(golden[0]); i++) {
		const struct gold *g = &golden[i];
		struct mexpr *e;
		struct hpm_diag err;
		double v = -12345;
		char txt[96];
		int r = mexpr_parse(g->expr, &e, &err);
		shown(g->expr, txt, sizeof(txt));
		if (r == 0) {
			r = mexpr_eval(e, g->flags, lookup, NULL, &v, &err);
			mexpr_free(e);
		} else if (e != NULL) {
			tap_ok(false, "line %d: a failed parse returns no tree", g->line);
			continue;
		}
		if (g->code) {
			bool good = r == g->code && err.code == g->code &&
			            hpm_diag_offset(&err) == g->pos &&
			            (!g->msg || strstr(err.msg, g->msg)) &&
			            strchr(err.msg, '\n') == NULL;
			if (r == METRIC_ESYNTAX || r == METRIC_EDEPTH || r == METRIC_ENAME) {
				char at[32];
				snprintf(at, sizeof(at), "at offset %d", g->pos);
				good = good && strstr(err.msg, at);
			}
			if (!tap_ok(good, "line %d: '%s' fails with %d at %d", g->line, txt,
			            g->code, g->pos))
				tap_diag("got %d at %d: %s", r, r ? hpm_diag_offset(&err) : -1,
				         r ? err.msg : "");
			if (r == METRIC_ENAME || r == METRIC_ELOOKUP)
				tap_ok(isnan(v), "line %d: a failed evaluation gives NaN", g->line);
		} else {
			if (!tap_ok(r == 0 && same(v, g->want), "line %d: '%s' = %.17g", g->line,
			            txt, g->want))
				tap_diag("got r=%d value %.17g (%s)", r, v, r ? err.msg : "");
		}
	}
}

static struct mexpr *must_parse(const char *text)
{
	struct mexpr *e;
	struct hpm_diag err;
	if (mexpr_parse(text, &e, &err)) {
		tap_diag("'%s': %s", text, err.msg);
		return NULL;
	}
	return e;
}

static char *repeat(const char *pre, unsigned n, const char *mid, const char *post, unsigned m)
{
	size_t len = strlen(pre) * n + strlen(mid) + strlen(post) * m + 1;
	char *s = malloc(len), *p = s;
	for (unsigned i = 0; i < n; i++)
		p += sprintf(p, "%s", pre);
	p += sprintf(p, "%s", mid);
	for (unsigned i = 0; i < m; i++)
		p += sprintf(p, "%s", post);
	return s;
}

/* Hostile nesting is refused with an error, not a crash. */
static void test_depth(void)
{
	const unsigned D = METRIC_MAX_DEPTH;
	struct {
		const char *what;
		char *text;
		int code;
	} cases[] = {
	    {"parentheses one below the limit", repeat("(", D - 1, "1", ")", D - 1), 0},
	    {"parentheses at the limit", repeat("(", D, "1", ")", D), METRIC_EDEPTH},
	    {"10000 open parentheses", repeat("(", 10000, "1", "", 0), METRIC_EDEPTH},
	    {"unary minus below the limit", repeat("-", D - 2, "1", "", 0), 0},
	    {"unary minus past the limit", repeat("-", 2 * D, "1", "", 0), METRIC_EDEPTH},
	    {"a + chain as high as the limit", repeat("1 + ", D - 1, "1", "", 0), 0},
	    {"a + chain one higher", repeat("1 + ", D, "1", "", 0), METRIC_EDEPTH},
	    {"nested min", repeat("min(1, ", 2 * D, "1", ")", 2 * D), METRIC_EDEPTH},
	    {"nested if-else", repeat("1 if 0 else ", 2 * D, "1", "", 0), METRIC_EDEPTH},
	    {"text longer than the limit", repeat("1", METRIC_MAX_TEXT + 1, "", "", 0),
	     METRIC_EDEPTH},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct mexpr *e;
		struct hpm_diag err;
		int r = mexpr_parse(cases[i].text, &e, &err);
		if (r == 0) {
			double v;
			r = mexpr_eval(e, 0, lookup, NULL, &v, &err);
			if (r == 0 && !tap_ok(v == 1 || v == -1 || v == (double)D, "%s: value",
			                      cases[i].what))
				tap_diag("got %g", v);
			mexpr_free(e);
		}
		if (!tap_ok(r == cases[i].code && (r == 0 || strstr(err.msg, "at offset")),
		            "%s: %s", cases[i].what, cases[i].code ? "refused" : "accepted"))
			tap_diag("got %d: %s", r, r ? err.msg : "");
		free(cases[i].text);
	}
}

static void test_names(void)
{
	struct mexpr *e = must_parse("a + b * a + x.1 / min(b, zz)");
	if (!tap_ok(e != NULL, "names: parses"))
		return;
	tap_ok(mexpr_nr_names(e) == 4, "names: 4 distinct");
	tap_is_str(mexpr_name(e, 0), "a", "names: first a");
	tap_is_str(mexpr_name(e, 1), "b", "names: then b");
	tap_is_str(mexpr_name(e, 2), "x.1", "names: then x.1");
	tap_is_str(mexpr_name(e, 3), "zz", "names: then zz");
	tap_ok(mexpr_name(e, 4) == NULL, "names: none past the end");
	tap_is_str(mexpr_text(e), "a + b * a + x.1 / min(b, zz)", "the text is kept");
	mexpr_free(e);
}

static bool not_b(void *ctx, const char *name)
{
	(void)ctx;
	return strcmp(name, "b") != 0;
}

static void test_sums(void)
{
	struct mexpr_sum s[4];
	struct {
		const char *text;
		unsigned n;
		const char *first;
		mexpr_name_pred pred;
	} cases[] = {
	    {"((INST_SPEC + RECOVERY_BUBBLE) - rob_commitInstr) / (6 * cycles)", 1,
	     "INST_SPEC+RECOVERY_BUBBLE", NULL},
	    {"a + b + c", 1, "a+b", NULL},
	    {"c + (a + b)", 1, "a+b", NULL},
	    {"(a + b) + (c + d)", 2, "a+b", NULL},
	    {"a + b + (a + b)", 1, "a+b", NULL},
	    {"a + 1", 0, NULL, NULL},
	    {"a - b", 0, NULL, NULL},
	    {"2 * (a + b)", 1, "a+b", NULL},
	    {"a + b", 0, NULL, not_b},
	    {"(a + b) + (c + d)", 1, "c+d", not_b},
	    {"1 if x + y > 0 else z + w", 2, "x+y", NULL},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct mexpr *e = must_parse(cases[i].text);
		if (!e) {
			tap_ok(false, "sums: '%s' parses", cases[i].text);
			continue;
		}
		unsigned n = mexpr_sums(e, cases[i].pred, NULL, s, 4);
		bool good = n == cases[i].n && (!n || strcmp(s[0].merged, cases[i].first) == 0);
		if (!tap_ok(good, "sums: '%s' has %u, first %s", cases[i].text, cases[i].n,
		            cases[i].first ? cases[i].first : "-"))
			tap_diag("got %u, first %s", n, n ? s[0].merged : "-");
		mexpr_free(e);
	}
	struct mexpr *e = must_parse("x / (INST_SPEC + RECOVERY_BUBBLE)");
	if (e && mexpr_sums(e, NULL, NULL, s, 1) == 1) {
		tap_is_str(s[0].a, "INST_SPEC", "sums: a");
		tap_is_str(s[0].b, "RECOVERY_BUBBLE", "sums: b");
		tap_ok(s[0].pos == 15, "sums: pos is the '+' (got %d)", s[0].pos);
	} else {
		tap_ok(false, "sums: the pair is found");
	}
	/* max 0 counts without writing */
	tap_ok(e && mexpr_sums(e, NULL, NULL, NULL, 0) == 1, "sums: max 0 only counts");
	mexpr_free(e);
}

struct rec {
	char seen[16][40];
	unsigned n;
};

static void record(void *ctx, const char *a, const char *b)
{
	struct rec *r = ctx;
	if (r->n < 16)
		snprintf(r->seen[r->n++], 40, "%s%s%s", a, b ? "+" : "", b ? b : "");
}

static bool merge_all(void *ctx, const char *a, const char *b)
{
	(void)ctx;
	(void)a;
	return strcmp(b, "c") != 0;
}

static void test_visit(void)
{
	struct mexpr *e = must_parse("(a + b) * a + (a + c) + (0 if d else e)");
	struct rec r = {.n = 0};
	if (!tap_ok(e != NULL, "visit: parses"))
		return;
	mexpr_visit(e, merge_all, record, &r);
	bool good = r.n == 6 && !strcmp(r.seen[0], "a+b") && !strcmp(r.seen[1], "a") &&
	            !strcmp(r.seen[2], "a") && !strcmp(r.seen[3], "c") && !strcmp(r.seen[4], "d") &&
	            !strcmp(r.seen[5], "e");
	if (!tap_ok(good, "visit: a+b merged, a + c not, every branch visited"))
		for (unsigned i = 0; i < r.n; i++)
			tap_diag("%u: %s", i, r.seen[i]);
	r.n = 0;
	mexpr_visit(e, NULL, record, &r);
	tap_ok(r.n == 7 && !strcmp(r.seen[0], "a") && !strcmp(r.seen[1], "b"),
	       "visit: without merge every name");
	mexpr_free(e);
}

/* The merged name is asked first, and only once; without the flag never. */
static void test_merged_calls(void)
{
	struct mexpr *e = must_parse("a + b");
	unsigned calls = 0;
	double v;
	int r;
	if (!e)
		return;
	r = mexpr_eval(e, MEXPR_MERGED, lookup, &calls, &v, NULL);
	tap_ok(r == 0 && v == 100 && calls == 1, "merged: one lookup of 'a+b' (%u calls)", calls);
	calls = 0;
	r = mexpr_eval(e, 0, lookup, &calls, &v, NULL);
	tap_ok(r == 0 && v == 5 && calls == 2, "unmerged: a and b looked up (%u calls)", calls);
	mexpr_free(e);
	e = must_parse("b + a");
	calls = 0;
	r = e ? mexpr_eval(e, MEXPR_MERGED, lookup, &calls, &v, NULL) : -1;
	tap_ok(r == 0 && v == 5 && calls == 3,
	       "merged name unknown: falls back to the parts (%u calls)", calls);
	mexpr_free(e);
}

/* Numbers do not follow LC_NUMERIC: a ',' locale must not change 0.75. */
static void test_locale(void)
{
	const char *locs[] = {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "ru_RU.UTF-8"};
	const char *got = NULL;
	for (size_t i = 0; i < sizeof(locs) / sizeof(locs[0]) && !got; i++) {
		got = setlocale(LC_NUMERIC, locs[i]);
		if (got && strcmp(localeconv()->decimal_point, ",") != 0)
			got = NULL;
	}
	if (!got)
		tap_diag("no locale with a decimal comma is installed; checking in C");
	struct mexpr *e = must_parse("0.5 + 25e-2");
	double v = 0;
	if (e)
		mexpr_eval(e, 0, lookup, NULL, &v, NULL);
	tap_ok(v == 0.75, "0.5 + 25e-2 = 0.75 under locale %s", got ? got : "C");
	mexpr_free(e);
	setlocale(LC_NUMERIC, "C");
}

int main(void)
{
	test_golden();
	test_depth();
	test_names();
	test_sums();
	test_visit();
	test_merged_calls();
	test_locale();
	return tap_done();
}

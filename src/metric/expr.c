/* expr.c: the metric expression engine (see metric.h for the syntax and the
 * NaN rules). A recursive-descent parser builds a tree once; evaluation
 * walks it with the caller's lookup. Every recursion is bounded by the tree
 * height, which the parser caps at METRIC_MAX_DEPTH.
 */
#include "metric/metric.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/str.h"
#include "util/xalloc.h"

/* NAN is a float constant; -Wdouble-promotion wants the double spelled out. */
#define NA ((double)NAN)

enum node_kind {
	N_NUM,
	N_NAME,
	N_NEG,
	N_ADD,
	N_SUB,
	N_MUL,
	N_DIV,
	N_LT,
	N_GT,
	N_LE,
	N_GE,
	N_EQ,
	N_NE,
	N_AND,
	N_OR,
	N_IF, /* a if b else c: a = then, b = condition, c = else */
	N_MIN,
	N_MAX,
};

struct node {
	enum node_kind kind;
	int pos;          /* offset of the token that made the node */
	unsigned height;  /* 1 for a leaf */
	double num;       /* N_NUM */
	const char *name; /* N_NAME: interned in mexpr.names */
	char *merged;     /* N_ADD of two names: "A+B" */
	struct node *a, *b, *c;
};

struct mexpr {
	char *text;
	struct node *root;
	char **names; /* distinct, in order of first appearance */
	unsigned nr_names, alloc_names;
};

/* ------------------------------------------------------------------ lexer */

enum tok {
	T_END,
	T_NUM,
	T_NAME,
	T_IF,
	T_ELSE,
	T_MIN,
	T_MAX,
	T_LPAREN,
	T_RPAREN,
	T_COMMA,
	T_PLUS,
	T_MINUS,
	T_STAR,
	T_SLASH,
	T_LT,
	T_GT,
	T_LE,
	T_GE,
	T_EQ,
	T_NE,
	T_AND,
	T_OR,
	T_BAD, /* a character no token starts with */
};

struct parser {
	const char *s;
	size_t at; /* next character to lex */
	/* current token */
	enum tok t;
	size_t tpos, tlen;
	double num;
	unsigned depth; /* recursion depth of parse_expr/parse_unary */
	struct mexpr *e;
	struct hpm_diag *err;
	bool failed;
};

/* The operators by their first character: the token alone, and the token
 * when '=' follows it (the same when '=' does not make another). */
static const struct op_char {
	char c;
	enum tok alone, with_eq;
} op_chars[] = {
    {'(', T_LPAREN, T_LPAREN}, {')', T_RPAREN, T_RPAREN}, {',', T_COMMA, T_COMMA},
    {'+', T_PLUS, T_PLUS},     {'-', T_MINUS, T_MINUS},   {'*', T_STAR, T_STAR},
    {'/', T_SLASH, T_SLASH},   {'&', T_AND, T_AND},       {'|', T_OR, T_OR},
    {'<', T_LT, T_LE},         {'>', T_GT, T_GE},         {'=', T_BAD, T_EQ},
    {'!', T_BAD, T_NE},
};

/* The operator token that starts with c (d: the character after it). */
static enum tok op_token(char c, char d)
{
	for (size_t k = 0; k < sizeof(op_chars) / sizeof(op_chars[0]); k++)
		if (op_chars[k].c == c)
			return d == '=' ? op_chars[k].with_eq : op_chars[k].alone;
	return T_BAD;
}

static bool is_name_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_name_char(char c)
{
	return is_name_start(c) || (c >= '0' && c <= '9') || c == '.';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static void fail(struct parser *p, int code, size_t pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void fail(struct parser *p, int code, size_t pos, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	if (p->failed)
		return; /* the first error is the one that explains the rest */
	p->failed = true;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	hpm_diag_fail(p->err, code, (int)pos, "%s at offset %zu", buf, pos);
}

/* Decimal to double without strtod, which follows LC_NUMERIC: the CLI may
 * set a locale whose decimal point is ','. Up to 19 significant digits are
 * kept; with at most 15 of them and |exponent| <= 22 both factors are exact
 * and the one multiplication or division rounds correctly, which covers
 * every literal a metric file writes (0.15, 1e9, 6). */
static bool scan_number(const char *s, size_t *len, double *out)
{
	static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
	                               1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
	                               1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
	size_t i = 0;
	uint64_t mant = 0;
	unsigned ndig = 0;
	long exp10 = 0;
	bool any = false;

	/* the digits before and after one '.': a kept digit after it
	 * divides by 10, a dropped one before it multiplies */
	for (bool frac = false;; i++) {
		if (s[i] == '.' && !frac) {
			frac = true;
			continue;
		}
		if (!is_digit(s[i]))
			break;
		any = true;
		if (ndig < 19) {
			if (mant || s[i] != '0') {
				mant = mant * 10 + (uint64_t)(s[i] - '0');
				ndig++;
			}
			if (frac)
				exp10--;
		} else if (!frac) {
			exp10++;
		}
	}
	if (!any)
		return false;
	if (s[i] == 'e' || s[i] == 'E') {
		size_t j = i + 1;
		bool neg = false;
		long e = 0;
		if (s[j] == '+' || s[j] == '-')
			neg = s[j++] == '-';
		if (!is_digit(s[j]))
			return false;
		while (is_digit(s[j])) {
			if (e < 100000)
				e = e * 10 + (s[j] - '0');
			j++;
		}
		exp10 += neg ? -e : e;
		i = j;
	}
	/* "2x", "1.2.3": a number glued to more name characters is a typo */
	if (is_name_char(s[i]))
		return false;
	*len = i;
	if (mant == 0) {
		*out = 0.0;
	} else if (ndig <= 15 && exp10 >= -22 && exp10 <= 22) {
		double m = (double)mant;
		*out = exp10 >= 0 ? m * pow10[exp10] : m / pow10[-exp10];
	} else {
		*out = (double)mant * pow(10.0, (double)exp10);
	}
	return true;
}

static void next(struct parser *p)
{
	const char *s = p->s;
	size_t i = p->at;

	while (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')
		i++;
	p->tpos = i;
	p->tlen = 1;
	char c = s[i];
	char d = c ? s[i + 1] : '\0';
	if (c == '\0') {
		p->t = T_END;
		p->tlen = 0;
	} else if (is_digit(c) || (c == '.' && is_digit(d))) {
		size_t len;
		double v;
		if (!scan_number(s + i, &len, &v)) {
			fail(p, METRIC_ESYNTAX, i, "malformed number");
			p->t = T_END;
			return;
		}
		if (!isfinite(v)) {
			fail(p, METRIC_ESYNTAX, i, "number out of range");
			p->t = T_END;
			return;
		}
		p->t = T_NUM;
		p->num = v;
		p->tlen = len;
	} else if (is_name_start(c)) {
		size_t len = 1;
		while (is_name_char(s[i + len]))
			len++;
		p->tlen = len;
		p->t = T_NAME;
		if (len == 2 && memcmp(s + i, "if", 2) == 0)
			p->t = T_IF;
		else if (len == 4 && memcmp(s + i, "else", 4) == 0)
			p->t = T_ELSE;
		else if (len == 3 && memcmp(s + i, "min", 3) == 0)
			p->t = T_MIN;
		else if (len == 3 && memcmp(s + i, "max", 3) == 0)
			p->t = T_MAX;
	} else {
		p->t = op_token(c, d);
		if (p->t == T_LE || p->t == T_GE || p->t == T_EQ || p->t == T_NE)
			p->tlen = 2;
	}
	p->at = i + p->tlen;
}

/* The current token as the error messages name it. */
static const char *tok_desc(const struct parser *p, char *buf, size_t len)
{
	char esc[48];
	if (p->t == T_END)
		return "end of expression";
	size_t n = p->tlen < 24 ? p->tlen : 24;
	char raw[32];
	memcpy(raw, p->s + p->tpos, n);
	raw[n] = '\0';
	str_escape(raw, esc, sizeof(esc));
	snprintf(buf, len, "%s'%s%s'",
	         p->t == T_NAME  ? "name "
	         : p->t == T_NUM ? "number "
	                         : "",
	         esc, p->tlen > n ? "..." : "");
	return buf;
}

static void unexpected(struct parser *p, const char *want)
{
	char buf[96];
	if (p->t == T_BAD) {
		char esc[16], raw[2] = {p->s[p->tpos], '\0'};
		str_escape(raw, esc, sizeof(esc));
		if (raw[0] == '=')
			fail(p, METRIC_ESYNTAX, p->tpos, "unexpected '=' (comparison is '==')");
		else
			fail(p, METRIC_ESYNTAX, p->tpos, "unexpected character '%s'", esc);
		return;
	}
	fail(p, METRIC_ESYNTAX, p->tpos, "expected %s, found %s", want,
	     tok_desc(p, buf, sizeof(buf)));
}

/* ------------------------------------------------------------------ parser */

static void free_node(struct node *n)
{
	if (!n)
		return;
	free_node(n->a);
	free_node(n->b);
	free_node(n->c);
	free(n->merged);
	free(n);
}

static struct node *mk(struct parser *p, enum node_kind kind, size_t pos, struct node *a,
                       struct node *b, struct node *c)
{
	unsigned h = 0;
	if (p->failed) {
		free_node(a);
		free_node(b);
		free_node(c);
		return NULL;
	}
	struct node *n = xcalloc(1, sizeof(*n));
	n->kind = kind;
	n->pos = (int)pos;
	n->a = a;
	n->b = b;
	n->c = c;
	if (a && a->height > h)
		h = a->height;
	if (b && b->height > h)
		h = b->height;
	if (c && c->height > h)
		h = c->height;
	n->height = h + 1;
	if (n->height > METRIC_MAX_DEPTH) {
		fail(p, METRIC_EDEPTH, pos, "expression nested more than %d levels deep",
		     METRIC_MAX_DEPTH);
		free_node(n);
		return NULL;
	}
	if (kind == N_ADD && a->kind == N_NAME && b->kind == N_NAME)
		n->merged = xasprintf("%s+%s", a->name, b->name);
	return n;
}

static const char *intern(struct mexpr *e, const char *s, size_t len)
{
	for (unsigned i = 0; i < e->nr_names; i++)
		if (strlen(e->names[i]) == len && memcmp(e->names[i], s, len) == 0)
			return e->names[i];
	if (e->nr_names == e->alloc_names) {
		e->alloc_names = e->alloc_names ? 2 * e->alloc_names : 8;
		e->names = xreallocarray(e->names, e->alloc_names, sizeof(*e->names));
	}
	e->names[e->nr_names] = xstrndup(s, len);
	return e->names[e->nr_names++];
}

static struct node *parse_expr(struct parser *p);

static bool enter(struct parser *p)
{
	if (++p->depth > METRIC_MAX_DEPTH) {
		fail(p, METRIC_EDEPTH, p->tpos, "expression nested more than %d levels deep",
		     METRIC_MAX_DEPTH);
		return false;
	}
	return true;
}

static bool expect(struct parser *p, enum tok t, const char *want)
{
	if (p->failed)
		return false;
	if (p->t != t) {
		unexpected(p, want);
		return false;
	}
	next(p);
	return true;
}

static struct node *parse_unary(struct parser *p);

static struct node *parse_primary(struct parser *p)
{
	size_t pos = p->tpos;
	struct node *n;

	if (p->failed)
		return NULL;
	switch (p->t) {
	case T_NUM:
		n = mk(p, N_NUM, pos, NULL, NULL, NULL);
		if (n)
			n->num = p->num;
		next(p);
		return n;
	case T_NAME:
		n = mk(p, N_NAME, pos, NULL, NULL, NULL);
		if (n)
			n->name = intern(p->e, p->s + p->tpos, p->tlen);
		next(p);
		return n;
	case T_LPAREN:
		next(p);
		n = parse_expr(p);
		if (!expect(p, T_RPAREN, "')'")) {
			free_node(n);
			return NULL;
		}
		return n;
	case T_MIN:
	case T_MAX: {
		enum node_kind kind = p->t == T_MIN ? N_MIN : N_MAX;
		const char *fn = p->t == T_MIN ? "min" : "max";
		char want[32];
		next(p);
		snprintf(want, sizeof(want), "'(' after '%s'", fn);
		if (!expect(p, T_LPAREN, want))
			return NULL;
		struct node *a = parse_expr(p);
		if (!expect(p, T_COMMA, "','")) {
			free_node(a);
			return NULL;
		}
		struct node *b = parse_expr(p);
		if (!expect(p, T_RPAREN, "')'")) {
			free_node(a);
			free_node(b);
			return NULL;
		}
		return mk(p, kind, pos, a, b, NULL);
	}
	default:
		unexpected(p, "a number, a name, '(' or '-'");
		return NULL;
	}
}

static struct node *parse_unary(struct parser *p)
{
	if (p->failed)
		return NULL;
	if (p->t != T_MINUS)
		return parse_primary(p);
	size_t pos = p->tpos;
	if (!enter(p))
		return NULL;
	next(p);
	struct node *a = parse_unary(p);
	p->depth--;
	return mk(p, N_NEG, pos, a, NULL, NULL);
}

/* One left-associative binary level: operand { op operand }. */
struct binop {
	enum tok t;
	enum node_kind kind;
};

static struct node *parse_binary(struct parser *p, unsigned level);

static const struct binop level_ops[][7] = {
    {{T_OR, N_OR}, {T_END, N_NUM}},
    {{T_AND, N_AND}, {T_END, N_NUM}},
    {{T_LT, N_LT},
     {T_GT, N_GT},
     {T_LE, N_LE},
     {T_GE, N_GE},
     {T_EQ, N_EQ},
     {T_NE, N_NE},
     {T_END, N_NUM}},
    {{T_PLUS, N_ADD}, {T_MINUS, N_SUB}, {T_END, N_NUM}},
    {{T_STAR, N_MUL}, {T_SLASH, N_DIV}, {T_END, N_NUM}},
};
#define NR_LEVELS (sizeof(level_ops) / sizeof(level_ops[0]))

static struct node *parse_operand(struct parser *p, unsigned level)
{
	return level + 1 < NR_LEVELS ? parse_binary(p, level + 1) : parse_unary(p);
}

static struct node *parse_binary(struct parser *p, unsigned level)
{
	struct node *n = parse_operand(p, level);
	while (n && !p->failed) {
		const struct binop *op = level_ops[level];
		while (op->t != T_END && op->t != p->t)
			op++;
		if (op->t == T_END)
			break;
		size_t pos = p->tpos;
		next(p);
		struct node *b = parse_operand(p, level);
		if (!b) {
			free_node(n);
			return NULL;
		}
		n = mk(p, op->kind, pos, n, b, NULL);
	}
	if (p->failed) {
		free_node(n);
		return NULL;
	}
	return n;
}

static struct node *parse_expr(struct parser *p)
{
	if (p->failed || !enter(p))
		return NULL;
	struct node *then = parse_binary(p, 0);
	if (then && p->t == T_IF) {
		size_t pos = p->tpos;
		next(p);
		struct node *cond = parse_binary(p, 0);
		if (!expect(p, T_ELSE, "'else'")) {
			free_node(then);
			free_node(cond);
			p->depth--;
			return NULL;
		}
		struct node *other = parse_expr(p);
		if (!other) {
			free_node(then);
			free_node(cond);
			p->depth--;
			return NULL;
		}
		then = mk(p, N_IF, pos, then, cond, other);
	}
	p->depth--;
	if (p->failed) {
		free_node(then);
		return NULL;
	}
	return then;
}

static void free_mexpr(struct mexpr *e)
{
	for (unsigned i = 0; i < e->nr_names; i++)
		free(e->names[i]);
	free(e->names);
	free_node(e->root);
	free(e->text);
	free(e);
}

int mexpr_parse(const char *text, struct mexpr **out, struct hpm_diag *err)
{
	struct parser p = {.s = text, .err = err};
	size_t len = strlen(text);

	*out = NULL;
	hpm_diag_fail(err, 0, -1, "%s", "");
	if (len > METRIC_MAX_TEXT) {
		hpm_diag_fail(err, METRIC_EDEPTH, METRIC_MAX_TEXT,
		              "expression longer than %d characters at offset %d", METRIC_MAX_TEXT,
		              METRIC_MAX_TEXT);
		return METRIC_EDEPTH;
	}
	p.e = xcalloc(1, sizeof(*p.e));
	p.e->text = xstrdup(text);
	next(&p);
	if (!p.failed && p.t == T_END)
		fail(&p, METRIC_ESYNTAX, p.tpos, "empty expression");
	struct node *root = parse_expr(&p);
	if (!p.failed && p.t != T_END) {
		if (p.t == T_BAD)
			unexpected(&p, "");
		else {
			char buf[96];
			fail(&p, METRIC_ESYNTAX, p.tpos, "expected an operator, found %s",
			     tok_desc(&p, buf, sizeof(buf)));
		}
	}
	if (p.failed || !root) {
		free_node(root);
		free_mexpr(p.e);
		return err ? err->code : METRIC_ESYNTAX;
	}
	p.e->root = root;
	*out = p.e;
	return 0;
}

void mexpr_free(struct mexpr *e)
{
	if (e)
		free_mexpr(e);
}

const char *mexpr_text(const struct mexpr *e)
{
	return e->text;
}

unsigned mexpr_nr_names(const struct mexpr *e)
{
	return e->nr_names;
}

const char *mexpr_name(const struct mexpr *e, unsigned i)
{
	return i < e->nr_names ? e->names[i] : NULL;
}

/* -------------------------------------------------------------- evaluation */

struct eval {
	unsigned flags;
	mexpr_lookup_fn lookup;
	mexpr_mag_fn mag_of; /* NULL: a name's magnitude is its value's */
	void *ctx;
	struct hpm_diag *err;
};

static int lookup_name(struct eval *ev, const struct node *n, double *v)
{
	int r = ev->lookup(ev->ctx, n->name, v);
	if (r == 0)
		return 0;
	char esc[96];
	str_escape(n->name, esc, sizeof(esc));
	if (r == METRIC_ENAME)
		hpm_diag_fail(ev->err, r, n->pos, "unknown name '%s' at offset %d", esc, n->pos);
	else
		hpm_diag_fail(ev->err, r, n->pos, "cannot evaluate '%s' at offset %d", esc, n->pos);
	return r;
}

static bool truth_known(double x)
{
	return !isnan(x);
}

/* A bound on the magnitudes a value was computed from, so that its
 * rounding error is at most a few ulps of it (see mexpr_eval_mag): every
 * operand of + and - adds its own, * and / scale them. */
static double mag_mul(double a, double ma, double b, double mb)
{
	return ma * fabs(b) + fabs(a) * mb;
}

static double mag_div(double a, double ma, double b, double mb)
{
	return b == 0 ? 0 : ma / fabs(b) + fabs(a) * mb / (b * b);
}

/* a + b or a - b whose result is below the rounding error of the
 * magnitudes it came from is exactly 0: 1 - 0.7 - 0.2 - 0.1 is 0, not
 * -2.8e-17 */
static double cancel(double r, double mag)
{
	return fabs(r) <= MEXPR_ZERO_ULPS * DBL_EPSILON * mag ? 0.0 : r;
}

static int eval_node(struct eval *ev, const struct node *n, double *out, double *mag)
{
	double a, b, ma = 0, mb = 0;
	int r;

	*mag = 0;

	switch (n->kind) {
	case N_NUM:
		*out = n->num;
		*mag = fabs(n->num);
		return 0;
	case N_NAME:
		if ((r = lookup_name(ev, n, out)))
			return r;
		*mag = ev->mag_of ? ev->mag_of(ev->ctx, n->name, *out) : fabs(*out);
		return 0;
	case N_NEG:
		if ((r = eval_node(ev, n->a, &a, mag)))
			return r;
		*out = -a;
		return 0;
	case N_IF:
		if ((r = eval_node(ev, n->b, &b, &mb)))
			return r;
		if (isnan(b)) {
			*out = NA;
			return 0;
		}
		return eval_node(ev, b != 0 ? n->a : n->c, out, mag);
	case N_ADD:
		if (n->merged && (ev->flags & MEXPR_MERGED)) {
			r = ev->lookup(ev->ctx, n->merged, out);
			if (r == 0) {
				*mag = fabs(*out);
				return 0;
			}
			if (r != METRIC_ENAME) {
				char esc[128];
				str_escape(n->merged, esc, sizeof(esc));
				hpm_diag_fail(ev->err, r, n->pos,
				              "cannot evaluate '%s' at offset %d", esc, n->pos);
				return r;
			}
			/* not counted merged: add the two counts */
		}
		break;
	default:
		break;
	}

	if ((r = eval_node(ev, n->a, &a, &ma)) || (r = eval_node(ev, n->b, &b, &mb)))
		return r;
	switch (n->kind) {
	case N_ADD:
		*mag = ma + mb;
		*out = cancel(a + b, *mag);
		return 0;
	case N_SUB:
		*mag = ma + mb;
		*out = cancel(a - b, *mag);
		return 0;
	case N_MUL:
		*out = a * b;
		*mag = mag_mul(a, ma, b, mb);
		return 0;
	case N_DIV:
		*out = b == 0 || isnan(a) || isnan(b) ? NA : a / b;
		*mag = mag_div(a, ma, b, mb);
		return 0;
	case N_LT:
	case N_GT:
	case N_LE:
	case N_GE:
	case N_EQ:
	case N_NE: {
		bool c;
		if (isnan(a) || isnan(b)) {
			*out = NA;
			break;
		}
		switch (n->kind) {
		case N_LT:
			c = a < b;
			break;
		case N_GT:
			c = a > b;
			break;
		case N_LE:
			c = a <= b;
			break;
		case N_GE:
			c = a >= b;
			break;
		case N_EQ:
			c = a == b;
			break;
		default:
			c = a != b;
			break;
		}
		*out = c ? 1.0 : 0.0;
		break;
	}
	case N_AND:
		if ((truth_known(a) && a == 0) || (truth_known(b) && b == 0))
			*out = 0.0;
		else if (isnan(a) || isnan(b))
			*out = NA;
		else
			*out = 1.0;
		break;
	case N_OR:
		if ((truth_known(a) && a != 0) || (truth_known(b) && b != 0))
			*out = 1.0;
		else if (isnan(a) || isnan(b))
			*out = NA;
		else
			*out = 0.0;
		break;
	case N_MIN:
		*out = isnan(a) || isnan(b) ? NA : a < b ? a : b;
		*mag = a < b ? ma : mb;
		return 0;
	case N_MAX:
		*out = isnan(a) || isnan(b) ? NA : a > b ? a : b;
		*mag = a > b ? ma : mb;
		return 0;
	default:
		*out = NA; /* not reached: every kind is handled above */
		break;
	}
	*mag = isnan(*out) ? 0 : fabs(*out); /* 0 or 1: exact */
	return 0;
}

int mexpr_eval_mag(const struct mexpr *e, unsigned flags, mexpr_lookup_fn lookup,
                   mexpr_mag_fn mag_of, void *ctx, double *val, double *mag, struct hpm_diag *err)
{
	struct eval ev = {
	    .flags = flags, .lookup = lookup, .mag_of = mag_of, .ctx = ctx, .err = err};
	double v = NA, m = 0;
	int r = eval_node(&ev, e->root, &v, &m);
	if (mag)
		*mag = r || !isfinite(m) ? 0 : m;
	if (r) {
		*val = NA;
		return r;
	}
	/* One test for "no number" in every caller: inf counts as none. */
	*val = isfinite(v) ? v : NA;
	return 0;
}

int mexpr_eval(const struct mexpr *e, unsigned flags, mexpr_lookup_fn lookup, void *ctx,
               double *val, struct hpm_diag *err)
{
	return mexpr_eval_mag(e, flags, lookup, NULL, ctx, val, NULL, err);
}

/* ------------------------------------------------------------------- walks */

struct sums {
	mexpr_name_pred is_event;
	void *ctx;
	struct mexpr_sum *out;
	unsigned max, n;
	const char **seen; /* merged names found so far */
	unsigned nseen, aseen;
};

static void find_sums(struct sums *s, const struct node *n)
{
	if (!n)
		return;
	if (n->merged && (!s->is_event ||
	                  (s->is_event(s->ctx, n->a->name) && s->is_event(s->ctx, n->b->name)))) {
		for (unsigned i = 0; i < s->nseen; i++)
			if (strcmp(s->seen[i], n->merged) == 0)
				return;
		if (s->nseen == s->aseen) {
			s->aseen = s->aseen ? 2 * s->aseen : 4;
			s->seen = xreallocarray(s->seen, s->aseen, sizeof(*s->seen));
		}
		s->seen[s->nseen++] = n->merged;
		if (s->n < s->max)
			s->out[s->n] =
			    (struct mexpr_sum){n->a->name, n->b->name, n->merged, n->pos};
		s->n++;
		return;
	}
	find_sums(s, n->a);
	find_sums(s, n->b);
	find_sums(s, n->c);
}

unsigned mexpr_sums(const struct mexpr *e, mexpr_name_pred is_event, void *ctx,
                    struct mexpr_sum *out, unsigned max)
{
	struct sums s = {.is_event = is_event, .ctx = ctx, .out = out, .max = max};
	find_sums(&s, e->root);
	free(s.seen);
	return s.n;
}

static void visit_node(const struct node *n, mexpr_merge_pred merge, mexpr_visit_fn visit,
                       void *ctx)
{
	if (!n)
		return;
	if (n->kind == N_NAME) {
		visit(ctx, n->name, NULL);
		return;
	}
	if (n->merged && merge && merge(ctx, n->a->name, n->b->name)) {
		visit(ctx, n->a->name, n->b->name);
		return;
	}
	visit_node(n->a, merge, visit, ctx);
	visit_node(n->b, merge, visit, ctx);
	visit_node(n->c, merge, visit, ctx);
}

void mexpr_visit(const struct mexpr *e, mexpr_merge_pred merge, mexpr_visit_fn visit, void *ctx)
{
	visit_node(e->root, merge, visit, ctx);
}

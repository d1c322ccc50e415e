/* expr.c: Arm PMUv3 event expressions into PMEVTYPER<n>_EL0 values and
 * back.
 *
 * Owns: the expression grammar, its parser, the canonical spelling of any
 * value and the decoder built on both. The grammar (hpmstat-events(7),
 * "Arm PMUv3", says the same for users):
 *
 *   expr    := event [ "/" items "/" [letters] ] { ":" items }
 *            | PMU "/" items "/" [letters] { ":" items }
 *   event   := NAME | "0x" HEX | "r" HEX        (evtCount, at most 0xFFFF)
 *   PMU     := "armv8_" WORD                    (perf's spelling: the
 *                                                items must give event=N)
 *   items   := item { "," item }
 *   item    := letters | term
 *   letters := one or more of u k h             (perf's modifiers)
 *   term    := "th" ("!=" | "==" | ">=" | "<") N  (TC[2:1] and TH)
 *            | "count"                          (TC[0]=1: add 1, not VB)
 *            | "edge=" ("rise" | "fall" | "both")  (TE=1)
 *            | "threshold=" N | "threshold_compare=" 0..3
 *            | "threshold_count=" 0|1           (perf's arm_pmuv3 terms)
 *            | FLAG [ "=" 0|1 ]                 (te sync mt sh nsk nsu nsh m
 *                                                rlk rlu rlh)
 *            | "tlc=" 0..3 | "vs=" 0..3
 *            | "event=" N                       (evtCount; the PMU form only)
 *
 * NAME is resolved by the caller's callback (case-insensitive), "rHEX"
 * first as perf's lexer does (no Arm event is named r and hex digits). The
 * letters map onto the exception-level filters as Linux's arm_pmuv3 driver
 * maps exclude_user/exclude_kernel/exclude_hv (armv8pmu_set_event_filter):
 * U=1 when EL0 is left out, P=1 when EL1 is, NSH=1 when EL2 is counted;
 * no letters counts all three (P=0 U=0 NSH=1). A written nsh= comes after
 * the letters and wins, which spells the one set no letters give (P=1 U=1
 * NSH=0: ":h,nsh=0"). An edge is a change of the threshold condition:
 * rise is the condition becoming true, fall becoming false (the rise of
 * the opposite condition: TC[2:1] ^ 1), both either; without a th term it
 * is th!=0 (the event starts or stops). A term given twice, two spellings
 * of one field (th>= and threshold=), count or threshold_count with edge,
 * and perf's threshold_compare/threshold_count without a non-zero
 * threshold= (Linux would drop them) are errors; so is every combination
 * arm64_pmevtyper_check reserves, at the column of the term that made it.
 *
 * The canonical spelling: the event (the callback's name, else 0xHEX),
 * ":letters" unless all three levels are counted, then ":" and the terms
 * joined by ",": edge=rise|both with th<op>N (TC[2:1] gives op), or
 * th<op>N and count, then tlc=, the filter flags that are 1, vs=.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "arm64/arm64.h"
#include "util/str.h"

const char *arm64_strerror(int code)
{
	switch (code) {
	case ARM64_OK:
		return "success";
	case ARM64_ESYNTAX:
		return "syntax error";
	case ARM64_EUNKNOWN:
		return "unknown event";
	case ARM64_ERANGE:
		return "value out of range";
	case ARM64_ERESERVED:
		return "reserved combination";
	case ARM64_ETERM:
		return "bad term";
	case ARM64_EFEATURE:
		return "needs a feature the core does not have";
	case ARM64_EEMPTY:
		return "empty expression";
	}
	return "unknown error";
}

/* The terms that set one field each. */
static const struct {
	const char *name;
	int field;
	bool flag; /* a bare name means 1 */
} field_terms[] = {
    {"te", ARM64_PF_TE, true},   {"sync", ARM64_PF_SYNC, true}, {"mt", ARM64_PF_MT, true},
    {"sh", ARM64_PF_SH, true},   {"nsk", ARM64_PF_NSK, true},   {"nsu", ARM64_PF_NSU, true},
    {"nsh", ARM64_PF_NSH, true}, {"m", ARM64_PF_M, true},       {"rlk", ARM64_PF_RLK, true},
    {"rlu", ARM64_PF_RLU, true}, {"rlh", ARM64_PF_RLH, true},   {"tlc", ARM64_PF_TLC, false},
    {"vs", ARM64_PF_VS, false},  {"t", ARM64_PF_T, true},
};
#define NR_FIELD_TERMS (sizeof(field_terms) / sizeof(field_terms[0]))

#define TERM_LIST                                                                                  \
	"modifiers u, k, h; terms th!=N, th==N, th>=N, th<N, count, edge=rise|fall|both, "         \
	"threshold=, threshold_compare=, threshold_count=, event=, te, tlc=, vs=, mt, sh, nsk, "   \
	"nsu, nsh, m, t, rlk, rlu, rlh, sync"

enum { EDGE_RISE, EDGE_FALL, EDGE_BOTH };
enum { LV_U = 1, LV_K = 2, LV_H = 4, LV_ALL = 7 };

/* One thing the expression says, with where it said it (-1: not said). */
struct said {
	int pos;
	unsigned val;
	bool perf; /* said with perf's threshold* term */
};

struct parser {
	const char *src;
	const char *p;
	const struct arm64_ctx *ctx;
	const struct arm64_names *names;
	struct hpm_diag *err;
	int event_pos;
	uint32_t event;
	bool raw;
	const char *pmu; /* perf's armv8_* PMU name the expression starts with */
	size_t pmu_len;
	struct said letters, cond, th, count, edge, evt;
	struct said field[ARM64_PF_NR]; /* field terms */
};

static int col(const struct parser *ps)
{
	return (int)(ps->p - ps->src);
}

static bool is_word_char(int c)
{
	return isalnum(c) || c == '_' || c == '.';
}

/* A decimal or 0x number at ps->p, at most max; errors blame the term at
 * column pos. */
static int parse_number(struct parser *ps, const char *what, uint64_t max, unsigned *out, int pos)
{
	const char *s = ps->p;
	uint64_t v = 0;
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	bool big = false;
	unsigned nd = 0;
	if (hex)
		s += 2;
	for (;; s++, nd++) {
		int c = (unsigned char)*s, d;
		if (isdigit(c))
			d = c - '0';
		else if (hex && isxdigit(c))
			d = tolower(c) - 'a' + 10;
		else
			break;
		if (v > (UINT64_MAX - (unsigned)d) / (hex ? 16 : 10))
			big = true;
		else
			v = v * (hex ? 16 : 10) + (unsigned)d;
	}
	if (!nd || is_word_char((unsigned char)*s))
		return hpm_diag_fail(ps->err, ARM64_ESYNTAX, pos,
		                     "%s takes a number (decimal or 0x hex)", what);
	ps->p = s;
	if (big || v > max)
		return hpm_diag_fail(ps->err, ARM64_ERANGE, pos, "%s is at most %llu (0x%llx)",
		                     what, (unsigned long long)max, (unsigned long long)max);
	*out = (unsigned)v;
	return 0;
}

static int say(struct parser *ps, struct said *s, const char *what, int pos, unsigned val,
               bool perf)
{
	if (s->pos >= 0)
		return hpm_diag_fail(ps->err, ARM64_ETERM, pos,
		                     "%s is given twice (first at column %d)", what, s->pos + 1);
	*s = (struct said){.pos = pos, .val = val, .perf = perf};
	return 0;
}

static int parse_event(struct parser *ps)
{
	char name[96];
	size_t n = 0;
	const char *s = ps->p;
	ps->event_pos = col(ps);
	while (is_word_char((unsigned char)*s)) {
		if (n + 1 < sizeof(name))
			name[n] = *s;
		n++;
		s++;
	}
	if (!n) {
		if (!*ps->p)
			return hpm_diag_fail(ps->err, ARM64_EEMPTY, ps->event_pos,
			                     "no event given");
		return hpm_diag_fail(ps->err, ARM64_ESYNTAX, ps->event_pos,
		                     "expected an event, found '%c'", *ps->p);
	}
	/* perf's PMU form: Linux names the arm_pmuv3 PMUs armv8_pmuv3_0,
	 * armv8_cortex_a53, ...; the event is its event= term */
	if (n > 6 && strncmp(ps->p, "armv8_", 6) == 0 && *s == '/') {
		ps->pmu = ps->p;
		ps->pmu_len = n;
		ps->raw = true;
		ps->p = s;
		return 0;
	}
	if (n >= sizeof(name))
		return hpm_diag_fail(ps->err, ARM64_EUNKNOWN, ps->event_pos, "event name too long");
	name[n] = '\0';

	bool rhex = name[0] == 'r' && n > 1;
	for (size_t i = 1; rhex && i < n; i++)
		rhex = isxdigit((unsigned char)name[i]);
	bool hex0 = name[0] == '0' && (name[1] == 'x' || name[1] == 'X');
	if (rhex || hex0) {
		const char *d = name + (rhex ? 1 : 2);
		uint64_t v = 0;
		bool big = false;
		if (!*d || strspn(d, "0123456789abcdefABCDEF") != strlen(d))
			return hpm_diag_fail(ps->err, ARM64_ESYNTAX, ps->event_pos,
			                     "'%s' is not a hex number", name);
		for (; *d; d++) {
			if (v > 0xffff)
				big = true;
			else
				v = v * 16 +
				    (uint64_t)(isdigit((unsigned char)*d)
				                   ? *d - '0'
				                   : tolower((unsigned char)*d) - 'a' + 10);
		}
		if (big || v > 0xffff)
			return hpm_diag_fail(ps->err, ARM64_ERANGE, ps->event_pos,
			                     "evtCount is 16 bits: '%s' is above 0xffff", name);
		ps->raw = true;
		ps->event = (uint32_t)v;
		ps->p = s;
		return 0;
	}
	uint16_t num;
	if (!isalpha((unsigned char)name[0]) && name[0] != '_')
		return hpm_diag_fail(ps->err, ARM64_ESYNTAX, ps->event_pos,
		                     "expected an event name, 0xHEX or rHEX, found '%s'", name);
	if (!ps->names || !ps->names->lookup || !ps->names->lookup(ps->names->data, name, &num))
		return hpm_diag_fail(ps->err, ARM64_EUNKNOWN, ps->event_pos, "unknown event '%s'",
		                     name);
	ps->event = num;
	ps->p = s;
	return 0;
}

static int parse_letters(struct parser *ps, const char *w, size_t n, int pos)
{
	unsigned lv = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned bit = w[i] == 'u' ? LV_U : w[i] == 'k' ? LV_K : LV_H;
		if (lv & bit)
			return hpm_diag_fail(ps->err, ARM64_ETERM, pos + (int)i,
			                     "modifier '%c' is given twice", w[i]);
		lv |= bit;
	}
	return say(ps, &ps->letters, "the modifier letters", pos, lv, false);
}

static bool word_is(const char *w, size_t n, const char *name)
{
	return strlen(name) == n && strncasecmp(w, name, n) == 0;
}

static int parse_item(struct parser *ps)
{
	int pos = col(ps), rc;
	const char *w = ps->p;
	size_t n = 0;
	unsigned v;
	while (isalnum((unsigned char)w[n]) || w[n] == '_')
		n++;
	if (!n) {
		if (!*w || *w == ':' || *w == ',' || *w == '/')
			return hpm_diag_fail(ps->err, ARM64_ESYNTAX, pos,
			                     "expected a modifier or term");
		return hpm_diag_fail(ps->err, ARM64_ESYNTAX, pos,
		                     "expected a modifier or term, found '%c'", *w);
	}
	ps->p += n;

	if (word_is(w, n, "th")) {
		static const char *const ops[4] = {"!=", "==", ">=", "<"};
		int op = -1;
		for (int i = 0; i < 4 && strncmp(ps->p, "<=", 2) != 0; i++)
			if (strncmp(ps->p, ops[i], strlen(ops[i])) == 0)
				op = i;
		if (op < 0) {
			if (ps->p[0] == '=' || ps->p[0] == '>' || strncmp(ps->p, "<=", 2) == 0)
				return hpm_diag_fail(
				    ps->err, ARM64_ETERM, pos,
				    "th takes !=, ==, >= or < (the conditions TC can test); for "
				    "perf's raw field write threshold=N");
			return hpm_diag_fail(ps->err, ARM64_ESYNTAX, pos,
			                     "th takes a condition: th!=N, th==N, th>=N "
			                     "or th<N");
		}
		ps->p += strlen(ops[op]);
		if ((rc = parse_number(ps, "the threshold", 0xfff, &v, pos)))
			return rc;
		if ((rc = say(ps, &ps->cond, "the threshold condition", pos, (unsigned)op, false)))
			return rc;
		return say(ps, &ps->th, "the threshold", pos, v, false);
	}
	if (word_is(w, n, "count")) {
		if (*ps->p == '=')
			return hpm_diag_fail(
			    ps->err, ARM64_ETERM, pos,
			    "count takes no value (perf's form is threshold_count=0|1)");
		return say(ps, &ps->count, "count", pos, 1, false);
	}
	/* letters: a word of u, k and h only, with no value */
	if (*ps->p != '=' && strspn(w, "ukh") >= n)
		return parse_letters(ps, w, n, pos);

	int ft = -1;
	for (unsigned i = 0; i < NR_FIELD_TERMS; i++)
		if (word_is(w, n, field_terms[i].name))
			ft = (int)i;
	bool known = ft >= 0 || word_is(w, n, "edge") || word_is(w, n, "threshold") ||
	             word_is(w, n, "threshold_compare") || word_is(w, n, "threshold_count") ||
	             word_is(w, n, "event");
	if (!known)
		return hpm_diag_fail(ps->err, ARM64_ETERM, pos,
		                     "unknown modifier or term '%.*s' (" TERM_LIST ")", (int)n, w);
	if (*ps->p != '=') {
		if (ft >= 0 && field_terms[ft].flag)
			return say(ps, &ps->field[field_terms[ft].field], field_terms[ft].name, pos,
			           1, false);
		return hpm_diag_fail(ps->err, ARM64_ESYNTAX, pos, "%.*s takes a value: %.*s=...",
		                     (int)n, w, (int)n, w);
	}
	ps->p++;
	if (word_is(w, n, "edge")) {
		static const char *const kinds[3] = {"rise", "fall", "both"};
		int vpos = col(ps);
		size_t m = 0;
		while (isalnum((unsigned char)ps->p[m]))
			m++;
		for (unsigned k = 0; k < 3; k++)
			if (word_is(ps->p, m, kinds[k])) {
				ps->p += m;
				return say(ps, &ps->edge, "edge", pos, k, false);
			}
		return hpm_diag_fail(ps->err, ARM64_ETERM, vpos, "edge takes rise, fall or both");
	}
	if (word_is(w, n, "threshold")) {
		if ((rc = parse_number(ps, "threshold", 0xfff, &v, pos)))
			return rc;
		return say(ps, &ps->th, "the threshold", pos, v, true);
	}
	if (word_is(w, n, "threshold_compare")) {
		if ((rc = parse_number(ps, "threshold_compare", 3, &v, pos)))
			return rc;
		return say(ps, &ps->cond, "the threshold condition", pos, v, true);
	}
	if (word_is(w, n, "threshold_count")) {
		if ((rc = parse_number(ps, "threshold_count", 1, &v, pos)))
			return rc;
		return say(ps, &ps->count, "count", pos, v, true);
	}
	if (word_is(w, n, "event")) {
		if (!ps->pmu)
			return hpm_diag_fail(
			    ps->err, ARM64_ETERM, pos,
			    "event= belongs to perf's PMU form (armv8_pmuv3_0/event=N/); "
			    "here the event comes first");
		if ((rc = parse_number(ps, "event", 0xffff, &v, pos)))
			return rc;
		if ((rc = say(ps, &ps->evt, "event", pos, v, false)))
			return rc;
		ps->event = v;
		ps->event_pos = pos;
		return 0;
	}
	int f = field_terms[ft].field;
	char what[16];
	snprintf(what, sizeof(what), "%s", field_terms[ft].name);
	if ((rc = parse_number(ps, what, field_terms[ft].flag ? 1 : 3, &v, pos)))
		return rc;
	return say(ps, &ps->field[f], field_terms[ft].name, pos, v, false);
}

static int parse_items(struct parser *ps)
{
	int rc;
	do {
		if ((rc = parse_item(ps)))
			return rc;
	} while (*ps->p == ',' && ps->p++);
	return 0;
}

static int later(int a, int b)
{
	return a > b ? a : b;
}

/* Fields from what was said, then the Arm ARM's checks. */
static int build(struct parser *ps, struct arm64_pmevtyper *t)
{
	int fpos[ARM64_PF_NR];
	memset(t, 0, sizeof(*t));
	for (unsigned f = 0; f < ARM64_PF_NR; f++) {
		fpos[f] = ps->field[f].pos;
		if (ps->field[f].pos >= 0)
			t->f[f] = ps->field[f].val;
	}
	t->f[ARM64_PF_EVTCOUNT] = ps->event;
	fpos[ARM64_PF_EVTCOUNT] = ps->event_pos;

	/* the letters as Linux maps exclude_*; a written nsh= wins */
	unsigned lv = ps->letters.pos >= 0 ? ps->letters.val : LV_ALL;
	t->f[ARM64_PF_U] = !(lv & LV_U);
	t->f[ARM64_PF_P] = !(lv & LV_K);
	fpos[ARM64_PF_U] = fpos[ARM64_PF_P] = ps->letters.pos;
	if (ps->field[ARM64_PF_NSH].pos < 0) {
		t->f[ARM64_PF_NSH] = !!(lv & LV_H);
		fpos[ARM64_PF_NSH] = ps->letters.pos;
	}

	unsigned cond = ps->cond.pos >= 0 ? ps->cond.val : ARM64_COND_NE;
	unsigned th = ps->th.pos >= 0 ? ps->th.val : 0;
	if (th == 0 && ps->cond.perf)
		return hpm_diag_fail(
		    ps->err, ARM64_ETERM, ps->cond.pos,
		    "threshold_compare needs threshold=N with N > 0: Linux programs no "
		    "condition for threshold 0 (write th%s0 for the raw field)",
		    arm64_cond_symbol(cond));
	if (th == 0 && ps->count.perf && ps->count.val)
		return hpm_diag_fail(
		    ps->err, ARM64_ETERM, ps->count.pos,
		    "threshold_count needs threshold=N with N > 0: Linux programs no "
		    "condition for threshold 0 (write count for the raw field)");
	t->f[ARM64_PF_TH] = th;
	fpos[ARM64_PF_TH] = ps->th.pos;
	fpos[ARM64_PF_TC] = later(ps->cond.pos, ps->count.pos);
	if (ps->edge.pos >= 0) {
		if (ps->field[ARM64_PF_TE].pos >= 0)
			return hpm_diag_fail(
			    ps->err, ARM64_ETERM, later(ps->edge.pos, ps->field[ARM64_PF_TE].pos),
			    "te and edge= both set TE: edge= picks the edge, te is the raw bit");
		if (ps->count.pos >= 0)
			return hpm_diag_fail(
			    ps->err, ARM64_ETERM, later(ps->edge.pos, ps->count.pos),
			    "an edge counts 1 per edge: %s does not apply to edge=",
			    ps->count.perf ? "threshold_count" : "count");
		switch (ps->edge.val) {
		case EDGE_RISE:
			t->f[ARM64_PF_TC] = cond << 1 | 1;
			break;
		case EDGE_FALL: /* the rise of the opposite condition */
			t->f[ARM64_PF_TC] = (cond ^ 1) << 1 | 1;
			break;
		default:
			t->f[ARM64_PF_TC] = (cond >> 1) << 2 | 2;
			break;
		}
		t->f[ARM64_PF_TE] = 1;
		fpos[ARM64_PF_TE] = ps->edge.pos;
		fpos[ARM64_PF_TC] = later(fpos[ARM64_PF_TC], ps->edge.pos);
	} else {
		unsigned count = ps->count.pos >= 0 ? ps->count.val : 0;
		t->f[ARM64_PF_TC] = cond << 1 | count;
	}

	struct arm64_issue is[ARM64_MAX_ISSUES];
	if (arm64_pmevtyper_check(t, ps->ctx, is, ARM64_MAX_ISSUES)) {
		int a = is[0].field >= 0 ? fpos[is[0].field] : -1;
		int b = is[0].field2 >= 0 ? fpos[is[0].field2] : -1;
		int pos = later(a, b);
		return hpm_diag_fail(ps->err, is[0].code, pos >= 0 ? pos : ps->event_pos, "%s",
		                     is[0].msg);
	}
	return 0;
}

/* The canonical spelling of t (see the top of the file). */
static void render(const struct arm64_pmevtyper *t, const char *name, char *buf, size_t len)
{
	const uint32_t *f = t->f;
	char items[256] = "";
	size_t n = 0;
#define ITEM(...)                                                                                  \
	do {                                                                                       \
		if (n < sizeof(items))                                                             \
			n += (size_t)snprintf(items + n, sizeof(items) - n, "%s", n ? "," : "");   \
		if (n < sizeof(items))                                                             \
			n += (size_t)snprintf(items + n, sizeof(items) - n, __VA_ARGS__);          \
	} while (0)

	unsigned tc = f[ARM64_PF_TC], th = f[ARM64_PF_TH];
	if (f[ARM64_PF_TE] && (tc & 3)) {
		ITEM("edge=%s", (tc & 1) ? "rise" : "both");
		ITEM("th%s%u", arm64_cond_symbol(tc >> 1), th);
	} else {
		if (f[ARM64_PF_TE])
			ITEM("te"); /* reserved: no edge spells it */
		if (tc || th)
			ITEM("th%s%u", arm64_cond_symbol(tc >> 1), th);
		if (tc & 1)
			ITEM("count");
	}
	if (f[ARM64_PF_TLC])
		ITEM("tlc=%u", f[ARM64_PF_TLC]);

	char letters[4] = "";
	size_t nl = 0;
	if (!f[ARM64_PF_U])
		letters[nl++] = 'u';
	if (!f[ARM64_PF_P])
		letters[nl++] = 'k';
	if (f[ARM64_PF_NSH])
		letters[nl++] = 'h';
	letters[nl] = '\0';
	if (!nl) { /* counts none of EL0, EL1, EL2: no letters give it */
		snprintf(letters, sizeof(letters), "h");
		ITEM("nsh=0");
	} else if (nl == 3) {
		letters[0] = '\0';
	}
	static const int flags[] = {ARM64_PF_NSK, ARM64_PF_NSU, ARM64_PF_M,   ARM64_PF_MT,
	                            ARM64_PF_SH,  ARM64_PF_T,   ARM64_PF_RLK, ARM64_PF_RLU,
	                            ARM64_PF_RLH, ARM64_PF_SYNC};
	for (unsigned i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		if (f[flags[i]]) {
			char low[8];
			size_t k;
			for (k = 0; arm64_pf_desc[flags[i]].name[k] && k + 1 < sizeof(low); k++)
				low[k] =
				    (char)tolower((unsigned char)arm64_pf_desc[flags[i]].name[k]);
			low[k] = '\0';
			ITEM("%s", low);
		}
	if (f[ARM64_PF_VS])
		ITEM("vs=%u", f[ARM64_PF_VS]);
#undef ITEM

	char ev[96];
	if (name)
		snprintf(ev, sizeof(ev), "%s", name);
	else
		snprintf(ev, sizeof(ev), "0x%x", f[ARM64_PF_EVTCOUNT]);
	snprintf(buf, len, "%s%s%s%s%s", ev, *letters ? ":" : "", letters, n ? ":" : "", items);
}

static const char *name_of(const struct arm64_names *names, uint32_t evt)
{
	if (!names || !names->name_of)
		return NULL;
	return names->name_of(names->data, (uint16_t)evt);
}

int arm64_encode(const char *expr, const struct arm64_ctx *ctx, const struct arm64_names *names,
                 struct arm64_encoding *enc, struct hpm_diag *err)
{
	struct arm64_ctx any = ARM64_CTX_ANY;
	struct hpm_diag dummy;
	struct parser ps = {.src = expr, .p = expr, .ctx = ctx ? ctx : &any, .names = names};
	int rc;
	if (!err)
		err = &dummy;
	ps.err = err;
	memset(err, 0, sizeof(*err));
	memset(enc, 0, sizeof(*enc));
	ps.letters.pos = ps.cond.pos = ps.th.pos = ps.count.pos = ps.edge.pos = ps.evt.pos = -1;
	for (unsigned f = 0; f < ARM64_PF_NR; f++)
		ps.field[f].pos = -1;

	while (isspace((unsigned char)*ps.p))
		ps.p++;
	if ((rc = parse_event(&ps)))
		return rc;
	if (*ps.p == '/') {
		ps.p++;
		if (ps.pmu && *ps.p == '/')
			return hpm_diag_fail(ps.err, ARM64_ETERM, col(&ps),
			                     "%.*s/.../ needs event=N", (int)ps.pmu_len, ps.pmu);
		if ((rc = parse_items(&ps)))
			return rc;
		if (*ps.p != '/')
			return *ps.p ? hpm_diag_fail(ps.err, ARM64_ESYNTAX, col(&ps),
			                             "expected ',' or the closing '/', found '%c'",
			                             *ps.p)
			             : hpm_diag_fail(ps.err, ARM64_ESYNTAX, col(&ps),
			                             "expected the closing '/'");
		ps.p++;
		if (isalpha((unsigned char)*ps.p) && (rc = parse_item(&ps)))
			return rc;
	}
	while (*ps.p == ':') {
		ps.p++;
		if ((rc = parse_items(&ps)))
			return rc;
	}
	while (isspace((unsigned char)*ps.p))
		ps.p++;
	if (*ps.p)
		return hpm_diag_fail(ps.err, ARM64_ESYNTAX, col(&ps),
		                     "expected ':' or ',' before '%c'", *ps.p);
	if (ps.pmu && ps.evt.pos < 0)
		return hpm_diag_fail(ps.err, ARM64_ETERM, 0,
		                     "%.*s/.../ needs event=N (the event number)", (int)ps.pmu_len,
		                     ps.pmu);
	if ((rc = build(&ps, &enc->t)))
		return rc;
	enc->value = arm64_pmevtyper_pack(&enc->t);
	enc->modes_given = ps.letters.pos >= 0;
	enc->raw = ps.raw;
	render(&enc->t, name_of(names, ps.event), enc->canonical, sizeof(enc->canonical));
	return 0;
}

void arm64_decode(uint64_t value, const struct arm64_ctx *ctx, const struct arm64_names *names,
                  struct arm64_decoded *d)
{
	struct arm64_ctx any = ARM64_CTX_ANY;
	struct arm64_encoding enc;
	if (!ctx)
		ctx = &any;
	memset(d, 0, sizeof(*d));
	d->value = value;
	arm64_pmevtyper_unpack(value, &d->t);
	d->name = name_of(names, d->t.f[ARM64_PF_EVTCOUNT]);
	render(&d->t, d->name, d->expr, sizeof(d->expr));
	d->nr_issues = arm64_pmevtyper_check(&d->t, ctx, d->issues, ARM64_MAX_ISSUES);
	if (d->nr_issues > ARM64_MAX_ISSUES)
		d->nr_issues = ARM64_MAX_ISSUES;
	/* the rule names the event as the Arm ARM writes it: STALL_SLOT */
	char ev[96];
	if (d->name) {
		size_t i;
		for (i = 0; d->name[i] && i + 1 < sizeof(ev); i++)
			ev[i] = (char)toupper((unsigned char)d->name[i]);
		ev[i] = '\0';
	} else {
		snprintf(ev, sizeof(ev), "event 0x%x", d->t.f[ARM64_PF_EVTCOUNT]);
	}
	/* what the core counts: a write drops the fields it has not got */
	struct arm64_pmevtyper counted;
	d->implemented = arm64_pmevtyper_implemented(ctx);
	arm64_pmevtyper_unpack(value & d->implemented, &counted);
	arm64_pmevtyper_rule(&counted, ev, ctx->counter, d->rule, sizeof(d->rule));
	/* The flag is whether this spelling really gives the value back: RES0
	 * bits, reserved combinations and names the table maps elsewhere have
	 * none. */
	d->exact = arm64_encode(d->expr, ctx, names, &enc, NULL) == 0 && enc.value == value;
}

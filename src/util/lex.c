/* lex.c: see lex.h. */
#include "config.h"

#include <string.h>

#include "util/lex.h"

char *lex_trim(char *s)
{
	while (lex_is_blank(*s))
		s++;
	size_t n = strlen(s);
	while (n && lex_is_blank(s[n - 1]))
		s[--n] = '\0';
	return s;
}

void lex_strip_comment(char *s, bool quotes)
{
	bool quoted = false;
	for (; *s; s++) {
		if (quotes && *s == '"')
			quoted = !quoted;
		else if (quoted && *s == '\\' && s[1])
			s++; /* \" does not end the string */
		else if (!quoted && *s == '#') {
			*s = '\0';
			return;
		}
	}
}

enum lex_kind lex_split(char *line, bool quotes, struct lex_item *it)
{
	memset(it, 0, sizeof(*it));
	lex_strip_comment(line, quotes);
	char *t = lex_trim(line);
	it->text = t;
	if (!*t)
		return it->kind = LEX_BLANK;
	if (*t == '[') {
		size_t n = strlen(t);
		if (n < 2 || t[n - 1] != ']')
			return it->kind = LEX_BAD_SECTION;
		t[n - 1] = '\0';
		it->section = lex_trim(t + 1);
		return it->kind = LEX_SECTION;
	}
	char *eq = strchr(t, '=');
	if (!eq)
		return it->kind = LEX_OTHER;
	*eq = '\0';
	it->key = lex_trim(t);
	it->value = lex_trim(eq + 1);
	it->key_col = (unsigned)(it->key - line) + 1;
	it->value_col = (unsigned)(it->value - line) + 1;
	return it->kind = LEX_KEY_VALUE;
}

unsigned lex_words(char *s, char **words, unsigned max)
{
	unsigned n = 0;
	while (*s) {
		while (lex_is_blank(*s))
			s++;
		if (!*s)
			break;
		if (n == max)
			return max + 1;
		words[n++] = s;
		while (*s && !lex_is_blank(*s))
			s++;
		if (*s)
			*s++ = '\0';
	}
	return n;
}

char *lex_quoted(char **s)
{
	char *start = *s, *w = start, *r = start + 1;
	while (*r && *r != '"') {
		if (*r != '\\') {
			*w++ = *r++;
			continue;
		}
		switch (r[1]) {
		case '"':
		case '\\':
			*w++ = r[1];
			break;
		case 'n':
			*w++ = '\n';
			break;
		case 't':
			*w++ = '\t';
			break;
		default:
			*s = r;
			return NULL;
		}
		r += 2;
	}
	if (!*r) {
		*s = r;
		return NULL;
	}
	*w = '\0';
	*s = r + 1;
	return start;
}

/* ---------------------------------------------------------------- numbers */

static int fail(int rc, size_t at, size_t *bad_at)
{
	if (bad_at)
		*bad_at = at;
	return rc;
}

static unsigned digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return (unsigned)(c - '0');
	if (c >= 'a' && c <= 'f')
		return (unsigned)(c - 'a') + 10;
	if (c >= 'A' && c <= 'F')
		return (unsigned)(c - 'A') + 10;
	return 99;
}

static bool is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* The exponent of e notation at s[*i] (after the 'e'): an optional sign
 * and digits, capped (far past any double or uint64_t). */
static bool read_exponent(const char *s, size_t len, size_t *i, int *exp)
{
	bool neg = false;
	int e = 0;
	if (*i < len && (s[*i] == '+' || s[*i] == '-'))
		neg = s[(*i)++] == '-';
	size_t first = *i;
	for (; *i < len && s[*i] >= '0' && s[*i] <= '9'; (*i)++)
		if (e < 10000)
			e = e * 10 + (s[*i] - '0');
	*exp = neg ? -e : e;
	return *i > first;
}

/* m * 10^e as a whole number: EWIDE past 64 bits, EWHOLE when it has a
 * fraction. */
static int scale_whole(uint64_t *m, int e)
{
	for (; e > 0 && *m; e--) {
		if (*m > UINT64_MAX / 10)
			return LEX_NUM_EWIDE;
		*m *= 10;
	}
	for (; e < 0; e++) {
		if (*m % 10)
			return LEX_NUM_EWHOLE;
		*m /= 10;
	}
	return LEX_NUM_OK;
}

/* The decimal fraction and exponent of a whole number in e notation, from
 * s[i] ('.', 'e' or 'E') to the end. */
static int whole_exp(const char *s, size_t len, size_t i, uint64_t *v, size_t *bad_at)
{
	int frac = 0, exp = 0;
	if (s[i] == '.')
		for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++, frac++) {
			if (*v > (UINT64_MAX - 9) / 10)
				return fail(LEX_NUM_EWIDE, 0, bad_at);
			*v = *v * 10 + (uint64_t)(s[i] - '0');
		}
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (!read_exponent(s, len, &i, &exp))
			return fail(LEX_NUM_ENUMBER, i, bad_at);
	}
	if (i < len)
		return fail(LEX_NUM_ENUMBER, i, bad_at);
	int rc = scale_whole(v, exp - frac);
	return rc ? fail(rc, 0, bad_at) : LEX_NUM_OK;
}

/* A size suffix at s[i..len): k, M, G or T, either case, 2^10 apart. */
static int size_suffix(const char *s, size_t len, size_t i, uint64_t *v, size_t *bad_at)
{
	static const char units[] = "kmgt";
	const char *u = len - i == 1 && is_alpha(s[i]) ? strchr(units, s[i] | 0x20) : NULL;
	if (!u)
		return fail(is_alpha(s[i]) ? LEX_NUM_EUNIT : LEX_NUM_ENUMBER, i, bad_at);
	unsigned shift = 10 * (unsigned)(u - units + 1);
	if (*v > UINT64_MAX >> shift)
		return fail(LEX_NUM_EWIDE, 0, bad_at);
	*v <<= shift;
	return LEX_NUM_OK;
}

int lex_u64(const char *s, size_t len, unsigned flags, uint64_t min, uint64_t max, uint64_t *out,
            size_t *bad_at)
{
	size_t i = 0;
	unsigned base = 10;
	uint64_t v = 0;

	if (len && s[0] == '-')
		return fail(LEX_NUM_ENEGATIVE, 0, bad_at);
	if ((flags & LEX_NUM_RHEX) && len && (s[0] == 'r' || s[0] == 'R')) {
		base = 16;
		i = 1;
	} else if ((flags & LEX_NUM_HEX) && len > 1 && s[0] == '0' &&
	           (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	} else if ((flags & LEX_NUM_BIN) && len > 1 && s[0] == '0' &&
	           (s[1] == 'b' || s[1] == 'B')) {
		base = 2;
		i = 2;
	}
	size_t digits = i;
	bool any = false;
	for (; i < len; i++) {
		if (s[i] == '_' && (flags & LEX_NUM_GROUPS) && i != digits)
			continue;
		unsigned d = digit_value(s[i]);
		if (d >= base)
			break;
		if (v > (UINT64_MAX - d) / base)
			return fail(LEX_NUM_EWIDE, 0, bad_at);
		v = v * base + d;
		any = true;
	}
	if (!any)
		return fail(LEX_NUM_ENUMBER, i, bad_at);
	if (i < len) {
		int rc;
		if (base == 10 && (flags & LEX_NUM_EXP) &&
		    (s[i] == '.' || s[i] == 'e' || s[i] == 'E'))
			rc = whole_exp(s, len, i, &v, bad_at);
		else if (flags & LEX_NUM_SIZE)
			rc = size_suffix(s, len, i, &v, bad_at);
		else
			rc = fail(LEX_NUM_ENUMBER, i, bad_at);
		if (rc)
			return rc;
	}
	if (v < min || v > max)
		return fail(LEX_NUM_ERANGE, 0, bad_at);
	*out = v;
	return LEX_NUM_OK;
}

int lex_decimal(const char *s, unsigned flags, double min, double max, double *out, size_t *bad_at)
{
	/* 10^0..10^22 are exact doubles: one multiplication or division by
	 * one of them rounds correctly (mantissas of at most 15 digits) */
	static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
	                               1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
	                               1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
	size_t i = 0, len = strlen(s);
	uint64_t mant = 0;
	int exp = 0;
	bool digits = false, point = false;

	if (s[0] == '-')
		return fail(LEX_NUM_ENEGATIVE, 0, bad_at);
	for (; i < len; i++) {
		if (s[i] == '.' && !point) {
			point = true;
			continue;
		}
		if (s[i] < '0' || s[i] > '9')
			break;
		if (mant > UINT64_C(100000000000000))
			return fail(LEX_NUM_ENUMBER, i, bad_at); /* a 16th digit */
		mant = mant * 10 + (uint64_t)(s[i] - '0');
		exp -= point;
		digits = true;
	}
	if (!digits)
		return fail(LEX_NUM_ENUMBER, i, bad_at);
	if ((flags & LEX_NUM_EXP) && i < len && (s[i] == 'e' || s[i] == 'E')) {
		int e;
		i++;
		if (!read_exponent(s, len, &i, &e))
			return fail(LEX_NUM_ENUMBER, i, bad_at);
		exp += e;
	}
	if ((flags & LEX_NUM_PERCENT) && i < len && s[i] == '%') {
		exp -= 2;
		i++;
	}
	if (i < len)
		return fail(is_alpha(s[i]) || s[i] == '%' ? LEX_NUM_EUNIT : LEX_NUM_ENUMBER, i,
		            bad_at);
	double v = (double)mant;
	for (; exp > 22; exp -= 22)
		v *= pow10[22];
	for (; exp < -22; exp += 22)
		v /= pow10[22];
	v = exp >= 0 ? v * pow10[exp] : v / pow10[-exp];
	if (!(v >= min && v <= max))
		return fail(LEX_NUM_ERANGE, 0, bad_at);
	*out = v;
	return LEX_NUM_OK;
}

int lex_range(const char *s, unsigned flags, uint64_t min, uint64_t max, uint64_t *lo, uint64_t *hi,
              size_t *bad_at)
{
	const char *dots = strstr(s, "..");
	size_t len = strlen(s), lo_len = dots ? (size_t)(dots - s) : len;
	uint64_t a, b;
	int rc = lex_u64(s, lo_len, flags, min, max, &a, bad_at);
	if (rc)
		return rc;
	b = a;
	if (dots) {
		rc = lex_u64(dots + 2, len - lo_len - 2, flags, min, max, &b, bad_at);
		if (rc) {
			if (bad_at)
				*bad_at += lo_len + 2;
			return rc;
		}
		if (b < a)
			return fail(LEX_NUM_ERANGE, 0, bad_at);
	}
	*lo = a;
	*hi = b;
	return LEX_NUM_OK;
}

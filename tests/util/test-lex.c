/* test-lex.c: src/util/lex.c and src/util/diag.c, the line-input kit,
 * against hand-worked cases: lines split into sections and key = value
 * with their columns, comments outside quotes, words and quoted strings;
 * numbers at the edges of 64 bits, of the caller's range and of each unit
 * (k = 2^10 .. T = 2^40), e notation that is or is not whole; decimals
 * correctly rounded up to 10^22 (compared with the double the C compiler makes of the
 * same literal); the diag's one-line formats. */
#include <stdio.h>
#include <string.h>

#include "tap.h"
#include "util/diag.h"
#include "util/lex.h"
#include "util/str.h"

/* lex_u64 of all of s: the rc, the value and the offset of the bad byte. */
static void u64_is(const char *s, unsigned flags, uint64_t min, uint64_t max, int want_rc,
                   uint64_t want, size_t want_at)
{
	uint64_t v = 0xdead;
	size_t at = 999;
	int rc = lex_u64(s, strlen(s), flags, min, max, &v, &at);
	if (want_rc == LEX_NUM_OK)
		tap_ok(rc == 0 && v == want, "'%s' reads %llu (rc %d, got %llu)", s,
		       (unsigned long long)want, rc, (unsigned long long)v);
	else
		tap_ok(rc == want_rc && at == want_at && v == 0xdead,
		       "'%s' is refused with %d at byte %zu (rc %d at %zu)", s, want_rc, want_at,
		       rc, at);
}

static void dec_is(const char *s, unsigned flags, double max, int want_rc, double want)
{
	double v = -1;
	size_t at = 999;
	int rc = lex_decimal(s, flags, 0, max, &v, &at);
	tap_ok(rc == want_rc && (rc || v == want), "decimal '%s': rc %d value %.17g (got %d %.17g)",
	       s, want_rc, want, rc, v);
}

static void lines(void)
{
	struct lex_item it;
	char a[] = "  [cycle  busy ]  # a comment";
	tap_ok(lex_split(a, false, &it) == LEX_SECTION && strcmp(it.section, "cycle  busy") == 0,
	       "a section's text, trimmed, without brackets or comment");
	char b[] = "\tcommit  =  6 # six";
	tap_ok(lex_split(b, false, &it) == LEX_KEY_VALUE && strcmp(it.key, "commit") == 0 &&
	           strcmp(it.value, "6") == 0 && it.key_col == 2 && it.value_col == 13,
	       "key = value trimmed, key at column 2 and value at column 13 (a tab is one byte)");
	char c[] = "[cycle a";
	tap_ok(lex_split(c, false, &it) == LEX_BAD_SECTION && strcmp(it.text, "[cycle a") == 0,
	       "a section without ']' is refused with the line");
	char d[] = "   # only a comment\r";
	tap_ok(lex_split(d, false, &it) == LEX_BLANK, "blanks and a comment: a blank line");
	char e[] = "commit 6";
	tap_ok(lex_split(e, false, &it) == LEX_OTHER && strcmp(it.text, "commit 6") == 0,
	       "no '=': the line as it is");
	char f[] = "k = \"a # b\" # c";
	tap_ok(lex_split(f, true, &it) == LEX_KEY_VALUE && strcmp(it.value, "\"a # b\"") == 0,
	       "a '#' inside quotes is not a comment when quotes count");
	char g[] = "k = \"a # b\"";
	lex_split(g, false, &it);
	tap_is_str(it.value, "\"a", "without quotes, '#' starts the comment anywhere");
	char h[] = "=";
	tap_ok(lex_split(h, false, &it) == LEX_KEY_VALUE && !*it.key && !*it.value,
	       "'=' alone: an empty key and an empty value, for the caller to word");

	char w[] = "  a:1\tb:2  c ";
	char *words[3];
	tap_ok(lex_words(w, words, 3) == 3 && strcmp(words[2], "c") == 0, "three words");
	char w2[] = "a b c d";
	tap_is_u64(lex_words(w2, words, 3), 4, "more words than room: max + 1");

	char q[] = "\"say \\\"hi\\\"\\n\" rest";
	char *p = q, *s = lex_quoted(&p);
	tap_ok(s && strcmp(s, "say \"hi\"\n") == 0 && strcmp(p, " rest") == 0,
	       "a quoted string with \\\" and \\n, and what follows it");
	char q2[] = "\"open";
	p = q2;
	tap_ok(!lex_quoted(&p) && p == q2 + 5, "an unclosed string: NULL at the end of the line");
	char q3[] = "\"a\\qb\"";
	p = q3;
	tap_ok(!lex_quoted(&p) && p == q3 + 2, "an unknown escape: NULL at its backslash");
}

static void integers(void)
{
	const unsigned H = LEX_NUM_HEX;
	u64_is("0", 0, 0, UINT64_MAX, LEX_NUM_OK, 0, 0);
	u64_is("18446744073709551615", 0, 0, UINT64_MAX, LEX_NUM_OK, UINT64_MAX, 0);
	u64_is("18446744073709551616", 0, 0, UINT64_MAX, LEX_NUM_EWIDE, 0, 0);
	u64_is("0xffffffffffffffff", H, 0, UINT64_MAX, LEX_NUM_OK, UINT64_MAX, 0);
	u64_is("0x10000000000000000", H, 0, UINT64_MAX, LEX_NUM_EWIDE, 0, 0);
	u64_is("0x1f", 0, 0, UINT64_MAX, LEX_NUM_ENUMBER, 0, 1);
	u64_is("0x", H, 0, UINT64_MAX, LEX_NUM_ENUMBER, 0, 2);
	u64_is("", 0, 0, UINT64_MAX, LEX_NUM_ENUMBER, 0, 0);
	u64_is("-1", 0, 0, UINT64_MAX, LEX_NUM_ENEGATIVE, 0, 0);
	u64_is("12a", 0, 0, UINT64_MAX, LEX_NUM_ENUMBER, 0, 2);
	u64_is("0b101", LEX_NUM_BIN, 0, UINT64_MAX, LEX_NUM_OK, 5, 0);
	u64_is("0b102", LEX_NUM_BIN, 0, UINT64_MAX, LEX_NUM_ENUMBER, 0, 4);
	u64_is("r1f", LEX_NUM_RHEX, 0, UINT64_MAX, LEX_NUM_OK, 31, 0);
	u64_is("0x4000_0035", H | LEX_NUM_GROUPS, 0, UINT64_MAX, LEX_NUM_OK, 0x40000035, 0);
	u64_is("_1", LEX_NUM_GROUPS, 0, UINT64_MAX, LEX_NUM_ENUMBER, 0, 0);
	/* the caller's range, both ends */
	u64_is("1", 0, 1, 63, LEX_NUM_OK, 1, 0);
	u64_is("63", 0, 1, 63, LEX_NUM_OK, 63, 0);
	u64_is("0", 0, 1, 63, LEX_NUM_ERANGE, 0, 0);
	u64_is("64", 0, 1, 63, LEX_NUM_ERANGE, 0, 0);
	/* sizes: 2^10 apart */
	u64_is("4k", LEX_NUM_SIZE, 0, UINT64_MAX, LEX_NUM_OK, 4096, 0);
	u64_is("1M", LEX_NUM_SIZE, 0, UINT64_MAX, LEX_NUM_OK, 1048576, 0);
	u64_is("3g", LEX_NUM_SIZE, 0, UINT64_MAX, LEX_NUM_OK, UINT64_C(3) << 30, 0);
	u64_is("16777215T", LEX_NUM_SIZE, 0, UINT64_MAX, LEX_NUM_OK, UINT64_C(16777215) << 40, 0);
	u64_is("16777216T", LEX_NUM_SIZE, 0, UINT64_MAX, LEX_NUM_EWIDE, 0, 0);
	u64_is("4q", LEX_NUM_SIZE, 0, UINT64_MAX, LEX_NUM_EUNIT, 0, 1);
	u64_is("4kb", LEX_NUM_SIZE, 0, UINT64_MAX, LEX_NUM_EUNIT, 0, 1);
	u64_is("4k", 0, 0, UINT64_MAX, LEX_NUM_ENUMBER, 0, 1);
	/* e notation, as the emulator options take cycle counts */
	u64_is("1e6", LEX_NUM_EXP, 0, UINT64_MAX, LEX_NUM_OK, 1000000, 0);
	u64_is("2.5e3", LEX_NUM_EXP, 0, UINT64_MAX, LEX_NUM_OK, 2500, 0);
	u64_is("1E+2", LEX_NUM_EXP, 0, UINT64_MAX, LEX_NUM_OK, 100, 0);
	u64_is("1200e-2", LEX_NUM_EXP, 0, UINT64_MAX, LEX_NUM_OK, 12, 0);
	u64_is("1.25e1", LEX_NUM_EXP, 0, UINT64_MAX, LEX_NUM_EWHOLE, 0, 0);
	u64_is("1e19", LEX_NUM_EXP, 0, UINT64_MAX, LEX_NUM_OK, UINT64_C(10000000000000000000), 0);
	u64_is("2e19", LEX_NUM_EXP, 0, UINT64_MAX, LEX_NUM_EWIDE, 0, 0);
	u64_is("0e999999", LEX_NUM_EXP, 0, UINT64_MAX, LEX_NUM_OK, 0, 0);
	u64_is("1e", LEX_NUM_EXP, 0, UINT64_MAX, LEX_NUM_ENUMBER, 0, 2);
	u64_is("1e6", 0, 0, UINT64_MAX, LEX_NUM_ENUMBER, 0, 1);
	u64_is("1e6", LEX_NUM_EXP, 1, 100000, LEX_NUM_ERANGE, 0, 0);

	uint64_t lo = 0, hi = 0;
	size_t at = 0;
	tap_ok(lex_range("7", 0, 1, 100, &lo, &hi, &at) == 0 && lo == 7 && hi == 7, "N is N..N");
	tap_ok(lex_range("2..100", 0, 1, 100, &lo, &hi, &at) == 0 && lo == 2 && hi == 100,
	       "LO..HI at the top of the range");
	tap_ok(lex_range("20..10", 0, 1, 100, &lo, &hi, &at) == LEX_NUM_ERANGE,
	       "LO above HI is out of range");
	tap_ok(lex_range("2..1x", 0, 1, 100, &lo, &hi, &at) == LEX_NUM_ENUMBER && at == 4,
	       "a bad HI: its byte counted from the start of the range (4, got %zu)", at);
	tap_ok(lex_range("0..5", 0, 1, 100, &lo, &hi, &at) == LEX_NUM_ERANGE, "LO below min");

	/* str_parse_u64 reads through lex_u64: its messages and blanks */
	char msg[64];
	uint64_t v;
	tap_ok(str_parse_u64(" 0x4000_0000_0000_0035 ", &v, msg, sizeof(msg)) == 0 &&
	           v == UINT64_C(0x4000000000000035),
	       "str_parse_u64: blanks around, hex in groups");
	tap_ok(str_parse_u64("99999999999999999999", &v, msg, sizeof(msg)) == STR_PARSE_ERANGE &&
	           strcmp(msg, "'99999999999999999999' is wider than 64 bits") == 0,
	       "str_parse_u64: wider than 64 bits");
	tap_ok(str_parse_u64("1 2", &v, msg, sizeof(msg)) == STR_PARSE_ENUMBER,
	       "str_parse_u64: two numbers are not one");
}

static void decimals(void)
{
	dec_is("1", 0, 1, LEX_NUM_OK, 1.0);
	dec_is("0.25", 0, 1, LEX_NUM_OK, 0.25);
	dec_is(".5", 0, 1, LEX_NUM_OK, 0.5);
	dec_is("0.1", 0, 1, LEX_NUM_OK, 0.1);
	dec_is("0.333333333333333", 0, 1, LEX_NUM_OK, 0.333333333333333);
	dec_is("0.3333333333333333", 0, 1, LEX_NUM_ENUMBER, 0);
	dec_is("1.0000001", 0, 1, LEX_NUM_ERANGE, 0);
	dec_is("-0.5", 0, 1, LEX_NUM_ENEGATIVE, 0);
	dec_is(".", 0, 1, LEX_NUM_ENUMBER, 0);
	dec_is("0.5.", 0, 1, LEX_NUM_ENUMBER, 0);
	dec_is("25%", LEX_NUM_PERCENT, 1, LEX_NUM_OK, 0.25);
	dec_is("25%", 0, 1, LEX_NUM_EUNIT, 0);
	dec_is("2.5e-3", LEX_NUM_EXP, 1, LEX_NUM_OK, 2.5e-3);
	dec_is("123456789012345e7", LEX_NUM_EXP, 1e308, LEX_NUM_OK, 123456789012345e7);
	double big = 0;
	tap_ok(lex_decimal("1e300", LEX_NUM_EXP, 0, 1e308, &big, NULL) == 0 &&
	           big / 1e300 - 1 < 1e-15 && 1 - big / 1e300 < 1e-15,
	       "1e300 (past 10^22: within a few ulps)");
	dec_is("1e400", LEX_NUM_EXP, 1e308, LEX_NUM_ERANGE, 0);
	dec_is("3x", 0, 10, LEX_NUM_EUNIT, 0);
}

static void diags(void)
{
	struct hpm_diag d = {.file = "t.profile"};
	char buf[128];
	tap_ok(!hpm_diag_set(&d, 4, 12, "bad share '%s'", "x"), "hpm_diag_set returns false");
	tap_is_str(hpm_diag_format(&d, buf, sizeof(buf)), "t.profile:4: column 12: bad share 'x'",
	           "FILE:LINE: column N: reason");
	hpm_diag_set(&d, 4, 0, "no '='");
	tap_is_str(hpm_diag_format(&d, buf, sizeof(buf)), "t.profile:4: no '='",
	           "no column: FILE:LINE: reason");
	hpm_diag_set(&d, 0, 0, "no 'name'");
	tap_is_str(hpm_diag_format(&d, buf, sizeof(buf)), "t.profile: no 'name'",
	           "no line: FILE: reason");
	d.file = NULL;
	hpm_diag_set(&d, 3, 2, "a\tb\n");
	tap_is_str(hpm_diag_format(&d, buf, sizeof(buf)), "a?b?",
	           "no file: the reason alone, control characters as '?'");
	d.file = "f";
	hpm_diag_set(&d, 1, 1, "%s", "0123456789");
	tap_is_str(hpm_diag_format(&d, buf, 12), "f:1: column", "cut to the buffer, terminated");
}

int main(void)
{
	lines();
	integers();
	decimals();
	diags();
	return tap_done();
}

/* lex.h: the line-input kit: what every hand-written text parser needs.
 *
 * Owns: splitting one line of `[section]` / `key = value` text (comments,
 * blanks, columns), words and quoted strings, and the reading of numbers
 * as the inputs write them: integers (decimal, 0x hex, 0b binary, perf's
 * rHEX, '_' groups), sizes (4k, 1M), e notation (1e6), decimals and
 * percentages, N or LO..HI ranges, each against the caller's range. It
 * reports what is wrong as a code and a byte offset (the column of a
 * struct hpm_diag, util/diag.h); the caller words the message.
 */
#ifndef HPM_UTIL_LEX_H
#define HPM_UTIL_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------------ lines */

/* Whether c is a blank inside a line (a carriage return counts: files
 * written on Windows). */
static inline bool lex_is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* s without its leading and trailing blanks (the end cut in place). */
char *lex_trim(char *s);

/* Cuts s at its first '#' (outside a "quoted string" when quotes). */
void lex_strip_comment(char *s, bool quotes);

enum lex_kind {
	LEX_BLANK,       /* nothing but blanks and a comment */
	LEX_SECTION,     /* [text]: text in .section, trimmed */
	LEX_BAD_SECTION, /* starts with '[' but does not end with ']' */
	LEX_KEY_VALUE,   /* key = value, both trimmed (either may be empty) */
	LEX_OTHER,       /* anything else: the trimmed line in .text */
};

/* One line, split in place by lex_split. Columns are 1-based byte offsets
 * into the line as given. */
struct lex_item {
	enum lex_kind kind;
	char *text;    /* the line without comment and blanks */
	char *section; /* LEX_SECTION */
	char *key, *value;
	unsigned key_col, value_col;
};

/* Strips the comment (# to the end of the line; quotes as in
 * lex_strip_comment) and classifies the line. */
enum lex_kind lex_split(char *line, bool quotes, struct lex_item *it);

/* Splits s in place into blank-separated words; returns how many, or
 * max + 1 when there are more than max. */
unsigned lex_words(char *s, char **words, unsigned max);

/* Reads the "quoted string" at *s (which must start with '"'): decodes
 * \" \\ \n \t in place, terminates it and moves *s past the closing quote.
 * Returns the decoded string, or NULL with *s at the offending byte (an
 * unknown escape, or the end of the line before the closing quote). */
char *lex_quoted(char **s);

/* ---------------------------------------------------------------- numbers */

/* The syntax a caller accepts, besides plain decimal digits. */
enum {
	LEX_NUM_HEX = 1u << 0,     /* 0x1f */
	LEX_NUM_BIN = 1u << 1,     /* 0b101 */
	LEX_NUM_RHEX = 1u << 2,    /* r1f, as perf writes raw events */
	LEX_NUM_GROUPS = 1u << 3,  /* '_' between digits: 0x4000_0035 */
	LEX_NUM_SIZE = 1u << 4,    /* a k, M, G or T suffix (either case), 2^10.. */
	LEX_NUM_EXP = 1u << 5,     /* e notation: 1e6, 2.5e3 (the result whole) */
	LEX_NUM_PERCENT = 1u << 6, /* lex_decimal: a '%' suffix, 25% = 0.25 */
};

enum lex_num_rc {
	LEX_NUM_OK = 0,
	LEX_NUM_ENUMBER = -1,  /* not a number (or more than 15 digits of a decimal) */
	LEX_NUM_EWIDE = -2,    /* a whole number wider than 64 bits */
	LEX_NUM_ERANGE = -3,   /* a number outside the caller's min..max */
	LEX_NUM_EUNIT = -4,    /* a suffix that is not a unit the caller takes */
	LEX_NUM_EWHOLE = -5,   /* e notation of a number that is not whole */
	LEX_NUM_ENEGATIVE = -6 /* a '-' sign: these numbers are never negative */
};

/* Reads all of s[0..len) as a whole number in min..max. Returns an enum
 * lex_num_rc; on failure *bad_at (when not NULL) is the offset of the byte
 * that is wrong (0 for the whole number). */
int lex_u64(const char *s, size_t len, unsigned flags, uint64_t min, uint64_t max, uint64_t *out,
            size_t *bad_at);

/* Reads all of s as a decimal in min..max without the locale (digits, one
 * '.', with LEX_NUM_EXP an exponent, with LEX_NUM_PERCENT a '%'): 1, 0.25,
 * .5, 2.5e-3, 25%. At most 15 significant digits, so that the result is
 * the correctly rounded double while the power of ten is within 10^-22 ..
 * 10^22 (beyond, within a few ulps). Returns an enum lex_num_rc. */
int lex_decimal(const char *s, unsigned flags, double min, double max, double *out, size_t *bad_at);

/* Reads N or LO..HI, each a lex_u64 with flags, min <= LO <= HI <= max
 * (N is LO = HI = N). LEX_NUM_ERANGE also when LO > HI. */
int lex_range(const char *s, unsigned flags, uint64_t min, uint64_t max, uint64_t *lo, uint64_t *hi,
              size_t *bad_at);

#endif

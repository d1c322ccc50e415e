/* str.h: small string helpers.
 *
 * Owns: escaping and sanitizing text for one-line messages, UTF-8 checks,
 * hex conversion, and the reading of a number as the command line writes
 * one (str_parse_u64, on util/lex.h's lex_u64). */
#ifndef HPM_UTIL_STR_H
#define HPM_UTIL_STR_H

#include <stddef.h>
#include <stdint.h>

/* Copy s into buf (always terminated), writing control and non-ASCII bytes
 * as \xNN, so text from the user can be quoted on one line of a message. */
/* Text appended to a fixed buffer, never past its end (what does not fit
 * is cut): {buf, len, 0} starts one; n is the length written so far. */
struct str_buf {
	char *buf;
	size_t len, n;
};
void str_buf_add(struct str_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A failed call's message into the caller's buffer (NULL or 0 long:
 * nothing), as a library reports errors without printing them. */
void str_seterr(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

char *str_escape(const char *s, char *buf, size_t len);
/* Replace control characters in place with '?'. */
void str_sanitize(char *s);

/* Length of the well-formed UTF-8 sequence (RFC 3629: no overlong forms,
 * surrogates or code points above U+10FFFF) at s, or 0 when the byte at s
 * does not start one. */
size_t str_utf8_seq_len(const char *s);
/* Whether all of s is well-formed UTF-8 (what JSON strings must be). */
int str_is_utf8(const char *s);
/* A new string: s with each byte that is not part of a well-formed UTF-8
 * sequence written as the four characters \xNN (lowercase hex); valid
 * text, control characters included, is kept as it is. For showing
 * arbitrary bytes (a command's arguments) as valid text. */
char *str_escape_utf8(const char *s);
/* A new string: s with control characters (0x00-0x1f, 0x7f) and each byte
 * that is not part of a well-formed UTF-8 sequence written as \xNN; other
 * text kept. For names read from a file (a perf.data's comm) that reach a
 * terminal: never an escape sequence, always valid text. */
char *str_escape_controls(const char *s);
/* Lowercase hexadecimal of the bytes of s, two digits a byte; a new string. */
char *str_to_hex(const char *s);
/* The bytes of a string of hexadecimal digits (either case), as a new
 * NUL-terminated string; NULL when hex is not an even number of hex digits
 * or encodes a NUL byte (a C string cannot hold one). */
char *str_from_hex(const char *hex);

/* What str_parse_u64 returns. */
enum str_parse_rc {
	STR_PARSE_OK = 0,
	STR_PARSE_ENUMBER = -1, /* not a number */
	STR_PARSE_ERANGE = -2,  /* a number wider than 64 bits */
};
/* Parse a number the way the command line takes them: decimal, 0x hex, 0b
 * binary or an r prefix for hex (perf's raw events), '_' between digits as
 * the hardware manuals group them, blanks around it. Returns an enum
 * str_parse_rc; on failure, when msg is not NULL, one sentence with s in
 * it ("'s' is not a number", "'s' is wider than 64 bits", control
 * characters as '?'). */
int str_parse_u64(const char *s, uint64_t *out, char *msg, size_t msglen);

#endif

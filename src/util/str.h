/* str.h: small string helpers. */
#ifndef HPM_UTIL_STR_H
#define HPM_UTIL_STR_H

#include <stddef.h>

/* Copy s into buf (always terminated), writing control and non-ASCII bytes
 * as \xNN, so text from the user can be quoted on one line of a message. */
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
/* Lowercase hexadecimal of the bytes of s, two digits a byte; a new string. */
char *str_to_hex(const char *s);
/* The bytes of a string of hexadecimal digits (either case), as a new
 * NUL-terminated string; NULL when hex is not an even number of hex digits
 * or encodes a NUL byte (a C string cannot hold one). */
char *str_from_hex(const char *hex);

#endif

/* str.c: see str.h. */
#include "util/str.h"

#include <stdarg.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/lex.h"
#include "util/xalloc.h"

char *str_escape(const char *s, char *buf, size_t len)
{
	size_t n = 0;
	if (!len)
		return buf;
	for (; *s && n + 1 < len; s++) {
		unsigned char c = (unsigned char)*s;
		if (c >= 0x20 && c < 0x7f) {
			buf[n++] = (char)c;
		} else {
			if (n + 5 > len)
				break;
			snprintf(buf + n, len - n, "\\x%02x", c);
			n += 4;
		}
	}
	buf[n] = '\0';
	return buf;
}

void str_sanitize(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s == 0x7f)
			*s = '?';
}

size_t str_utf8_seq_len(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n;
	if (u[0] < 0x80)
		return 1;
	if (u[0] >= 0xc2 && u[0] <= 0xdf)
		n = 2;
	else if (u[0] >= 0xe0 && u[0] <= 0xef)
		n = 3;
	else if (u[0] >= 0xf0 && u[0] <= 0xf4)
		n = 4;
	else
		return 0;
	/* the second byte's range excludes overlong forms, surrogates and
	 * code points above U+10FFFF */
	if (u[0] == 0xe0)
		lo = 0xa0;
	else if (u[0] == 0xed)
		hi = 0x9f;
	else if (u[0] == 0xf0)
		lo = 0x90;
	else if (u[0] == 0xf4)
		hi = 0x8f;
	if (u[1] < lo || u[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (u[i] < 0x80 || u[i] > 0xbf)
			return 0;
	return n;
}

int str_is_utf8(const char *s)
{
	while (*s) {
		size_t n = str_utf8_seq_len(s);
		if (!n)
			return 0;
		s += n;
	}
	return 1;
}

char *str_escape_utf8(const char *s)
{
	char *out = xmalloc(4 * strlen(s) + 1), *o = out;
	while (*s) {
		size_t n = str_utf8_seq_len(s);
		if (n) {
			memcpy(o, s, n);
			o += n;
			s += n;
		} else {
			o += sprintf(o, "\\x%02x", (unsigned char)*s++);
		}
	}
	*o = '\0';
	return out;
}

char *str_escape_controls(const char *s)
{
	char *out = xmalloc(4 * strlen(s) + 1), *o = out;
	while (*s) {
		unsigned char c = (unsigned char)*s;
		size_t n = c < 0x20 || c == 0x7f ? 0 : str_utf8_seq_len(s);
		if (n) {
			memcpy(o, s, n);
			o += n;
			s += n;
		} else {
			o += sprintf(o, "\\x%02x", c);
			s++;
		}
	}
	*o = '\0';
	return out;
}

char *str_to_hex(const char *s)
{
	size_t len = strlen(s);
	char *out = xmalloc(2 * len + 1);
	for (size_t i = 0; i < len; i++)
		sprintf(out + 2 * i, "%02x", (unsigned char)s[i]);
	out[2 * len] = '\0';
	return out;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

char *str_from_hex(const char *hex)
{
	size_t len = strlen(hex);
	if (len % 2)
		return NULL;
	char *out = xmalloc(len / 2 + 1);
	for (size_t i = 0; i < len / 2; i++) {
		int h = hex_digit(hex[2 * i]), l = hex_digit(hex[2 * i + 1]);
		if (h < 0 || l < 0 || (h | l) == 0) {
			free(out);
			return NULL;
		}
		out[i] = (char)(h << 4 | l);
	}
	out[len / 2] = '\0';
	return out;
}

/* The message of a failed str_parse_u64, when the caller wants one. */
static int parse_fail(int rc, const char *s, char *msg, size_t msglen)
{
	if (msg && msglen) {
		snprintf(msg, msglen,
		         rc == STR_PARSE_ERANGE ? "'%s' is wider than 64 bits"
		                                : "'%s' is not a number",
		         s);
		str_sanitize(msg);
	}
	return rc;
}

int str_parse_u64(const char *s, uint64_t *out, char *msg, size_t msglen)
{
	const char *p = s, *end;

	while (isspace((unsigned char)*p))
		p++;
	for (end = p; *end && !isspace((unsigned char)*end); end++)
		;
	for (const char *q = end; *q; q++)
		if (!isspace((unsigned char)*q))
			return parse_fail(STR_PARSE_ENUMBER, s, msg, msglen);
	int rc =
	    lex_u64(p, (size_t)(end - p), LEX_NUM_HEX | LEX_NUM_BIN | LEX_NUM_RHEX | LEX_NUM_GROUPS,
	            0, UINT64_MAX, out, NULL);
	if (rc == LEX_NUM_EWIDE)
		return parse_fail(STR_PARSE_ERANGE, s, msg, msglen);
	if (rc)
		return parse_fail(STR_PARSE_ENUMBER, s, msg, msglen);
	return STR_PARSE_OK;
}

void str_buf_add(struct str_buf *b, const char *fmt, ...)
{
	if (b->n >= b->len)
		return;
	va_list ap;
	va_start(ap, fmt);
	int w = vsnprintf(b->buf + b->n, b->len - b->n, fmt, ap);
	va_end(ap);
	if (w > 0)
		b->n += (size_t)w;
}

void str_seterr(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;
	if (!err || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

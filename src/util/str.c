/* str.c: see str.h. */
#include "util/str.h"

#include <stdio.h>

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

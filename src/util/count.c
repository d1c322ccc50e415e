/* count.c: see count.h. */
#include <string.h>

#include "util/count.h"

const char *count_str(hpm_u128 v, bool grouped, char *buf, size_t len)
{
	char digits[40];
	size_t n = 0, o = 0;
	do {
		digits[n++] = (char)('0' + (unsigned)(v % 10));
		v /= 10;
	} while (v);
	/* digits[] is least significant first */
	for (size_t i = n; i-- > 0 && o + 1 < len;) {
		buf[o++] = digits[i];
		if (grouped && i && i % 3 == 0 && o + 1 < len)
			buf[o++] = ',';
	}
	if (len)
		buf[o < len ? o : len - 1] = '\0';
	return buf;
}

bool count_parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		unsigned d = (unsigned)(*s - '0');
		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

hpm_u128 count_muldiv(uint64_t a, uint64_t b, uint64_t c)
{
	/* a * b < 2^128 always; the quotient too, so nothing saturates here */
	if (!c)
		return 0;
	return (hpm_u128)a * b / c;
}

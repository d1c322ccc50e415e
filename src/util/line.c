/* line.c: bounded line reading (see line.h). */
#include "config.h"

#include <errno.h>

#include "util/line.h"
#include "util/xalloc.h"

ssize_t util_read_line(FILE *f, char **buf, size_t *cap, size_t max)
{
	size_t n = 0;
	int c;

	for (;;) {
		c = getc_unlocked(f);
		if (c == EOF || c == '\n')
			break;
		if (n == max)
			return UTIL_LINE_TOO_LONG;
		if (n + 1 >= *cap) {
			size_t want = *cap ? 2 * *cap : 256;
			if (want > max + 1)
				want = max + 1;
			*buf = xrealloc(*buf, want);
			*cap = want;
		}
		(*buf)[n++] = (char)c;
	}
	if (c == EOF && ferror(f))
		return UTIL_LINE_ERROR;
	if (c == EOF && n == 0)
		return UTIL_LINE_EOF;
	if (!*buf) {
		*buf = xmalloc(1);
		*cap = 1;
	}
	(*buf)[n] = '\0';
	return (ssize_t)n;
}

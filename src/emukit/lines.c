/* lines.c: output a line at a time (see emukit/lines.h). */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emukit/lines.h"
#include "util/xalloc.h"

void hpm_emu_linef(void (*out)(void *ctx, const char *line), void *ctx, const char *fmt, ...)
{
	char small[512], *text = small;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(small)) {
		text = xmalloc((size_t)n + 1);
		va_start(ap, fmt);
		vsnprintf(text, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	for (char *line = text, *nl; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl) {
			out(ctx, line); /* a last line without its newline */
			break;
		}
		*nl = '\0';
		out(ctx, line);
	}
	if (text != small)
		free(text);
}

const char *hpm_emu_pct(double v, char buf[16])
{
	if (!isfinite(v))
		return "n/a";
	snprintf(buf, 16, "%.1f", 100 * v);
	return buf;
}

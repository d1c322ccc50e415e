/* diag.c: see diag.h. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>

#include "util/diag.h"
#include "util/str.h"

bool hpm_diag_vset(struct hpm_diag *d, unsigned line, unsigned column, const char *fmt, va_list ap)
{
	vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
	str_sanitize(d->msg);
	d->line = line;
	d->column = column;
	return false;
}

bool hpm_diag_set(struct hpm_diag *d, unsigned line, unsigned column, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	hpm_diag_vset(d, line, column, fmt, ap);
	va_end(ap);
	return false;
}

int hpm_diag_vfail(struct hpm_diag *d, int code, int pos, const char *fmt, va_list ap)
{
	if (!d)
		return code;
	d->file = NULL;
	d->code = code;
	hpm_diag_vset(d, 0, pos >= 0 ? (unsigned)pos + 1 : 0, fmt, ap);
	return code;
}

int hpm_diag_fail(struct hpm_diag *d, int code, int pos, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	hpm_diag_vfail(d, code, pos, fmt, ap);
	va_end(ap);
	return code;
}

char *hpm_diag_format(const struct hpm_diag *d, char *buf, size_t len)
{
	struct str_buf b = {buf, len, 0};
	if (!len)
		return buf;
	buf[0] = '\0';
	if (d->file)
		str_buf_add(&b, "%s:", d->file);
	if (d->file && d->line)
		str_buf_add(&b, "%u:", d->line);
	if (d->file && d->line && d->column)
		str_buf_add(&b, " column %u:", d->column);
	str_buf_add(&b, "%s%s", b.n ? " " : "", d->msg);
	return buf;
}

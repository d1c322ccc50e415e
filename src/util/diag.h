/* diag.h: the one diagnostic of a rejected input.
 *
 * Owns: struct hpm_diag, where library code that reads a file (profiles,
 * traces, scripts, top.conf, weights) or one string (an event, a metric
 * expression, modifiers: the PMU models and the metric engine) puts what is
 * wrong and where, and the one formatter of it, "FILE:LINE: column N:
 * reason". Library code fills a diag and returns; only the CLI prints it.
 */
#ifndef HPM_UTIL_DIAG_H
#define HPM_UTIL_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

struct hpm_diag {
	const char *file; /* the input's name; NULL: none (a string, not a file) */
	unsigned line;    /* 1-based; 0: the input as a whole */
	unsigned column;  /* 1-based byte column in the line; 0: the whole line */
	int code;         /* the operation's negative code (the enum of its header:
	                   * HPM_MODEL_E*, METRIC_E*, ...), 0 when it has none */
	char msg[480];    /* the reason, one line, without the place */
};

/* Records the reason (printf-style) and the place; returns false, so that a
 * parser can `return hpm_diag_set(...)` from a bool function. Control
 * characters in the reason become '?': it stays one line. */
bool hpm_diag_set(struct hpm_diag *d, unsigned line, unsigned column, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* hpm_diag_set with the arguments as a va_list, for a parser's own
 * printf-style wrapper. */
bool hpm_diag_vset(struct hpm_diag *d, unsigned line, unsigned column, const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));

/* For an operation on one string (no file, no line): records code, the
 * 0-based byte offset pos in the string (-1: the string as a whole) as the
 * column, and the reason (printf-style, one line as hpm_diag_set's); returns
 * code, so that an operation can `return hpm_diag_fail(...)`. d may be NULL
 * (a caller that wants the code only). */
int hpm_diag_fail(struct hpm_diag *d, int code, int pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* hpm_diag_fail with the arguments as a va_list. */
int hpm_diag_vfail(struct hpm_diag *d, int code, int pos, const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));

/* The 0-based byte offset the column names, -1 when none. */
static inline int hpm_diag_offset(const struct hpm_diag *d)
{
	return d->column ? (int)d->column - 1 : -1;
}

/* The diag as one line, "FILE:LINE: column N: reason", leaving out what is
 * not known ("FILE:LINE: reason", "FILE: reason", "reason"), into buf
 * (always terminated, cut if it does not fit). Returns buf. */
char *hpm_diag_format(const struct hpm_diag *d, char *buf, size_t len);

#endif

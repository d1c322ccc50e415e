/* tap.c: see tap.h. */
#include "tap.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static unsigned tap_count;    /* test points emitted */
static unsigned tap_failures; /* of which failed */
static bool tap_planned;

void tap_plan(unsigned n)
{
	printf("1..%u\n", n);
	tap_planned = true;
}

static bool tap_vok(bool cond, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
static bool tap_vok(bool cond, const char *fmt, va_list ap)
{
	tap_count++;
	if (!cond)
		tap_failures++;
	printf("%sok %u - ", cond ? "" : "not ", tap_count);
	vprintf(fmt, ap);
	putchar('\n');
	fflush(stdout);
	return cond;
}

bool tap_ok(bool cond, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	tap_vok(cond, fmt, ap);
	va_end(ap);
	return cond;
}

void tap_diag(const char *fmt, ...)
{
	va_list ap;
	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

void tap_skip(const char *why)
{
	tap_count++;
	printf("ok %u # SKIP %s\n", tap_count, why);
}

bool tap_is_u64(uint64_t got, uint64_t want, const char *fmt, ...)
{
	va_list ap;
	bool cond = got == want;
	va_start(ap, fmt);
	tap_vok(cond, fmt, ap);
	va_end(ap);
	if (!cond)
		tap_diag("got 0x%016" PRIx64 " (%" PRIu64 "), want 0x%016" PRIx64 " (%" PRIu64 ")",
		         got, got, want, want);
	return cond;
}

bool tap_is_str(const char *got, const char *want, const char *fmt, ...)
{
	va_list ap;
	bool cond = got && want && strcmp(got, want) == 0;
	va_start(ap, fmt);
	tap_vok(cond, fmt, ap);
	va_end(ap);
	if (!cond)
		tap_diag("got '%s', want '%s'", got ? got : "(null)", want ? want : "(null)");
	return cond;
}

int tap_done(void)
{
	if (!tap_planned)
		printf("1..%u\n", tap_count);
	return tap_failures ? 1 : 0;
}

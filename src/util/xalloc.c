/* xalloc.c: see xalloc.h. */
#include "util/xalloc.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void xalloc_fail(size_t size) __attribute__((noreturn));
static void xalloc_fail(size_t size)
{
	fprintf(stderr, "hpmstat: out of memory allocating %zu bytes\n", size);
	abort();
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (!p)
		xalloc_fail(size);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);
	if (!p)
		xalloc_fail(nmemb * size);
	return p;
}

void *xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);
	if (!p)
		xalloc_fail(size);
	return p;
}

void *xreallocarray(void *ptr, size_t nmemb, size_t size)
{
	if (size && nmemb > SIZE_MAX / size)
		xalloc_fail(SIZE_MAX);
	return xrealloc(ptr, nmemb * size);
}

void *xgrow(void *ptr, size_t n, size_t size)
{
	if (n & (n - 1))
		return ptr; /* room up to the next power of two */
	return xreallocarray(ptr, n ? 2 * n : 1, size);
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *p = xmalloc(len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;
	va_start(ap, fmt);
	int n = vasprintf(&p, fmt, ap);
	va_end(ap);
	if (n < 0)
		xalloc_fail(strlen(fmt));
	return p;
}

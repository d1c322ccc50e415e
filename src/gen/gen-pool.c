/* gen-pool.c: the generators' string pool; see gen-pool.h. */
#include "gen/gen-pool.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "gen/gen-die.h"

static void __attribute__((noreturn, format(printf, 2, 3)))
pool_die(const char *prog, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	gen_vdie(prog, NULL, fmt, ap);
}

/* FNV-1a: the pool is a build-time table of a few thousand texts. */
static size_t hash(const char *s)
{
	uint64_t h = UINT64_C(14695981039346656037);
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * UINT64_C(1099511628211);
	return (size_t)h;
}

static void grow_slots(struct gen_pool *pool, const char *prog)
{
	size_t n = pool->nr_slots ? pool->nr_slots * 2 : 1024;
	uint32_t *slot = calloc(n, sizeof(*slot));
	if (!slot)
		pool_die(prog, "out of memory");
	for (size_t i = 0; i < pool->nr_slots; i++) {
		if (!pool->slot[i])
			continue;
		size_t j = hash(pool->buf + pool->slot[i] - 1) & (n - 1);
		while (slot[j])
			j = (j + 1) & (n - 1);
		slot[j] = pool->slot[i];
	}
	free(pool->slot);
	pool->slot = slot;
	pool->nr_slots = n;
}

uint32_t gen_pool_add(struct gen_pool *pool, const char *prog, const char *s)
{
	if (2 * (pool->nr + 1) > pool->nr_slots)
		grow_slots(pool, prog);
	size_t j = hash(s) & (pool->nr_slots - 1);
	for (; pool->slot[j]; j = (j + 1) & (pool->nr_slots - 1))
		if (strcmp(pool->buf + pool->slot[j] - 1, s) == 0)
			return pool->slot[j] - 1;
	size_t n = strlen(s) + 1;
	if (pool->len + n >= UINT32_MAX)
		pool_die(prog, "string pool over 4 GiB");
	if (pool->len + n > pool->cap) {
		size_t cap = pool->cap ? pool->cap : 65536;
		while (cap < pool->len + n)
			cap *= 2;
		char *buf = realloc(pool->buf, cap);
		if (!buf)
			pool_die(prog, "out of memory");
		pool->buf = buf;
		pool->cap = cap;
	}
	uint32_t off = (uint32_t)pool->len;
	memcpy(pool->buf + off, s, n);
	pool->len += n;
	pool->slot[j] = off + 1;
	pool->nr++;
	return off;
}

void gen_pool_put(FILE *out, const struct gen_pool *pool, const char *var, int is_static)
{
	fprintf(out, "%sconst char %s[] =\n", is_static ? "static " : "", var);
	gen_pool_put_literal(out, pool);
	fputs(";\n\n", out);
}

void gen_pool_put_literal(FILE *out, const struct gen_pool *pool)
{
	if (!pool->len)
		fputs("\t\"\"", out);
	/* one literal a text, its NUL written out: "\0" cannot swallow the
	 * next text's digits, which start a literal of their own */
	for (size_t off = 0; off < pool->len; off += strlen(pool->buf + off) + 1) {
		fputs(off ? "\n\t\"" : "\t\"", out);
		gen_put_chars(out, pool->buf + off);
		fputs("\\0\"", out);
	}
}

void gen_pool_free(struct gen_pool *pool)
{
	free(pool->buf);
	free(pool->slot);
	*pool = (struct gen_pool){0};
}

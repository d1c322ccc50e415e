/* cpulist.c: CPU lists as perf and sysfs write them (cpulist.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/cpulist.h"
#include "util/str.h"
#include "util/xalloc.h"

#define MAX_CPU_ID 65535 /* far above any NR_CPUS; bounds a -C range */

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

static bool parse_cpu(const char **pp, int *out)
{
	const char *p = *pp;
	if (*p < '0' || *p > '9')
		return false;
	long v = 0;
	while (*p >= '0' && *p <= '9') {
		v = v * 10 + (*p - '0');
		if (v > MAX_CPU_ID)
			return false;
		p++;
	}
	*out = (int)v;
	*pp = p;
	return true;
}

int hpm_cpu_list_parse(const char *s, int **cpus, unsigned *nr, char *err, size_t errlen)
{
	char buf[96];
	size_t cap = 16;
	unsigned n = 0;
	int *v = xmalloc(cap * sizeof(*v));
	const char *p = s;

	str_escape(s, buf, sizeof(buf));
	if (!*p) {
		snprintf(err, errlen, "empty CPU list");
		goto fail;
	}
	for (;;) {
		int lo, hi;
		const char *at = p;
		if (!parse_cpu(&p, &lo)) {
			snprintf(err, errlen,
			         "bad CPU list '%s': expected a CPU number (0..%d) at '%.16s'", buf,
			         MAX_CPU_ID, at);
			goto fail;
		}
		hi = lo;
		if (*p == '-') {
			p++;
			at = p;
			if (!parse_cpu(&p, &hi)) {
				snprintf(
				    err, errlen,
				    "bad CPU list '%s': expected a CPU number after '-' at '%.16s'",
				    buf, at);
				goto fail;
			}
			if (hi < lo) {
				snprintf(err, errlen,
				         "bad CPU list '%s': range %d-%d ends before it starts",
				         buf, lo, hi);
				goto fail;
			}
		}
		for (int c = lo; c <= hi; c++) {
			if (n == cap)
				v = xreallocarray(v, cap *= 2, sizeof(*v));
			v[n++] = c;
		}
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p) {
			snprintf(err, errlen, "bad CPU list '%s': unexpected '%c'", buf, *p);
			goto fail;
		}
		break;
	}
	qsort(v, n, sizeof(*v), cmp_int);
	unsigned u = 0;
	for (unsigned i = 0; i < n; i++)
		if (u == 0 || v[u - 1] != v[i])
			v[u++] = v[i];
	*cpus = v;
	*nr = u;
	return 0;
fail:
	free(v);
	return -EINVAL;
}

bool hpm_cpu_list_has(const int *cpus, unsigned nr, int cpu)
{
	return nr && bsearch(&cpu, cpus, nr, sizeof(*cpus), cmp_int);
}

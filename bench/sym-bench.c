/* sym-bench: the symbolizer's speed (make bench-sym; figures in
 * bench/README.md). A report resolves every sample, so the target is
 * reporting 1e6 samples in well under the 2 s of issue 15, DSO loading
 * included.
 *
 * The maps are this process's own (/proc/self/maps, as MMAP2 records give
 * them: the executable, libc, ld.so, the vDSO). Three streams of N
 * addresses (default 1e6; seed fixed): "uniform", addresses drawn evenly
 * over the executable maps and, one in ten, over the kernel's text (the
 * worst case: no two neighbours alike); "hot", 90 % from eight hot
 * addresses and 10 % uniform, as a profile looks; and the first pass of
 * "uniform" again with a fresh symbolizer, which counts reading the ELF
 * files and kallsyms (each once).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sym/sym.h"
#include "util/clock.h"

struct range {
	uint64_t lo, hi;
};

static uint64_t rng = 88172645463325252ull;
static uint64_t xorshift(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static size_t map_self(struct hpm_syms *s, struct range *text, size_t max)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[1200], perm[8];
	size_t n = 0;

	while (f && fgets(line, sizeof line, f)) {
		unsigned long long lo, hi, off;
		char path[1024] = "";

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %1023s", &lo, &hi, perm, &off, path) <
		        4 ||
		    !path[0])
			continue;
		hpm_syms_mmap(s, getpid(), lo, hi - lo, off, path, NULL, 0, HPM_SYM_USER);
		if (perm[2] == 'x' && n < max && strcmp(path, "[vsyscall]"))
			text[n++] = (struct range){lo, hi};
	}
	if (f)
		fclose(f);
	return n;
}

/* the kernel's text: _stext to _etext from kallsyms, when readable */
static struct range kernel_text(void)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512];
	struct range r = {0, 0};

	while (f && fgets(line, sizeof line, f)) {
		unsigned long long a;
		char type, name[256];

		if (sscanf(line, "%llx %c %255s", &a, &type, name) != 3)
			continue;
		if (!strcmp(name, "_stext"))
			r.lo = a;
		else if (!strcmp(name, "_etext"))
			r.hi = a;
	}
	if (f)
		fclose(f);
	if (r.hi <= r.lo)
		r.lo = r.hi = 0;
	return r;
}

static double run(struct hpm_syms *s, const uint64_t *addr, const uint8_t *kern, size_t n,
                  size_t *named)
{
	uint64_t t0 = hpm_clock_ns();
	struct hpm_sym_loc l;
	pid_t pid = getpid();

	*named = 0;
	for (size_t i = 0; i < n; i++) {
		hpm_syms_resolve(s, pid, addr[i], kern[i] ? HPM_SYM_KERNEL : HPM_SYM_USER, &l);
		*named += l.name != NULL;
	}
	return (double)(hpm_clock_ns() - t0) / 1e9;
}

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? strtoul(argv[1], NULL, 0) : 1000000, nt, i, named;
	struct range text[64], k = kernel_text();
	struct hpm_syms *s;
	uint64_t *uni, *hot, total = 0;
	size_t hot8[8];
	uint8_t *ukern, *hkern;
	double t;

	if (!n)
		return fprintf(stderr, "sym-bench: N must be positive\n"), 1;
	hpm_syms_new(NULL, &s);
	nt = map_self(s, text, 64);
	if (!nt)
		return fprintf(stderr, "sym-bench: no executable maps in /proc/self/maps\n"), 1;
	for (i = 0; i < nt; i++)
		total += text[i].hi - text[i].lo;
	uni = malloc(n * sizeof *uni);
	hot = malloc(n * sizeof *hot);
	ukern = calloc(n, 1);
	hkern = calloc(n, 1);
	if (!uni || !hot || !ukern || !hkern)
		return fprintf(stderr, "sym-bench: out of memory\n"), 1;
	for (i = 0; i < n; i++) {
		if (k.hi && xorshift() % 10 == 0) {
			uni[i] = k.lo + xorshift() % (k.hi - k.lo);
			ukern[i] = 1;
			continue;
		}
		uint64_t r = xorshift() % total;
		size_t j = 0;

		while (r >= text[j].hi - text[j].lo) {
			r -= text[j].hi - text[j].lo;
			j++;
		}
		uni[i] = text[j].lo + r;
	}
	/* eight hot samples of the uniform stream (their space with them) */
	for (i = 0; i < 8; i++)
		hot8[i] = xorshift() % n;
	for (i = 0; i < n; i++) {
		size_t j = xorshift() % 10 ? hot8[xorshift() % 8] : xorshift() % n;

		hot[i] = uni[j];
		hkern[i] = ukern[j];
	}

	printf("sym-bench: %zu addresses, %zu executable maps (%" PRIu64
	       " bytes), kernel text %s\n",
	       n, nt, total, k.hi ? "from /proc/kallsyms" : "not readable (no kernel addresses)");
	t = run(s, uni, ukern, n, &named);
	printf("first pass (ELF files and kallsyms read): %.3f s, %.0f ns/address, %zu named\n", t,
	       t * 1e9 / (double)n, named);
	t = run(s, uni, ukern, n, &named);
	printf("uniform: %.3f s, %.0f ns/address, %.2f M addresses/s, %zu named\n", t,
	       t * 1e9 / (double)n, (double)n / t / 1e6, named);
	t = run(s, hot, hkern, n, &named);
	printf(
	    "hot (90 %% on 8 addresses): %.3f s, %.0f ns/address, %.2f M addresses/s, %zu named\n",
	    t, t * 1e9 / (double)n, (double)n / t / 1e6, named);
	hpm_syms_free(s);
	free(uni);
	free(hot);
	free(ukern);
	free(hkern);
	return 0;
}

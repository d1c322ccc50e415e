/* driver.c: a libFuzzer-compatible driver for make check's smoke runs, so the
 * fuzz targets run on every build, with gcc as with clang.
 *
 *   fuzz-X [-n ITERATIONS] [-s SEED] CORPUS_DIR...
 * Runs every corpus file through LLVMFuzzerTestOneInput, then ITERATIONS
 * inputs mutated from them (byte flips, inserts, deletes, splices, and
 * tokens from the target's dictionary). A failing input aborts, and the
 * driver first writes it to ./fuzz-crash-input so it can be replayed.
 * Prints one TAP line.
 */
#include <dirent.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/* the target's dictionary: tokens worth inserting */
extern const char *const fuzz_dictionary[];

#define FUZZ_MAX_INPUT 8192 /* the built-in profiles are 3-5 KB */
#define MAX_CORPUS     512

static uint8_t cur[FUZZ_MAX_INPUT];
static size_t cur_len;

static void on_abort(int sig)
{
	FILE *f = fopen("fuzz-crash-input", "wb");
	if (f) {
		fwrite(cur, 1, cur_len, f);
		fclose(f);
	}
	fprintf(stdout, "not ok 1 - input written to fuzz-crash-input fails (signal %d)\n", sig);
	fflush(stdout);
	signal(sig, SIG_DFL);
	raise(sig);
}

static uint64_t rng_state;
static uint64_t rng(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

static void run(const uint8_t *d, size_t n)
{
	memcpy(cur, d, n);
	cur_len = n;
	LLVMFuzzerTestOneInput(cur, cur_len);
}

static void mutate(uint8_t *buf, size_t *len, uint8_t *const *corpus, const size_t *clen,
                   unsigned ncorpus)
{
	unsigned nmut = 1 + (unsigned)(rng() % 4);
	for (unsigned m = 0; m < nmut; m++) {
		size_t pos = *len ? (size_t)(rng() % (*len + 1)) : 0;
		switch (rng() % 6) {
		case 0: /* flip a bit */
			if (*len)
				buf[pos % *len] ^= (uint8_t)(1u << (rng() % 8));
			break;
		case 1: /* random byte */
			if (*len < FUZZ_MAX_INPUT) {
				memmove(buf + pos + 1, buf + pos, *len - pos);
				buf[pos] = (uint8_t)rng();
				(*len)++;
			}
			break;
		case 2: /* delete a run */
			if (*len) {
				size_t n = 1 + (size_t)(rng() % 8);
				pos %= *len;
				if (n > *len - pos)
					n = *len - pos;
				memmove(buf + pos, buf + pos + n, *len - pos - n);
				*len -= n;
			}
			break;
		case 3:
		case 4: { /* dictionary token */
			unsigned nd = 0;
			while (fuzz_dictionary[nd])
				nd++;
			const char *t = fuzz_dictionary[rng() % nd];
			size_t tl = strlen(t);
			if (*len + tl <= FUZZ_MAX_INPUT) {
				memmove(buf + pos + tl, buf + pos, *len - pos);
				memcpy(buf + pos, t, tl);
				*len += tl;
			}
			break;
		}
		default: { /* splice with another corpus entry */
			unsigned o = (unsigned)(rng() % ncorpus);
			size_t take = clen[o] ? (size_t)(rng() % (clen[o] + 1)) : 0;
			if (pos + take <= FUZZ_MAX_INPUT) {
				memcpy(buf + pos, corpus[o], take);
				if (pos + take > *len)
					*len = pos + take;
			}
			break;
		}
		}
	}
}

int main(int argc, char **argv)
{
	unsigned long iters = 100000;
	uint64_t seed = 1;
	uint8_t *corpus[MAX_CORPUS];
	size_t clen[MAX_CORPUS];
	unsigned ncorpus = 0;
	int i = 1;

	for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		if (strcmp(argv[i], "-n") == 0)
			iters = strtoul(argv[i + 1], NULL, 10);
		else if (strcmp(argv[i], "-s") == 0)
			seed = strtoull(argv[i + 1], NULL, 10);
	}
	const char *env = getenv("HPM_FUZZ_ITERATIONS");
	if (env)
		iters = strtoul(env, NULL, 10);
	rng_state = seed;
	signal(SIGABRT, on_abort);
	signal(SIGSEGV, on_abort);

	for (; i < argc; i++) {
		DIR *d = opendir(argv[i]);
		struct dirent *de;
		if (!d) {
			printf("not ok 1 - cannot open corpus %s\n", argv[i]);
			return 1;
		}
		while ((de = readdir(d)) && ncorpus < MAX_CORPUS) {
			char path[4096];
			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", argv[i], de->d_name);
			FILE *f = fopen(path, "rb");
			if (!f)
				continue;
			corpus[ncorpus] = malloc(FUZZ_MAX_INPUT);
			clen[ncorpus] = fread(corpus[ncorpus], 1, FUZZ_MAX_INPUT, f);
			fclose(f);
			ncorpus++;
		}
		closedir(d);
	}
	if (!ncorpus) {
		printf("not ok 1 - empty corpus\n");
		return 1;
	}
	for (unsigned c = 0; c < ncorpus; c++)
		run(corpus[c], clen[c]);
	uint8_t buf[FUZZ_MAX_INPUT];
	for (unsigned long n = 0; n < iters; n++) {
		unsigned c = (unsigned)(rng() % ncorpus);
		size_t len = clen[c];
		memcpy(buf, corpus[c], len);
		mutate(buf, &len, corpus, clen, ncorpus);
		run(buf, len);
	}
	printf("1..1\nok 1 - %u corpus files and %lu mutated inputs, seed %llu, no failure\n",
	       ncorpus, iters, (unsigned long long)seed);
	for (unsigned c = 0; c < ncorpus; c++)
		free(corpus[c]);
	return 0;
}

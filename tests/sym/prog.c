/* prog.c: the test program of tests/sym/sym.sh. "prog maps" prints its
 * file-backed maps (as MMAP2 records would carry them) and the addresses
 * of its functions, as the compiler and linker placed them; "prog N" runs
 * N rounds with hot_a the hot function (about 80 % of the time), for perf
 * record. VARIANT changes the code (a rebuilt binary). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef VARIANT
#define VARIANT 1
#endif

volatile unsigned long sink;
void lib_work(unsigned long n);
void *lib_helper_addr(void);

__attribute__((noinline)) void hot_a(unsigned long n);
__attribute__((noinline)) void hot_a(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * 7 + VARIANT;
}

__attribute__((noinline)) static void cold_b(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink ^= i;
}

int main(int argc, char **argv)
{
	char buf[64];

	if (argc > 1 && !strcmp(argv[1], "maps")) {
		FILE *f = fopen("/proc/self/maps", "r");
		char line[1200];

		while (f && fgets(line, sizeof line, f)) {
			unsigned long long lo, hi, off;
			char path[1024] = "";

			if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %1023s", &lo, &hi, &off,
			           path) >= 3 &&
			    path[0] == '/')
				printf("map %#llx %#llx %#llx %s\n", lo, hi - lo, off, path);
		}
		printf("fn hot_a %p\nfn cold_b %p\nfn main %p\nfn lib_work %p\nfn lib_helper %p\n",
		       (void *)hot_a, (void *)cold_b, (void *)main, (void *)lib_work,
		       lib_helper_addr());
		return 0;
	}
	for (unsigned long k = 0, n = argc > 1 ? strtoul(argv[1], NULL, 0) : 10; k < n; k++) {
		hot_a(40000);
		cold_b(5000);
		lib_work(5000);
		snprintf(buf, sizeof buf, "%lu", k);
		sink += strlen(buf);
	}
	return 0;
}

/* busy.c: the workload of the riscv64 VM tests (static, riscv64).
 *
 *   busy N        N iterations of a loop of a known instruction count (the
 *                 test reads it off the disassembly of busy_loop)
 *   busy -s SEC   spin for SEC seconds of wall time
 *   busy -S SEC   sleep SEC seconds
 *   busy -x CODE  exit with CODE at once
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Its own function, so the test finds it in objdump by name. */
__attribute__((noinline)) void busy_loop(unsigned long n)
{
	__asm__ volatile("1:\n\taddi %0, %0, -1\n\tbnez %0, 1b\n" : "+r"(n));
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "-s") == 0) {
		double end = now() + atof(argv[2]);
		while (now() < end)
			busy_loop(10000);
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "-S") == 0) {
		usleep((useconds_t)(atof(argv[2]) * 1e6));
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "-x") == 0)
		return atoi(argv[2]);
	if (argc == 2) {
		unsigned long n = strtoul(argv[1], NULL, 0);
		if (n)
			busy_loop(n);
		return 0;
	}
	fprintf(stderr, "usage: busy N | -s SEC | -S SEC | -x CODE\n");
	return 2;
}

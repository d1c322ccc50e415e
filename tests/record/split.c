/* tests/record/split.c: a program with a known split of its time: hot()
 * runs 9 times the iterations of cold() with the same loop body, so about
 * 90 % of its user time is in hot() and 10 % in cold(). With an argument
 * "forever" it loops until killed (for -p). */
#include <stdlib.h>
#include <string.h>

volatile unsigned long sink;

__attribute__((noinline)) void hot(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * 7;
}

__attribute__((noinline)) void cold(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * 7;
}

int main(int argc, char **argv)
{
	int forever = argc > 1 && strcmp(argv[1], "forever") == 0;
	unsigned long reps = argc > 1 && !forever ? strtoul(argv[1], NULL, 10) : 100;
	for (unsigned long r = 0; forever || r < reps; r++) {
		hot(900000);
		cold(100000);
	}
	return 0;
}

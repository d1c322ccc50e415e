/* tests/record/recurse.c: recursion for the Children entries of -g: main
 * calls rec(3) and rec(6); rec(d) calls ping(d), ping calls pong, pong
 * calls rec(d - 1), and rec(0) calls work(). A function met more than once
 * in a chain has one Children entry a sample, which perf builds from its
 * innermost frame in callee order and its outermost in caller order.
 * Built with -O0 and frame pointers, so every call has its frame. */
#include <stdlib.h>

volatile unsigned long sink;

__attribute__((noinline)) void work(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i;
}

void rec(int d, unsigned long n);

__attribute__((noinline)) void pong(int d, unsigned long n)
{
	rec(d - 1, n);
}

__attribute__((noinline)) void ping(int d, unsigned long n)
{
	pong(d, n);
}

__attribute__((noinline)) void rec(int d, unsigned long n)
{
	if (d <= 0)
		work(n);
	else
		ping(d, n);
}

int main(int argc, char **argv)
{
	unsigned long reps = argc > 1 ? strtoul(argv[1], NULL, 10) : 300;
	for (unsigned long r = 0; r < reps; r++) {
		rec(3, 200000);
		rec(6, 100000);
	}
	return 0;
}

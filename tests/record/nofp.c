/* tests/record/nofp.c: a known call tree for --call-graph dwarf, built
 * with -O2 -fomit-frame-pointer: main calls a() and b(), both call leaf(),
 * a() with twice the work of b(). No function keeps a frame pointer, so
 * only the DWARF CFI of the stack copies gives main -> a|b -> leaf; each
 * call's result is used after it, so none is a tail call. */
#include <stdlib.h>

volatile unsigned long sink;

__attribute__((noinline)) unsigned long leaf(unsigned long n)
{
	unsigned long s = 0;
	for (unsigned long i = 0; i < n; i++)
		s += i ^ sink;
	return s;
}

__attribute__((noinline)) unsigned long a(unsigned long n)
{
	return leaf(2 * n) + 1;
}

__attribute__((noinline)) unsigned long b(unsigned long n)
{
	return leaf(n) * 3;
}

int main(int argc, char **argv)
{
	unsigned long reps = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000;
	for (unsigned long r = 0; r < reps; r++) {
		sink += a(100000);
		sink += b(100000);
	}
	return 0;
}

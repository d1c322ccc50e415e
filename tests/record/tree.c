/* tests/record/tree.c: a known call tree for -g: main calls a() and b(),
 * both call leaf(), a() with twice the work of b(); so about 2/3 of the
 * samples in leaf() have a() as caller and 1/3 b(). Built with -O0 and
 * frame pointers, so every function has its frame. */
#include <stdlib.h>

volatile unsigned long sink;

__attribute__((noinline)) void leaf(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i;
}

__attribute__((noinline)) void a(void)
{
	leaf(200000);
}

__attribute__((noinline)) void b(void)
{
	leaf(100000);
}

int main(int argc, char **argv)
{
	unsigned long reps = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000;
	for (unsigned long r = 0; r < reps; r++) {
		a();
		b();
	}
	return 0;
}

/* deep.c: a call chain deeper than perf report's default --max-stack
 * (127), for tests/record/callgraph.sh: main -> down x DEPTH -> spin.
 *
 *   deep [DEPTH [REPS]]
 *
 * -O0 with frame pointers; each frame of down() is small, so that a stack
 * copy of --call-graph dwarf,65528 holds the whole chain. */
#include <stdlib.h>

volatile unsigned long sink;

__attribute__((noinline)) void spin(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i;
}

__attribute__((noinline)) void down(int d, unsigned long n)
{
	if (d > 0)
		down(d - 1, n);
	else
		spin(n);
	sink++; /* not a tail call: each level keeps its frame */
}

int main(int argc, char **argv)
{
	int depth = argc > 1 ? atoi(argv[1]) : 200;
	unsigned long reps = argc > 2 ? strtoul(argv[2], NULL, 10) : 100;
	for (unsigned long r = 0; r < reps; r++)
		down(depth, 100000);
	return 0;
}

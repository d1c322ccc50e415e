/* tests/record/unwind-lib.c: the shared library of tests/record/unwind.c
 * (-O2 -fomit-frame-pointer): calls back the program's function, using
 * its result after (no tail call). */
__attribute__((noinline)) unsigned long lib_iter(unsigned long (*fn)(unsigned long),
                                                 unsigned long n)
{
	return fn(n) * 3 + 1;
}

/* lib.c: the shared library of tests/sym/sym.sh: an exported function and
 * a static one (which a stripped copy, keeping only .dynsym, must not name
 * after its exported neighbour). */
volatile unsigned long lib_sink;

__attribute__((noinline)) static void lib_helper(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		lib_sink += i ^ 5;
}

__attribute__((noinline)) void lib_work(unsigned long n);
__attribute__((noinline)) void lib_work(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		lib_sink += i * 3;
	lib_helper(n / 4);
}

void *lib_helper_addr(void);
void *lib_helper_addr(void)
{
	return (void *)lib_helper;
}

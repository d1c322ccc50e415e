/* a64.c: an AArch64 shared object for tests/sym/sym.sh (built with clang
 * and lld, no libc): PLT entries for the calls to the ext_ functions and
 * to the exported a64_work, a static function beside them. */
extern int ext_a(int);
extern int ext_b(int);
extern int ext_c(int);
int a64_work(int x);
int a64_main(int x);

__attribute__((noinline)) int a64_work(int x)
{
	return ext_a(x) + ext_b(x) + ext_c(x);
}

__attribute__((noinline)) static int a64_helper(int x)
{
	return ext_c(x * 3);
}

int a64_main(int x)
{
	return a64_work(x) + a64_helper(x);
}

/* tests/record/unwind.c: two call chains --call-graph dwarf must unwind
 * whole, as perf script (libunwind) does:
 * - "lib": main (a frame pointer kept) calls lib_iter() in a shared
 *   library (tests/record/unwind-lib.c, -O2 -fomit-frame-pointer), which
 *   calls back spin() here. The first sample reaches the library only
 *   through spin's caller, so the unwinder meets the library's file there
 *   first; main's frame pointer in rbp makes a frame-pointer guess look
 *   plausible (it skips main).
 * - "rbx" (x86-64): spin() called from realigned(), whose CFA is rbx-based
 *   as glibc's _dl_runtime_resolve's is (it aligns the stack), and spin
 *   does not save rbx: only the ABI's rule that rbx is callee-saved
 *   carries it to realigned's frame.
 * Each runs for about N ms of work (argv[2]). */
#include <stdlib.h>
#include <string.h>

volatile unsigned long sink;
unsigned long lib_iter(unsigned long (*fn)(unsigned long), unsigned long n);

__attribute__((noinline)) unsigned long spin(unsigned long n)
{
	unsigned long s = 0;
	for (unsigned long i = 0; i < n; i++)
		s += i ^ sink;
	return s;
}

#if defined(__x86_64__)
unsigned long realigned(unsigned long n);
__asm__(".text\n"
        ".globl realigned\n"
        ".type realigned, @function\n"
        "realigned:\n"
        ".cfi_startproc\n"
        "push %rbx\n"
        ".cfi_def_cfa_offset 16\n"
        ".cfi_offset %rbx, -16\n"
        "mov %rsp, %rbx\n"
        ".cfi_def_cfa_register %rbx\n"
        "and $-64, %rsp\n"
        "call spin\n"
        "add $1, %rax\n"
        "mov %rbx, %rsp\n"
        ".cfi_def_cfa_register %rsp\n"
        "pop %rbx\n"
        ".cfi_def_cfa_offset 8\n"
        "ret\n"
        ".cfi_endproc\n"
        ".size realigned, .-realigned\n");
#endif

int main(int argc, char **argv)
{
	unsigned long reps = argc > 2 ? strtoul(argv[2], NULL, 10) : 100;
	const char *what = argc > 1 ? argv[1] : "lib";
	for (unsigned long r = 0; r < reps; r++) {
		if (!strcmp(what, "lib"))
			sink += lib_iter(spin, 300000);
#if defined(__x86_64__)
		else if (!strcmp(what, "rbx"))
			sink += realigned(300000);
#endif
		else
			return 2;
	}
	return 0;
}

/* unwind-libdw.c: rs_unwind with elfutils' libdwfl (the one file that
 * calls libdw). The approach is perf's unwind-libdw.c: a Dwfl whose
 * modules are the files the process mapped, reported at their load bias
 * as the unwinder meets them; a single-thread state whose first registers
 * are the sample's user registers (in DWARF numbering) and whose memory is
 * the sample's stack copy; dwfl_getthread_frames walks the CFI. Unlike
 * perf, one Dwfl serves every sample of a process (its CFI parsed once),
 * the current sample given through the state's argument.
 *
 * On x86-64, libdw's table of the ABI's callee-saved registers (elfutils'
 * x86_64_abi_cfi, 0.188 and every later copy seen) names DWARF register 0
 * (rax) where it means 3 (rbx): rbx becomes unknown in the caller of any
 * frame that does not save it, and a frame whose CFA is rbx-based (glibc's
 * _dl_runtime_resolve, the lazy binding every first call of a library
 * function goes through) ends the walk there, as if the stack ended. The
 * walk is then resumed from that frame with rbx as the ABI has it: the
 * value of the nearest inner frame that knew it. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report/unwind.h"
#include "sym/sym.h"
#include "util/dlib.h"
#include "util/xalloc.h"

#ifdef HAVE_LIBDW
#include <elfutils/libdwfl.h>

/* The kernel's user register numbers (perf_regs.h of each arch) of the
 * stack pointer and the program counter, and the DWARF registers in the
 * order the ABI numbers them (-1: none in the sample). */
#if defined(__x86_64__)
enum { REG_SP = 7, REG_PC = 8 };
#define ABI_LOST_REG 3  /* rbx: callee-saved, see above */
#define REG_PC_DWARF 16 /* rip */
/* what a resumed walk starts from: the registers a caller's frame keeps
 * (rbx rbp rsp r12-r15); the others are unknown above the first frame */
static const unsigned kept_regs[] = {3, 6, 7, 12, 13, 14, 15};
/* DWARF 0-16: rax rdx rcx rbx rsi rdi rbp rsp r8-r15 rip */
static const int dwarf_regs[] = {0, 3, 2, 1, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, 8};
#define PC_IN_DWARF 1 /* rip is DWARF register 16 */
#elif defined(__aarch64__)
enum { REG_SP = 31, REG_PC = 32 };
/* DWARF 0-31: x0-x30, sp */
static const int dwarf_regs[] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
                                 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};
#define PC_IN_DWARF 0
#elif defined(__riscv)
enum { REG_SP = 2, REG_PC = 0 };
/* DWARF 0-31: x0 (zero: not sampled), x1-x31 */
static const int dwarf_regs[] = {-1, 1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
                                 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};
#define PC_IN_DWARF 0
#else
#define NO_ARCH_REGS
#endif

#ifndef NO_ARCH_REGS
struct proc_dwfl {
	uint32_t pid;
	Dwfl *dwfl;
	bool attached;
};

struct rs_unwinder {
	struct hpm_syms *syms;
	struct proc_dwfl *proc;
	size_t nr_proc, cap_proc;
	/* the sample being unwound */
	const struct pd_sample *s;
	uint32_t pid;
	uint64_t sp;
	uint64_t *pcs;
	size_t nr_pcs, max_pcs;
	Dwfl *dwfl;
#ifdef ABI_LOST_REG
	/* the last frame's registers (known: their mask), the value of the
	 * lost register in the nearest frame that knew it, and whether a
	 * resumed walk is under way (its first frame is the last one's) */
	Dwarf_Word last[sizeof(dwarf_regs) / sizeof(dwarf_regs[0])];
	uint64_t last_known;
	Dwarf_Word lost_val;
	bool lost_known, resuming, skip_first;
#endif
};

static char *debuginfo_path;
static const Dwfl_Callbacks offline_callbacks = {
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .debuginfo_path = &debuginfo_path,
    .section_address = dwfl_offline_section_address,
};

/* Reports the file mapped at addr (its load bias from the symbolizer:
 * the address less its ELF virtual address); true when a module holds
 * addr after. */
static bool report_module(struct rs_unwinder *u, uint64_t addr)
{
	if (dwfl_addrmodule(u->dwfl, addr))
		return true;
	struct hpm_sym_loc loc;
	if (hpm_syms_resolve(u->syms, (pid_t)u->pid, addr, HPM_SYM_USER, &loc) != 0 || !loc.dso ||
	    loc.dso[0] != '/')
		return false; /* no file: [vdso], //anon, [unknown] */
	/* a recording names any path: only a regular file is opened (a FIFO
	 * would block the report) */
	struct stat st;
	if (stat(loc.dso, &st) != 0 || !S_ISREG(st.st_mode))
		return false;
	const char *base = strrchr(loc.dso, '/') + 1;
	dwfl_report_begin_add(u->dwfl);
	Dwfl_Module *m =
	    dwfl_report_elf(u->dwfl, base, loc.dso, -1, (Dwarf_Addr)(addr - loc.dso_offset), false);
	dwfl_report_end(u->dwfl, NULL, NULL);
	return m && dwfl_addrmodule(u->dwfl, addr);
}

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	(void)dwfl;
	struct rs_unwinder *u = arg;
	if (*thread_argp)
		return 0;
	*thread_argp = u;
	return (pid_t)u->s->tid;
}

/* The stack copy holds [sp, sp + stack_size); anything else is not read
 * (the CFI needs only the stack). */
static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	(void)dwfl;
	struct rs_unwinder *u = arg;
	if (addr < u->sp || addr - u->sp > u->s->stack_size ||
	    u->s->stack_size - (addr - u->sp) < sizeof(*result))
		return false;
	memcpy(result, u->s->stack + (addr - u->sp), sizeof(*result));
	return true;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct rs_unwinder *u = arg;
	enum { N = sizeof(dwarf_regs) / sizeof(dwarf_regs[0]) };
	Dwarf_Word regs[N];
	bool ok;
#ifdef ABI_LOST_REG
	if (u->resuming) {
		for (unsigned i = 0; i < N; i++)
			if ((u->last_known >> i & 1) &&
			    !dwfl_thread_state_registers(thread, (int)i, 1, &u->last[i]))
				return false;
		return true;
	}
#endif
	for (unsigned i = 0; i < N; i++) {
		regs[i] = dwarf_regs[i] < 0 ? 0 : pd_sample_reg(u->s, (unsigned)dwarf_regs[i], &ok);
		if (dwarf_regs[i] >= 0 && !ok)
			return false;
	}
	if (!dwfl_thread_state_registers(thread, 0, N, regs))
		return false;
	if (!PC_IN_DWARF)
		dwfl_thread_state_register_pc(thread, pd_sample_reg(u->s, REG_PC, &ok));
	return true;
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
    .next_thread = next_thread,
    .memory_read = memory_read,
    .set_initial_registers = set_initial_registers,
};

static int frame_callback(Dwfl_Frame *state, void *arg)
{
	struct rs_unwinder *u = arg;
	Dwarf_Addr pc;
	bool activation;
	/* asking whether the frame is an activation unwinds it, which reads
	 * its file's CFI: the file is reported first (or libdw falls back to
	 * the frame pointer, and a first sample in a library gets a wrong
	 * chain). A return address can be one past its function's end. */
	if (!dwfl_frame_pc(state, &pc, NULL))
		return DWARF_CB_ABORT;
	if (!report_module(u, pc - 1))
		report_module(u, pc);
	if (!dwfl_frame_pc(state, &pc, &activation))
		return DWARF_CB_ABORT;
	/* a return address is after its call: the call is one byte back */
	if (!activation)
		pc--;
#ifdef ABI_LOST_REG
	u->last_known = 0;
	for (unsigned k = 0; k < sizeof(kept_regs) / sizeof(kept_regs[0]); k++)
		if (dwfl_frame_reg(state, kept_regs[k], &u->last[kept_regs[k]]) == 0)
			u->last_known |= 1ULL << kept_regs[k];
	if (u->last_known >> ABI_LOST_REG & 1) {
		u->lost_val = u->last[ABI_LOST_REG];
		u->lost_known = true;
	}
	/* the resumed walk starts at the call, as this frame's pc says */
	u->last[REG_PC_DWARF] = pc;
	u->last_known |= 1ULL << REG_PC_DWARF;
	if (u->skip_first) {
		u->skip_first = false;
		return DWARF_CB_OK;
	}
#endif
	u->pcs[u->nr_pcs++] = pc;
	return u->nr_pcs < u->max_pcs ? DWARF_CB_OK : DWARF_CB_ABORT;
}

struct rs_unwinder *rs_unwinder_new(struct hpm_syms *syms)
{
	/* libdw is opened here, by the report that has such samples
	 * (util/dlib.h); without it, the report is as one built without */
	char why[256];
	if (hpm_dl_dw_load(why, sizeof(why)))
		return NULL;
	struct rs_unwinder *u = xcalloc(1, sizeof(*u));
	u->syms = syms;
	return u;
}

void rs_unwinder_free(struct rs_unwinder *u)
{
	if (!u)
		return;
	for (size_t i = 0; i < u->nr_proc; i++)
		dwfl_end(u->proc[i].dwfl);
	free(u->proc);
	free(u);
}

static struct proc_dwfl *proc_of(struct rs_unwinder *u, uint32_t pid)
{
	for (size_t i = 0; i < u->nr_proc; i++)
		if (u->proc[i].pid == pid)
			return &u->proc[i];
	Dwfl *d = dwfl_begin(&offline_callbacks);
	if (!d)
		return NULL;
	if (u->nr_proc == u->cap_proc) {
		u->cap_proc = u->cap_proc ? 2 * u->cap_proc : 8;
		u->proc = xrealloc(u->proc, u->cap_proc * sizeof(*u->proc));
	}
	u->proc[u->nr_proc] = (struct proc_dwfl){.pid = pid, .dwfl = d};
	return &u->proc[u->nr_proc++];
}

size_t rs_unwind(struct rs_unwinder *u, uint32_t pid, const struct pd_sample *s, uint64_t *pcs,
                 size_t max)
{
	bool ok_sp, ok_pc;
	if (!u || !max || !s->regs_abi || !s->regs || !s->stack || !s->stack_size)
		return 0;
	uint64_t sp = pd_sample_reg(s, REG_SP, &ok_sp), pc = pd_sample_reg(s, REG_PC, &ok_pc);
	if (!ok_sp || !ok_pc)
		return 0;
	struct proc_dwfl *p = proc_of(u, pid);
	if (!p)
		return 0;
	u->s = s;
	u->pid = pid;
	u->sp = sp;
	u->pcs = pcs;
	u->nr_pcs = 0;
	u->max_pcs = max;
	u->dwfl = p->dwfl;
	/* the first module gives dwfl_attach_state the machine */
	if (!report_module(u, pc))
		return 0;
	if (!p->attached) {
		if (!dwfl_attach_state(p->dwfl, NULL, (pid_t)pid, &thread_callbacks, u))
			return 0;
		p->attached = true;
	}
	/* the end of the CFI or of the copy stops the walk: what came
	 * before stays */
#ifdef ABI_LOST_REG
	u->lost_known = u->resuming = u->skip_first = false;
	int rc = dwfl_getthread_frames(p->dwfl, (pid_t)s->tid, frame_callback, u);
	/* a walk that ended as a stack ends, where the lost register was
	 * known further in: once more from the last frame, with it */
	while (rc == 0 && u->nr_pcs && u->nr_pcs < u->max_pcs && u->lost_known &&
	       !(u->last_known >> ABI_LOST_REG & 1)) {
		size_t before = u->nr_pcs;
		u->last[ABI_LOST_REG] = u->lost_val;
		u->last_known |= 1ULL << ABI_LOST_REG;
		u->resuming = u->skip_first = true;
		rc = dwfl_getthread_frames(p->dwfl, (pid_t)s->tid, frame_callback, u);
		u->resuming = false;
		if (u->nr_pcs == before)
			break;
	}
#else
	dwfl_getthread_frames(p->dwfl, (pid_t)s->tid, frame_callback, u);
#endif
	return u->nr_pcs;
}
#endif /* !NO_ARCH_REGS */
#endif /* HAVE_LIBDW */

#if !defined(HAVE_LIBDW) || defined(NO_ARCH_REGS)
struct rs_unwinder *rs_unwinder_new(struct hpm_syms *syms)
{
	(void)syms;
	return NULL;
}

void rs_unwinder_free(struct rs_unwinder *u)
{
	(void)u;
}

size_t rs_unwind(struct rs_unwinder *u, uint32_t pid, const struct pd_sample *s, uint64_t *pcs,
                 size_t max)
{
	(void)u, (void)pid, (void)s, (void)pcs, (void)max;
	return 0;
}
#endif

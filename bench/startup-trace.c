/* startup-trace.c: the instructions a command executes, for make
 * startup-order and tests/util/static-front.sh (issue 30).
 *
 *   bench-startup-trace OUT PROGRAM [ARG ...]
 *
 * Runs PROGRAM under ptrace, one instruction at a time, and with it every
 * process it forks until that process execs another program (the command
 * hpmstat counts is not traced, only hpmstat's own child up to its exec).
 * Writes to OUT the address of each instruction executed, once, in the
 * order of first execution, one hexadecimal number a line. What the front
 * executes on a path is what its link script (src/hpmstat-front.ld) puts
 * together, so that the path's first touches of the program's code fall in
 * a few 64 KB windows of the kernel's fault-around instead of twenty.
 * Single-stepping is slow (a run of `stat -e task-clock -- true` is about
 * 100,000 steps, 3 s here) and exists on x86-64 and arm64 only: elsewhere
 * this says so and exits 77, a skip for the tests. */
#include <elf.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/hash.h"
#include "util/xalloc.h"

#if defined(__x86_64__)
#define REGS_PC(r) ((uint64_t)(r).rip)
#elif defined(__aarch64__)
#define REGS_PC(r) ((uint64_t)(r).pc)
#endif

#ifdef REGS_PC
/* The addresses seen (the project's map of 64-bit keys) and their order. */
struct pc_set {
	struct hpm_u64map seen;
	uint64_t *order;
	size_t n;
};

/* Adds pc if it is new (0: the registers could not be read) */
static void pc_set_add(struct pc_set *s, uint64_t pc)
{
	bool added;
	if (pc == 0)
		return;
	hpm_u64map_get(&s->seen, pc, &added);
	if (added) {
		s->order = xgrow(s->order, s->n, sizeof(*s->order));
		s->order[s->n++] = pc;
	}
}

/* The stopped tracee's program counter; 0 if it cannot be read. */
static uint64_t tracee_pc(pid_t pid)
{
	struct user_regs_struct regs;
	struct iovec iov = {.iov_base = &regs, .iov_len = sizeof(regs)};
	if (ptrace(PTRACE_GETREGSET, pid, (void *)NT_PRSTATUS, &iov) != 0)
		return 0;
	return REGS_PC(regs);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: bench-startup-trace OUT PROGRAM [ARG ...]\n");
		return 2;
	}
	int status = 1;
	FILE *out = NULL;
	struct pc_set pcs = {0};
	pid_t first = fork();
	if (first < 0) {
		perror("bench-startup-trace: fork");
		goto cleanup;
	}
	if (first == 0) {
		/* not allowed (a seccomp filter, Yama's ptrace_scope 3): say so,
		 * a skip, rather than stop untraced */
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) != 0) {
			fprintf(stderr, "bench-startup-trace: ptrace: %s\n", strerror(errno));
			_exit(77);
		}
		raise(SIGSTOP);
		execvp(argv[2], argv + 2);
		fprintf(stderr, "bench-startup-trace: %s: %s\n", argv[2], strerror(errno));
		_exit(127);
	}
	int ws;
	if (waitpid(first, &ws, 0) != first || !WIFSTOPPED(ws)) {
		if (WIFEXITED(ws) && WEXITSTATUS(ws) == 77)
			status = 77;
		else
			fprintf(stderr, "bench-startup-trace: %s did not stop for tracing\n",
			        argv[2]);
		goto cleanup;
	}
	long opts = PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE |
	            PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL;
	if (ptrace(PTRACE_SETOPTIONS, first, NULL, (void *)opts) != 0 ||
	    ptrace(PTRACE_CONT, first, NULL, NULL) != 0) {
		perror("bench-startup-trace: ptrace");
		goto cleanup;
	}
	bool program_started = false; /* PROGRAM's own exec seen */
	int program_status = -1;
	for (;;) {
		pid_t pid = waitpid(-1, &ws, __WALL);
		if (pid < 0)
			break; /* no tracee left */
		if (WIFEXITED(ws) || WIFSIGNALED(ws)) {
			if (pid == first)
				program_status = ws;
			continue;
		}
		int sig = WSTOPSIG(ws), event = ws >> 16;
		long deliver = 0;
		if (event == PTRACE_EVENT_EXEC) {
			if (pid != first || program_started) {
				/* a child's command: not ours to trace */
				ptrace(PTRACE_DETACH, pid, NULL, NULL);
				continue;
			}
			program_started = true;
		} else if (event == 0 && sig == SIGTRAP) {
			if (program_started)
				pc_set_add(&pcs, tracee_pc(pid));
		} else if (event == 0 && sig != SIGSTOP) {
			deliver = sig; /* the program's own signal */
		}
		if (ptrace(PTRACE_SINGLESTEP, pid, NULL, (void *)deliver) != 0 && errno == EIO) {
			fprintf(stderr, "bench-startup-trace: this kernel does not single-step\n");
			status = 77;
			goto cleanup;
		}
	}
	if (!program_started) {
		fprintf(stderr, "bench-startup-trace: %s did not start\n", argv[2]);
		goto cleanup;
	}
	out = fopen(argv[1], "w");
	if (!out) {
		fprintf(stderr, "bench-startup-trace: %s: %s\n", argv[1], strerror(errno));
		goto cleanup;
	}
	for (size_t i = 0; i < pcs.n; i++)
		fprintf(out, "%llx\n", (unsigned long long)pcs.order[i]);
	if (fclose(out) != 0) {
		out = NULL;
		fprintf(stderr, "bench-startup-trace: %s: %s\n", argv[1], strerror(errno));
		goto cleanup;
	}
	out = NULL;
	fprintf(stderr, "bench-startup-trace: %zu instructions of %s\n", pcs.n, argv[2]);
	/* PROGRAM's own status, so that a trace of a failing run is not taken
	 * for the path */
	status = WIFEXITED(program_status) ? WEXITSTATUS(program_status) : 1;
cleanup:
	if (out)
		fclose(out);
	hpm_u64map_free(&pcs.seen);
	free(pcs.order);
	return status;
}
#else
int main(void)
{
	fprintf(stderr, "bench-startup-trace: no single-stepping on this architecture\n");
	return 77;
}
#endif

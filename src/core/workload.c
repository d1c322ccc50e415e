/* workload.c: the command a measurement counts (workload.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sched.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/workload.h"

/* The child the signal handler passes signals to; -1: none. */
static volatile pid_t forward_to = -1;

/* What the child reads before its exec, at the top of its stack. */
struct child_start {
	char **argv;
	int go_fd, err_fd; /* the go pipe's read end, the error pipe's write end */
	bool stdout_to_stderr;
	pid_t parent;
	sigset_t mask; /* the parent's, restored once no handler of its is left */
};

/* The child's stack: execvp's own needs (a script without #! gets an argv
 * one longer on the stack) and the child's few frames, as posix_spawn's. */
static size_t child_stack_size(char **argv)
{
	size_t argc = 0, page = (size_t)sysconf(_SC_PAGESIZE);
	while (argv[argc])
		argc++;
	size_t size = 64 * 1024 + (argc + 2) * sizeof(char *) + sizeof(struct child_start);
	return (size + page - 1) / page * page;
}

/* The child, sharing the parent's memory until its exec (clone with
 * CLONE_VM, as posix_spawn starts one): no copy of the page tables and no
 * copy-on-write faults in the parent afterwards, which a fork of hpmstat
 * cost at each start. It runs on its own stack while the parent goes on
 * opening the counters, so it makes only system calls that succeed (errno
 * is the parent thread's; the calls that fail are the last ones, execvp's,
 * while the parent waits on the error pipe) and runs none of the parent's
 * handlers: signals are blocked until each one the parent catches is back
 * at its default (raw rt_sigaction: the handler is the first word of the
 * kernel's struct on every architecture, and all zeroes is SIG_DFL with no
 * flags and an empty mask). Not instrumented: a sanitizer's redzones on
 * this stack would outlive it. */
__attribute__((no_sanitize_address)) static int child_run(void *arg)
{
	const struct child_start *c = arg;
	unsigned long dfl[4] = {0}, old[4];
	char go;
	for (int sig = 1; sig < NSIG; sig++) {
		/* 8: the kernel's sigset_t, 64 signals */
		if (sig == SIGKILL || sig == SIGSTOP ||
		    syscall(SYS_rt_sigaction, sig, NULL, old, 8))
			continue;
		/* SIGINT always: a command run from a script that ignores it
		 * is still ended by Ctrl-C, as under fork before */
		if ((old[0] != (unsigned long)SIG_DFL && old[0] != (unsigned long)SIG_IGN) ||
		    (sig == SIGINT && old[0] != (unsigned long)SIG_DFL))
			syscall(SYS_rt_sigaction, sig, dfl, NULL, 8);
	}
	sigprocmask(SIG_SETMASK, &c->mask, NULL);
	/* a measurement killed (SIGKILL, the OOM killer) takes its command
	 * along instead of leaving it running unmeasured; a parent gone before
	 * the prctl is seen by getppid() */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) == 0 && getppid() != c->parent)
		_exit(127);
	/* the run file goes to standard output: the command's goes to
	 * standard error, as perf's does when it records to a pipe */
	if (c->stdout_to_stderr && dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
		_exit(127);
	/* wait until the counters are open, so the exec is counted */
	if (read(c->go_fd, &go, 1) != 1)
		_exit(127);
	execvp(c->argv[0], c->argv);
	int e = errno;
	if (write(c->err_fd, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

/* The child's stack, once it no longer runs on it (it has exec'd or
 * ended). */
static void child_stack_free(struct hpm_workload *w)
{
	if (w->stack)
		munmap(w->stack, w->stack_size);
	w->stack = NULL;
}

int hpm_workload_prepare(struct hpm_workload *w, char **argv, bool stdout_to_stderr, char *err,
                         size_t errlen)
{
	int go[2], errp[2];
	memset(w, 0, sizeof(*w));
	w->pid = -1;
	w->pidfd = -1;
	if (pipe(go) || pipe2(errp, O_CLOEXEC)) {
		int e = errno;
		snprintf(err, errlen, "pipe: %s", strerror(e));
		return -e;
	}
	w->stack_size = child_stack_size(argv);
	w->stack = mmap(NULL, w->stack_size, PROT_READ | PROT_WRITE,
	                MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (w->stack == MAP_FAILED) {
		int e = errno;
		w->stack = NULL;
		snprintf(err, errlen, "fork: %s", strerror(e));
		return -e;
	}
	/* the child must not print what this process has buffered */
	fflush(NULL);
	struct child_start *c =
	    (struct child_start *)((char *)w->stack + w->stack_size - sizeof(*c));
	*c = (struct child_start){.argv = argv,
	                          .go_fd = go[0],
	                          .err_fd = errp[1],
	                          .stdout_to_stderr = stdout_to_stderr,
	                          .parent = getpid()};
	sigset_t all;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &c->mask);
	/* the stack grows down on every architecture Linux runs hpmstat on;
	 * 16-byte aligned below the arguments */
	char *top = (char *)((uintptr_t)c & ~(uintptr_t)15);
	w->pid = clone(child_run, top, CLONE_VM | SIGCHLD, c);
	int e = errno;
	sigprocmask(SIG_SETMASK, &c->mask, NULL);
	if (w->pid < 0) {
		child_stack_free(w);
		snprintf(err, errlen, "fork: %s", strerror(e));
		return -e;
	}
	close(go[0]);
	close(errp[1]);
	w->go_fd = go[1];
	w->err_fd = errp[0];
	w->pidfd = hpm_process_pidfd(w->pid);
	return 0;
}

/* The write that lets the child exec may meet a child a signal ended
 * already: it then fails with EPIPE, with SIGPIPE held back so that this
 * process is not killed by it. */
int hpm_workload_start(struct hpm_workload *w)
{
	int e = 0;
	sigset_t pipe_set, old;
	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	sigprocmask(SIG_BLOCK, &pipe_set, &old);
	ssize_t wr = write(w->go_fd, "x", 1);
	int werr = errno;
	if (wr < 0 && werr == EPIPE && !sigismember(&old, SIGPIPE)) {
		const struct timespec now = {0, 0};
		sigtimedwait(&pipe_set, NULL, &now);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (wr != 1) {
		close(w->go_fd);
		close(w->err_fd);
		return wr < 0 && werr == EPIPE ? 0 : EIO;
	}
	close(w->go_fd);
	ssize_t n = read(w->err_fd, &e, sizeof(e));
	close(w->err_fd);
	/* EOF or errno: the child has exec'd or is ending */
	child_stack_free(w);
	return n == (ssize_t)sizeof(e) ? e : 0;
}

void hpm_workload_reap(struct hpm_workload *w, bool block)
{
	if (w->exited || w->pid <= 0)
		return;
	pid_t r;
	/* a signal interrupts the wait (the caller's handlers have no
	 * SA_RESTART), not the waiting: the command is reaped */
	do
		r = wait4(w->pid, &w->status, block ? 0 : WNOHANG, &w->ru);
	while (r < 0 && errno == EINTR && block);
	if (r == w->pid) {
		w->exited = true;
		child_stack_free(w);
	}
}

void hpm_workload_kill(const struct hpm_workload *w, int sig)
{
	if (w->pid > 0 && !w->exited)
		kill(w->pid, sig);
}

void hpm_workload_wait(struct hpm_workload *w, int watch_pid, int watch_pidfd, int timeout_ms,
                       const volatile sig_atomic_t *stop)
{
	bool child = w && w->pid > 0;
	struct pollfd pfd = {.fd = child ? w->pidfd : watch_pidfd, .events = POLLIN};
	if (pfd.fd >= 0) {
		poll(&pfd, 1, timeout_ms);
	} else if (timeout_ms != 0) {
		/* no pidfd: sleep in short steps and look */
		int left = timeout_ms < 0 ? INT_MAX : timeout_ms;
		/* a signal ends the wait, except for a command: it is waited for */
		while (left > 0 && !(*stop && !child)) {
			struct timespec ts = {0, 10 * 1000000};
			nanosleep(&ts, NULL);
			left -= 10;
			if (child) {
				hpm_workload_reap(w, false);
				if (w->exited)
					break;
			} else if (watch_pid > 0 && hpm_process_gone(watch_pid)) {
				break;
			}
		}
	}
	if (child)
		hpm_workload_reap(w, false);
}

int hpm_workload_exit_status(const struct hpm_workload *w, int *termsig)
{
	*termsig = 0;
	if (!w->exited)
		return -1;
	if (WIFEXITED(w->status))
		return WEXITSTATUS(w->status);
	if (WIFSIGNALED(w->status)) {
		*termsig = WTERMSIG(w->status);
		return 128 + *termsig;
	}
	return -1;
}

void hpm_workload_times(const struct hpm_workload *w, double *user_s, double *sys_s)
{
	*user_s = (double)w->ru.ru_utime.tv_sec + (double)w->ru.ru_utime.tv_usec / 1e6;
	*sys_s = (double)w->ru.ru_stime.tv_sec + (double)w->ru.ru_stime.tv_usec / 1e6;
}

void hpm_workload_close(struct hpm_workload *w)
{
	/* a child never started is left alone (killed and reaped by the
	 * caller): its stack goes only once it has been reaped */
	if (w->exited || w->pid <= 0)
		child_stack_free(w);
	if (w->pidfd >= 0)
		close(w->pidfd);
	w->pidfd = -1;
}

void hpm_workload_forward_signals(const struct hpm_workload *w)
{
	forward_to = w ? w->pid : -1;
}

void hpm_workload_pass_signal(int sig, const siginfo_t *si)
{
	pid_t pid = forward_to;
	if (pid > 0 && si && si->si_code != SI_KERNEL)
		kill(pid, sig);
}

int hpm_process_pidfd(pid_t pid)
{
	return (int)syscall(SYS_pidfd_open, pid, 0);
}

bool hpm_process_gone(pid_t pid)
{
	return kill(pid, 0) != 0 && errno == ESRCH;
}

/* child.c: the child process that runs the command a measurement counts
 * (child.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/child.h"

/* The child the signal handler passes signals to; -1: none. */
static volatile pid_t forward_to = -1;

/* What the child reads before its exec, at the top of its stack. */
struct child_start {
	char **argv;
	char **sh_argv;    /* room for argv and two more, below this struct */
	int go_fd, err_fd; /* the go pipe's read end, the error pipe's write end */
	bool stdout_to_stderr;
	pid_t parent;
	sigset_t mask;     /* the parent's, restored once no handler of its is left */
	bool caught_known; /* caught: the signals the parent has a handler for */
	uint64_t caught;   /* bit sig - 1, from /proc/self/status's SigCgt */
};

/* The signals this process has a handler for (bit sig - 1), from the
 * SigCgt line of /proc/self/status: one read instead of a rt_sigaction
 * per signal in the child (64 system calls, 60 us here against 8 us).
 * false without /proc, or with more than 64 signals: the child then reads
 * each disposition itself. */
static bool caught_signals(uint64_t *caught)
{
	char buf[4096];
	int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	size_t len = 0;
	ssize_t n;
	while (len < sizeof(buf) - 1 && (n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += (size_t)n;
	close(fd);
	buf[len] = 0;
	const char *p = strstr(buf, "\nSigCgt:");
	if (!p)
		return false;
	p += strlen("\nSigCgt:");
	while (*p == ' ' || *p == '\t')
		p++;
	uint64_t v = 0;
	int digits = 0;
	for (; *p && *p != '\n'; p++, digits++) {
		int d = *p >= '0' && *p <= '9'   ? *p - '0'
		        : *p >= 'a' && *p <= 'f' ? *p - 'a' + 10
		                                 : -1;
		if (d < 0 || digits == 16)
			return false;
		v = v << 4 | (uint64_t)d;
	}
	if (!digits)
		return false;
	*caught = v;
	return true;
}

/* The argv of argc arguments and two more (a script without #! run under
 * /bin/sh), in bytes. */
static size_t sh_argv_size(char **argv)
{
	size_t argc = 0;
	while (argv[argc])
		argc++;
	return (argc + 2) * sizeof(char *);
}

/* The child's mapping: its frames (a PATH_MAX buffer the largest) below
 * the script's argv and the struct child_start at the top. */
static size_t child_stack_size(char **argv)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t size = 64 * 1024 + sh_argv_size(argv) + sizeof(struct child_start);
	return (size + page - 1) / page * page;
}

/* execve as a system call that returns -errno and leaves errno alone:
 * the child shares the parent thread's errno (CLONE_VM), and the parent
 * may be running when the child execs (hpm_workload_go). Where it is not
 * written here the child is a copy (no CLONE_VM) and libc's execve does;
 * and in bench/bench-startup-traced (HPM_CHILD_COPY), which valgrind runs
 * for make startup-order: valgrind follows no CLONE_VM child. */
#if !defined(HPM_CHILD_COPY) &&                                                                    \
    (defined(__x86_64__) || defined(__aarch64__) || (defined(__riscv) && __riscv_xlen == 64))
#define CHILD_SHARES_MEMORY 1
static long child_execve(const char *path, char *const argv[], char *const envp[])
{
#if defined(__x86_64__)
	long r;
	__asm__ volatile("syscall"
	                 : "=a"(r)
	                 : "0"((long)SYS_execve), "D"(path), "S"(argv), "d"(envp)
	                 : "rcx", "r11", "memory");
	return r;
#elif defined(__aarch64__)
	register long x8 __asm__("x8") = SYS_execve;
	register long x0 __asm__("x0") = (long)path;
	register long x1 __asm__("x1") = (long)argv;
	register long x2 __asm__("x2") = (long)envp;
	__asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2) : "memory");
	return x0;
#else
	register long a7 __asm__("a7") = SYS_execve;
	register long a0 __asm__("a0") = (long)path;
	register long a1 __asm__("a1") = (long)argv;
	register long a2 __asm__("a2") = (long)envp;
	__asm__ volatile("ecall" : "+r"(a0) : "r"(a7), "r"(a1), "r"(a2) : "memory");
	return a0;
#endif
}
#else
#define CHILD_SHARES_MEMORY 0
static long child_execve(const char *path, char *const argv[], char *const envp[])
{
	execve(path, argv, envp);
	return -errno;
}
#endif

/* One candidate of execvp's search; a file the kernel does not take as a
 * program (ENOEXEC: a script without #!) runs under /bin/sh, as execvp
 * runs it, with sh_argv (room for argv and two more) as its argv. -errno. */
static long child_exec_one(char *path, char **argv, char **sh_argv)
{
	static char sh[] = "/bin/sh";
	long e = child_execve(path, argv, environ);
	if (e != -ENOEXEC)
		return e;
	size_t i = 1;
	sh_argv[0] = sh;
	sh_argv[1] = path;
	while (argv[i]) {
		sh_argv[i + 1] = argv[i];
		i++;
	}
	sh_argv[i + 1] = NULL;
	child_execve(sh, sh_argv, environ);
	return e;
}

/* execvp's search (glibc's rules: a name with a slash as it is, else each
 * PATH directory, an empty one the current directory, /bin:/usr/bin
 * without PATH; EACCES seen on the way wins over a later ENOENT; an error
 * other than a missing file or directory ends it) with child_execve.
 * Returns the errno of the failure. */
static int child_exec_search(char **argv, char **sh_argv)
{
	char *file = argv[0];
	if (!*file)
		return ENOENT;
	if (strchr(file, '/'))
		return (int)-child_exec_one(file, argv, sh_argv);
	size_t flen = strlen(file);
	if (flen > NAME_MAX)
		return ENAMETOOLONG;
	const char *path = getenv("PATH");
	if (!path)
		path = "/bin:/usr/bin";
	bool eacces = false;
	long e = -ENOENT;
	char buf[PATH_MAX];
	for (const char *p = path;; p++) {
		const char *end = strchr(p, ':');
		size_t dlen = end ? (size_t)(end - p) : strlen(p);
		if (dlen + 1 + flen < sizeof(buf)) {
			memcpy(buf, p, dlen);
			size_t n = dlen;
			if (dlen)
				buf[n++] = '/';
			memcpy(buf + n, file, flen + 1);
			e = child_exec_one(buf, argv, sh_argv);
			if (e == -EACCES)
				eacces = true;
			else if (e != -ENOENT && e != -ESTALE && e != -ENOTDIR && e != -ENODEV &&
			         e != -ETIMEDOUT)
				return (int)-e;
		}
		if (!end)
			break;
		p = end;
	}
	return eacces ? EACCES : (int)-e;
}

/* The child, sharing the parent's memory until its exec (clone with
 * CLONE_VM, as posix_spawn starts one): no copy of the page tables and no
 * copy-on-write faults in the parent afterwards, which a fork of hpmstat
 * cost at each start. It runs on its own stack while the parent goes on
 * opening the counters, so it makes only system calls that succeed (errno
 * is the parent thread's: its exec is child_execve's, which returns the
 * error) and runs none of the parent's
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
		/* the parent's SigCgt names the handled ones: only those and
		 * SIGINT need a look */
		if (c->caught_known && sig != SIGINT && !(c->caught >> (sig - 1) & 1))
			continue;
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
	int e = child_exec_search(c->argv, c->sh_argv);
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

/* The go and error pipes of a child that did not start. */
static void close_pipes(const int go[2], const int errp[2])
{
	close(go[0]);
	close(go[1]);
	close(errp[0]);
	close(errp[1]);
}

int hpm_workload_prepare(struct hpm_workload *w, char **argv, bool stdout_to_stderr, char *err,
                         size_t errlen)
{
	int go[2], errp[2];
	memset(w, 0, sizeof(*w));
	w->pid = -1;
	w->pidfd = -1;
	w->go_fd = w->err_fd = w->held_go = w->held_err = -1;
	/* both close on exec: the command gets the descriptors it would
	 * have had run directly, as under perf (the go pipe's two ends
	 * were once left open in it) */
	if (pipe2(go, O_CLOEXEC) || pipe2(errp, O_CLOEXEC)) {
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
		close_pipes(go, errp);
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
	c->sh_argv = (char **)((char *)c - sh_argv_size(argv));
	sigset_t all;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &c->mask);
	/* read with every signal blocked: no handler of this thread changes
	 * before the clone */
	c->caught_known = caught_signals(&c->caught);
	/* the stack grows down on every architecture Linux runs hpmstat on;
	 * 16-byte aligned below the arguments */
	char *top = (char *)((uintptr_t)c->sh_argv & ~(uintptr_t)15);
	w->pid = clone(child_run, top, (CHILD_SHARES_MEMORY ? CLONE_VM : 0) | SIGCHLD, c);
	int e = errno;
	sigprocmask(SIG_SETMASK, &c->mask, NULL);
	if (w->pid < 0) {
		child_stack_free(w);
		close_pipes(go, errp);
		snprintf(err, errlen, "fork: %s", strerror(e));
		return -e;
	}
	w->held_go = go[0];
	w->held_err = errp[1];
	w->go_fd = go[1];
	w->err_fd = errp[0];
	w->pidfd = hpm_process_pidfd(w->pid);
	return 0;
}

/* The write that lets the child exec. This process holds the go pipe's
 * read end too (held_go), so the write cannot meet a pipe without a reader
 * (EPIPE, SIGPIPE) even when a signal ended the child already: that is
 * seen when it is reaped. */
int hpm_workload_go(struct hpm_workload *w)
{
	ssize_t wr = write(w->go_fd, "x", 1);
	/* kept open until hpm_workload_close, as the child's ends are
	 * (held_go): its close at the exec frees nothing */
	if (wr != 1) {
		close(w->err_fd);
		w->err_fd = -1;
		return EIO;
	}
	return 0;
}

int hpm_workload_start(struct hpm_workload *w)
{
	int e = hpm_workload_go(w);
	if (e || w->err_fd < 0)
		return e;
	return hpm_workload_exec_error(w);
}

int hpm_workload_exec_error(struct hpm_workload *w)
{
	int e = 0;
	if (w->pid <= 0 || w->err_fd < 0)
		return 0;
	/* EOF comes once no write end is left: the child's (at its exec or
	 * its end) and this one */
	if (w->held_err >= 0) {
		close(w->held_err);
		w->held_err = -1;
	}
	ssize_t n = read(w->err_fd, &e, sizeof(e));
	close(w->err_fd);
	w->err_fd = -1;
	/* EOF: the child has exec'd, and no longer runs on its stack (with an
	 * errno it still has its _exit to make: reaping frees the stack) */
	if (n == 0)
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
	/* unprepared (pid -1), err_fd is 0: not ours */
	if (w->pid > 0) {
		int *fds[] = {&w->err_fd, &w->go_fd, &w->held_go, &w->held_err};
		for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++)
			if (*fds[i] >= 0) {
				close(*fds[i]);
				*fds[i] = -1;
			}
	}
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

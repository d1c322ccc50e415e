/* workload.c: the command a measurement counts (workload.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/workload.h"

/* The child the signal handler passes signals to; -1: none. */
static volatile pid_t forward_to = -1;

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
	/* the child must not print what this process has buffered */
	fflush(NULL);
	pid_t parent = getpid();
	w->pid = fork();
	if (w->pid < 0) {
		int e = errno;
		snprintf(err, errlen, "fork: %s", strerror(e));
		return -e;
	}
	if (w->pid == 0) {
		char c;
		close(go[1]);
		close(errp[0]);
		signal(SIGINT, SIG_DFL);
		/* a measurement killed (SIGKILL, the OOM killer) takes its
		 * command along instead of leaving it running unmeasured; a
		 * parent gone before the prctl is seen by getppid() */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) == 0 && getppid() != parent)
			_exit(127);
		/* the run file goes to standard output: the command's goes to
		 * standard error, as perf's does when it records to a pipe */
		if (stdout_to_stderr && dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
			_exit(127);
		/* wait until the counters are open, so the exec is counted */
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(argv[0], argv);
		int e = errno;
		if (write(errp[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
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
	if (r == w->pid)
		w->exited = true;
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

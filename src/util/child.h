/* child.h: the child process that runs the command a measurement counts
 * (the workload: its functions keep the hpm_workload_ names).
 *
 * Owns: struct hpm_workload, the child's life as perf stat leads it:
 * started as posix_spawn starts one (sharing this process's memory until
 * its exec, no fork's copy) and held before exec until the counters are
 * open (so the exec is counted), started, waited for through a pidfd (or by polling without
 * one), SIGINT/SIGTERM passed on to it, reaped with its rusage, and its
 * exit status as the shell reports it. Also the watching of a process that
 * is not ours (-p PID): its pidfd and whether it is gone.
 *
 * Never prints and never exits (only the child, when its exec fails, ends
 * with status 127): errors are a negative errno with a one-line message,
 * which the CLI prints.
 */
#ifndef HPM_UTIL_CHILD_H
#define HPM_UTIL_CHILD_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/resource.h>
#include <sys/types.h>

struct hpm_workload {
	pid_t pid;  /* -1: none */
	int go_fd;  /* write one byte: the child execs */
	int err_fd; /* the child writes errno if exec fails; EOF at exec; -1 once read */
	/* The go pipe's read end and the error pipe's write end, the child's
	 * ends, held here too until hpm_workload_close (the error pipe's until
	 * its read): the child's close-on-exec then drops a reference and
	 * frees nothing. Were its copies the last, the kernel would free the
	 * pipes after the exec, on the way back to user mode, where the
	 * enable_on_exec counters already count (~4k instructions on the
	 * riscv64 kernel, 1 % of a short command). -1: none. */
	int held_go, held_err;
	int pidfd; /* -1 where the kernel has no pidfd_open */
	bool exited;
	int status; /* wait4's, once exited */
	struct rusage ru;
	void *stack; /* the child's until its exec (CLONE_VM), NULL once freed */
	size_t stack_size;
};

/* Starts the child for argv, held before its exec until
 * hpm_workload_start; its standard output goes to standard error when
 * stdout_to_stderr (a run file on standard output). 0, or -errno with
 * "pipe: why" or "fork: why" in err. */
int hpm_workload_prepare(struct hpm_workload *w, char **argv, bool stdout_to_stderr, char *err,
                         size_t errlen);
/* Lets the child exec: 0, or the errno its exec failed with (positive). A
 * child already ended by a signal passed on to it (Ctrl-C right at the
 * start) is 0: the run goes on as one whose command has ended. */
int hpm_workload_start(struct hpm_workload *w);
/* Lets the child exec without waiting for the exec: this process is then
 * not woken while the command runs (at its exec), a wake-up whose context
 * switch the command's own counts would carry (~3.7k instructions on a
 * riscv64 hart, where each switch stops and starts the counters through
 * SBI calls). 0, or EIO; whether the exec failed is
 * hpm_workload_exec_error's once the child has ended. */
int hpm_workload_go(struct hpm_workload *w);
/* After hpm_workload_go and the child's end: the errno its exec failed
 * with (positive), 0 when it ran (or was started by hpm_workload_start). */
int hpm_workload_exec_error(struct hpm_workload *w);
/* Reaps the child if it has ended (or, when block, once it ends; a signal
 * does not stop that wait). */
void hpm_workload_reap(struct hpm_workload *w, bool block);
/* Sends sig to the child while it runs. */
void hpm_workload_kill(const struct hpm_workload *w, int sig);
/* Waits up to timeout_ms (negative: forever) for the child (w, when it
 * has one) or else the process watch_pid (its pidfd, or -1) to end; with
 * no pidfd it polls, and a nonzero *stop (a caught signal) ends the wait
 * unless a child is being waited for. Reaps the child if it ended. */
void hpm_workload_wait(struct hpm_workload *w, int watch_pid, int watch_pidfd, int timeout_ms,
                       const volatile sig_atomic_t *stop);
/* The exit status the shell would see, 128 + the signal for a child a
 * signal ended (*termsig then that signal, else 0); -1 while not reaped. */
int hpm_workload_exit_status(const struct hpm_workload *w, int *termsig);
/* The child's user and system CPU time in seconds, once reaped. */
void hpm_workload_times(const struct hpm_workload *w, double *user_s, double *sys_s);
/* Closes the pidfd (the child must have been reaped or be left alone). */
void hpm_workload_close(struct hpm_workload *w);

/* A signal caught by the caller's handler reaches the child as perf
 * stat's does: the child of w (NULL: none) is the one the handler passes
 * signals to from now on. */
void hpm_workload_forward_signals(const struct hpm_workload *w);
/* For a SA_SIGINFO handler (async-signal-safe): passes sig on to that
 * child when it was sent to this process alone (kill, not the terminal,
 * whose signal reached the child's process group already). */
void hpm_workload_pass_signal(int sig, const siginfo_t *si);

/* A pidfd for a process that is not our child (-p), -1 where none. */
int hpm_process_pidfd(pid_t pid);
/* True once the process pid no longer exists. */
bool hpm_process_gone(pid_t pid);

#endif

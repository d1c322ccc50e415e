/* startup-floor.c: the least a `stat -e task-clock -- COMMAND` can do, for
 * make bench-startup (issue 30): the floor under hpmstat's start-up.
 *
 *   bench-startup-floor COMMAND [ARG ...]
 *
 * Linked to libc only, as hpmstat is (statically beside the static front,
 * else as a PIE), it opens task-clock on itself with inherit and
 * enable_on_exec (disabled until the command's exec, which the kernel
 * turns on in the child), starts the
 * command with vfork and execvp, waits for it, reads the count and prints
 * perf stat's lines for it on standard error. No option parsing, no
 * tables, no signal handling, no error other than the system's: what it
 * costs against perf is what no implementation of the run can go below. */
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: bench-startup-floor COMMAND [ARG ...]\n");
		return 2;
	}
	struct perf_event_attr attr;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_TASK_CLOCK;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	attr.disabled = 1;
	attr.inherit = 1;
	attr.enable_on_exec = 1;
	int fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0) {
		perror("perf_event_open");
		return 1;
	}
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid_t pid = vfork();
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	int status = 0;
	struct rusage ru;
	if (pid < 0 || wait4(pid, &status, 0, &ru) < 0) {
		perror("vfork");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	uint64_t v[3];
	if (read(fd, v, sizeof(v)) != (ssize_t)sizeof(v)) {
		perror("read");
		return 1;
	}
	double msec = (double)v[0] / 1e6;
	double elapsed = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	fprintf(stderr,
	        "\n Performance counter stats for '%s':\n\n"
	        "%18.2f msec task-clock                       #  %7.3f CPUs utilized          \n\n"
	        "%17.9f seconds time elapsed\n\n"
	        "%17.9f seconds user\n%17.9f seconds sys\n\n\n",
	        argv[1], msec, msec / 1e3 / elapsed, elapsed,
	        (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6,
	        (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

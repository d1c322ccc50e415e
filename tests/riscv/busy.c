/* busy.c: the workload of the riscv64 VM tests (static, riscv64).
 *
 *   busy N        N iterations of a loop of a known instruction count (the
 *                 test reads it off the disassembly of busy_loop)
 *   busy -s SEC   spin for SEC seconds of wall time
 *   busy -S SEC   sleep SEC seconds
 *   busy -x CODE  exit with CODE at once
 *   busy -f N1,N2,...
 *                 fork a child per N that runs N iterations, all at once
 *                 (they share the harts: the scheduler switches between
 *                 them), print "PID N" for each and wait for them all; the
 *                 per-task tests hold each child's count to N x the loop
 *   busy -q K N   fork K children one after another, each N iterations
 *                 (with a small pid_max their pids are reused)
 *   busy -c 'CMD ARGS' ...
 *                 run the commands (words split at blanks) at once and wait
 *                 for them all: a workload of several processes (the guest
 *                 has no shell)
 *   busy -C 'CMD ARGS' ...
 *                 as -c, then "PID NS" for each: its task-clock from its
 *                 fork to its exit (a counter busy opens on it before its
 *                 exec), the truth of the per-task cpu-clock tests
 *   busy -o CPU DELAY OFF
 *                 after DELAY seconds take CPU offline for OFF seconds
 *                 (sysfs; CPU hotplug under a count), then online again
 */
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* Its own function, so the test finds it in objdump by name. */
__attribute__((noinline)) void busy_loop(unsigned long n)
{
	__asm__ volatile("1:\n\taddi %0, %0, -1\n\tbnez %0, 1b\n" : "+r"(n));
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int online(const char *path, const char *v)
{
	FILE *f = fopen(path, "w");
	if (!f || fputs(v, f) < 0 || fclose(f) != 0) {
		perror(path);
		return 1;
	}
	return 0;
}

/* busy -c / -C: each command (words split at blanks) in a child of its
 * own, all at once; with clocks, a task-clock counter on each child opened
 * while it waits before its exec and read after its exit, printed as
 * "PID NS": the child's time from its fork to its exit, exec included,
 * the window per-task BPF attribution charges it (a counter the command
 * opens on itself misses its exec, which under TCG on a loaded host takes
 * most of a second). */
static int run_commands(int n, char **cmds, int clocks)
{
	pid_t pid[32];
	int clk[32];
	if (n > 32)
		n = 32;
	for (int i = 0; i < n; i++) {
		int go[2];
		if (pipe(go) < 0)
			return 3;
		pid[i] = fork();
		if (pid[i] < 0)
			return 3;
		if (pid[i] == 0) {
			char *w[32], c;
			int k = 0;
			close(go[1]);
			if (read(go[0], &c, 1) < 0)
				_exit(126);
			for (char *t = strtok(cmds[i], " "); t && k < 31; t = strtok(NULL, " "))
				w[k++] = t;
			w[k] = NULL;
			if (k)
				execvp(w[0], w);
			perror(cmds[i]);
			_exit(127);
		}
		close(go[0]);
		clk[i] = -1;
		if (clocks) {
			struct perf_event_attr a;
			memset(&a, 0, sizeof(a));
			a.size = sizeof(a);
			a.type = PERF_TYPE_SOFTWARE;
			a.config = PERF_COUNT_SW_TASK_CLOCK;
			clk[i] = (int)syscall(SYS_perf_event_open, &a, pid[i], -1, -1, 0);
		}
		if (write(go[1], "g", 1) != 1)
			return 3;
		close(go[1]);
	}
	int st, bad = 0;
	while (wait(&st) > 0)
		bad |= !WIFEXITED(st) || WEXITSTATUS(st) != 0;
	for (int i = 0; clocks && i < n; i++) {
		unsigned long long v;
		if (clk[i] < 0 || read(clk[i], &v, sizeof(v)) != (ssize_t)sizeof(v))
			return 4;
		printf("%d %llu\n", (int)pid[i], v);
	}
	return bad;
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "-s") == 0) {
		double end = now() + atof(argv[2]);
		while (now() < end)
			busy_loop(10000);
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "-S") == 0) {
		usleep((useconds_t)(atof(argv[2]) * 1e6));
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "-f") == 0) {
		int go[2];
		if (pipe(go))
			return 3;
		/* each child waits for the last fork, so all of them overlap */
		for (char *p = argv[2]; *p;) {
			char *end;
			unsigned long n = strtoul(p, &end, 0);
			if (end == p || (*end && *end != ','))
				return 2;
			pid_t pid = fork();
			if (pid == 0) {
				char c;
				close(go[1]);
				if (read(go[0], &c, 1) != 0)
					_exit(3);
				busy_loop(n);
				_exit(0);
			}
			if (pid < 0)
				return 3;
			printf("%d %lu\n", (int)pid, n);
			p = *end ? end + 1 : end;
		}
		fflush(stdout);
		close(go[1]); /* the children's read returns 0: go */
		int st, bad = 0;
		while (wait(&st) > 0)
			bad |= !WIFEXITED(st) || WEXITSTATUS(st) != 0;
		return bad;
	}
	if (argc == 4 && strcmp(argv[1], "-q") == 0) {
		int k = atoi(argv[2]), bad = 0;
		unsigned long n = strtoul(argv[3], NULL, 0);
		for (int i = 0; i < k; i++) {
			pid_t pid = fork();
			if (pid < 0)
				return 3;
			if (pid == 0) {
				busy_loop(n);
				_exit(0);
			}
			int st;
			waitpid(pid, &st, 0);
			bad |= !WIFEXITED(st) || WEXITSTATUS(st) != 0;
		}
		return bad;
	}
	if (argc >= 3 && (strcmp(argv[1], "-c") == 0 || strcmp(argv[1], "-C") == 0))
		return run_commands(argc - 2, argv + 2, argv[1][1] == 'C');
	if (argc == 5 && strcmp(argv[1], "-o") == 0) {
		char path[64];
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", atoi(argv[2]));
		usleep((useconds_t)(atof(argv[3]) * 1e6));
		int bad = online(path, "0");
		usleep((useconds_t)(atof(argv[4]) * 1e6));
		return bad | online(path, "1");
	}
	if (argc == 3 && strcmp(argv[1], "-x") == 0)
		return atoi(argv[2]);
	if (argc == 2) {
		unsigned long n = strtoul(argv[1], NULL, 0);
		if (n)
			busy_loop(n);
		return 0;
	}
	fprintf(stderr, "usage: busy N | -s SEC | -S SEC | -x CODE | -f N1,N2,... | -q K N | "
	                "-c|-C CMD... | -o CPU DELAY OFF\n");
	return 2;
}

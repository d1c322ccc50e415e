/* busy-load.c: N busy processes for a bounded time, for bench/top-bpf.sh.
 *
 *   bench-busy-load N SECONDS [BUSY_US SLEEP_US]
 * forks N children at nice 19 (the machine stays usable and hpmstat, at
 * nice 0, is never starved of its ticks); each spins BUSY_US microseconds
 * (default 2000) then sleeps SLEEP_US (default 8000), over and over, so
 * every child is switched in and out ~100 times a second, and exits after
 * SECONDS. The parent prints the children's pids on one line, waits for
 * them and exits 0. A dying parent (SIGTERM) takes them along: each child
 * also stops once its parent is gone. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void child(double seconds, double busy, double sleep_s)
{
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (setpriority(PRIO_PROCESS, 0, 19) < 0)
		perror("setpriority");
	double end = now() + seconds;
	volatile unsigned long x = 0;
	while (now() < end) {
		double until = now() + busy;
		while (now() < until)
			x++;
		struct timespec ts = {0, (long)(sleep_s * 1e9)};
		nanosleep(&ts, NULL);
	}
	_exit(0);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: bench-busy-load N SECONDS [BUSY_US SLEEP_US]\n");
		return 2;
	}
	int n = atoi(argv[1]);
	double seconds = atof(argv[2]);
	double busy = argc > 3 ? atof(argv[3]) / 1e6 : 0.002;
	double sleep_s = argc > 4 ? atof(argv[4]) / 1e6 : 0.008;
	if (n < 1 || n > 10000 || seconds <= 0 || seconds > 3600) {
		fprintf(stderr, "bench-busy-load: N 1..10000, SECONDS up to 3600\n");
		return 2;
	}
	for (int i = 0; i < n; i++) {
		pid_t p = fork();
		if (p < 0) {
			perror("fork");
			return 1;
		}
		if (p == 0)
			child(seconds, busy, sleep_s);
		printf("%d%c", (int)p, i + 1 < n ? ' ' : '\n');
	}
	fflush(stdout);
	while (wait(NULL) > 0)
		;
	return 0;
}

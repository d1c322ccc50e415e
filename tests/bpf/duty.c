/* duty: a busy loop of a known CPU share, for the BPF tests and bench.
 *
 *   duty PCT CPU SECONDS [OUT]
 *
 * Busy PCT % of every 10 ms period (asleep the rest) for SECONDS of wall
 * time, pinned to CPU (-1: not pinned). At the end it appends "PID NS" to
 * OUT (or prints it): NS is its own CPU time by the kernel's per-process
 * clock (CLOCK_PROCESS_CPUTIME_ID), the truth the tests hold the BPF
 * attribution to.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double clock_s(clockid_t c)
{
	struct timespec ts;
	clock_gettime(c, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: duty PCT CPU SECONDS [OUT]\n");
		return 2;
	}
	double pct = atof(argv[1]), secs = atof(argv[3]);
	int cpu = atoi(argv[2]);
	if (pct < 0 || pct > 100 || secs < 0) {
		fprintf(stderr, "duty: PCT 0-100, SECONDS >= 0\n");
		return 2;
	}
	if (cpu >= 0) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set) < 0) {
			perror("duty: sched_setaffinity");
			return 1;
		}
	}
	double end = clock_s(CLOCK_MONOTONIC) + secs;
	for (double t0 = clock_s(CLOCK_MONOTONIC); t0 < end; t0 = clock_s(CLOCK_MONOTONIC)) {
		while (clock_s(CLOCK_MONOTONIC) - t0 < 0.010 * pct / 100)
			;
		double rest = 0.010 - (clock_s(CLOCK_MONOTONIC) - t0);
		if (pct < 100 && rest > 0) {
			struct timespec ts = {0, (long)(rest * 1e9)};
			nanosleep(&ts, NULL);
		}
	}
	FILE *f = argc > 4 ? fopen(argv[4], "a") : stdout;
	if (!f)
		return 1;
	fprintf(f, "%d %.0f\n", (int)getpid(), clock_s(CLOCK_PROCESS_CPUTIME_ID) * 1e9);
	return fclose(f) != 0;
}

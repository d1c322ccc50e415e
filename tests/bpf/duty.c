/* duty: a busy loop of a known CPU share, for the BPF tests and bench.
 *
 *   duty PCT CPU SECONDS [OUT [DELAY]]
 *
 * Asleep for DELAY seconds (default 0: a counter attached to it meanwhile
 * misses nothing), then busy PCT % of every 10 ms period (asleep the rest)
 * for SECONDS of wall time, pinned to CPU (-1: not pinned). At the end it
 * appends "PID NS" to OUT (or prints it): NS is its own task-clock, a
 * perf counter on itself (perf_event_open, pid 0), plus the CPU time it
 * used before opening it: the truth the issue
 * holds the BPF attribution to. Not the per-process clock
 * (CLOCK_PROCESS_CPUTIME_ID, the fallback when perf refuses): on a VM the
 * scheduler leaves the time stolen by the host out of it, while perf's
 * clocks, per task or per CPU, count it, so on a loaded host the two part
 * by 10 % and more. It then leaves with _exit, so that
 * little runs after the reading (no atexit handlers: a sanitizer's leak
 * check would run for milliseconds).
 */
#include <linux/perf_event.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
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
	if (argc > 5 && atof(argv[5]) > 0) {
		double d = atof(argv[5]);
		struct timespec ts = {(time_t)d, (long)((d - (double)(time_t)d) * 1e9)};
		nanosleep(&ts, NULL);
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
	struct perf_event_attr attr;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_TASK_CLOCK;
	attr.exclude_hv = 1;
	int tfd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	/* what ran before the counter (exec, the loader, the sleep's setup),
	 * which the BPF path counts from the fork: too short for the host to
	 * steal much of it */
	double before = clock_s(CLOCK_PROCESS_CPUTIME_ID);
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
	uint64_t tc;
	if (tfd >= 0 && read(tfd, &tc, sizeof(tc)) == (ssize_t)sizeof(tc))
		fprintf(f, "%d %.0f\n", (int)getpid(), before * 1e9 + (double)tc);
	else
		fprintf(f, "%d %.0f\n", (int)getpid(), clock_s(CLOCK_PROCESS_CPUTIME_ID) * 1e9);
	_exit(fclose(f) != 0);
}

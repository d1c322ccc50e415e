/* bpf-bench: the cost of src/bpf's sched_switch program per context switch.
 *
 *   bpf-bench [SECONDS] [EVENTS...]
 *
 * For 1, 4 and 8 counters per CPU (software events: this machine has no
 * hardware PMU), opens them on every CPU (events x CPUs fds, whatever the
 * number of tasks), loads the program and runs a context-switch-heavy load
 * (two processes bouncing a byte through pipes) for SECONDS (default 1).
 * The kernel's own statistics of the program (run_time_ns, run_cnt; on
 * while sysctl kernel.bpf_stats_enabled is 1, which the bench sets and
 * restores) give the cost per switch; the load's round trips per second
 * without and with the program give the cost as the load sees it.
 * Needs root (or CAP_BPF and CAP_PERFMON, and CAP_SYS_ADMIN for the sysctl).
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bpf/taskcount.h"

static const uint64_t sw_events[8] = {
    PERF_COUNT_SW_CPU_CLOCK,       PERF_COUNT_SW_TASK_CLOCK,       PERF_COUNT_SW_CONTEXT_SWITCHES,
    PERF_COUNT_SW_CPU_MIGRATIONS,  PERF_COUNT_SW_PAGE_FAULTS,      PERF_COUNT_SW_PAGE_FAULTS_MIN,
    PERF_COUNT_SW_PAGE_FAULTS_MAJ, PERF_COUNT_SW_ALIGNMENT_FAULTS,
};

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Round trips of a byte between two processes in `secs`. */
static double ping_pong(double secs)
{
	int a[2], b[2], r[2];
	if (pipe(a) < 0 || pipe(b) < 0 || pipe(r) < 0)
		return 0;
	pid_t p = fork();
	if (p == 0) {
		char c;
		while (read(a[0], &c, 1) == 1 && write(b[1], &c, 1) == 1)
			;
		_exit(0);
	}
	double t0 = now(), n = 0;
	char c = 'x';
	while (now() - t0 < secs) {
		for (int i = 0; i < 100; i++)
			if (write(a[1], &c, 1) != 1 || read(b[0], &c, 1) != 1)
				break;
		n += 100;
	}
	double rate = n / (now() - t0);
	kill(p, SIGKILL);
	waitpid(p, NULL, 0);
	close(a[0]), close(a[1]), close(b[0]), close(b[1]), close(r[0]), close(r[1]);
	return rate;
}

static int set_stats(const char *v, char *old, size_t len)
{
	FILE *f = fopen("/proc/sys/kernel/bpf_stats_enabled", "r+");
	if (!f)
		return -errno;
	if (old && (!fgets(old, (int)len, f) || fseek(f, 0, SEEK_SET) != 0))
		old[0] = '0';
	fputs(v, f);
	return fclose(f) == 0 ? 0 : -errno;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1.0;
	if (secs <= 0)
		secs = 1.0;
	int rc = hpm_taskcount_probe();
	if (rc < 0) {
		fprintf(stderr, "bpf-bench: %s\n", hpm_taskcount_strerror(rc));
		return 77;
	}
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpu < 1 || ncpu > HPM_TC_MAX_CPUS) {
		fprintf(stderr, "bpf-bench: %ld CPUs\n", ncpu);
		return 1;
	}
	char old[8] = "0";
	if ((rc = set_stats("1", old, sizeof(old))) < 0) {
		fprintf(stderr, "bpf-bench: kernel.bpf_stats_enabled: %s\n", strerror(-rc));
		return 1;
	}
	double base = ping_pong(secs);
	printf(
	    "context-switch load: two processes bouncing a byte through pipes, %.1f s, %ld CPUs\n",
	    secs, ncpu);
	printf("without BPF: %.0f round trips/s\n", base);
	printf("%-7s %-13s %-9s %-12s %-14s %-14s %s\n", "events", "fds opened", "switches",
	       "ns/switch", "ns/switch/evt", "round trips/s", "slowdown");
	static const unsigned sets[3] = {1, 4, 8};
	for (unsigned si = 0; si < 3; si++) {
		unsigned ne = sets[si];
		struct hpm_taskcount *tc;
		if ((rc = hpm_taskcount_open(&tc, ne, (unsigned)ncpu, 0)) < 0) {
			fprintf(stderr, "bpf-bench: %s\n", hpm_taskcount_strerror(rc));
			set_stats(old, NULL, 0);
			return 1;
		}
		int fds[8 * HPM_TC_MAX_CPUS], nfd = 0;
		for (unsigned e = 0; e < ne; e++)
			for (long c = 0; c < ncpu; c++) {
				struct perf_event_attr a;
				memset(&a, 0, sizeof(a));
				a.size = sizeof(a);
				a.type = PERF_TYPE_SOFTWARE;
				a.config = sw_events[e];
				a.read_format =
				    PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
				int fd = (int)syscall(__NR_perf_event_open, &a, -1, (int)c, -1, 0);
				if (fd >= 0) {
					fds[nfd++] = fd;
					hpm_taskcount_set_fd(tc, e, (unsigned)c, fd);
				}
			}
		uint64_t ns0 = 0, cnt0 = 0, ns1 = 0, cnt1 = 0;
		if ((rc = hpm_taskcount_start(tc)) < 0) {
			fprintf(stderr, "bpf-bench: %u events: %s\n", ne,
			        hpm_taskcount_strerror(rc));
			hpm_taskcount_close(tc);
			for (int i = 0; i < nfd; i++)
				close(fds[i]);
			set_stats(old, NULL, 0);
			return 1;
		}
		int st0 = hpm_taskcount_prog_stats(tc, &ns0, &cnt0);
		double rate = ping_pong(secs);
		int st1 = hpm_taskcount_prog_stats(tc, &ns1, &cnt1);
		if (st0 < 0 || st1 < 0)
			fprintf(stderr, "bpf-bench: the program's statistics: %s\n",
			        hpm_taskcount_strerror(st0 < 0 ? st0 : st1));
		struct hpm_tc_task *rows;
		unsigned n;
		struct hpm_tc_stats st;
		hpm_taskcount_read(tc, &rows, &n, &st);
		free(rows);
		double per = cnt1 > cnt0 ? (double)(ns1 - ns0) / (double)(cnt1 - cnt0) : 0;
		printf("%-7u %-13d %-9llu %-12.0f %-14.0f %-14.0f %.1f %%%s\n", ne, nfd,
		       (unsigned long long)(cnt1 - cnt0), per, per / ne, rate,
		       base > 0 ? 100.0 * (base - rate) / base : 0,
		       st.missed || st.read_errors ? " (missed or read errors!)" : "");
		hpm_taskcount_close(tc);
		for (int i = 0; i < nfd; i++)
			close(fds[i]);
	}
	set_stats(old, NULL, 0);
	return 0;
}

/* runtime.c: run a command N times and print the median wall time, the
 * largest peak RSS and the median minor page faults of the runs (from
 * wait4's rusage), for bench/stat-bench.sh and bench/startup-bench.py.
 *
 *   bench-runtime N command [args...]
 * prints "median_us=U peak_rss_kb=K minflt=F runs=N". The command's output is
 * discarded; a failing run is an error. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: bench-runtime N command [args...]\n");
		return 2;
	}
	int n = atoi(argv[1]);
	if (n < 1)
		n = 1;
	double *t = calloc((size_t)n, sizeof(double));
	double *flt = calloc((size_t)n, sizeof(double));
	long peak = 0;
	for (int i = 0; i < n; i++) {
		struct timespec a, b;
		struct rusage ru;
		int status;
		clock_gettime(CLOCK_MONOTONIC, &a);
		pid_t pid = fork();
		if (pid == 0) {
			int null = open("/dev/null", O_WRONLY);
			dup2(null, 1);
			dup2(null, 2);
			execvp(argv[2], argv + 2);
			_exit(127);
		}
		if (pid < 0 || wait4(pid, &status, 0, &ru) != pid) {
			perror("bench-runtime");
			return 1;
		}
		clock_gettime(CLOCK_MONOTONIC, &b);
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			fprintf(stderr, "bench-runtime: '%s' failed\n", argv[2]);
			return 1;
		}
		t[i] = (double)(b.tv_sec - a.tv_sec) * 1e6 + (double)(b.tv_nsec - a.tv_nsec) / 1e3;
		if (ru.ru_maxrss > peak)
			peak = ru.ru_maxrss;
		flt[i] = (double)ru.ru_minflt;
	}
	qsort(t, (size_t)n, sizeof(double), cmp);
	qsort(flt, (size_t)n, sizeof(double), cmp);
	printf("median_us=%.0f peak_rss_kb=%ld minflt=%.0f runs=%d\n", t[n / 2], peak, flt[n / 2],
	       n);
	free(t);
	free(flt);
	return 0;
}

/* thloop.c: the workload perf 6.12's tests/shell/record.sh runs as `perf
 * test -w thloop [SECONDS]` (a workload built into perf), for
 * upstream-record.sh: the main thread and a second one spin in test_loop,
 * the symbol the script looks for in perf report's output, for SECONDS
 * (default 1). */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

static volatile sig_atomic_t done;

static void on_alarm(int sig)
{
	(void)sig;
	done = 1;
}

__attribute__((noinline)) static void test_loop(void)
{
	while (!done)
		;
}

static void *spin(void *arg)
{
	(void)arg;
	test_loop();
	return NULL;
}

int main(int argc, char **argv)
{
	int seconds = argc > 1 ? atoi(argv[1]) : 1;
	pthread_t t;
	signal(SIGALRM, on_alarm);
	alarm(seconds > 0 ? (unsigned)seconds : 1);
	if (pthread_create(&t, NULL, spin, NULL) != 0)
		return 1;
	test_loop();
	pthread_join(t, NULL);
	return 0;
}

/* mt-sleeper.c: a mostly sleeping process for the tests of hpmstat top's
 * keys (tests/top/top-keys.sh): `mt-sleeper NAME N SECONDS` names itself
 * NAME (the comm top lists), starts N threads named NAME-tK, and lives
 * SECONDS. It and its threads wake every 20 ms, so a task source that
 * lists the tasks that ran in an interval (the BPF one) lists them too. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static double end;

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void *dozer(void *arg)
{
	const struct timespec tick = {0, 20000000};
	(void)arg;
	while (now() < end)
		nanosleep(&tick, NULL);
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: mt-sleeper NAME N SECONDS\n");
		return 2;
	}
	int n = atoi(argv[2]);
	end = now() + atof(argv[3]);
	prctl(PR_SET_NAME, argv[1], 0, 0, 0);
	for (int i = 0; i < n; i++) {
		pthread_t t;
		char name[32];
		if (pthread_create(&t, NULL, dozer, NULL))
			return 1;
		snprintf(name, sizeof(name), "%.9s-t%d", argv[1], i + 1);
		name[15] = 0; /* a thread name is at most 15 bytes */
		pthread_setname_np(t, name);
	}
	dozer(NULL);
	return 0;
}

/* mt-sleeper.c: a process with sleeping threads, for the tree view of
 * hpmstat top (tests/top/top-keys.sh): `mt-sleeper NAME N SECONDS` names
 * itself NAME (the comm top lists), starts N threads named NAME-tK, and
 * sleeps SECONDS; each thread sleeps too. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <unistd.h>

static unsigned seconds;

static void *sleeper(void *arg)
{
	(void)arg;
	sleep(seconds);
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: mt-sleeper NAME N SECONDS\n");
		return 2;
	}
	int n = atoi(argv[2]);
	seconds = (unsigned)atoi(argv[3]);
	prctl(PR_SET_NAME, argv[1], 0, 0, 0);
	for (int i = 0; i < n; i++) {
		pthread_t t;
		char name[32];
		if (pthread_create(&t, NULL, sleeper, NULL))
			return 1;
		snprintf(name, sizeof(name), "%.9s-t%d", argv[1], i + 1);
		name[15] = 0; /* a thread name is at most 15 bytes */
		pthread_setname_np(t, name);
	}
	sleep(seconds);
	return 0;
}

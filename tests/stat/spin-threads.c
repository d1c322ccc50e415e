/* spin-threads.c: a fixed multi-threaded target for the --per-thread and
 * -t tests: two threads named spin1 and spin2 burn CPU while the main
 * thread sleeps, for SECONDS (default 10) seconds; with a second argument
 * the tids are written there as "MAIN SPIN1 SPIN2" once both run. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static pid_t tids[2];

static void *spin(void *arg)
{
	long k = (long)arg;
	char name[32];
	snprintf(name, sizeof(name), "spin%ld", k + 1);
	prctl(PR_SET_NAME, name);
	__atomic_store_n(&tids[k], (pid_t)syscall(SYS_gettid), __ATOMIC_SEQ_CST);
	for (volatile unsigned long x = 0;; x++)
		if ((x & 0xfffff) == 0)
			usleep(500);
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned secs = argc > 1 ? (unsigned)atoi(argv[1]) : 10;
	pthread_t t;
	for (long k = 0; k < 2; k++)
		if (pthread_create(&t, NULL, spin, (void *)k))
			return 1;
	while (!__atomic_load_n(&tids[0], __ATOMIC_SEQ_CST) ||
	       !__atomic_load_n(&tids[1], __ATOMIC_SEQ_CST))
		usleep(1000);
	if (argc > 2) {
		FILE *f = fopen(argv[2], "w");
		if (!f)
			return 1;
		fprintf(f, "%d %d %d\n", (int)getpid(), (int)tids[0], (int)tids[1]);
		fclose(f);
	}
	sleep(secs);
	return 0;
}

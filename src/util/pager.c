/* pager.c: see pager.h. */
#include "util/pager.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/select.h>
#include <sys/wait.h>
#include <unistd.h>

static pid_t pager_pid;
static unsigned tty_columns; /* stdout's width before the pager took it */

static const char *pager_choice(void)
{
	const char *p = getenv("HPMSTAT_PAGER");
	if (!p)
		p = getenv("PAGER");
	if (!p && access("/usr/bin/pager", X_OK) == 0)
		p = "/usr/bin/pager";
	if (!p && access("/usr/bin/less", X_OK) == 0)
		p = "/usr/bin/less";
	if (!p || !*p || strcmp(p, "cat") == 0)
		return NULL;
	return p;
}

/* End of our output: the pager sees EOF and, once it exits, so may we. */
static void pager_wait(void)
{
	if (pager_pid <= 0)
		return;
	fflush(stdout);
	fflush(stderr);
	close(STDOUT_FILENO);
	close(STDERR_FILENO);
	while (waitpid(pager_pid, NULL, 0) < 0 && errno == EINTR)
		;
	pager_pid = 0;
}

static void pager_on_signal(int sig)
{
	/* async-signal-safe: close, waitpid, signal and raise only */
	if (pager_pid > 0) {
		close(STDOUT_FILENO);
		close(STDERR_FILENO);
		waitpid(pager_pid, NULL, 0);
		pager_pid = 0;
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

/* In the child: wait for the first byte (or EOF) before the pager starts. */
static void wait_for_input(void)
{
	fd_set in, ex;
	FD_ZERO(&in);
	FD_ZERO(&ex);
	FD_SET(STDIN_FILENO, &in);
	FD_SET(STDIN_FILENO, &ex);
	select(STDIN_FILENO + 1, &in, NULL, &ex, NULL);
}

bool pager_start(void)
{
	static const int fatal[] = {SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGTERM};
	struct winsize ws;
	int fd[2];

	if (pager_pid > 0)
		return true;
	if (!isatty(STDOUT_FILENO))
		return false;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col)
		tty_columns = ws.ws_col;
	const char *pager = pager_choice();
	if (!pager || pipe(fd) != 0)
		return false;
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return false;
	}
	if (pid == 0) {
		dup2(fd[0], STDIN_FILENO);
		close(fd[0]);
		close(fd[1]);
		wait_for_input();
		setenv("LESS", "FRSX", 0);
		execl("/bin/sh", "sh", "-c", pager, (char *)NULL);
		_exit(127);
	}
	close(fd[0]);
	dup2(fd[1], STDOUT_FILENO);
	if (isatty(STDERR_FILENO))
		dup2(fd[1], STDERR_FILENO);
	close(fd[1]);
	pager_pid = pid;
	for (unsigned i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++) {
		struct sigaction old;
		/* a handler the program installed itself stays */
		if (sigaction(fatal[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL)
			signal(fatal[i], pager_on_signal);
	}
	atexit(pager_wait);
	return true;
}

bool pager_active(void)
{
	return pager_pid > 0;
}

unsigned pager_columns(void)
{
	const char *s = getenv("COLUMNS");
	char *end;
	unsigned long n = s ? strtoul(s, &end, 10) : 0;
	if (s && *s && !*end && n > 0 && n < 10000)
		return (unsigned)n;
	if (!tty_columns) {
		struct winsize ws;
		if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col)
			tty_columns = ws.ws_col;
	}
	return tty_columns > 20 ? tty_columns - 2 : 78;
}

/* init.c: /init of the riscv64 VM the tests boot (static, riscv64).
 *
 * Owns: running the test's command lines inside the guest and handing each
 * command's stdout, stderr and exit status to the host, framed, on the
 * virtio console /dev/hvc0 (a channel of its own, so kernel messages on the
 * serial console never mix with results).
 *
 * /cmds holds one command per line (the guest has no shell):
 *   words separated by blanks, '...' and "..." quoting, leading NAME=VALUE
 *   words set the environment of that command, $NAME expands a pid of @bg;
 *   @uid N, @write FILE TEXT, @cat FILE, @bg NAME CMD..., @wait NAME,
 *   @kill NAME [SIG], @signal SIG MS CMD..., @sleep MS, @export FILE,
 *   @timeout S.
 * Frames on hvc0, for command i: "@@RVT i out N\n" + N bytes,
 * "@@RVT i err N\n" + N bytes, "@@RVT i rc TEXT\n"; "@@RVT i file NAME N\n"
 * + N bytes for @export; "@@RVT done\n" at the end. Then power off.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define MAX_WORDS 64
#define MAX_BG    8

static int out_fd = 1; /* hvc0, else the console */
static uid_t run_uid;
static unsigned cmd_timeout = 60;
static struct {
	char name[32];
	pid_t pid;
} bg[MAX_BG];
static unsigned nr_bg;

static void put(const void *buf, size_t n)
{
	const char *p = buf;
	while (n) {
		ssize_t w = write(out_fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		p += w;
		n -= (size_t)w;
	}
}

static void putf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void putf(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > 0)
		put(buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

/* A file as one frame: "@@RVT i KIND [NAME] N\n" + its bytes. Read to its
 * end first: /proc files say size 0. */
static void put_file(unsigned i, const char *kind, const char *name, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t len = 0, cap = 0;
	char *data = NULL;
	while (fd >= 0) {
		if (len == cap) {
			char *p = realloc(data, cap = cap ? cap * 2 : 65536);
			if (!p)
				break;
			data = p;
		}
		ssize_t r = read(fd, data + len, cap - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	if (fd >= 0)
		close(fd);
	if (name)
		putf("@@RVT %u file %s %zu\n", i, name, len);
	else
		putf("@@RVT %u %s %zu\n", i, kind, len);
	put(data, len);
	free(data);
}

/* Split a line into words: blanks separate, quotes group, $NAME expands. */
static int split(char *line, char **w, char *store, size_t storelen)
{
	int n = 0;
	char *o = store, *end = store + storelen - 1;
	char *p = line;
	while (*p) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '\n')
			break;
		if (n == MAX_WORDS - 1)
			return -1;
		w[n++] = o;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n' && o < end) {
			if (*p == '\'' || *p == '"') {
				char q = *p++;
				while (*p && *p != q && o < end)
					*o++ = *p++;
				if (*p == q)
					p++;
			} else if (*p == '$' && p[1] && p[1] != ' ') {
				char name[32];
				size_t k = 0;
				p++;
				while ((*p == '_' || (*p >= 'A' && *p <= 'Z') ||
				        (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')) &&
				       k < sizeof(name) - 1)
					name[k++] = *p++;
				name[k] = '\0';
				for (unsigned b = 0; b < nr_bg; b++)
					if (strcmp(bg[b].name, name) == 0)
						o += snprintf(o, (size_t)(end - o), "%d",
						              (int)bg[b].pid);
			} else {
				*o++ = *p++;
			}
		}
		*o++ = '\0';
	}
	w[n] = NULL;
	return n;
}

static const struct {
	const char *name;
	int sig;
} signames[] = {{"INT", SIGINT},   {"TERM", SIGTERM}, {"KILL", SIGKILL}, {"HUP", SIGHUP},
                {"USR1", SIGUSR1}, {"QUIT", SIGQUIT}, {"STOP", SIGSTOP}, {"CONT", SIGCONT}};

static int signum(const char *s)
{
	for (size_t i = 0; i < sizeof(signames) / sizeof(signames[0]); i++)
		if (strcmp(s, signames[i].name) == 0)
			return signames[i].sig;
	return atoi(s);
}

/* Fork and exec words (NAME=VALUE prefixes into the environment), with
 * stdout/stderr into the given files (or inherited when NULL). */
static pid_t spawn(char **w, const char *outp, const char *errp)
{
	pid_t pid = fork();
	if (pid != 0)
		return pid;
	setpgid(0, 0);
	int in = open("/dev/null", O_RDONLY);
	dup2(in, 0);
	if (outp) {
		int fd = open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, 1);
		fd = open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, 2);
	} else {
		int fd = open("/dev/null", O_WRONLY);
		dup2(fd, 1);
		dup2(fd, 2);
	}
	for (int fd = 3; fd < 64; fd++)
		close(fd);
	while (*w && strchr(*w, '=') && (*w)[0] != '/' && (*w)[0] != '=') {
		putenv(*w);
		w++;
	}
	if (run_uid && (setgid(run_uid) || setuid(run_uid))) {
		perror("setuid");
		_exit(126);
	}
	struct sigaction sa = {.sa_handler = SIG_DFL};
	for (int s = 1; s < 32; s++)
		sigaction(s, &sa, NULL);
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	execvp(w[0], w);
	fprintf(stderr, "%s: %s\n", w[0], strerror(errno));
	_exit(errno == ENOENT ? 127 : 126);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Wait for pid; sig after ms (0: none); the per-command timeout kills it.
 * The status as text: a number, "sig N" or "timeout". */
static void wait_for(pid_t pid, int sig, unsigned ms, char *rc, size_t rclen)
{
	double t0 = now(), deadline = t0 + cmd_timeout;
	bool sent = sig == 0, timed_out = false;
	int st;
	for (;;) {
		pid_t r = waitpid(pid, &st, WNOHANG);
		if (r == pid)
			break;
		if (r < 0 && errno != EINTR) {
			snprintf(rc, rclen, "lost");
			return;
		}
		double t = now();
		if (!sent && t - t0 >= ms / 1000.0) {
			kill(pid, sig);
			sent = true;
		}
		if (!timed_out && t >= deadline) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			timed_out = true;
		}
		usleep(2000);
	}
	if (timed_out)
		snprintf(rc, rclen, "timeout");
	else if (WIFEXITED(st))
		snprintf(rc, rclen, "%d", WEXITSTATUS(st));
	else
		snprintf(rc, rclen, "sig %d", WTERMSIG(st));
}

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -errno;
	size_t n = strlen(text);
	ssize_t w = write(fd, text, n);
	int e = errno;
	close(fd);
	return w == (ssize_t)n ? 0 : -e;
}

static void run_line(unsigned i, char *line)
{
	char *w[MAX_WORDS], store[8192], rc[32] = "0";
	const char *outp = "/run/rvt.out", *errp = "/run/rvt.err";
	unlink(outp);
	unlink(errp);
	int n = split(line, w, store, sizeof(store));
	if (n <= 0) {
		snprintf(rc, sizeof(rc), n < 0 ? "too-many-words" : "0");
	} else if (strcmp(w[0], "@uid") == 0 && n == 2) {
		run_uid = (uid_t)atoi(w[1]);
	} else if (strcmp(w[0], "@timeout") == 0 && n == 2) {
		cmd_timeout = (unsigned)atoi(w[1]);
	} else if (strcmp(w[0], "@sleep") == 0 && n == 2) {
		usleep((useconds_t)atoi(w[1]) * 1000);
	} else if (strcmp(w[0], "@write") == 0 && n >= 3) {
		int e = write_file(w[1], w[2]);
		if (e)
			snprintf(rc, sizeof(rc), "%d", -e);
	} else if (strcmp(w[0], "@cat") == 0 && n == 2) {
		outp = w[1];
	} else if (strcmp(w[0], "@export") == 0 && n == 2) {
		const char *base = strrchr(w[1], '/');
		put_file(i, "file", base ? base + 1 : w[1], w[1]);
	} else if (strcmp(w[0], "@bg") == 0 && n >= 3 && nr_bg < MAX_BG) {
		snprintf(bg[nr_bg].name, sizeof(bg[nr_bg].name), "%s", w[1]);
		bg[nr_bg].pid = spawn(w + 2, NULL, NULL);
		nr_bg++;
	} else if ((strcmp(w[0], "@wait") == 0 || strcmp(w[0], "@kill") == 0) && n >= 2) {
		snprintf(rc, sizeof(rc), "no-such-bg");
		for (unsigned b = 0; b < nr_bg; b++) {
			if (strcmp(bg[b].name, w[1]) != 0)
				continue;
			if (w[0][1] == 'k')
				snprintf(rc, sizeof(rc), "%d",
				         kill(bg[b].pid, n >= 3 ? signum(w[2]) : SIGTERM) ? errno
				                                                          : 0);
			else
				wait_for(bg[b].pid, 0, 0, rc, sizeof(rc));
		}
	} else if (strcmp(w[0], "@signal") == 0 && n >= 4) {
		pid_t pid = spawn(w + 3, outp, errp);
		wait_for(pid, signum(w[1]), (unsigned)atoi(w[2]), rc, sizeof(rc));
	} else if (w[0][0] == '@') {
		snprintf(rc, sizeof(rc), "bad-builtin");
	} else {
		pid_t pid = spawn(w, outp, errp);
		wait_for(pid, 0, 0, rc, sizeof(rc));
	}
	put_file(i, "out", NULL, outp);
	put_file(i, "err", NULL, errp);
	putf("@@RVT %u rc %s\n", i, rc);
}

int main(void)
{
	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	mount("tmpfs", "/run", "tmpfs", 0, "mode=0755");
	mount("tmpfs", "/tmp", "tmpfs", 0, "mode=1777");
	/* the virtio console may probe after init starts (slow under -icount) */
	int fd = -1;
	for (int tries = 0; fd < 0 && tries < 500; tries++) {
		fd = open("/dev/hvc0", O_RDWR | O_NOCTTY);
		if (fd < 0)
			usleep(10000);
	}
	if (fd >= 0) {
		struct termios t;
		if (tcgetattr(fd, &t) == 0) {
			cfmakeraw(&t);
			tcsetattr(fd, TCSANOW, &t);
		}
		out_fd = fd;
	}
	if (chdir("/tmp") != 0)
		putf("@@RVT 0 note chdir /tmp failed\n");
	setenv("PATH", "/bin", 1);
	setenv("HOME", "/tmp", 1);
	/* the background jobs are reaped by @wait; others by this loop's waits */
	FILE *f = fopen("/cmds", "re");
	char *line = NULL;
	size_t cap = 0;
	unsigned i = 0;
	while (f && getline(&line, &cap, f) > 0)
		run_line(++i, line);
	putf("@@RVT done\n");
	fsync(out_fd);
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}

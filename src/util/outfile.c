/* outfile.c: writing a path safely, as perf would (see outfile.h). */
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <signal.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "util/outfile.h"
#include "util/xalloc.h"

/* Symlink hops followed before giving up, as the kernel's limit. */
#define MAX_HOPS 40
/* Temporary files alive at once: stat has two (-o, --record). */
#define MAX_LIVE 8

struct outfile {
	FILE *f;
	char *name;   /* as given, for messages */
	char *target; /* with tmp: the real file renamed over */
	char *tmp;    /* the temporary file beside target; NULL: in place */
	bool anon;    /* fd is an unnamed temporary file (O_TMPFILE) of target's
	               * directory, named at commit (then tmp) */
	int slot;     /* tmp's entry in live_tmp */
	int fd;
	bool own_fd; /* close fd at the end (not a standard stream) */
	bool stream; /* "-" or a descriptor */
	int err;     /* the first errno of a failed write */
	/* appending: the existing file the temporary file's content is added
	 * to at commit (-1: none), or, with append_new, no file yet */
	int append_fd;
	bool append_new;
};

/* ---------------------------------------------------- signal-safe cleanup */

/* The live temporary paths, read by the signal handler: an entry is set and
 * cleared with every signal blocked, so the handler never sees a file that
 * exists but is not listed, nor one listed after its rename. */
static char *volatile live_tmp[MAX_LIVE];
/* The process that made them: a forked child (the workload before its
 * exec) must not remove its parent's files. */
static volatile pid_t live_owner;
static bool handlers_installed;

void outfile_cleanup(void)
{
	if (getpid() != live_owner)
		return;
	for (int i = 0; i < MAX_LIVE; i++) {
		char *p = live_tmp[i];
		if (p)
			unlink(p);
	}
}

static void on_fatal_signal(int sig)
{
	int saved = errno;
	outfile_cleanup();
	/* the default action, once this handler returns (sig is blocked here) */
	struct sigaction dfl = {.sa_handler = SIG_DFL};
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
	raise(sig);
	errno = saved;
}

static void at_exit_cleanup(void)
{
	outfile_cleanup();
}

/* Every signal whose default action ends the process: SIGKILL (and
 * SIGSTOP) cannot be caught. */
static const int fatal_signals[] = {
    SIGHUP,    SIGINT,  SIGQUIT,   SIGILL,  SIGTRAP, SIGABRT, SIGBUS,
    SIGFPE,    SIGUSR1, SIGSEGV,   SIGUSR2, SIGPIPE, SIGALRM, SIGTERM,
    SIGXCPU,   SIGXFSZ, SIGVTALRM, SIGPROF, SIGIO,   SIGPWR,  SIGSYS,
#ifdef SIGSTKFLT
    SIGSTKFLT,
#endif
};

static void install_one(int sig)
{
	struct sigaction cur;
	if (sigaction(sig, NULL, &cur) != 0)
		return;
	/* a command's own handler (stat's SIGINT) or an inherited SIG_IGN
	 * (nohup) stays as it is */
	if ((cur.sa_flags & SA_SIGINFO) || cur.sa_handler != SIG_DFL)
		return;
	struct sigaction sa = {.sa_handler = on_fatal_signal, .sa_flags = SA_RESTART};
	sigfillset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

static void install_handlers(void)
{
	if (handlers_installed)
		return;
	handlers_installed = true;
	for (size_t i = 0; i < sizeof(fatal_signals) / sizeof(fatal_signals[0]); i++)
		install_one(fatal_signals[i]);
	for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		install_one(sig);
	atexit(at_exit_cleanup);
}

/* ------------------------------------------------------ temporary files */

static void random_suffix(char *s, size_t n)
{
	static const char alnum[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	static unsigned counter;
	unsigned char r[16];
	if (n > sizeof(r))
		n = sizeof(r);
	if (getrandom(r, n, GRND_NONBLOCK) != (ssize_t)n) {
		/* no entropy yet: O_EXCL still makes the name unique */
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		unsigned long x = (unsigned long)ts.tv_nsec ^ ((unsigned long)getpid() << 16) ^
		                  (unsigned long)++counter * 2654435761u;
		for (size_t i = 0; i < n; i++, x = x * 6364136223846793005u + 1442695040888963407u)
			r[i] = (unsigned char)(x >> 33);
	}
	for (size_t i = 0; i < n; i++)
		s[i] = alnum[r[i] % (sizeof(alnum) - 1)];
}

/* Creates TARGET.XXXXXX with mode (the umask applies), or with anon_fd >= 0
 * gives that unnamed file the name, and lists it in live_tmp in one step,
 * with every signal blocked: a signal can come before the file exists or
 * after it is listed, never in between. */
static int create_temp(struct outfile *of, const char *target, mode_t mode, int anon_fd)
{
	char proc[64];
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", anon_fd);
	int slot = -1;
	for (int i = 0; i < MAX_LIVE && slot < 0; i++)
		if (!live_tmp[i])
			slot = i;
	if (slot < 0)
		return -EMFILE;
	install_handlers();
	size_t n = strlen(target);
	char *tmp = xmalloc(n + 8);
	memcpy(tmp, target, n);
	tmp[n] = '.';
	tmp[n + 7] = '\0';
	sigset_t all, old;
	sigfillset(&all);
	for (int tries = 0; tries < 100; tries++) {
		random_suffix(tmp + n + 1, 6);
		sigprocmask(SIG_BLOCK, &all, &old);
		/* read back when appending (outfile_open_append) */
		int fd = anon_fd;
		if (anon_fd < 0)
			fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode);
		else if (linkat(AT_FDCWD, proc, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW) != 0)
			fd = -1;
		int e = errno;
		if (fd >= 0) {
			live_owner = getpid();
			live_tmp[slot] = tmp;
		}
		sigprocmask(SIG_SETMASK, &old, NULL);
		if (fd >= 0) {
			of->tmp = tmp;
			of->slot = slot;
			if (!of->target)
				of->target = xstrdup(target);
			return fd;
		}
		if (e != EEXIST) {
			free(tmp);
			return -e;
		}
	}
	free(tmp);
	return -EEXIST;
}

/* Unlinks (or, with rename_to, renames) the temporary file and takes it
 * off the list in one step. 0 or -errno of the rename. */
static int end_temp(struct outfile *of, const char *rename_to)
{
	sigset_t all, old;
	int ret = 0;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	if (rename_to && rename(of->tmp, rename_to) != 0)
		ret = -errno;
	if (!rename_to || ret)
		unlink(of->tmp);
	live_tmp[of->slot] = NULL;
	sigprocmask(SIG_SETMASK, &old, NULL);
	free(of->tmp);
	of->tmp = NULL;
	return ret;
}

/* -------------------------------------------------------- path handling */

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

/* An unnamed temporary file in target's directory (O_TMPFILE), named only
 * at commit: a process killed before (SIGKILL too, which no cleanup sees)
 * leaves nothing behind. -errno where the file system has none or /proc
 * cannot name it (create_temp then makes a named one). */
static int create_anon_temp(struct outfile *of, const char *target, mode_t mode)
{
	if (access("/proc/self/fd", X_OK) != 0)
		return -errno;
	char *dir = dir_of(target);
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, mode);
	int e = errno;
	free(dir);
	if (fd < 0)
		return -e;
	of->anon = true;
	of->target = xstrdup(target);
	return fd;
}

static char *read_link(const char *path)
{
	for (size_t cap = 256;; cap *= 2) {
		char *buf = xmalloc(cap);
		ssize_t n = readlink(path, buf, cap);
		if (n < 0) {
			free(buf);
			return NULL;
		}
		if ((size_t)n < cap) {
			buf[n] = '\0';
			return buf;
		}
		free(buf);
		if (cap > 65536) {
			errno = ENAMETOOLONG;
			return NULL;
		}
	}
}

/* Follows path's symlinks to the file they end at (which may not exist
 * yet: a dangling link creates its target, as fopen does). *via_proc:
 * a link under /proc (/dev/stdout -> /proc/self/fd/1) was met, whose
 * target is a descriptor's file, not a place to put another file. */
static int resolve(const char *path, char **real, bool *via_proc)
{
	char *cur = xstrdup(path);
	*via_proc = false;
	for (int hop = 0; hop <= MAX_HOPS; hop++) {
		struct stat st;
		if (lstat(cur, &st) != 0) {
			if (errno == ENOENT) {
				*real = cur;
				return 0;
			}
			int e = errno;
			free(cur);
			return -e;
		}
		if (!S_ISLNK(st.st_mode)) {
			*real = cur;
			return 0;
		}
		char *dir = dir_of(cur);
		struct statfs sf;
		if (statfs(dir, &sf) == 0 && sf.f_type == PROC_SUPER_MAGIC) {
			free(dir);
			*via_proc = true;
			*real = cur;
			return 0;
		}
		char *to = read_link(cur);
		if (!to) {
			int e = errno;
			free(dir);
			free(cur);
			return -e;
		}
		free(cur);
		cur = to[0] == '/' ? xstrdup(to) : xasprintf("%s/%s", dir, to);
		free(to);
		free(dir);
	}
	free(cur);
	return -ELOOP;
}

/* ---------------------------------------------------------------- writes */

/* Every byte or the errno that stopped it; a signal handler that returns
 * (stat's SIGINT) interrupts nothing. */
static ssize_t cookie_write(void *cookie, const char *buf, size_t len)
{
	struct outfile *of = cookie;
	size_t done = 0;
	while (done < len) {
		ssize_t n = write(of->fd, buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!of->err)
				of->err = n < 0 ? errno : EIO;
			return (ssize_t)done;
		}
		done += (size_t)n;
	}
	return (ssize_t)done;
}

/* fseek on the stream: where the file has positions (the temporary
 * file, a regular file in place), a writer may go back and rewrite (perf.data's
 * header at the end); a pipe gives ESPIPE. */
static int cookie_seek(void *cookie, off64_t *pos, int whence)
{
	struct outfile *of = cookie;
	off_t r = lseek(of->fd, (off_t)*pos, whence);
	if (r < 0)
		return -1;
	*pos = r;
	return 0;
}

/* The checked stream over fd: 0, or -ENOMEM (the only way it fails). */
static int wrap(struct outfile *of, int fd, const char *name, bool own)
{
	of->fd = fd;
	of->own_fd = own;
	cookie_io_functions_t io = {.write = cookie_write, .seek = cookie_seek};
	of->f = fopencookie(of, "w", io);
	if (!of->f)
		return -ENOMEM;
	of->name = xstrdup(name);
	/* unbuffered, as stderr itself: its order with the messages written
	 * to it directly is kept, and each print is one write(2) (a line
	 * buffer splits even one fwrite of a whole report at each newline) */
	if (fd == STDERR_FILENO)
		setvbuf(of->f, NULL, _IONBF, 0);
	return 0;
}

static void outfile_free(struct outfile *of)
{
	free(of->name);
	free(of->target);
	free(of);
}

struct outfile *outfile_fd(int fd, const char *name)
{
	struct outfile *of = xcalloc(1, sizeof(*of));
	of->stream = true;
	of->append_fd = -1;
	if (fd == STDOUT_FILENO)
		fflush(stdout);
	else if (fd == STDERR_FILENO)
		fflush(stderr);
	if (wrap(of, fd, name, false) != 0) {
		outfile_free(of);
		return NULL;
	}
	return of;
}

/* An existing file's mode and owner on its replacement; -1 when they
 * cannot be kept (then it is written in place). */
static int keep_mode_owner(int fd, const struct stat *st)
{
	if ((st->st_uid != geteuid() || st->st_gid != getegid()) &&
	    fchown(fd, st->st_uid, st->st_gid) != 0)
		return -1;
	/* after fchown, which may clear set-id bits */
	return fchmod(fd, st->st_mode & 07777);
}

/* The end of outfile_open and outfile_open_append: fd, the temporary file
 * beside the target, or (fd < 0) path itself opened in place with
 * O_TRUNC or O_APPEND, becomes the stream of *out. Takes real and of;
 * 0 or -errno. */
static int open_finish(struct outfile *of, char *real, const char *path, int fd, int how,
                       struct outfile **out)
{
	int r;
	if (fd < 0) {
		free(of->target);
		of->target = NULL;
		do
			fd = open(path, O_WRONLY | O_CREAT | how | O_CLOEXEC, 0666);
		while (fd < 0 && errno == EINTR);
		if (fd < 0) {
			r = -errno;
			free(real);
			free(of);
			return r;
		}
	}
	free(real);
	if ((r = wrap(of, fd, path, true)) != 0) {
		close(fd);
		if (of->tmp)
			end_temp(of, NULL);
		if (of->append_fd >= 0)
			close(of->append_fd);
		outfile_free(of);
		return r;
	}
	*out = of;
	return 0;
}

/* Replacing path's real file `real`, of which st is the stat (or exists
 * false): the temporary file for the new output, or -1 when the output
 * goes in place (also where no temporary file can be made beside the file,
 * and that error is this one's). 0 or -errno. */
static int replace_prepare(struct outfile *of, const char *real, bool exists, const struct stat *st,
                           int *fd)
{
	*fd = -1;
	if (!exists) {
		/* a new file: the kernel applies the umask and default ACL */
		*fd = create_anon_temp(of, real, 0666);
		if (*fd < 0)
			*fd = create_temp(of, real, 0666, -1);
		return 0;
	}
	if (!S_ISREG(st->st_mode) || st->st_nlink != 1)
		return 0;
	/* replacing must not write what fopen could not */
	if (faccessat(AT_FDCWD, real, W_OK, AT_EACCESS) != 0)
		return -errno;
	*fd = create_anon_temp(of, real, 0600);
	if (*fd < 0)
		*fd = create_temp(of, real, 0600, -1);
	if (*fd >= 0 && keep_mode_owner(*fd, st) != 0) {
		close(*fd);
		if (of->tmp)
			end_temp(of, NULL);
		of->anon = false;
		*fd = -1;
	}
	return 0;
}

/* Appending to path's real file `real`, of which st is the stat (or
 * exists false): the temporary file for the new output, or -1 when the
 * output goes in place. 0 or -errno. */
static int append_prepare(struct outfile *of, const char *real, bool exists, const struct stat *st,
                          int *fd)
{
	*fd = -1;
	if (!exists) {
		of->append_new = true;
		*fd = create_temp(of, real, 0666, -1);
		return 0;
	}
	if (!S_ISREG(st->st_mode) || st->st_nlink != 1)
		return 0;
	/* the file itself, opened now: a path that cannot be written stops
	 * the run before it starts */
	do
		of->append_fd = open(real, O_WRONLY | O_APPEND | O_CLOEXEC);
	while (of->append_fd < 0 && errno == EINTR);
	if (of->append_fd < 0)
		return -errno;
	*fd = create_temp(of, real, 0600, -1);
	if (*fd < 0) {
		/* no room for a temporary file beside it: in place */
		close(of->append_fd);
		of->append_fd = -1;
	}
	return 0;
}

/* Both opens: how (O_TRUNC or O_APPEND) says which. */
static int open_path(const char *path, int how, struct outfile **out)
{
	*out = NULL;
	if (!*path)
		return -ENOENT;
	if (strcmp(path, "-") == 0) {
		*out = outfile_fd(STDOUT_FILENO, path);
		return *out ? 0 : -ENOMEM;
	}
	char *real = NULL;
	bool via_proc;
	int r = resolve(path, &real, &via_proc);
	if (r)
		return r;
	struct outfile *of = xcalloc(1, sizeof(*of));
	of->append_fd = -1;
	int fd = -1;
	/* via_proc: in place, as perf's fopen(path, "w") or "a" (a FIFO waits
	 * for its reader) */
	if (!via_proc) {
		struct stat st;
		bool exists = stat(real, &st) == 0;
		if (!exists && errno != ENOENT)
			r = -errno;
		else if (how == O_APPEND)
			r = append_prepare(of, real, exists, &st, &fd);
		else
			r = replace_prepare(of, real, exists, &st, &fd);
		if (r) {
			free(real);
			free(of->target);
			free(of);
			return r;
		}
	}
	if (how == O_APPEND && fd < 0)
		of->append_new = false;
	return open_finish(of, real, path, fd, how, out);
}

int outfile_open(const char *path, struct outfile **out)
{
	return open_path(path, O_TRUNC, out);
}

int outfile_open_append(const char *path, struct outfile **out)
{
	return open_path(path, O_APPEND, out);
}

/* Adds the temporary file's content to the end of append_fd in one piece:
 * every signal but SIGKILL blocked, and on a failed write the file is cut
 * back to its old size (what another writer appended meanwhile, past
 * that, would be lost with it: so it is only cut when it still ends where
 * this write left it). 0 or -errno. */
static int append_copy(struct outfile *of)
{
	sigset_t all, old;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	struct stat st;
	int ret = fstat(of->append_fd, &st) == 0 ? 0 : -errno;
	off_t start = st.st_size, in = 0, added = 0;
	char buf[65536];
	while (!ret) {
		ssize_t n = pread(of->fd, buf, sizeof(buf), in);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = n < 0 ? -errno : 0;
			break;
		}
		in += n;
		for (ssize_t done = 0; done < n && !ret;) {
			ssize_t w = write(of->append_fd, buf + done, (size_t)(n - done));
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0) {
				ret = w < 0 ? -errno : -EIO;
			} else {
				done += w;
				added += w;
			}
		}
	}
	/* the error reported stays the write's, whatever the cut gives */
	if (ret && added && fstat(of->append_fd, &st) == 0 && st.st_size == start + added &&
	    ftruncate(of->append_fd, start) != 0)
		ret = ret ? ret : -errno;
	if (close(of->append_fd) != 0 && !ret && errno != EINTR)
		ret = -errno;
	of->append_fd = -1;
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}

/* A new file for an append: the temporary file takes its name unless one
 * was made meanwhile, which it is then appended to. 0 or -errno. */
static int append_link_new(struct outfile *of)
{
	if (link(of->tmp, of->target) == 0)
		return end_temp(of, NULL);
	if (errno != EEXIST && errno != EPERM && errno != EOPNOTSUPP)
		return -errno;
	/* EEXIST: made meanwhile; EPERM, EOPNOTSUPP: no hard links here */
	if (errno == EEXIST) {
		do
			of->append_fd = open(of->target, O_WRONLY | O_APPEND | O_CLOEXEC);
		while (of->append_fd < 0 && errno == EINTR);
		if (of->append_fd < 0)
			return -errno;
		int r = append_copy(of);
		end_temp(of, NULL);
		return r;
	}
	return end_temp(of, of->target);
}

FILE *outfile_stream(struct outfile *of)
{
	return of->f;
}

const char *outfile_name(const struct outfile *of)
{
	return of->name;
}

bool outfile_is_stream(const struct outfile *of)
{
	return of->stream;
}

int outfile_commit(struct outfile *of)
{
	if (!of)
		return 0;
	if (fflush(of->f) != 0 && !of->err)
		of->err = errno ? errno : EIO;
	if (ferror(of->f) && !of->err)
		of->err = EIO;
	fclose(of->f); /* no close function: the descriptor is ours to close */
	int ret;
	if (of->tmp && (of->append_fd >= 0 || of->append_new)) {
		/* appending: the temporary file's content goes to the end of the
		 * file (read back before it is closed) */
		ret = -of->err;
		if (!ret)
			ret = of->append_new ? append_link_new(of) : append_copy(of);
		if (of->append_fd >= 0)
			close(of->append_fd);
		close(of->fd);
		if (of->tmp)
			end_temp(of, NULL);
		outfile_free(of);
		return ret;
	}
	/* the unnamed file gets its temporary name (then renamed over the
	 * target as a named one is) while its descriptor is open */
	if (of->anon && !of->err) {
		int r = create_temp(of, of->target, 0, of->fd);
		if (r < 0)
			of->err = -r;
	}
	/* NFS and others report a lost write only here */
	if (of->own_fd && close(of->fd) != 0 && errno != EINTR && !of->err)
		of->err = errno;
	ret = -of->err;
	if (of->tmp) {
		int r = end_temp(of, of->err ? NULL : of->target);
		if (!ret)
			ret = r;
	}
	outfile_free(of);
	return ret;
}

void outfile_abort(struct outfile *of)
{
	if (!of)
		return;
	__fpurge(of->f); /* what is not written yet never will be */
	fclose(of->f);
	if (of->own_fd)
		close(of->fd);
	if (of->append_fd >= 0)
		close(of->append_fd);
	if (of->tmp)
		end_temp(of, NULL);
	outfile_free(of);
}

/* ---------------------------------------------------------- same file */

/* Where a path not yet created would be: its real directory and name. */
static char *place_of(const char *path)
{
	char *real = NULL, *dir, *rdir, *ret = NULL;
	bool via_proc;
	if (resolve(path, &real, &via_proc) != 0)
		return NULL;
	dir = dir_of(real);
	rdir = realpath(dir, NULL);
	if (rdir) {
		const char *slash = strrchr(real, '/');
		ret = xasprintf("%s/%s", rdir, slash ? slash + 1 : real);
	}
	free(rdir);
	free(dir);
	free(real);
	return ret;
}

static int identity(const char *path, struct stat *st)
{
	return strcmp(path, "-") == 0 ? fstat(STDOUT_FILENO, st) : stat(path, st);
}

bool outfile_same(const char *a, const char *b)
{
	struct stat sa, sb;
	if (strcmp(a, b) == 0)
		return true;
	int ea = identity(a, &sa), eb = identity(b, &sb);
	if (ea == 0 && eb == 0)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	if (ea == 0 || eb == 0 || !strcmp(a, "-") || !strcmp(b, "-"))
		return false;
	char *pa = place_of(a), *pb = place_of(b);
	bool same = pa && pb && strcmp(pa, pb) == 0;
	free(pa);
	free(pb);
	return same;
}

int outfile_finish(struct outfile *of, int err)
{
	if (err) {
		outfile_abort(of);
		return err;
	}
	return outfile_commit(of);
}

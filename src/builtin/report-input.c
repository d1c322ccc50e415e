/* report-input.c: the input of hpmstat report: which file is a perf.data
 * of samples, the special files it refuses, and standard input made a
 * file the report can map (report-input.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtin/cli.h"
#include "builtin/report-input.h"
#include "perfdata/reader.h"
#include "util/readall.h"
#include "util/str.h"
#include "util/xalloc.h"

/* path is a perf.data of samples: its first bytes are perf.data's magic,
 * and it is not one of stat counts (stat record's, perf stat record's),
 * which is reported as a run (its run file, rf_load_file). "-": standard
 * input, a pipe, is read as perf.data, as perf report -i - does. */
bool report_input_is_perf_data(const char *path)
{
	char b[8];
	if (strcmp(path, "-") == 0)
		return true;
	/* O_NONBLOCK: a FIFO must not block here (report_input_refused refuses it) */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return false;
	struct stat st;
	ssize_t n = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? read(fd, b, sizeof(b)) : 0;
	close(fd);
	if (n <= 0 || !pd_is_perf_data(b, (size_t)n))
		return false;
	struct pd_file pf;
	char err[256];
	if (pd_open(&pf, path, err, sizeof(err)) != 0)
		return true; /* the samples report says what is wrong with it */
	bool stat = pf.has_stat || pf.hpm_run;
	pd_close(&pf);
	return !stat;
}

/* An input that is a FIFO or a socket: opening or reading one waits for a
 * writer that may never come (perf report -i FIFO hangs there). One line
 * and true; a pipe comes in as -i -. */
bool report_input_refused(const char *path)
{
	struct stat st;
	if (strcmp(path, "-") == 0 || stat(path, &st) != 0 ||
	    !(S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)))
		return false;
	cli_error("'%s': a %s, not a file: give a pipe as standard input with -i -", path,
	          S_ISFIFO(st.st_mode) ? "FIFO" : "socket");
	return true;
}

/* A temporary file for standard input's stream, already unlinked: in
 * $TMPDIR, else /tmp. -errno. */
static int spool_file(const char **dir)
{
	const char *d = getenv("TMPDIR");
	if (!d || !*d)
		d = "/tmp";
	*dir = d;
	int fd = open(d, O_TMPFILE | O_RDWR | O_EXCL | O_CLOEXEC, 0600);
	if (fd >= 0)
		return fd;
	/* a file system without O_TMPFILE: a named file, unlinked at once */
	char *path = xasprintf("%s/hpmstat-report-XXXXXX", d);
	fd = mkostemp(path, O_CLOEXEC);
	int e = errno;
	if (fd >= 0)
		unlink(path);
	free(path);
	return fd >= 0 ? fd : -e;
}

/* Standard input as a regular file the report maps, as perf report -i -
 * reads perf.data's pipe format (or a file redirected): standard input
 * itself when it is a regular file read from its start, else its stream
 * copied to a temporary file (spool_file), so that a recording of any size
 * takes disk, not memory, and the reader sees it whole. A stream that does
 * not begin with perf.data's magic is copied no further than its first
 * block (the loader refuses it; `-i - </dev/urandom` would fill the disk).
 * The descriptor, or -1 after one line. */
int report_input_stdin(void)
{
	struct stat st;
	if (fstat(STDIN_FILENO, &st) != 0) {
		/* closed: the temporary file would take its number */
		cli_error("cannot read standard input: %s", strerror(errno));
		return -1;
	}
	if (S_ISREG(st.st_mode) && lseek(STDIN_FILENO, 0, SEEK_CUR) == 0)
		return STDIN_FILENO;
	const char *dir;
	int fd = spool_file(&dir);
	if (fd < 0) {
		cli_error("cannot make a temporary file in %s for standard input: %s", dir,
		          strerror(-fd));
		return -1;
	}
	enum { BLOCK = 1 << 20 };
	char *buf = xmalloc(BLOCK);
	char head[8]; /* the stream's first bytes, for its magic */
	size_t nhead = 0;
	int e = 0;
	bool reading = false;
	for (;;) {
		ssize_t n = read(STDIN_FILENO, buf, BLOCK);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			e = n < 0 ? errno : 0;
			reading = true;
			break;
		}
		if ((e = -util_write_all(fd, buf, (size_t)n)))
			break;
		/* the first 8 bytes tell perf.data from anything else */
		if (nhead < sizeof(head)) {
			size_t k =
			    sizeof(head) - nhead < (size_t)n ? sizeof(head) - nhead : (size_t)n;
			memcpy(head + nhead, buf, k);
			nhead += k;
			if (nhead == sizeof(head) && !pd_is_perf_data(head, nhead))
				break;
		}
	}
	free(buf);
	if (e) {
		if (reading)
			cli_error("cannot read standard input: %s", strerror(e));
		else
			cli_error("cannot copy standard input to a temporary file in %s: %s", dir,
			          strerror(e));
		close(fd);
		return -1;
	}
	return fd;
}

/* test-readall.c: src/util/readall.c, the one whole-input reader, against
 * inputs whose answer is known: a file of known bytes (across the growth of
 * its buffer), the bound exactly at and one byte under the input's size, an
 * endless input (/dev/zero) stopped by the caller's test after one block
 * with the `from` each call is given, an empty input, and the errors of a
 * directory and of no descriptor; and its whole-buffer writer: 1 MiB
 * through a pipe (16 times its capacity) read back by a child, /dev/full,
 * and a pipe without a reader. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include "util/readall.h"

/* the calls of more(): how many, and whether each `from` was the n of the
 * call before (0 the first time) */
struct calls {
	int n;
	size_t last_n;
	bool from_ok;
	size_t stop_after;
};

static bool more(const char *b, size_t n, size_t from, void *ctx)
{
	struct calls *c = ctx;
	(void)b;
	c->from_ok &= from == c->last_n && n > from;
	c->last_n = n;
	c->n++;
	return n < c->stop_after;
}

/* a file of size bytes, byte i = i * 7 mod 251; its descriptor, rewound */
static int file_of(size_t size)
{
	char path[] = "/tmp/test-readall-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		return -1;
	unlink(path);
	unsigned char *b = malloc(size ? size : 1);
	for (size_t i = 0; i < size; i++)
		b[i] = (unsigned char)(i * 7 % 251);
	if (write(fd, b, size) != (ssize_t)size)
		size = 0;
	free(b);
	lseek(fd, 0, SEEK_SET);
	return fd;
}

static bool is_pattern(const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)b[i] != (unsigned char)(i * 7 % 251))
			return false;
	return b[n] == '\0';
}

int main(void)
{
	char *buf = NULL;
	size_t len = 0;

	/* 300,000 bytes: past the first 64 KiB block and two doublings */
	int fd = file_of(300000);
	int e = util_read_all(fd, 300000, NULL, NULL, &buf, &len);
	tap_ok(e == 0 && len == 300000 && is_pattern(buf, len),
	       "a 300000-byte file read whole, NUL after it, at a bound of its size (%d, %zu)", e,
	       len);
	free(buf);
	close(fd);

	fd = file_of(300000);
	buf = NULL;
	e = util_read_all(fd, 299999, NULL, NULL, &buf, &len);
	tap_ok(e == -EFBIG && buf == NULL, "one byte under the bound: -EFBIG, nothing kept (%d)",
	       e);
	close(fd);

	/* exactly one block: the end is seen by a read of 0 */
	fd = file_of(65536);
	e = util_read_all(fd, 65536, NULL, NULL, &buf, &len);
	tap_ok(e == 0 && len == 65536 && is_pattern(buf, len), "exactly one 64 KiB block (%zu)",
	       len);
	free(buf);
	close(fd);

	/* an endless input, stopped by the caller after its first byte */
	fd = open("/dev/zero", O_RDONLY);
	struct calls c = {.from_ok = true, .stop_after = 1};
	e = util_read_all(fd, (size_t)1 << 30, more, &c, &buf, &len);
	tap_ok(e == 0 && c.n == 1 && len > 0 && len <= 65536 && c.from_ok,
	       "/dev/zero stopped by the caller at its first block (%d calls, %zu bytes)", c.n,
	       len);
	free(buf);
	/* ... and after 200,000 bytes: each call's from is the n before */
	c = (struct calls){.from_ok = true, .stop_after = 200000};
	e = util_read_all(fd, (size_t)1 << 30, more, &c, &buf, &len);
	tap_ok(e == 0 && len >= 200000 && len < 400000 && c.n >= 2 && c.from_ok,
	       "... or once 200000 bytes are in, each call given the bytes before as from (%d "
	       "calls, %zu bytes)",
	       c.n, len);
	free(buf);
	/* ... and the bound holds against it when the caller does not stop */
	c = (struct calls){.from_ok = true, .stop_after = (size_t)-1};
	buf = NULL;
	e = util_read_all(fd, 100000, more, &c, &buf, &len);
	tap_ok(e == -EFBIG && buf == NULL, "/dev/zero read to a bound of 100000: -EFBIG (%d)", e);
	close(fd);

	fd = open("/dev/null", O_RDONLY);
	e = util_read_all(fd, 10, NULL, NULL, &buf, &len);
	tap_ok(e == 0 && len == 0 && buf[0] == '\0', "an empty input: 0 bytes, an empty string");
	free(buf);
	close(fd);

	fd = open("/", O_RDONLY | O_DIRECTORY);
	buf = NULL;
	e = util_read_all(fd, 10, NULL, NULL, &buf, &len);
	tap_ok(e == -EISDIR && buf == NULL, "a directory: -EISDIR (%d)", e);
	close(fd);
	e = util_read_all(-1, 10, NULL, NULL, &buf, &len);
	tap_ok(e == -EBADF, "no descriptor: -EBADF (%d)", e);

	/* the writer: a child reads the pipe to its end and exits 0 when it
	 * got exactly the bytes written */
	enum { WHOLE = 1 << 20 };
	char *out = malloc(WHOLE);
	for (size_t i = 0; i < WHOLE; i++)
		out[i] = (char)(i * 7 + i / 253);
	int p[2];
	pid_t pid = -1;
	if (pipe(p) == 0 && (pid = fork()) == 0) {
		close(p[1]);
		char *in = malloc(WHOLE + 1);
		size_t got = 0;
		ssize_t r;
		while (got <= WHOLE && (r = read(p[0], in + got, WHOLE + 1 - got)) > 0)
			got += (size_t)r;
		_exit(got == WHOLE && memcmp(in, out, WHOLE) == 0 ? 0 : 1);
	}
	close(p[0]);
	e = util_write_all(p[1], out, WHOLE);
	close(p[1]);
	int status = -1;
	waitpid(pid, &status, 0);
	tap_ok(e == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "write: 1 MiB through a pipe, read back whole and unchanged (%d, status %d)", e,
	       status);
	fd = open("/dev/full", O_WRONLY);
	e = util_write_all(fd, out, 100);
	tap_ok(e == -ENOSPC, "write: /dev/full: -ENOSPC (%d)", e);
	close(fd);
	signal(SIGPIPE, SIG_IGN);
	e = pipe(p) == 0 && close(p[0]) == 0 ? util_write_all(p[1], out, 100) : 0;
	tap_ok(e == -EPIPE, "write: a pipe without a reader: -EPIPE (%d)", e);
	close(p[1]);
	free(out);
	return tap_done();
}

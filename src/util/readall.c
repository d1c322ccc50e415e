/* readall.c: util_read_all(), see readall.h. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "util/readall.h"
#include "util/xalloc.h"

int util_read_all(int fd, size_t max, util_read_more_fn more, void *ctx, char **buf, size_t *len)
{
	/* one block of 64 KiB, doubled as the input needs: the block that
	 * goes past max says there was more */
	size_t cap = 1 << 16, n = 0;
	char *b = xmalloc(cap + 1);
	for (;;) {
		if (n == cap) {
			cap *= 2;
			b = xrealloc(b, cap + 1);
		}
		ssize_t got = read(fd, b + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int e = errno;
			free(b);
			return -e;
		}
		n += (size_t)got;
		if (n > max) {
			free(b);
			return -EFBIG;
		}
		if (got == 0 || (more && !more(b, n, n - (size_t)got, ctx)))
			break;
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

int util_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len) {
		ssize_t w = write(fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

/* readall.h: reading a whole input into memory, bounded, and writing a
 * whole buffer.
 *
 * Owns: util_read_all(), the one reader of a whole file or stream (stat
 * report's run files, the emulators' profiles), so that no input can make
 * the memory used grow past its reader's bound, and an input that cannot
 * be what its reader wants is refused at its first block instead of read
 * to the end (/dev/urandom, /dev/zero); and util_write_all(), the one loop
 * that writes a buffer whole through short writes and EINTR. Reports, as
 * the library does, never prints: the caller words the error.
 */
#ifndef HPM_UTIL_READALL_H
#define HPM_UTIL_READALL_H

#include <stdbool.h>
#include <stddef.h>

/* Whether reading should go on, given the n bytes read so far, of which
 * those before `from` were shown to an earlier call. */
typedef bool (*util_read_more_fn)(const char *b, size_t n, size_t from, void *ctx);

/* Reads fd to its end, or until more (if not NULL) says no, into *buf
 * (malloc'd, NUL-terminated after its *len bytes). Returns 0; -EFBIG when
 * the input holds more than max bytes (nothing kept); or -errno of a read
 * error (EINTR is retried). */
int util_read_all(int fd, size_t max, util_read_more_fn more, void *ctx, char **buf, size_t *len);

/* Writes len bytes of buf to fd, through short writes (EINTR is retried).
 * 0, or -errno of the write that failed (-EIO for one that wrote
 * nothing). */
int util_write_all(int fd, const void *buf, size_t len);

#endif

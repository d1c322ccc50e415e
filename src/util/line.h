/* line.h: reading text input one bounded line at a time.
 *
 * Owns: util_read_line(), the one line reader of every text input (traces,
 * emu scripts, top.conf), so that no input can make a line, and with it the
 * memory used, grow without bound: a "line" of /dev/zero has no newline.
 */
#ifndef HPM_UTIL_LINE_H
#define HPM_UTIL_LINE_H

#include <stdio.h>
#include <sys/types.h>

enum {
	UTIL_LINE_EOF = -1,      /* end of input, nothing read */
	UTIL_LINE_TOO_LONG = -2, /* more than max bytes before the newline */
	UTIL_LINE_ERROR = -3,    /* read error; errno says which */
};

/* Reads the next line of f into *buf (grown as needed, like getline, and
 * always NUL-terminated), without its newline. Returns its length, which
 * counts any NUL bytes in it (compare with strlen to find them), or one of
 * UTIL_LINE_*. A line longer than max bytes is not consumed past max. */
ssize_t util_read_line(FILE *f, char **buf, size_t *cap, size_t max);

#endif

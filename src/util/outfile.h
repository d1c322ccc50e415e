/* outfile.h: every file hpmstat writes (stat -o and --record, report -o,
 * top's W, emulator traces) and the standard streams it reports on.
 *
 * Owns: the one policy for writing a path, as perf does where perf has one:
 *  - "-" is standard output;
 *  - a new file, or an existing regular file with one link, is written to
 *    a temporary file beside it that is renamed over it at the end, so a
 *    reader never sees half a file and a failed run leaves the old one;
 *    the temporary file is unnamed (O_TMPFILE) until commit links it as
 *    NAME.XXXXXX and renames it, so that even SIGKILL during the run
 *    leaves nothing (a file system without O_TMPFILE, and appending, use
 *    a named one from the start); symlinks are followed (the link stays, its target gets
 *    the content), an existing file keeps its mode and owner, a new file
 *    gets 0666 & ~umask (and the directory's default ACL);
 *  - anything else (devices such as /dev/null and /dev/full, /dev/stdout
 *    and other /proc links, FIFOs, files with several hard links, or a
 *    file whose directory cannot hold a temporary file) is opened and
 *    written in place, as perf's fopen() does;
 *  - every write is checked, and the first failure is the error commit
 *    returns (ENOSPC from /dev/full, EPIPE, EIO on close...);
 *  - appending (stat --append, perf's fopen(path, "a")): the new output
 *    is written to the temporary file beside an existing regular file and
 *    added to its end at commit in one piece with O_APPEND, every signal
 *    blocked meanwhile, and cut back to the old size if that write fails;
 *    so a reader sees the old content, then the old content and the whole
 *    new output, never half of it, and a failed run adds nothing. A file
 *    that does not exist yet is made as above (a temporary file, linked
 *    into place so that one created meanwhile is appended to, not
 *    replaced); anything else is opened with O_APPEND and written in place;
 *  - no named temporary file survives a signal but SIGKILL: the live temporary
 *    paths are kept in a table that an async-signal-safe cleanup unlinks;
 *    opening the first one installs that cleanup for every signal whose
 *    default action ends the process and that nobody handles (HUP, INT,
 *    QUIT, PIPE, TERM, ...: unlink, then re-raise) and at exit(). A
 *    command with its own SIGINT/SIGTERM handler ends its outfiles with
 *    commit or abort on its way out, or calls outfile_cleanup().
 *
 * Never prints, never exits: every error is a negative errno value; the
 * CLI prints "cannot write 'PATH': strerror(-ret)".
 */
#ifndef HPM_UTIL_OUTFILE_H
#define HPM_UTIL_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

struct outfile;

/* Opens path for writing as described above: 0 and *out, or -errno (an
 * empty path is -ENOENT, as for fopen). A FIFO blocks here until it has
 * a reader, as with perf. */
int outfile_open(const char *path, struct outfile **out);
/* As outfile_open, but the output goes after what the file holds (see
 * appending above); the file is opened here, so an error shows before
 * anything runs. */
int outfile_open_append(const char *path, struct outfile **out);
/* An already open descriptor (STDERR_FILENO for perf stat's default
 * output) with the same checked writes; commit flushes and never closes
 * it. name is what outfile_name() gives back. NULL: out of memory. */
struct outfile *outfile_fd(int fd, const char *name);
/* The stream to write to (not to be closed by the caller). It can be
 * repositioned with fseek where the file can (a temporary or regular file;
 * not a pipe: ESPIPE), for a format whose header is rewritten at the end
 * (perf.data). */
FILE *outfile_stream(struct outfile *of);
/* The path as given (or the name of the descriptor). */
const char *outfile_name(const struct outfile *of);
/* True for a descriptor or "-" (a stream, not a path). */
bool outfile_is_stream(const struct outfile *of);
/* Flushes, closes and renames into place; frees of. 0 or -errno (the
 * temporary file is removed on failure; NULL is 0). */
int outfile_commit(struct outfile *of);
/* Drops what was written where it can (the temporary file); frees of.
 * NULL is a no-op. */
void outfile_abort(struct outfile *of);
/* The end of a writer that may have failed part way: err 0 commits of
 * (and returns what commit does), a negative err aborts it, so nothing
 * half written is put in place, and returns err. */
int outfile_finish(struct outfile *of, int err);
/* True when a and b name the same file: the same string, "-" twice, the
 * same inode through any links, or the same place for a file not yet
 * created. */
bool outfile_same(const char *a, const char *b);
/* Unlinks every live temporary file of this process. Async-signal-safe,
 * for a command's own signal handler. */
void outfile_cleanup(void);

#endif

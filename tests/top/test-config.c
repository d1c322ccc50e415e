/* test-config.c: top.conf's warnings say where the bad line is in the one
 * form of util/diag.h: "FILE:LINE: column N: reason" for a bad value (N
 * the value's first byte, counted by hand below), "FILE:LINE: reason" for
 * what is the whole line's (an unknown key, a line without '='), and a
 * NUL byte at its own column, as the emulator's profiles place theirs. The
 * syntax stays what hpmstat-top(1) describes: a comment starts a line, so
 * a '#' inside a value is part of it, and the good lines still load. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "top/top.h"

static const char text[] = "# hpmstat top settings\n"     /* 1 */
                           "delay = x\n"                  /* 2: 'x' at column 9 */
                           "  level=9\n"                  /* 3: '9' at column 9 */
                           "bogus = 1\n"                  /* 4: the key is unknown */
                           "no equals here\n"             /* 5 */
                           "sort = cpu # not a comment\n" /* 6: a value with '#' */
                           "delay\0 = 2\n"                /* 7: NUL at column 6 */
                           "\tprocesses =  none \n"       /* 8: 'n' at column 15 */
                           "level = 2\n";                 /* 9: good */

int main(void)
{
	char path[] = "/tmp/hpmstat-test-config-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0 || write(fd, text, sizeof(text) - 1) != (ssize_t)(sizeof(text) - 1)) {
		tap_ok(0, "write the config file");
		return tap_done();
	}
	close(fd);

	struct top_opts o;
	char warn[2048], err[256], want[2048];
	top_opts_init(&o);
	int rc = top_config_load(&o, path, true, warn, sizeof(warn), err, sizeof(err));
	tap_ok(rc == 0, "a file with bad lines still loads (%d)", rc);

	snprintf(want, sizeof(want),
	         "%s:2: column 9: delay 'x': must be 0.1 to 3600 seconds\n"
	         "%s:3: column 9: level '9': must be 1 to 3\n"
	         "%s:4: unknown key 'bogus'\n"
	         "%s:5: expected 'key = value'\n"
	         "%s:7: column 6: NUL byte in the line\n"
	         "%s:8: column 15: processes 'none': must be 1 to 1000, or all",
	         path, path, path, path, path, path);
	if (!tap_ok(strcmp(warn, want) == 0,
	            "bad values at their column, the line's faults at their line"))
		tap_diag("got:\n%s\nwant:\n%s", warn, want);

	tap_ok(o.level == 2, "the good line after the bad ones applies (level %u)", o.level);
	tap_ok(o.sort && strcmp(o.sort, "cpu # not a comment") == 0,
	       "a '#' inside a value is part of it (sort '%s')", o.sort ? o.sort : "(null)");

	/* the warnings are whole lines: one that does not fit is left out */
	char small[96];
	top_opts_free(&o);
	top_opts_init(&o);
	top_config_load(&o, path, true, small, sizeof(small), err, sizeof(err));
	snprintf(want, sizeof(want), "%s:2: column 9: delay 'x': must be 0.1 to 3600 seconds",
	         path);
	tap_ok(strcmp(small, want) == 0, "a warning that does not fit whole is left out: %s",
	       small);

	top_opts_free(&o);
	unlink(path);
	return tap_done();
}

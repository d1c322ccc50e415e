/* hpmstat-front.c: main() of the static front (configure's
 * --enable-static-front, the default where the libraries link statically;
 * issue 30): the whole program, linked statically with its optional
 * libraries, so a start maps no shared object and relocates nothing.
 * serve needs libmicrohttpd, whose GnuTLS chain Debian ships no static
 * libraries of, report libdw, whose debuginfod client opens a shared
 * library, and libstdc++'s demangler (libstdc++.a would bring the C++
 * runtime into this C program for the one function only report calls),
 * and top names users through NSS, whose modules are shared
 * libraries too, which a static program cannot host: they run the same
 * command line in hpmstat-full, the dynamically linked program, beside
 * this one in the build tree and in $(pkglibexecdir) once installed. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "builtin/builtin.h"

static char **front_argv;

/* Runs front_argv in hpmstat-full: only returns when it could not, with
 * the errno of the last program tried (its path in path) */
static int run_full(char *path, size_t len)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		const char *slash = strrchr(self, '/');
		if (slash) {
			snprintf(path, len, "%.*s/hpmstat-full", (int)(slash - self), self);
			execv(path, front_argv);
		}
	}
	snprintf(path, len, "%s/hpmstat-full", HPM_PKGLIBEXECDIR);
	execv(path, front_argv);
	return errno;
}

int main(int argc, char **argv)
{
	front_argv = argv;
	hpmstat_full_program = run_full;
	return hpmstat_main(argc, argv);
}

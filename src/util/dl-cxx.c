/* dl-cxx.c: the C++ runtime's demangler, libstdc++'s __cxa_demangle,
 * through dlopen (util/dlib.h): the symbolizer's (sym/sym-demangle.c),
 * opened by the first mangled name a report reads, so that `hpmstat stat`
 * never maps libstdc++ (issue 30). The function is called through
 * hpm_cxa_demangle, not defined here under its own name: the sanitizers'
 * runtimes look __cxa_demangle up for their own reports, which must not
 * land in a shim that aborts without the library. */
#include <stddef.h>

#include "util/dlib.h"

static const char *const names[] = {"__cxa_demangle"};
static void *fns[1];
static struct hpm_dlib lib = {CXXDEMANGLE_SONAME, CXXDEMANGLE_PACKAGE, names, fns, 1, 0, ""};

int hpm_dl_cxx_load(char *err, size_t errlen)
{
	return hpm_dlib_load(&lib, err, errlen);
}

char *hpm_cxa_demangle(const char *mangled, int *status)
{
	char *(*f)(const char *, char *, size_t *, int *);

	hpm_dlib_need(&lib);
	f = (char *(*)(const char *, char *, size_t *, int *))fns[0];
	return f(mangled, NULL, NULL, status);
}

/* dlib.c: opening an optional library by its soname (dlib.h). */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/dlib.h"
#include "util/str.h"

/* optional: HPMSTAT_DLOPEN_DIR, when set, is where l is looked for */
static void *dlib_open(struct hpm_dlib *l, bool optional)
{
	char path[PATH_MAX];
	const char *dir = optional ? getenv("HPMSTAT_DLOPEN_DIR") : NULL;
	if (dir && *dir)
		snprintf(path, sizeof(path), "%s/%s", dir, l->soname);
	else
		snprintf(path, sizeof(path), "%s", l->soname);
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		const char *why = dlerror();
		if (!why || strstr(why, "No such file"))
			str_seterr(l->why, sizeof(l->why),
			           "%s is not installed (Debian package %s)", l->soname,
			           l->package);
		else
			str_seterr(l->why, sizeof(l->why), "cannot load %s: %s", l->soname, why);
		return NULL;
	}
	for (size_t i = 0; i < l->n; i++) {
		l->fns[i] = dlsym(h, l->names[i]);
		if (!l->fns[i]) {
			str_seterr(l->why, sizeof(l->why), "%s has no %s: a newer %s is needed",
			           l->soname, l->names[i], l->package);
			dlclose(h);
			return NULL;
		}
	}
	return h;
}

int hpm_dlib_load(struct hpm_dlib *l, char *err, size_t errlen)
{
	if (!l->state)
		l->state = dlib_open(l, true) ? 1 : -1;
	if (l->state < 0) {
		str_seterr(err, errlen, "%s", l->why);
		return -1;
	}
	return 0;
}

void hpm_dlib_need(struct hpm_dlib *l)
{
	if (l->state <= 0 && hpm_dlib_load(l, NULL, 0))
		abort();
}

void hpm_dlib_need_system(struct hpm_dlib *l)
{
	if (l->state > 0)
		return;
	if (!l->state)
		l->state = dlib_open(l, false) ? 1 : -1;
	if (l->state < 0) {
		/* what the loader says of a missing DT_NEEDED library, with
		 * its status: the program cannot go on without it */
		char msg[sizeof(l->why) + 64];
		int n = snprintf(msg, sizeof(msg),
		                 "hpmstat: error while loading shared libraries: %s\n", l->why);
		if (n > 0 && write(STDERR_FILENO, msg,
		                   (size_t)n < sizeof(msg) ? (size_t)n : sizeof(msg) - 1) < 0)
			_exit(127);
		_exit(127);
	}
}

/* fuzz-tmp.h: a private scratch directory for the fuzz targets whose parsers
 * read or write paths (trace writer, top.conf), created on first use and
 * removed at exit, so parallel runs (make -j check, libFuzzer -jobs) do not
 * share files. Header-only: each target is one translation unit.
 */
#ifndef HPM_TESTS_FUZZ_TMP_H
#define HPM_TESTS_FUZZ_TMP_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char fuzz_tmp_dir[512];

static inline void fuzz_tmp_cleanup(void)
{
	DIR *d = opendir(fuzz_tmp_dir);
	struct dirent *de;
	char p[1024];
	if (d) {
		while ((de = readdir(d)))
			if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0) {
				snprintf(p, sizeof(p), "%s/%s", fuzz_tmp_dir, de->d_name);
				unlink(p);
			}
		closedir(d);
	}
	rmdir(fuzz_tmp_dir);
}

/* dir/name in the scratch directory, in a static buffer. */
static inline const char *fuzz_tmp_path(const char *name)
{
	static char p[1024];
	if (!fuzz_tmp_dir[0]) {
		const char *t = getenv("TMPDIR");
		snprintf(fuzz_tmp_dir, sizeof(fuzz_tmp_dir), "%s/hpm-fuzz-XXXXXX",
		         t && *t ? t : "/tmp");
		if (!mkdtemp(fuzz_tmp_dir))
			abort();
		atexit(fuzz_tmp_cleanup);
	}
	snprintf(p, sizeof(p), "%s/%s", fuzz_tmp_dir, name);
	return p;
}

/* Writes data to dir/name (replacing it); returns the path. */
static inline const char *fuzz_tmp_write(const char *name, const void *data, size_t size)
{
	const char *path = fuzz_tmp_path(name);
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		abort();
	return path;
}

#endif

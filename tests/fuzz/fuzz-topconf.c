/* fuzz-topconf.c: fuzz target for the top.conf reader and writer
 * (src/top/config.c, hpmstat-top(1) FILES).
 *
 * The reader takes a path, so each input is written to a file in a private
 * scratch directory first. Properties checked on every input, beyond "does
 * not crash": the file loads (a bad line is a warning, never a failure);
 * every warning is "FILE:LINE: message" with LINE inside the input; the
 * settings written with top_config_write() to a new file read back without
 * a warning and equal to the ones loaded; written over the input itself,
 * as W does, every setting reads back as loaded, those W does not save
 * (color, emu-seed, emu-freq) too. Where the written file would pass the
 * reader's bounds, the writer refuses (-EFBIG) and leaves the file as it
 * was.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-tmp.h"
#include "top/top.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_warnings(const char *warn, const char *path, unsigned lines)
{
	size_t plen = strlen(path);
	for (const char *w = warn; *w;) {
		const char *end = strchr(w, '\n');
		char *num;
		if (strncmp(w, path, plen) != 0 || w[plen] != ':')
			abort();
		unsigned long ln = strtoul(w + plen + 1, &num, 10);
		if (ln < 1 || ln > lines || strncmp(num, ": ", 2) != 0 || !num[2] || num[2] == '\n')
			abort();
		if (!end)
			break;
		w = end + 1;
	}
}

static bool same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* path holds exactly data */
static bool same_file(const char *path, const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return false;
	bool same = true;
	for (size_t i = 0; same && i < size; i++)
		same = getc(f) == data[i];
	same = same && getc(f) == EOF;
	fclose(f);
	return same;
}

/* The settings that top_config_load sets, compared (the delay to the
 * writer's 6 significant digits). */
static bool same_opts(const struct top_opts *a, const struct top_opts *b, bool kept_lines)
{
	if (a->level != b->level || a->nprocs != b->nprocs || a->backend != b->backend ||
	    a->reverse != b->reverse || a->sticky != b->sticky || a->tree != b->tree ||
	    a->emu.harts != b->emu.harts || !same_str(a->events, b->events) ||
	    !same_str(a->metrics, b->metrics) || !same_str(a->sort, b->sort) ||
	    !same_str(a->emu.profile, b->emu.profile) ||
	    !(fabs(a->delay - b->delay) <= 1e-5 * b->delay))
		return false;
	/* keys W does not save stay as their lines were (issue 9 item 5) */
	return !kept_lines ||
	       (a->color == b->color && a->emu.seed == b->emu.seed && a->emu.freq == b->emu.freq);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char warn[4096], err[512];
	struct top_opts o, back;
	unsigned lines = 1;
	for (size_t i = 0; i < size; i++)
		lines += data[i] == '\n';

	/* fuzz_tmp_path's buffer is overwritten by the next call: copied */
	char in[1024], path[1024];
	snprintf(in, sizeof(in), "%s", fuzz_tmp_write("in.conf", data, size));
	snprintf(path, sizeof(path), "%s", in);
	top_opts_init(&o);
	if (top_config_load(&o, path, true, warn, sizeof(warn), err, sizeof(err)) != 0) {
		/* refused whole only past the documented bounds, with a reason */
		if (!err[0])
			abort();
		top_opts_free(&o);
		return 0;
	}
	check_warnings(warn, path, lines);

	/* a new file: only the settings W saves, read back without a warning */
	snprintf(path, sizeof(path), "%s", fuzz_tmp_path("out.conf"));
	unlink(path);
	int rc = top_config_write(&o, path);
	if (rc == -EFBIG) {
		/* a line past the reader's bound: refused, nothing written */
		if (access(path, F_OK) == 0)
			abort();
	} else if (rc != 0) {
		abort();
	} else {
		top_opts_init(&back);
		if (top_config_load(&back, path, true, warn, sizeof(warn), err, sizeof(err)) != 0 ||
		    warn[0] || !same_opts(&back, &o, false))
			abort();
		top_opts_free(&back);
	}

	/* W on the file itself: it keeps its other lines, so every setting,
	 * the ones W does not save too, reads back as it was loaded; or, when
	 * the rewritten file would pass the reader's bounds, the file stays */
	rc = top_config_write(&o, in);
	if (rc == -EFBIG) {
		if (!same_file(in, data, size))
			abort();
	} else if (rc != 0) {
		abort();
	} else {
		top_opts_init(&back);
		if (top_config_load(&back, in, true, warn, sizeof(warn), err, sizeof(err)) != 0 ||
		    !same_opts(&back, &o, true))
			abort();
		top_opts_free(&back);
	}

	top_opts_free(&o);
	return 0;
}

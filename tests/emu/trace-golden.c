/* trace-golden.c: each machine's trace format through the shared reader and
 * writer core (src/emukit/trace.c): a hand-written trace in every liberty the
 * format allows (comments, blank lines, tabs, CRLF, events in any order,
 * explicit zeros, Arm's hex numbers) loads, and writing its runs back gives
 * byte for byte the hand-written canonical file (tests/emu/data/
 * *-golden.trace.txt), which itself writes back unchanged. Keys follow the
 * contents: a line equal to an earlier one but for its cycles (and, on
 * Kunminghu, its mode) replays with the earlier line's key.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../tap.h"
#include "arm64/emu/trace.h"
#include "emukit/trace.h"
#include "kmh/emu/emu.h"

static char *data_path(const char *name)
{
	const char *top = getenv("top_srcdir");
	static char path[4096];
	snprintf(path, sizeof(path), "%s/tests/emu/data/%s", top ? top : ".", name);
	return path;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 1 << 16);
	size_t n = f ? fread(buf, 1, (1 << 16) - 1, f) : 0;
	buf[n] = '\0';
	if (f)
		fclose(f);
	return buf;
}

/* Kunminghu: load `input`, write every run to a temporary file; its text.
 * keys[] gets each run's key. */
static char *kmh_rewrite(const char *input, uint64_t *keys, size_t *nr)
{
	char tmp[] = "/tmp/hpmstat-trace-golden-XXXXXX", err[256];
	unsigned line;
	int fd = mkstemp(tmp);
	close(fd);
	struct hpm_emu_trace *t =
	    hpm_emu_trace_load(&emu_trace_format, data_path(input), &line, err, sizeof(err));
	if (!tap_ok(t != NULL, "%s loads", input)) {
		tap_diag("line %u: %s", line, err);
		unlink(tmp);
		return calloc(1, 1);
	}
	struct hpm_emu_trace_writer *w =
	    hpm_emu_trace_writer_open(&emu_trace_format, tmp, err, sizeof(err));
	*nr = hpm_emu_trace_nr_runs(t);
	for (size_t i = 0; i < *nr; i++) {
		struct emu_run run;
		emu_trace_run_at(t, i, &run);
		keys[i] = run.key;
		emu_trace_write(w, &run, err, sizeof(err));
	}
	tap_ok(hpm_emu_trace_writer_close(w, err, sizeof(err)) == 0, "%s: written back", input);
	hpm_emu_trace_free(t);
	char *text = slurp(tmp);
	unlink(tmp);
	return text;
}

static char *arm_rewrite(const char *input, uint64_t *keys, size_t *nr)
{
	char tmp[] = "/tmp/hpmstat-trace-golden-XXXXXX", err[256];
	unsigned line;
	int fd = mkstemp(tmp);
	close(fd);
	struct hpm_emu_trace *t =
	    hpm_emu_trace_load(&arm_src_trace_format, data_path(input), &line, err, sizeof(err));
	if (!tap_ok(t != NULL, "%s loads", input)) {
		tap_diag("line %u: %s", line, err);
		unlink(tmp);
		return calloc(1, 1);
	}
	struct hpm_emu_trace_writer *w =
	    hpm_emu_trace_writer_open(&arm_src_trace_format, tmp, err, sizeof(err));
	*nr = hpm_emu_trace_nr_runs(t);
	for (size_t i = 0; i < *nr; i++) {
		struct arm_emu_run run;
		arm_src_trace_run_at(t, i, &run);
		keys[i] = run.key;
		arm_src_trace_write(w, &run, err, sizeof(err));
	}
	tap_ok(hpm_emu_trace_writer_close(w, err, sizeof(err)) == 0, "%s: written back", input);
	hpm_emu_trace_free(t);
	char *text = slurp(tmp);
	unlink(tmp);
	return text;
}

typedef char *rewrite_fn(const char *input, uint64_t *keys, size_t *nr);

/* Both files of one machine; `same` is the run whose key equals run 0's. */
static void golden(const char *machine, rewrite_fn *rewrite, size_t same)
{
	char input[64], canon[64];
	uint64_t keys[16] = {0}, keys2[16] = {0};
	size_t nr = 0, nr2 = 0;

	snprintf(input, sizeof(input), "%s-input.trace.txt", machine);
	snprintf(canon, sizeof(canon), "%s-golden.trace.txt", machine);
	char *want = slurp(data_path(canon));
	char *got = rewrite(input, keys, &nr);
	tap_is_str(got, want, "%s: the hand-written trace writes back as the golden file", machine);
	tap_is_u64(nr, 5, "%s: 5 runs", machine);
	tap_ok(keys[same] == keys[0] && keys[1] != keys[0] && keys[2] != keys[1] &&
	           keys[3] != keys[2] && keys[4] != keys[3],
	       "%s: run %zu shares run 1's key, the others differ (%llu %llu %llu %llu %llu)",
	       machine, same + 1, (unsigned long long)keys[0], (unsigned long long)keys[1],
	       (unsigned long long)keys[2], (unsigned long long)keys[3],
	       (unsigned long long)keys[4]);
	free(got);
	got = rewrite(canon, keys2, &nr2);
	tap_is_str(got, want, "%s: the golden file writes back unchanged", machine);
	tap_ok(nr2 == nr && memcmp(keys, keys2, sizeof(keys)) == 0,
	       "%s: the golden file replays with the same keys", machine);
	free(got);
	free(want);
}

int main(void)
{
	tap_plan(18);
	golden("kmh", kmh_rewrite, 3);
	golden("arm", arm_rewrite, 4);
	return tap_done();
}

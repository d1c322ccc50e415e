/* fuzz-script.c: fuzz target for the interpreter of the emulator's script
 * language (src/kmh/emu/script.c, hpmstat-emu(1) SCRIPT LANGUAGE), fed line by
 * line as `hpmstat emu FILE` does, on a machine of 4 harts.
 *
 * Properties checked, beyond "does not crash": every output line and every
 * error message is one non-empty line. Bounded work and no file access,
 * whatever the input asks: the harness skips `replay` and `trace` (they
 * read and write files; the trace target covers the format) and `run`
 * lines naming anything but a built-in profile (a path is read as a file)
 * or more cycles than are left of RUN_BUDGET per input (a workload is
 * drawn run by run; `feed` is O(1) whatever its cycle count and is kept).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kmh/emu/emu.h"
#include "kmh/emu/workload.h"

#define RUN_BUDGET 100000 /* workload cycles per input */
#define MAX_LINE   4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void on_output(void *ctx, const char *line)
{
	(void)ctx;
	if (!line[0] || strchr(line, '\n'))
		abort();
}

static bool is_builtin(const char *name)
{
	for (unsigned i = 0; i < emu_profile_count(); i++)
		if (strcmp(emu_profile_name(emu_profile_at(i)), name) == 0)
			return true;
	return false;
}

/* Whether the harness lets `line` through; charges `run` to *budget. The
 * words are split as the interpreter splits them (blanks; '#' ends). */
static bool allowed(const char *line, uint64_t *budget)
{
	char copy[MAX_LINE], *w[4], *save = NULL;
	unsigned n = 0;
	strcpy(copy, line);
	for (char *t = strtok_r(copy, " \t\r\n\v\f", &save); t && n < 4;
	     t = strtok_r(NULL, " \t\r\n\v\f", &save)) {
		if (t[0] == '#')
			break;
		w[n++] = t;
	}
	if (!n)
		return true;
	if (!strcmp(w[0], "replay") || !strcmp(w[0], "trace"))
		return false;
	if (strcmp(w[0], "run") != 0 || n < 3)
		return true;
	uint64_t cycles;
	if (emu_parse_u64(w[1], &cycles) != 0)
		return true; /* the interpreter refuses it */
	if (!is_builtin(w[2]) || cycles > *budget)
		return false;
	*budget -= cycles;
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct emu *emu = emu_new(4);
	struct emu_script *s = emu_script_new(emu, on_output, NULL);
	uint64_t budget = RUN_BUDGET;
	char line[MAX_LINE], err[512];
	size_t i = 0;
	if (!emu || !s)
		abort();
	while (i < size) {
		const uint8_t *nl = memchr(data + i, '\n', size - i);
		size_t len = (nl ? (size_t)(nl - data) : size) - i;
		/* a C string, as the entry point takes it: cut at a NUL byte */
		size_t n = len < sizeof(line) - 1 ? len : sizeof(line) - 1;
		memcpy(line, data + i, n);
		line[n] = '\0';
		i += len + 1;
		if (!allowed(line, &budget))
			continue;
		err[0] = '\0';
		if (emu_script_exec(s, line, err, sizeof(err)) != 0 &&
		    (!err[0] || strchr(err, '\n')))
			abort();
	}
	if (emu_script_finish(s, err, sizeof(err)) != 0)
		abort();
	emu_script_free(s);
	emu_free(emu);
	return 0;
}

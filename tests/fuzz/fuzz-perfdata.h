/* fuzz-perfdata.h: the properties the perf.data targets check on a buffer
 * (fuzz-perfdata.c on the fuzzer's bytes as they are, fuzz-perfdata-deep.c
 * on the files it builds from them), through the perf.data reader
 * (src/perfdata) and the samples report built on it (src/report/samples.c).
 *
 * Beyond "does not crash" (and, under ASan/UBSan or libFuzzer, no memory
 * error and no undefined behaviour): a refused input has a one-line
 * message; an accepted one has, per event, entries whose samples and
 * periods add up to the event's, folded stacks adding up to the samples
 * read, and renders in every format (with each call-graph order and
 * --topdown) without error; and perf's header listing of the same bytes as
 * a file (report --header-only, with -I's details for odd variants; for
 * a third of the variants, as the file costs as much as the report)
 * prints, or is refused with a one-line message. Kernel symbols are off (kallsyms ""), so the
 * run does not depend on the machine's. `variant` picks the call-graph
 * order and the sort keys. Header-only: each target is one translation unit.
 */
#ifndef HPM_TESTS_FUZZ_PERFDATA_H
#define HPM_TESTS_FUZZ_PERFDATA_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-tmp.h"
#include "report/header.h"
#include "report/samples.h"

static inline FILE *fuzz_perfdata_sink(void)
{
	static FILE *f;
	if (!f)
		f = fopen("/dev/null", "w");
	if (!f)
		abort();
	return f;
}

/* perf's header listing reads a path: the bytes go to a scratch file */
static inline void fuzz_perfdata_listing(const uint8_t *data, size_t size, size_t variant)
{
	const char *path = fuzz_tmp_write("listing.data", data, size);
	char err[512] = "";
	if (rs_header_fprintf(path, variant % 2, fuzz_perfdata_sink(), err, sizeof(err)) != 0 &&
	    (!err[0] || strchr(err, '\n')))
		abort();
}

static inline void fuzz_perfdata_check(const uint8_t *data, size_t size, size_t variant)
{
	if (variant % 3 == 0)
		fuzz_perfdata_listing(data, size, variant);
	struct rs_opts o = {.kallsyms = "", .topdown = true, .folded = true};
	struct rs_report rs;
	char err[512];
	o.graph = (enum rs_graph)(variant % 4);
	if (variant % 3 == 1) {
		o.nr_key = 2;
		o.key[0] = RS_KEY_PID;
		o.key[1] = RS_KEY_DSO;
	}
	if (rs_load_buffer(&rs, data, size, &o, err, sizeof(err)) != 0) {
		if (!err[0] || strchr(err, '\n'))
			abort();
		rs_free(&rs);
		return;
	}
	uint64_t folded = 0;
	for (unsigned h = 0; h < rs.nr_hist; h++) {
		uint64_t n = 0, p = 0;
		for (unsigned i = 0; i < rs.hist[h].nr_e; i++) {
			n += rs.hist[h].e[i].samples;
			p += rs.hist[h].e[i].period;
		}
		if (n != rs.hist[h].nr_samples || p != rs.hist[h].total_period)
			abort();
	}
	for (unsigned i = 0; i < rs.nr_folded; i++)
		folded += rs.folded[i].count;
	if (folded != rs.nr_samples)
		abort();
	for (int f = RS_TEXT; f <= RS_FOLDED; f++)
		if (rs_render(&rs, (enum rs_format)f, fuzz_perfdata_sink()) != 0)
			abort();
	rs_free(&rs);
}

#endif

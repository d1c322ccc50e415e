/* fuzz-runfile.c: fuzz target for the run-file reader (src/report).
 *
 * Properties checked on every input, beyond "does not crash" (and, under
 * ASan/UBSan or libFuzzer, no memory error and no undefined behaviour): a
 * refused input has a message that names the file; an accepted one is
 * accepted again the same (the reader is deterministic), has a slice for
 * every interval and hart, and renders in every format, alone, in a summary
 * of two runs and in a diff, without error. The input is also read as a
 * weights file for those runs.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metric/metric.h"
#include "report/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *sink(void)
{
	static FILE *f;
	if (!f)
		f = fopen("/dev/null", "w");
	if (!f)
		abort();
	return f;
}

static void render_all(const struct report *r)
{
	for (int f = RP_TEXT; f <= RP_HTML; f++)
		if (report_render(r, (enum rp_format)f, sink()) != 0)
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	char err[512];
	struct report r;
	report_init(&r);
	if (report_add_run_buffer(&r, buf, size, "fuzz.json", err, sizeof(err)) != 0) {
		if (strncmp(err, "fuzz.json: ", 11) != 0 || !err[11])
			abort();
		report_free(&r);
		return 0;
	}
	const struct rp_run *a = &r.run[0];
	unsigned rows = a->rf.nr_units > 1 ? 1 + a->rf.nr_units : 1;
	if (a->nr_slice != rows * (1 + a->rf.nr_iv))
		abort();
	for (unsigned s = 0; s < a->nr_slice; s++)
		if (a->rf.nr_node && !a->slice[s].mval)
			abort();
	if (report_add_run_buffer(&r, buf, size, "again.json", err, sizeof(err)) != 0)
		abort();
	if (r.run[1].rf.nr_node != r.run[0].rf.nr_node || r.run[1].rf.nr_ev != r.run[0].rf.nr_ev)
		abort();
	/* a weights document of this input, or the usual one */
	if (report_set_weights_buffer(&r, buf, size, "w.json", err, sizeof(err)) != 0) {
		if (strncmp(err, "w.json: ", 8) != 0)
			abort();
		static const char w[] = "{\"fuzz\": 1, \"again\": 2.5}";
		if (report_set_weights_buffer(&r, w, sizeof(w) - 1, "w.json", err, sizeof(err)))
			abort();
	}
	r.level = (unsigned)(size % 4);
	report_finish(&r);
	render_all(&r);
	/* the same runs as a diff */
	struct report d;
	report_init(&d);
	if (report_add_run_buffer(&d, buf, size, "base.json", err, sizeof(err)) != 0 ||
	    report_add_run_buffer(&d, buf, size, "new.json", err, sizeof(err)) != 0)
		abort();
	d.diff = true;
	report_finish(&d);
	if (d.nr_drow != d.run[0].rf.nr_node)
		abort();
	for (unsigned j = 0; j < d.nr_drow; j++)
		if (d.drow[j].noise == RP_NOISE_ABOVE) /* a run cannot differ from itself */
			abort();
	render_all(&d);
	report_free(&d);
	report_free(&r);
	return 0;
}

/* fuzz-weights.c: fuzz target for the weights file of hpmstat report
 * --weights (report_set_weights_buffer, src/report/report.c), against three
 * fixed runs named "a", "b" and "c".
 *
 * Properties checked on every input, beyond "does not crash": a refused
 * document has a message that names the file and leaves no run weighted;
 * an accepted one weights every run with a finite number >= 0, the
 * weights sum to more than 0, and every weighted mean of the summary lies
 * between the smallest and the largest value of the runs of positive
 * weight (a weighted mean is a convex combination); the report renders in
 * every format.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One run file (hpmstat-run(5)) per run: the same events, other values. */
static const char run_fmt[] =
    "{\"schema\":\"hpmstat-run\",\"schema_version\":1,\"created\":\"\",\"command\":null,"
    "\"emulated\":{\"profile\":\"p\",\"trace\":null,\"harts\":1},\"repeat\":1,"
    "\"interval_ms\":0,\"topdown_level\":1,\"events\":["
    "{\"name\":\"Front_Bubble\",\"kind\":\"kunminghu\",\"state\":\"ok\",\"unit\":\"\","
    "\"scale\":1,\"counts\":[{\"unit\":\"hart0\",\"value\":%u,\"enabled\":1000,"
    "\"running\":1000}],\"value\":%u,\"running_share\":1},"
    "{\"name\":\"cycles\",\"kind\":\"kunminghu-fixed\",\"state\":\"ok\",\"unit\":\"\","
    "\"scale\":1,\"counts\":[{\"unit\":\"hart0\",\"value\":1000,\"enabled\":1000,"
    "\"running\":1000}],\"value\":1000,\"running_share\":1}],"
    "\"metrics\":[{\"name\":\"tma_frontend_bound\",\"display\":\"FE\",\"unit\":\"%%\","
    "\"level\":1,\"parent\":null,\"value\":%g,\"raw\":%g,\"bottleneck\":false,"
    "\"out_of_range\":false,\"over_threshold\":false,\"multiplexed\":false}],"
    "\"runs\":[{\"values\":[%u,1000]}],\"intervals\":[]}";

static FILE *sink(void)
{
	static FILE *f;
	if (!f && !(f = fopen("/dev/null", "w")))
		abort();
	return f;
}

static void add_runs(struct report *r)
{
	static const char *const names[] = {"a.json", "b.json", "c.json"};
	static const unsigned bubbles[] = {600, 0, 1000};
	char buf[2048], err[512];
	for (unsigned i = 0; i < 3; i++) {
		unsigned b = bubbles[i];
		double fe = 100.0 * b / 6000.0;
		int n = snprintf(buf, sizeof(buf), run_fmt, b, b, fe, fe / 100, b);
		if (n < 0 || (size_t)n >= sizeof(buf))
			abort();
		if (report_add_run_buffer(r, buf, (size_t)n, names[i], err, sizeof(err)) != 0) {
			fprintf(stderr, "fuzz-weights: the fixed run does not load: %s\n", err);
			abort();
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char path[] = "w.json";
	char err[512];
	struct report r;
	report_init(&r);
	add_runs(&r);
	if (report_set_weights_buffer(&r, (const char *)data, size, path, err, sizeof(err)) != 0) {
		if (strncmp(err, "w.json: ", 8) != 0 || !err[8] || r.weights)
			abort();
		for (unsigned i = 0; i < r.nr_run; i++)
			if (r.run[i].weighted)
				abort();
		report_free(&r);
		return 0;
	}
	double sum = 0;
	if (!r.weights)
		abort();
	for (unsigned i = 0; i < r.nr_run; i++) {
		if (!r.run[i].weighted || !(r.run[i].weight >= 0) || isinf(r.run[i].weight))
			abort();
		sum += r.run[i].weight;
	}
	if (!(sum > 0))
		abort();
	report_finish(&r);
	for (unsigned j = 0; j < r.nr_srow; j++) {
		const struct rp_srow *s = &r.srow[j];
		double lo = (double)INFINITY, hi = -(double)INFINITY;
		bool na = false;
		for (unsigned i = 0; i < r.nr_run; i++)
			if (r.run[i].weight > 0) {
				na |= isnan(s->v[i]);
				lo = fmin(lo, s->v[i]);
				hi = fmax(hi, s->v[i]);
			}
		if (na ? !isnan(s->weighted)
		       : !(s->weighted >= lo - 1e-9 * fabs(lo) &&
		           s->weighted <= hi + 1e-9 * fabs(hi)))
			abort();
	}
	for (int f = RP_TEXT; f <= RP_HTML; f++)
		if (report_render(&r, (enum rp_format)f, sink()) != 0)
			abort();
	report_free(&r);
	return 0;
}

/* noise.c: the statistics of repeated runs (noise.h). */
#include <math.h>
#include <stdlib.h>

#include "metric/metric.h"
#include "stat/noise.h"
#include "util/xalloc.h"

void stat_noise_of(double sum, double sum2, unsigned n, struct stat_noise *out)
{
	out->mean = sum / n;
	if (n < 2) {
		out->rel_stddev = out->sem = (double)NAN;
		return;
	}
	/* perf: the standard error of the mean, relative to the mean */
	double var = (sum2 - sum * sum / n) / (n - 1);
	double sem = sqrt(var > 0 ? var / n : 0);
	/* sum2 - sum^2 / n rounds to about sqrt(DBL_EPSILON) x the values'
	 * size: a standard error below that is none (equal values) */
	if (sem <= 1e-6 * sqrt(sum2 / n))
		sem = 0;
	out->sem = sem;
	out->rel_stddev = out->mean != 0 ? 100 * sem / fabs(out->mean) : sem == 0 ? 0 : (double)NAN;
}

void stat_repeats_init(struct stat_repeats *r, unsigned nr_events, unsigned nr_metrics,
                       unsigned max_runs)
{
	*r = (struct stat_repeats){.nr_events = nr_events, .nr_metrics = nr_metrics};
	r->sum = xcalloc(nr_events + 1, sizeof(*r->sum));
	r->sum2 = xcalloc(nr_events + 1, sizeof(*r->sum2));
	r->count_sum = xcalloc(nr_events + 1, sizeof(*r->count_sum));
	r->count_bad = xcalloc(nr_events + 1, sizeof(*r->count_bad));
	r->run_sum = xcalloc(nr_events + 1, sizeof(*r->run_sum));
	r->msum = xcalloc(nr_metrics + 1, sizeof(*r->msum));
	r->msum2 = xcalloc(nr_metrics + 1, sizeof(*r->msum2));
	r->run_elapsed = xcalloc(max_runs ? max_runs : 1, sizeof(*r->run_elapsed));
}

void stat_repeats_add(struct stat_repeats *r, const struct hpm_evlist *l,
                      const struct stat_metric *m, unsigned nr_metrics, double elapsed_ns)
{
	r->elapsed_sum += elapsed_ns;
	r->elapsed_sum2 += elapsed_ns * elapsed_ns;
	r->run_elapsed[r->n] = elapsed_ns;
	for (unsigned i = 0; i < r->nr_events && i < l->nr; i++) {
		const struct hpm_evsel *e = &l->ev[i];
		unsigned nu = e->nr_units ? e->nr_units : l->nr_units;
		double v = hpm_evsel_value(l, e, -1, NULL);
		r->sum[i] += v;
		r->sum2[i] += v * v;
		/* the mean of counts is printed from their exact sum */
		struct hpm_total t;
		hpm_counts_total(e->counts, nu, -1, &t);
		r->count_bad[i] |= !t.ran || t.wrapped || e->state != HPM_EV_OK;
		r->count_sum[i] += t.count;
		for (unsigned u = 0; e->counts && u < nu; u++)
			r->run_sum[i] += (double)e->counts[u].run;
	}
	for (unsigned k = 0; k < nr_metrics && k < r->nr_metrics + 1; k++) {
		r->msum[k] += m[k].value;
		r->msum2[k] += m[k].value * m[k].value;
	}
	r->n++;
}

void stat_repeats_finish(struct stat_repeats *r, const struct hpm_evlist *l, struct stat_metric *m,
                         unsigned nr_metrics, struct stat_result *res)
{
	unsigned n = r->n;
	res->elapsed_ns = n ? r->elapsed_sum / n : 0;
	res->run_elapsed_ns = r->run_elapsed;
	res->nr_runs = n;
	if (n)
		stat_noise_of(r->elapsed_sum, r->elapsed_sum2, n, &res->elapsed_noise);
	if (n < 2)
		return;
	r->noise = xcalloc(r->nr_events + 1, sizeof(*r->noise));
	r->metric_noise = xcalloc(nr_metrics + 1, sizeof(*r->metric_noise));
	for (unsigned i = 0; i < r->nr_events; i++) {
		struct stat_noise *no = &r->noise[i];
		stat_noise_of(r->sum[i], r->sum2[i], n, no);
		no->count_exact = !r->count_bad[i] && l->ev[i].scale == 1.0;
		no->count_mean = (r->count_sum[i] + n / 2) / n;
		no->run_mean = r->run_sum[i] / n;
	}
	for (unsigned k = 0; k < nr_metrics; k++) {
		struct stat_noise *mn = &r->metric_noise[k];
		stat_noise_of(r->msum[k], r->msum2[k], n, mn);
		m[k].value = mn->mean;
		/* the flag of the mean, judged against its noise (2 standard
		 * errors), not the last repeat's */
		const struct metric *mm = m[k].def;
		double scale = mm && mm->scale != 0 ? mm->scale : 1;
		m[k].raw = mn->mean / scale;
		m[k].out_of_range =
		    mm && metric_out_of_range_by(mm, m[k].raw, 2 * mn->sem / scale) != 0;
	}
	res->noise = r->noise;
	res->metric_noise = r->metric_noise;
}

void stat_repeats_free(struct stat_repeats *r)
{
	free(r->sum);
	free(r->sum2);
	free(r->count_sum);
	free(r->count_bad);
	free(r->run_sum);
	free(r->msum);
	free(r->msum2);
	free(r->run_elapsed);
	free(r->noise);
	free(r->metric_noise);
	*r = (struct stat_repeats){0};
}

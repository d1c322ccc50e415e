/* noise.h: the statistics of repeated runs (hpmstat stat -r N).
 *
 * Owns: struct stat_repeats, the sums of every run's row values, exact
 * counts, running times, metric values and wall times, and the figures
 * perf prints from them: each mean and its "( +- x% )" (the standard error
 * of the mean, relative to the mean), a metric's flag judged against its
 * own noise. The printers read the result through struct stat_result.
 */
#ifndef HPM_STAT_NOISE_H
#define HPM_STAT_NOISE_H

#include <stdbool.h>

#include "core/evlist.h"
#include "stat/stat.h"

struct stat_repeats {
	unsigned n; /* runs added */
	unsigned nr_events, nr_metrics;
	double *sum, *sum2;   /* per row: the values */
	hpm_u128 *count_sum;  /* per row: the exact counts summed */
	bool *count_bad;      /* per row: some run had no exact count */
	double *run_sum;      /* per row: the time running, summed */
	double *msum, *msum2; /* per metric */
	double elapsed_sum, elapsed_sum2;
	double *run_elapsed; /* [max_runs]: each run's wall time, ns */
	/* stat_repeats_finish's: with 2 runs or more, else NULL */
	struct stat_noise *noise, *metric_noise;
};

/* For up to max_runs runs of nr_events rows and at most nr_metrics
 * metrics. */
void stat_repeats_init(struct stat_repeats *r, unsigned nr_events, unsigned nr_metrics,
                       unsigned max_runs);
/* Adds one run: the rows of l, its metrics m[nr_metrics], its wall time. */
void stat_repeats_add(struct stat_repeats *r, const struct hpm_evlist *l,
                      const struct stat_metric *m, unsigned nr_metrics, double elapsed_ns);
/* After the runs, the run figures of res: the mean wall time and its
 * noise, each run's time, and with 2 runs or more the noise of each row
 * of l and of each metric; the metrics m[nr_metrics] (the last run's)
 * become their means, flagged out of range against their noise (2
 * standard errors), not the last run's. The arrays stay r's. */
void stat_repeats_finish(struct stat_repeats *r, const struct hpm_evlist *l, struct stat_metric *m,
                         unsigned nr_metrics, struct stat_result *res);
void stat_repeats_free(struct stat_repeats *r);

/* The mean of n values from their sum and sum of squares, with perf's
 * noise: the standard error of the mean and it relative to the mean. */
void stat_noise_of(double sum, double sum2, unsigned n, struct stat_noise *out);

#endif

/* report.h: hpmstat report's report (report.c) and renderers.
 *
 * Owns: struct report, what one report shows, built from run files
 * (runfile.h): for every run its slices (the whole run and each interval,
 * for all harts together and, on a run of several harts, for each hart),
 * the summary across runs with its optional weights, and the node-by-node
 * diff of two runs with its noise test; and one renderer per format
 * (render-text.c, -csv.c, -json.c, -md.c, -html.c), all reading the same
 * struct report, so the formats cannot disagree on a number.
 *
 * Per-hart values are not in the run file: they are computed again from
 * the hart's counts with the metric engine (metric.h), exactly as hpmstat
 * stat computes the aggregate, so a per-hart node the counts cannot produce
 * is n/a. The aggregate values are the file's own (means with -r).
 *
 * The library never prints to the terminal and never exits: renderers write
 * to the FILE they are given; fallible calls return -1 with one line in err.
 */
#ifndef HPM_REPORT_REPORT_H
#define HPM_REPORT_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "report/runfile.h"

#define RP_SCHEMA         "hpmstat-report"
#define RP_SCHEMA_VERSION 1

/* How far the level-1 shares may sum from 100 % before it is flagged, in
 * points: the metrics add up exactly by construction (Backend_Bound is the
 * rest), so anything beyond rounding means the counts disagree. */
#define RP_L1_SLACK 0.01

enum rp_format { RP_TEXT, RP_CSV, RP_JSON, RP_MD, RP_HTML };
/* "text", "csv", "json", "md", "html"; -1 when unknown. */
int rp_format_parse(const char *s, enum rp_format *out);

struct rp_slice {
	int unit;                   /* index in rf.units; -1: all units */
	int interval;               /* index in rf.iv; -1: the whole run */
	const struct rf_mval *mval; /* [rf.nr_node] */
	double l1_sum;              /* level-1 values summed; NAN: none or one is n/a */
	bool l1_off;                /* l1_sum is more than RP_L1_SLACK from 100 */
};

struct rp_run {
	struct rf_run rf;
	struct rp_slice *slice; /* whole run first, then each interval; all
	                         * units first, then each unit */
	unsigned nr_slice;
	struct rf_mval *owned; /* storage of the recomputed per-unit values */
	bool weighted;         /* a weight was given */
	double weight;
};

/* A row of the summary across runs: one node, by name, its value per run. */
struct rp_srow {
	const char *name, *display, *unit;
	unsigned level;
	double *v;       /* [nr_run], NAN where the run lacks it or has n/a */
	double weighted; /* weighted mean over the runs; NAN when one is n/a */
};

enum rp_noise {
	RP_NOISE_UNKNOWN = -1, /* a run has no repeats: no noise estimate */
	RP_NOISE_WITHIN = 0,   /* |diff| <= 2 * sqrt(se_a^2 + se_b^2) */
	RP_NOISE_ABOVE = 1,    /* |diff| >  2 * sqrt(se_a^2 + se_b^2) */
};

/* A row of --diff BASE NEW. */
struct rp_drow {
	const char *name, *display, *unit;
	unsigned level;
	double a, b, d;    /* base, new, new - base; NAN: n/a or missing */
	double se_a, se_b; /* standard errors in the value's unit, NAN: none */
	enum rp_noise noise;
	bool bn_a, bn_b; /* on the bottleneck path */
};

struct report {
	struct rp_run *run;
	unsigned nr_run;
	unsigned level; /* deepest Topdown level shown; 0: all */
	bool diff;      /* run[0] is BASE, run[1] is NEW */
	bool weights;   /* every run has a weight */
	struct rp_srow *srow;
	unsigned nr_srow;
	struct rp_drow *drow;
	unsigned nr_drow;
};

void report_init(struct report *r);
/* Read and check a run file and compute its slices. */
int report_add_run(struct report *r, const char *path, char *err, size_t errlen);
/* The same from a buffer (the fuzz target). */
int report_add_run_buffer(struct report *r, const char *buf, size_t len, const char *path,
                          char *err, size_t errlen);
/* Weights {"run name": weight}: every key must name a run, every run must
 * have one, each a finite number >= 0, with a positive sum. */
/* A weights file is at most this big (1 MiB, as a profile). */
#define REPORT_WEIGHTS_MAX_BYTES (1u << 20)
int report_set_weights(struct report *r, const char *path, char *err, size_t errlen);
int report_set_weights_buffer(struct report *r, const char *buf, size_t len, const char *path,
                              char *err, size_t errlen);
/* With diff set and two runs loaded: one line (in buf) saying why their
 * figures are not comparable, another table of the core (kunminghu-v2
 * against kunminghu-v3) or another Topdown variant, else NULL. */
const char *report_diff_caveat(const struct report *r, char *buf, size_t len);
/* After the runs (and weights): build the summary, and with diff set the
 * diff of run[0] and run[1]. */
void report_finish(struct report *r);
/* Write the report in format f; -1 on a write error. The numbers are
 * written in the C locale ('.' decimal point) whatever the caller's. */
int report_render(const struct report *r, enum rp_format f, FILE *out);
void report_free(struct report *r);

#endif

/* openmetrics.h: hpmstat's counts and Topdown as Prometheus reads them.
 *
 * Owns: the metric families hpmstat exports (their names, types, units and
 * help, following the Prometheus and OpenMetrics naming conventions: base
 * units, _total on counters, ratios 0..1), their rendering in the
 * OpenMetrics 1.0.0 text format and in the Prometheus text format 0.0.4,
 * label value escaping, and the atomic write of an exposition to a file
 * (node_exporter's textfile collector reads files that are renamed into
 * place). One renderer serves `stat --openmetrics` and `serve`; nothing
 * else writes these names. Never prints, never exits.
 */
#ifndef HPM_EXPORT_OPENMETRICS_H
#define HPM_EXPORT_OPENMETRICS_H

#include <stdint.h>
#include <stdio.h>

#include "stat/session.h"
#include "stat/stat.h"

enum hpm_expo_format {
	HPM_EXPO_OPENMETRICS, /* application/openmetrics-text 1.0.0, ends "# EOF" */
	HPM_EXPO_PROMETHEUS,  /* text/plain 0.0.4 */
};

/* The HTTP Content-Type of each format. */
#define HPM_EXPO_OPENMETRICS_TYPE "application/openmetrics-text; version=1.0.0; charset=utf-8"
#define HPM_EXPO_PROMETHEUS_TYPE  "text/plain; version=0.0.4; charset=utf-8"

/* "openmetrics" or "prometheus"; -1 for anything else. */
int hpm_expo_format_parse(const char *name, enum hpm_expo_format *out);

/* What the exposition says about the run besides the counts. */
struct hpm_expo_info {
	const char *version; /* hpmstat's, for hpm_build_info */
	uint64_t intervals;  /* intervals completed (hpm_intervals_total) */
	double interval_s;   /* the configured interval length, 0: none */
	double start_time;   /* Unix time counting started, seconds; 0: unknown */
	double last_update;  /* Unix time of this exposition's values */
};

/* Writes the exposition of session s to out in format f: hpm_build_info and the
 * run's families always; with res (the last interval's result, its delta
 * counts, or the whole run's), the events' cumulative counts and times
 * from s, and the Topdown ratios, IPC, other metrics and the multiplex
 * state of res. 0, or -errno when out failed. */
int hpm_expo_render(FILE *out, enum hpm_expo_format f, struct hpm_session *s,
                    const struct stat_result *res, const struct hpm_expo_info *info);
/* The same into a new string (*len its length); NULL when out of memory. */
char *hpm_expo_render_string(enum hpm_expo_format f, struct hpm_session *s,
                             const struct stat_result *res, const struct hpm_expo_info *info,
                             size_t *len);
/* The exposition into path through util/outfile.h: a temporary file
 * beside it renamed over it, so a reader (node_exporter) never sees half
 * of one. 0 or -errno. */
int hpm_expo_write_file(const char *path, enum hpm_expo_format f, struct hpm_session *s,
                        const struct stat_result *res, const struct hpm_expo_info *info);
/* Whether path can be written as hpm_expo_write_file writes it (checked
 * before counting starts; leaves nothing behind). 0 or -errno. */
int hpm_expo_check_path(const char *path);

#endif

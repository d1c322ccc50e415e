/* stat-sink.h: hpmstat stat's measurement with each interval's values
 * handed on, which is how `hpmstat serve` counts (cmd-serve.c).
 *
 * Owns: struct stat_sink and cmd_stat_run(). serve is stat with serve's
 * defaults (-a, -I 1000, -q) and a sink: the measurement, its options, its
 * back ends and its signals stay cmd-stat.c's alone, so that the two
 * commands cannot count differently.
 */
#ifndef HPM_BUILTIN_STAT_SINK_H
#define HPM_BUILTIN_STAT_SINK_H

#include "export/openmetrics.h"
#include "stat/session.h"
#include "stat/stat.h"

struct stat_sink {
	void *ctx;
	/* once the options are checked and the outputs open, before anything
	 * is counted: 0, or the exit status after its own message */
	int (*start)(void *ctx, struct hpm_session *s, const struct hpm_expo_info *info);
	/* after each interval: s's cumulative counts, the interval's result */
	void (*interval)(void *ctx, struct hpm_session *s, const struct stat_result *res,
	                 const struct hpm_expo_info *info);
	/* after counting (started or not), before hpmstat exits */
	void (*stop)(void *ctx);
};

/* hpmstat stat's command line with a sink (NULL: cmd_stat itself). With a
 * sink, serve's rules apply: counting is continuous (-I, 1000 ms unless
 * given; system-wide unless a target is given), the printed counts go
 * nowhere unless -o names a file, and -r, --record and --no-multiplex are
 * refused. */
int cmd_stat_run(int argc, char **argv, const struct stat_sink *sink);

#endif

/* test-shadow.c: perf's shadow values beside the generic hardware events
 * and the text they print with.
 *
 * Truth: perf's stat-shadow.c (6.1 and 6.12): branch-misses over branches,
 * stalled-cycles-frontend and -backend over cycles, in percent with
 * "%7.2f%%" ("of all branches", "frontend cycles idle", "backend cycles
 * idle"); instructions over cycles with "%7.2f " ("insn per cycle"); the
 * rates and CPUs utilized with "%8.3f". The counts are written out by
 * hand: 1000 cycles, 250 frontend and 100 backend stall cycles, 2345
 * instructions, 400 branches of which 10 missed.
 */
#include <string.h>

#include "core/evlist.h"
#include "stat/shadow.h"
#include "tap.h"

int main(void)
{
	static const struct {
		const char *name;
		uint64_t count;
	} rows[] = {
	    {"cycles", 1000},
	    {"stalled-cycles-frontend", 250},
	    {"stalled-cycles-backend", 100},
	    {"instructions", 2345},
	    {"branches", 400},
	    {"branch-misses", 10},
	};
	struct hpm_evlist l = {0};
	for (unsigned i = 0; i < 6; i++)
		hpm_evlist_add(&l, rows[i].name, -1);
	hpm_evlist_alloc_counts(&l, 1, "CPU");
	for (unsigned i = 0; i < 6; i++) {
		l.ev[i].kind = HPM_EV_HOST;
		l.ev[i].counts[0] = (struct hpm_count){rows[i].count, 1, 1, false};
	}
	struct stat_result res = {.list = &l};
	static const struct {
		unsigned row;
		const char *unit, *text;
	} want[] = {
	    {1, "frontend cycles idle", "  25.00%"},
	    {2, "backend cycles idle", "  10.00%"},
	    {3, "insn per cycle", "   2.35 "},
	    {5, "of all branches", "   2.50%"},
	};
	for (unsigned k = 0; k < 4; k++) {
		double v = 0;
		const char *unit = NULL;
		char buf[32];
		bool got = stat_shadow_metric(&res, want[k].row, -1, &v, &unit);
		tap_ok(got && unit && strcmp(unit, want[k].unit) == 0, "%s: '%s'",
		       rows[want[k].row].name, want[k].unit);
		tap_is_str(got ? stat_shadow_text(v, unit, buf, sizeof(buf)) : "", want[k].text,
		           "%s: perf's figure", rows[want[k].row].name);
	}
	char buf[32];
	tap_is_str(stat_shadow_text(1.5, "CPUs utilized", buf, sizeof(buf)), "   1.500",
	           "CPUs utilized: %%8.3f");
	tap_is_str(stat_shadow_text(12.25, "K/sec", buf, sizeof(buf)), "  12.250", "K/sec: %%8.3f");
	tap_is_str(stat_shadow_text(3.2, "GHz", buf, sizeof(buf)), "   3.200", "GHz: %%8.3f");
	hpm_evlist_free(&l);
	return tap_done();
}

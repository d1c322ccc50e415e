/* tool.h: the back end of perf's tool events (duration_time, user_time,
 * system_time).
 *
 * Owns: hpm_backend_tool (struct hpm_backend, see core/evlist.h) and
 * hpm_tool_set_run_times, which hands it the run's final times. The names
 * and their parsing are host-events.h's (hpm_host_tool_parse).
 *
 * What it counts, as perf's tool events do: duration_time is the time since
 * enable() (CLOCK_MONOTONIC) until the run is over, user_time and
 * system_time nothing until then; hpm_tool_set_run_times gives all three
 * their final values (the elapsed time the stat command reports and the
 * workload's rusage) and later reads leave them alone. A count's value is
 * its time, enabled and running alike, so a zero time has never run
 * (<not counted>, as in perf). One unit, "CPU0" (perf shows them as CPU0
 * with -A); open() zeroes them, so each repeat counts afresh.
 */
#ifndef HPM_BACKEND_TOOL_H
#define HPM_BACKEND_TOOL_H

#include <stdint.h>

#include "core/evlist.h"

extern const struct hpm_backend hpm_backend_tool;

/* The run is over: what the tool rows of b count (nothing for a handle of
 * another back end, or NULL). */
void hpm_tool_set_run_times(struct hpm_backend_inst *b, uint64_t elapsed_ns, uint64_t user_ns,
                            uint64_t sys_ns);

#endif

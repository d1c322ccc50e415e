/* clock.h: the one monotonic clock of hpmstat.
 *
 * Owns: reading CLOCK_MONOTONIC as nanoseconds and as seconds, for
 * intervals, deadlines and time budgets. Everything that measures elapsed
 * time asks here, so that no two places can read a different clock.
 */
#ifndef HPM_UTIL_CLOCK_H
#define HPM_UTIL_CLOCK_H

#include <stdint.h>

/* CLOCK_MONOTONIC now, in nanoseconds. */
uint64_t hpm_clock_ns(void);
/* The same in seconds, for deadlines kept as doubles. */
double hpm_clock_s(void);

#endif

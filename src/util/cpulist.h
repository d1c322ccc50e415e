/* cpulist.h: CPU lists as perf's -C and sysfs's cpu/online write them
 * ("0-3,5").
 *
 * Owns: the parse into sorted, unique CPU numbers (0 to 65535) and the
 * lookup in one, for the back end's -C and report's -C.
 */
#ifndef HPM_UTIL_CPULIST_H
#define HPM_UTIL_CPULIST_H

#include <stdbool.h>
#include <stddef.h>

/* "0-3,5" -> the sorted unique CPUs in *cpus (malloc'ed), *nr of them. 0,
 * or -EINVAL with a one-line message in err. */
int hpm_cpu_list_parse(const char *s, int **cpus, unsigned *nr, char *err, size_t errlen);
/* Whether cpu is in such a list (cpus sorted, nr of them). */
bool hpm_cpu_list_has(const int *cpus, unsigned nr, int cpu);

#endif

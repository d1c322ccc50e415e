/* cpulist.h: CPU lists as perf's -C and sysfs's cpu/online write them
 * ("0-3,5").
 *
 * Owns: the parse into sorted, unique CPU numbers (0 to 65535), for the
 * back end's -C and report's -C.
 */
#ifndef HPM_UTIL_CPULIST_H
#define HPM_UTIL_CPULIST_H

#include <stddef.h>

/* "0-3,5" -> the sorted unique CPUs in *cpus (malloc'ed), *nr of them. 0,
 * or -EINVAL with a one-line message in err. */
int hpm_cpu_list_parse(const char *s, int **cpus, unsigned *nr, char *err, size_t errlen);

#endif

/* fake.h: fake sysfs/procfs trees and evlists for the back-end tests.
 *
 * Owns: the temp-dir trees that present a Kunminghu, Arm (or other) host to
 * src/backend/host-pmu.c through HPMSTAT_SYSFS / HPMSTAT_PROCFS, and a small
 * evlist builder. Test code only: it aborts on I/O errors.
 */
#ifndef HPM_TESTS_BACKEND_FAKE_H
#define HPM_TESTS_BACKEND_FAKE_H

#include "core/evlist.h"
#include "kmh/model.h"

/* A fresh temp dir; fake_rm() removes it and everything under it. */
char *fake_root(void);
void fake_rm(char *root);
/* Write root/rel (parents created). */
void fake_write(const char *root, const char *rel, const char *content);

/* cpuinfo of two RISC-V harts with these ids. */
void fake_riscv_cpuinfo(const char *root, const char *mvendorid, const char *marchid,
                        const char *mimpid);
/* A Kunminghu host: cpuinfo 0x0-0x19-0x0 and a cpu PMU of type 4 whose
 * format/event is `event` ("config:0-47") and, when cmask is not NULL,
 * format/counterid_mask = cmask ("config2:0-31"). */
char *fake_kunminghu(const char *event, const char *cmask);

/* Arm hosts. A core PMU `name` under root's sys tree with perf type
 * `type`, CPUs `cpus` ("0-1"), format/event config:0-15, long config1:0,
 * rdpmc config1:1 and caps/slots 0x00000008 (Linux 6.1's files); with
 * `threshold_max` (e.g. "0x000000ff") also Linux 6.8's threshold terms
 * (threshold_count config1:2, threshold_compare config1:3-4, threshold
 * config1:5-16) and caps/threshold_max. */
void fake_arm_pmu(const char *root, const char *name, unsigned type, const char *cpus,
                  const char *threshold_max);
/* cpu<n>/regs/identification/midr_el1 of root's sys tree ("0x00000000410fd4f1"). */
void fake_midr(const char *root, unsigned cpu, const char *midr);

/* Evlists of up to 64 evsels whose addresses never change: add a host
 * event or a Kunminghu expression (aborts on a bad one); group -1 for none. */
void fake_list_init(struct hpm_evlist *l);
struct hpm_evsel *fake_add_host(struct hpm_evlist *l, const char *spec, int group);
struct hpm_evsel *fake_add_kmh(struct hpm_evlist *l, const char *expr, int group);
struct hpm_evsel *fake_add_fixed(struct hpm_evlist *l, enum kmh_fixed f, const char *name,
                                 int group);
/* Free names, counts, placement and unit names. */
void fake_list_free(struct hpm_evlist *l);

#endif

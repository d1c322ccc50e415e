/* perf-attr.h: Arm PMUv3 events through Linux's arm_pmuv3 driver.
 *
 * Owns: the Arm models' perf_attr and perf_driver operations
 * (arch/model.h): the perf_event_attr that makes the driver write a
 * model's PMEVTYPER<n>_EL0 value, built from the PMU's format/ terms and
 * caps/ files as the perf back end found them, and the refusals where it
 * cannot.
 *
 * The mapping (Linux 6.1 arch/arm64/kernel/perf_event.c, Linux 6.8
 * drivers/perf/arm_pmuv3.c, armv8pmu_set_event_filter; hpmstat-stat(1)
 * says the same for users):
 * - type = the core PMU's sysfs type; evtCount goes where format/event
 *   says (config:0-15); a number it cannot hold is refused.
 * - The exception levels counted become exclude_* flags as the driver
 *   reads them: EL0 left out (U=1) is exclude_user, EL1 left out (P=1)
 *   exclude_kernel, EL2 counted (NSH=1) !exclude_hv. A VHE host (kernel at
 *   EL2) ignores exclude_hv and ties EL2 to exclude_kernel: the driver's
 *   choice, not a field of ours.
 * - A threshold (TH != 0, Linux 6.8 and later): TH goes where
 *   format/threshold says, TC[2:1] where format/threshold_compare says,
 *   TC[0] where format/threshold_count says (config1:5-16, 3-4, 2 on 6.8).
 *   A kernel without format/threshold (6.1) refuses it, naming Linux 6.8;
 *   a TH above caps/threshold_max (2^PMMIR_EL1.THWIDTH - 1; 0 on a core
 *   without FEAT_PMUv3_TH) is refused; so is a TC with TH = 0, which the
 *   driver would not program.
 * - Fields the driver never writes (TE, TLC, MT, SH, M, NSK, NSU, RLK,
 *   RLU, RLH, VS, SYNC) are refused in one message naming them, never
 *   dropped; so are RES0 bits.
 * - pmccntr (the cycle counter) is CPU_CYCLES (0x11) on the core PMU,
 *   which the driver places on PMCCNTR_EL0 when it is free.
 */
#ifndef HPM_ARM64_PERF_ATTR_H
#define HPM_ARM64_PERF_ATTR_H

#include <stdbool.h>

#include "arch/model.h"

int arm64_perf_attr(const struct hpm_pmu_model *m, const struct hpm_event_code *c, bool optional,
                    const struct hpm_model_perf_pmu *pmu, struct hpm_model_perf_attr *out,
                    struct hpm_diag *err);
const char *arm64_perf_driver(const struct hpm_pmu_model *m, const struct hpm_model_perf_pmu *pmu);

#endif

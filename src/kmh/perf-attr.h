/* perf-attr.h: Kunminghu events through Linux's RISC-V PMU driver.
 *
 * Owns: Kunminghu's perf_attr and perf_driver operations (arch/model.h):
 * the perf_event_attr of a Kunminghu event for the kernel's riscv_pmu_sbi
 * driver and the OpenSBI firmware behind it, by kernel version; the bank
 * counter masks it pins events with; and the warnings it gives when it
 * cannot pin them.
 *
 * The mapping (SPEC §4):
 * - Programmable events: type = the cpu PMU's sysfs type (PERF_TYPE_RAW when
 *   absent), config = mhpmevent bits 54:0 (INH, OF and reserved bits 57:55
 *   are not passed: OpenSBI writes MINH and OF itself). A config with bits
 *   outside the kernel's format/event is refused, naming the field.
 * - Counted modes become exclude_* flags, as riscv_pmu_sbi turns them into
 *   SBI filter flags (pmu_sbi_get_filter_flags): exclude_user -> UINH,
 *   exclude_kernel -> SINH, exclude_host -> UINH|SINH, exclude_guest ->
 *   VSINH|VUINH; with config1 bit 0 ("guest events") exclude_user -> VUINH,
 *   exclude_kernel -> VSINH, exclude_hv -> SINH. The combination whose INH
 *   bits are exactly the mode set's is picked (config1 = 0 when possible,
 *   fewest flags), so `u` (U, VU) is config1=1 exclude_kernel exclude_hv
 *   and `uG` (VU) is config1=1 exclude_host exclude_kernel. A set no
 *   combination gives exactly is counted with the guest modes the driver
 *   cannot exclude (extra_modes, for a note: `k` counts VU too), or refused
 *   when no combination gives its host part (the message suggests the host
 *   and guest parts as two events). M-mode (`m`) is
 *   refused: Linux cannot count M-mode. A raw value without modifiers keeps
 *   its INH bits except MINH, which the kernel always sets. Linux 6.1's
 *   driver maps exclude_user and exclude_kernel only.
 * - exclude_hv: with config1 = 0 the kernel ignores it; it is set whenever
 *   exclude_user or exclude_kernel is, as perf's u/k letters set it, so the
 *   attr reads like perf's (M-mode firmware, RISC-V's "hypervisor" level in
 *   perf's sense, is never counted).
 * - Without Sscofpmf the driver filters no mode: an event that needs an
 *   exclude_* flag is refused.
 * - Bank pinning: with a counter-mask term (format/counterid_mask), its
 *   field gets the bank's counters (bit n = mhpmcounter n); else the event
 *   is unpinned, with KMH_PERF_BANK_WARNING (KMH_PERF_RAW_BANK_WARNING for
 *   a raw value, whose bank is not known).
 * - mcycle / minstret: PERF_TYPE_HARDWARE cycles / instructions with the
 *   same mode mapping (modes 0 = the default set; M in a larger set is
 *   dropped, as these counters count M-mode anyway without Smcntrpmf),
 *   pinned to counter 0 / 2 when the counter-mask term exists.
 */
#ifndef HPM_KMH_PERF_ATTR_H
#define HPM_KMH_PERF_ATTR_H

#include <stdbool.h>
#include <stdint.h>

#include "arch/model.h"
#include "kmh/kmh.h"

#define KMH_PERF_BANK_WARNING                                                                      \
	"bank placement is up to the firmware: this kernel has no counterid_mask format term, "    \
	"so OpenSBI may put a Kunminghu event on a counter of another bank, where the same "       \
	"index is another event"
#define KMH_PERF_RAW_BANK_WARNING                                                                  \
	"bank placement is up to the firmware for raw Kunminghu events: their bank is not known, " \
	"so they are not pinned to a bank's counters"

/* The model's perf_attr and perf_driver operations (arch/model.h). */
int kmh_perf_attr(const struct hpm_pmu_model *m, const struct hpm_event_code *c, bool optional,
                  const struct hpm_model_perf_pmu *pmu, struct hpm_model_perf_attr *out,
                  struct hpm_diag *err);
const char *kmh_perf_driver(const struct hpm_pmu_model *m, const struct hpm_model_perf_pmu *pmu);

/* The exclude_* flags (and config1 bit 0) that make the driver of pmu
 * (NULL, or kernel_version 0: the newest) count `modes` (enum
 * kmh_mode_bit): 1 when they count exactly `modes`, 2 when they count
 * `modes` plus guest modes (VS, VU) that driver cannot exclude (*counted:
 * what they count), 0 when the host part of `modes` cannot be selected. */
int kmh_perf_modes_to_attr_for(const struct hpm_model_perf_pmu *pmu, unsigned modes,
                               struct hpm_model_perf_attr *out, unsigned *counted);
/* The newest driver's flags for exactly `modes`; false when none give it. */
bool kmh_perf_modes_to_attr(unsigned modes, struct hpm_model_perf_attr *out);

/* Mask of the counters of a bank, bit n = mhpmcounter n (frontend 0x7f8
 * ...); 0 for no bank. */
uint32_t kmh_perf_bank_counters(const struct kmh_table *t, int bank);

#endif

/* uncounted.h: the back end of a PMU model that nothing on this host
 * counts: an Arm core on a host without its PMU, while hpmstat has no
 * emulator of it (the Arm emulator comes with issue 14).
 *
 * Owns: hpm_backend_uncounted, which takes such a model's rows so that
 * `stat --dry-run` shows what the model's counters would be programmed
 * with (the counter scheduler's placement, the multiplex groups, the
 * event-select values: PMEVTYPER<n>_EL0 on Arm) and whose open refuses
 * with one line saying why; and that line.
 */
#ifndef HPM_STAT_UNCOUNTED_H
#define HPM_STAT_UNCOUNTED_H

#include <stddef.h>

#include "backend/emu.h"
#include "core/evlist.h"

extern const struct hpm_backend hpm_backend_uncounted;

/* Why model m cannot count here, as one line for the CLI; host (may be
 * NULL) is what the host is, "; this host's core is Neoverse V2". The
 * back end's cfg is that host text. */
void hpm_uncounted_why(const struct hpm_pmu_model *m, const char *host, char *err, size_t errlen);

#endif

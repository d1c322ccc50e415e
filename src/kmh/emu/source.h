/* source.h: the contract between event sources and the emulated harts.
 *
 * Owns: privilege-mode numbering and struct emu_run. A source (stimulus,
 * workload model, trace replay) produces runs of identical cycles; the hart
 * (hart.c) consumes them. Runs are the unit of the fast path: a hart adds
 * cycles x per-cycle result for each counter instead of looping over cycles.
 */
#ifndef HPM_KMH_EMU_SOURCE_H
#define HPM_KMH_EMU_SOURCE_H

#include <stdint.h>

#include "kmh/kmh.h"

enum emu_mode {
	EMU_MODE_M,
	EMU_MODE_HS,
	EMU_MODE_HU,
	EMU_MODE_VS,
	EMU_MODE_VU,
	EMU_NR_MODES,
};

/* `cycles` consecutive identical cycles in privilege mode `mode`. In each of
 * them event i of bank b delivers vals[b][i] (0..63; vals[b][0], noEvent, is
 * always 0) and `instret` instructions retire (the minstret increment). A
 * NULL vals[b] means every event of bank b delivers 0. */
struct emu_run {
	uint64_t cycles;
	uint32_t key; /* 0, or a source-chosen id promising that vals/instret equal those of every
	               * earlier run with the same key from this source, so per-run results may be
	               * cached by the consumer */
	const void *source; /* identity of the producer: keys are only comparable within one */
	uint8_t mode;       /* enum emu_mode */
	uint8_t instret;    /* 0..63 */
	const uint8_t *vals[KMH_NR_BANKS]; /* kmh_table_v2.banks[b].nr_events entries each */
};

#endif

/* alias.h: weighted choice in O(1) for both emulators' streams (a class of
 * a phase's mix, a function, a context).
 *
 * Owns: Walker's alias table (Vose's construction) and the draw from it:
 * n equally likely columns, column i keeps its own entry with probability
 * thr[i] / 2^32 and gives the rest to alias[i] (thr[i] UINT32_MAX: it
 * keeps it always, and alias[i] is i). The random bits come from the
 * caller (emukit/rng.h), so that each stream keeps the draws it has always
 * made. The draw is inline and branch-light: a stream draws every few
 * dozen cycles.
 */
#ifndef HPM_EMUKIT_ALIAS_H
#define HPM_EMUKIT_ALIAS_H

#include <stdint.h>

/* Builds the table of weights w[0..n) (n >= 1) that sum to `total` (1 for
 * probabilities): *thr_out and *alias_out get n entries each, allocated
 * (the caller frees them). */
void hpm_alias_build(const double *w, unsigned n, double total, uint32_t **thr_out,
                     unsigned **alias_out);

/* The entry of draw r from the table of n columns: the column from r's
 * high 32 bits (multiply-shift), the coin from its low 32 bits. */
static inline unsigned hpm_alias_pick(uint64_t r, unsigned n, const uint32_t *thr,
                                      const unsigned *alias)
{
	unsigned col = (unsigned)(((r >> 32) * n) >> 32);
	return (uint32_t)r < thr[col] ? col : alias[col];
}

/* The entry given an exactly uniform column col (emukit/rng.h's
 * hpm_rng_below()) and the draw r whose low 32 bits are the coin. */
static inline unsigned hpm_alias_at(unsigned col, uint64_t r, const uint32_t *thr,
                                    const unsigned *alias)
{
	return (uint32_t)r < thr[col] ? col : alias[col];
}

#endif

/* phase.h: the phases of a workload profile as both emulators' profiles
 * answer for them (a profile is a cycle of phases, each a name and a length
 * in cycles; one without [phase] sections has one, "all", of 0 cycles).
 *
 * Owns: the phase getters every model's profile exports (how many phases,
 * phase i's name and cycles, safe past the last) and the phase that
 * follows one in the cycle. A model's profile type is its own: the getters
 * are defined in the model's file by EMU_PHASE_GETTERS over any profile
 * with `phases` (records with `name` and `cycles`) and `nr_phases`, so the
 * kit knows no model's types.
 */
#ifndef HPM_EMUKIT_PHASE_H
#define HPM_EMUKIT_PHASE_H

#include <stddef.h>
#include <stdint.h>

/* The phase after phase i of n (the period starts again after the last). */
static inline unsigned emu_phase_after(unsigned i, unsigned n)
{
	return i + 1 == n ? 0 : i + 1;
}

/* Defines PREFIX_nr_phases(p), PREFIX_phase_name(p, i) (NULL past the last)
 * and PREFIX_phase_cycles(p, i) (0 past the last) over `const PROFILE *p`,
 * as the model's header declares them. */
#define EMU_PHASE_GETTERS(PREFIX, PROFILE)                                                         \
	unsigned PREFIX##_nr_phases(const PROFILE *p)                                              \
	{                                                                                          \
		return p->nr_phases;                                                               \
	}                                                                                          \
	const char *PREFIX##_phase_name(const PROFILE *p, unsigned i)                              \
	{                                                                                          \
		return i < p->nr_phases ? p->phases[i].name : NULL;                                \
	}                                                                                          \
	uint64_t PREFIX##_phase_cycles(const PROFILE *p, unsigned i)                               \
	{                                                                                          \
		return i < p->nr_phases ? p->phases[i].cycles : 0;                                 \
	}

#endif

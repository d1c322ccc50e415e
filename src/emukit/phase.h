/* phase.h: the phase getters every emulator's profile exports (a profile
 * is a cycle of phases, each a name and a length in cycles).
 *
 * Owns: EMU_PHASE_GETTERS, which defines them in the model's file over its
 * own profile type (any with `nr_phases` and `phases` of records with
 * `name` and `cycles`): the kit knows no model's types.
 */
#ifndef HPM_EMUKIT_PHASE_H
#define HPM_EMUKIT_PHASE_H

#include <stddef.h> /* NULL */
#include <stdint.h>

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

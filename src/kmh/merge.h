/* merge.h: the ADD merge of two Kunminghu events into one counter.
 *
 * Owns: whether two single-event encodings can be counted by one counter
 * as their hardware sum, and that sum's encoding. The model's merge
 * operation (model.c) is built on these; the stat layer asks it before it
 * hands requests to the counter scheduler (core/sched.h).
 */
#ifndef HPM_KMH_MERGE_H
#define HPM_KMH_MERGE_H

#include <stdbool.h>

#include "kmh/kmh.h"

/* Whether two single-event requests can share one counter as the ADD of
 * the two events: both from the same known bank, both counting the same
 * modes, each using exactly one EVENTn slot, and different events (equal
 * requests share a counter by the scheduler's rule 1 instead). The caller
 * must know the per-cycle sum stays below 64 (ADD is modulo 64 in
 * hardware): true of Topdown's slot counts (at most 6 each). */
bool kmh_can_merge(const struct kmh_encoding *a, const struct kmh_encoding *b);
/* Builds the merged encoding: EVENT0 = a's event, EVENT1 = b's, OP_TYPE0 =
 * ADD, OP_TYPE1/2 = OR (so the empty right half adds nothing), the common
 * INH bits; bank, modes, nr_events = 2 and a canonical expression that
 * encodes back to the value. E.g. INST_SPEC + RECOVERY_BUBBLE ->
 * 0x4000040000002007 (t names the events). Returns 0, or -1 when !kmh_can_merge(a, b). */
int kmh_merge(const struct kmh_table *t, const struct kmh_encoding *a, const struct kmh_encoding *b,
              struct kmh_encoding *out);

#endif

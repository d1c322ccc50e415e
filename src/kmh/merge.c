/* merge.c: the ADD merge of two Kunminghu events (see merge.h). */
#include "kmh/merge.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* The one event slot of a single-event request whose counter counts exactly
 * that event (the tree passes it through unchanged), or -1. */
static int single_slot(const struct kmh_encoding *e)
{
	int slot = -1;
	if (e->nr_events != 1)
		return -1;
	for (unsigned s = 0; s < KMH_NR_SLOTS; s++) {
		if (!kmh_mhpmevent_event(e->value, s))
			continue;
		if (slot >= 0)
			return -1;
		slot = (int)s;
	}
	if (slot < 0)
		return -1;
	/* a raw value could hide the event behind an AND with noEvent */
	for (unsigned v = 1; v < 64; v++) {
		unsigned in[KMH_NR_SLOTS] = {0};
		in[slot] = v;
		if (kmh_mhpmevent_combine(e->value, in) != v)
			return -1;
	}
	return slot;
}

bool kmh_can_merge(const struct kmh_encoding *a, const struct kmh_encoding *b)
{
	if (a->bank < 0 || a->bank >= KMH_NR_BANKS || a->bank != b->bank)
		return false;
	if (a->modes != b->modes || (a->value & KMH_INH_MASK) != (b->value & KMH_INH_MASK))
		return false;
	int sa = single_slot(a), sb = single_slot(b);
	if (sa < 0 || sb < 0)
		return false;
	return kmh_mhpmevent_event(a->value, (unsigned)sa) !=
	       kmh_mhpmevent_event(b->value, (unsigned)sb);
}

int kmh_merge(const struct kmh_table *t, const struct kmh_encoding *a, const struct kmh_encoding *b,
              struct kmh_encoding *out)
{
	if (!kmh_can_merge(a, b))
		return -1;
	unsigned ea = kmh_mhpmevent_event(a->value, (unsigned)single_slot(a));
	unsigned eb = kmh_mhpmevent_event(b->value, (unsigned)single_slot(b));
	uint64_t v = a->value & KMH_INH_MASK;
	v = kmh_mhpmevent_set_event(v, 0, ea);
	v = kmh_mhpmevent_set_event(v, 1, eb);
	v = kmh_mhpmevent_set_op(v, 0, KMH_OP_ADD);
	v = kmh_mhpmevent_set_op(v, 1, KMH_OP_OR);
	v = kmh_mhpmevent_set_op(v, 2, KMH_OP_OR);

	memset(out, 0, sizeof(*out));
	out->value = v;
	out->bank = a->bank;
	out->modes = a->modes;
	out->modes_given = a->modes_given || b->modes_given;
	out->nr_events = 2;
	struct kmh_decoded d;
	kmh_decode(t, v, a->bank, &d);
	if (d.exact)
		snprintf(out->canonical, sizeof(out->canonical), "%s", d.expr);
	else
		snprintf(out->canonical, sizeof(out->canonical), "r%" PRIx64, v);
	return 0;
}

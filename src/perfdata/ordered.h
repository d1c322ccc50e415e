/* ordered.h: perf report's order of a perf.data's records (perf's
 * ordered-events), for a reader of src/perfdata.
 *
 * Owns: the queue. Records queue until a FINISHED_ROUND, which delivers,
 * sorted by time (the file's order among equal times), those not later
 * than the latest time seen before the previous round (the ring buffers
 * of all CPUs have been written past it); the rest go at the end. A file
 * without rounds is thus sorted whole. A record without a time takes the
 * last one seen. The queue holds offsets: a record is read again from
 * the file when it is delivered.
 */
#ifndef HPM_PERFDATA_ORDERED_H
#define HPM_PERFDATA_ORDERED_H

#include <stddef.h>
#include <stdint.h>

#include "perfdata/reader.h"

/* Receives the records in their order. */
typedef void (*pd_deliver_fn)(void *ctx, const struct pd_record *r);

struct pd_ordered {
	struct pd_ordered_rec *q;
	size_t nr, cap;
	uint32_t seq;
	uint64_t last, max_ts, next_flush;
	pd_deliver_fn deliver;
	void *ctx;
};

/* Takes r, a record of f: a FINISHED_ROUND delivers what it lets out,
 * any other record is queued. */
void pd_ordered_add(struct pd_file *f, struct pd_ordered *o, const struct pd_record *r);
/* Delivers every record still queued and frees the queue. */
void pd_ordered_end(struct pd_file *f, struct pd_ordered *o);

#endif

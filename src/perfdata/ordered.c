/* ordered.c: perf report's order of a perf.data's records (ordered.h). */
#include <stdlib.h>
#include <string.h>

#include "perfdata/ordered.h"
#include "perfdata/perf-file.h"
#include "util/xalloc.h"

struct pd_ordered_rec {
	uint64_t time, off;
	uint32_t seq;
};

static int by_time(const void *a, const void *b)
{
	const struct pd_ordered_rec *x = a, *y = b;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Delivers the queued records up to time limit (all: every one), in
 * time order, keeping the file's order among equal times. */
static void flush(struct pd_file *f, struct pd_ordered *o, uint64_t limit, bool all)
{
	struct pd_record r;
	size_t k = 0;
	for (size_t i = 1; i < o->nr; i++)
		if (o->q[i].time < o->q[i - 1].time) {
			qsort(o->q, o->nr, sizeof(*o->q), by_time);
			break;
		}
	while (k < o->nr && (all || o->q[k].time <= limit)) {
		if (pd_read_at(f, o->q[k].off, &r) == 1)
			o->deliver(o->ctx, &r);
		k++;
	}
	if (k)
		memmove(o->q, o->q + k, (o->nr - k) * sizeof(*o->q));
	o->nr -= k;
}

void pd_ordered_add(struct pd_file *f, struct pd_ordered *o, const struct pd_record *r)
{
	if (r->type == PERF_RECORD_FINISHED_ROUND) {
		flush(f, o, o->next_flush, false);
		o->next_flush = o->max_ts;
		return;
	}
	if (o->nr == o->cap) {
		o->cap = o->cap ? 2 * o->cap : 4096;
		o->q = xrealloc(o->q, o->cap * sizeof(*o->q));
	}
	uint64_t t = r->has_time ? r->time : o->last;
	o->last = t;
	if (t > o->max_ts)
		o->max_ts = t;
	o->q[o->nr++] = (struct pd_ordered_rec){.time = t, .off = r->offset, .seq = o->seq++};
}

void pd_ordered_end(struct pd_file *f, struct pd_ordered *o)
{
	flush(f, o, 0, true);
	free(o->q);
	o->q = NULL;
	o->nr = o->cap = 0;
}

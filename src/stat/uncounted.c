/* uncounted.c: see uncounted.h. */
#include "stat/uncounted.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/sched.h"
#include "util/xalloc.h"

/* The rows of a PMU model: everything this back end is given. */
static bool ours(const struct hpm_evsel *e, const void *ctx)
{
	(void)ctx;
	return hpm_evsel_is_model(e);
}

static int unc_open(struct hpm_evlist *list, const unsigned *rows, unsigned nr_rows,
                    const struct hpm_target *t, void *cfg, struct hpm_backend_inst **out, char *err,
                    size_t errlen)
{
	(void)t;
	(void)out;
	const struct hpm_pmu_model *m = NULL;
	for (unsigned k = 0; k < nr_rows && !m; k++)
		if (ours(&list->ev[rows[k]], NULL))
			m = list->ev[rows[k]].enc.model;
	hpm_uncounted_why(m, cfg, err, errlen);
	return -ENODEV;
}

static void unc_close(struct hpm_backend_inst *b)
{
	(void)b;
}

void hpm_uncounted_why(const struct hpm_pmu_model *m, const char *host, char *err, size_t errlen)
{
	snprintf(err, errlen,
	         "--pmu %s: this host has no %s PMU and hpmstat has no emulator of it yet "
	         "('stat --dry-run' shows what it would program)%s",
	         m ? m->name : "?", m ? m->display : "?", host ? host : "");
}

/* "pmevcntr3" or the fixed counter's name. */
static const char *counter_name(const struct hpm_pmu_model *m, const struct hpm_sched_req *q,
                                char *buf, size_t len)
{
	if (q->fixed) {
		int f = hpm_model_fixed_by_counter(m, q->counter);
		snprintf(buf, len, "%s", f >= 0 ? m->fixed[f].name : "?");
	} else {
		snprintf(buf, len, "%s%u", m->counters.counter_prefix, q->counter);
	}
	return buf;
}

/* One line per row: the counter the model's scheduler gives it and the
 * event-select value (the model's register: PMEVTYPER<n>_EL0 on Arm), then
 * the number of multiplex groups. The same scheduler places the rows of a
 * --no-multiplex run (stat/nomux.c), so the groups here are its runs. */
static int unc_dry_run(const struct hpm_evlist *list, const unsigned *rows, unsigned nr_rows,
                       const struct hpm_target *t, void *cfg, FILE *out, char *err, size_t errlen)
{
	(void)t;
	const char *host = cfg ? cfg : "";
	unsigned *mine;
	unsigned nr = hpm_evlist_select(list, rows, nr_rows, ours, NULL, &mine);
	const struct hpm_pmu_model *m = nr ? list->ev[mine[0]].enc.model : NULL;
	struct hpm_sched_req *req = xcalloc(nr ? nr : 1, sizeof(*req));
	int *req_of = xcalloc(nr ? nr : 1, sizeof(*req_of));
	unsigned nreq = 0;
	for (unsigned k = 0; k < nr; k++) {
		req_of[k] = -1;
		if (hpm_emu_request(&list->ev[mine[k]], &req[nreq]))
			req_of[k] = (int)nreq++;
	}
	struct hpm_sched sched;
	if (!m || hpm_sched_build(m, req, nreq, &sched, err, errlen)) {
		free(mine);
		free(req);
		free(req_of);
		return m ? -EINVAL : 0;
	}
	char cb[64];
	fprintf(out,
	        "%s: nothing on this host counts these events; what its PMU would be "
	        "programmed with:\n",
	        m->name);
	for (unsigned k = 0; k < nr; k++) {
		const struct hpm_evsel *e = &list->ev[mine[k]];
		if (req_of[k] < 0) {
			fprintf(out, "%s: <not supported>: no counter of %s takes it\n", e->name,
			        m->display);
			continue;
		}
		const struct hpm_sched_req *q = &req[req_of[k]];
		counter_name(m, q, cb, sizeof(cb));
		if (q->fixed) {
			fprintf(out, "%s: %s (fixed counter, always counted)\n", e->name, cb);
			continue;
		}
		fprintf(out, "%s: %s event 0x%016" PRIx64 " (%s)", e->name, cb, q->value,
		        e->enc.canonical);
		if (q->mux == HPM_SCHED_ALWAYS)
			fprintf(out, " (every group");
		else
			fprintf(out, " (group %d", q->mux);
		if (q->owner != (unsigned)req_of[k])
			fprintf(out, ", shared with %s", req[q->owner].name);
		fprintf(out, ")\n");
	}
	if (sched.nr_groups > 1)
		fprintf(out,
		        "%s: %u multiplex groups for %u counters: counts are scaled estimates "
		        "(--no-multiplex runs the command once per group)\n",
		        m->name, sched.nr_groups, m->counters.last - m->counters.first + 1);
	fprintf(out,
	        "%s: a dry run only: this host has no %s PMU and hpmstat has no emulator of it "
	        "yet%s\n",
	        m->name, m->display, host);
	hpm_sched_free(&sched);
	free(mine);
	free(req);
	free(req_of);
	return 0;
}

const struct hpm_backend hpm_backend_uncounted = {
    .name = "none",
    .open = unc_open,
    .dry_run = unc_dry_run,
    .close = unc_close,
};

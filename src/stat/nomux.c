/* nomux.c: see nomux.h. */
#include "stat/nomux.h"

#include <stdlib.h>
#include <string.h>

#include "core/sched.h"
#include "util/xalloc.h"

int hpm_nomux_plan(const struct hpm_session *s, struct hpm_nomux *p, char *err, size_t errlen)
{
	unsigned n = s->all.nr;
	memset(p, 0, sizeof(*p));
	p->nr_rows = n;
	p->nr_runs = 1;
	p->run_of = xcalloc(n ? n : 1, sizeof(*p->run_of));
	p->taken = xcalloc(n ? n : 1, sizeof(*p->taken));

	/* the model's rows' requests as the emulator makes them, whichever
	 * back end counts them; host and tool events, and an event without a
	 * class (it cannot be placed), stay in the first run */
	struct hpm_sched_req *req = xcalloc(n ? n : 1, sizeof(*req));
	int *req_of = xcalloc(n ? n : 1, sizeof(*req_of));
	unsigned nr = 0;
	for (unsigned i = 0; i < n; i++) {
		req_of[i] = -1;
		if (hpm_emu_request(&s->all.ev[i], &req[nr]))
			req_of[i] = (int)nr++;
	}
	struct hpm_sched sched;
	int rc = hpm_sched_build(s->model, req, nr, &sched, err, errlen);
	if (!rc) {
		p->nr_runs = sched.nr_groups;
		for (unsigned i = 0; i < n; i++)
			if (req_of[i] >= 0 && req[req_of[i]].mux != HPM_SCHED_ALWAYS)
				p->run_of[i] = (unsigned)req[req_of[i]].mux;
		hpm_sched_free(&sched);
	}
	free(req);
	free(req_of);
	if (rc)
		hpm_nomux_free(p);
	return rc ? -1 : 0;
}

void hpm_nomux_session(const struct hpm_nomux *p, const struct hpm_session *s, unsigned r,
                       struct hpm_session *out)
{
	char err[256];
	hpm_session_init(out, s->choice);
	out->emu_cfg = s->emu_cfg;
	out->perf_cfg = s->perf_cfg;
	/* the rows are s's model's, routed as s routes them */
	out->model = s->model;
	out->model_on_perf = s->model_on_perf;
	out->model_uncounted = s->model_uncounted;
	out->dry_run = s->dry_run;
	for (unsigned i = 0; i < p->nr_rows; i++) {
		if (p->run_of[i] != r)
			continue;
		const struct hpm_evsel *row = &s->all.ev[i];
		struct hpm_evsel *e = hpm_evlist_add(&out->all, row->spec, row->group);
		free(e->name);
		e->name = xstrdup(row->name);
		e->kind = row->kind;
		e->emulated = row->emulated;
		e->metric_only = row->metric_only;
		e->enc = row->enc;
		e->tool = row->tool;
		e->attr_type = row->attr_type;
		e->attr_config = row->attr_config;
		e->attr_config1 = row->attr_config1;
		e->attr_config2 = row->attr_config2;
		e->exclude_user = row->exclude_user;
		e->exclude_kernel = row->exclude_kernel;
		e->exclude_hv = row->exclude_hv;
		e->exclude_host = row->exclude_host;
		e->exclude_guest = row->exclude_guest;
		e->unit = row->unit;
		e->scale = row->scale;
	}
	/* group indices stay those of s: a {...} group is whole in one run */
	out->all.nr_groups = s->all.nr_groups;
	hpm_session_split(out, err, sizeof(err));
}

void hpm_nomux_take(struct hpm_nomux *p, struct hpm_session *s, unsigned r, struct hpm_session *sub)
{
	unsigned j = 0;
	for (unsigned i = 0; i < p->nr_rows; i++) {
		if (p->run_of[i] != r)
			continue;
		hpm_session_take_row(s, i, sub, j++);
		p->taken[i] = true;
	}
}

void hpm_nomux_finish(struct hpm_nomux *p, struct hpm_session *s)
{
	for (unsigned i = 0; i < p->nr_rows; i++)
		if (!p->taken[i]) {
			hpm_session_take_row(s, i, NULL, 0);
			p->taken[i] = true;
		}
}

void hpm_nomux_free(struct hpm_nomux *p)
{
	free(p->run_of);
	free(p->taken);
	memset(p, 0, sizeof(*p));
}

int hpm_nomux_dry_run(const struct hpm_session *s, const struct hpm_target *t, FILE *out, char *err,
                      size_t errlen)
{
	struct hpm_nomux p;
	int rc = 0;
	if (hpm_nomux_plan(s, &p, err, errlen))
		return -1;
	for (unsigned r = 0; r < p.nr_runs && !rc; r++) {
		struct hpm_session sub;
		hpm_nomux_session(&p, s, r, &sub);
		if (p.nr_runs > 1)
			fprintf(out, "# run %u of %u:\n", r + 1, p.nr_runs);
		rc = hpm_session_dry_run(&sub, t, out, err, errlen);
		hpm_session_free(&sub);
	}
	hpm_nomux_free(&p);
	return rc;
}

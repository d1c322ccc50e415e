/* tool.c: the tool events' back end; see tool.h for what it counts.
 *
 * Owns: struct tool_inst, the clock of one open instance.
 */
#include "backend/tool.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "backend/host-events.h"
#include "util/clock.h"
#include "util/xalloc.h"

/* One open instance: the handle open gives is &base. */
struct tool_inst {
	struct hpm_backend_inst base; /* first; base.rows: its tool rows */
	uint64_t t0, t1;              /* enable and disable, CLOCK_MONOTONIC ns; t0 0: never */
	bool running;                 /* enabled and not disabled since */
	bool final;                   /* hpm_tool_set_run_times gave the final times */
};

/* The instance behind a handle this back end's operations get. */
static struct tool_inst *tool_inst(struct hpm_backend_inst *b)
{
	return (struct tool_inst *)b;
}

static bool is_tool(const struct hpm_evsel *e, const void *ctx)
{
	(void)ctx;
	return e->kind == HPM_EV_TOOL;
}

/* The time is the value, enabled and running alike. */
static void set_count(struct hpm_evsel *e, uint64_t ns)
{
	e->counts[0] = (struct hpm_count){.val = ns, .ena = ns, .run = ns};
}

static int tool_open(struct hpm_evlist *list, const unsigned *rows, unsigned nr_rows,
                     const struct hpm_target *t, void *cfg, struct hpm_backend_inst **out,
                     char *err, size_t errlen)
{
	(void)t;
	(void)cfg;
	struct tool_inst *s = xcalloc(1, sizeof(*s));
	if (hpm_backend_inst_init(&s->base, &hpm_backend_tool, list, rows, nr_rows, is_tool,
	                          NULL)) {
		free(s);
		snprintf(err, errlen, "tool events: already open on this event list");
		return -EBUSY;
	}
	hpm_backend_inst_name_units(&s->base, 1, "CPU");
	for (unsigned k = 0; k < s->base.nr_rows; k++) {
		struct hpm_evsel *e = &list->ev[s->base.rows[k]];
		free(e->counts);
		e->counts = xcalloc(1, sizeof(*e->counts));
		e->state = HPM_EV_OK;
		free(e->placement);
		e->placement =
		    xasprintf("tool event: %s", hpm_host_tool_source((enum hpm_tool)e->tool));
	}
	*out = &s->base;
	return 0;
}

static int tool_enable(struct hpm_backend_inst *b, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	struct tool_inst *s = tool_inst(b);
	s->t0 = hpm_clock_ns();
	s->running = true;
	return 0;
}

static int tool_disable(struct hpm_backend_inst *b, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	struct tool_inst *s = tool_inst(b);
	if (s->running)
		s->t1 = hpm_clock_ns();
	s->running = false;
	return 0;
}

static int tool_read(struct hpm_backend_inst *b, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	struct tool_inst *s = tool_inst(b);
	if (s->final || !s->t0)
		return 0;
	uint64_t end = s->running ? hpm_clock_ns() : s->t1;
	for (unsigned k = 0; k < b->nr_rows; k++) {
		struct hpm_evsel *e = &b->list->ev[b->rows[k]];
		if (e->tool == HPM_TOOL_DURATION)
			set_count(e, end - s->t0);
	}
	return 0;
}

void hpm_tool_set_run_times(struct hpm_backend_inst *b, uint64_t elapsed_ns, uint64_t user_ns,
                            uint64_t sys_ns)
{
	if (!b || b->ops != &hpm_backend_tool)
		return;
	struct tool_inst *s = tool_inst(b);
	for (unsigned k = 0; k < b->nr_rows; k++) {
		struct hpm_evsel *e = &b->list->ev[b->rows[k]];
		set_count(e, e->tool == HPM_TOOL_DURATION ? elapsed_ns
		             : e->tool == HPM_TOOL_USER   ? user_ns
		                                          : sys_ns);
	}
	s->final = true;
}

static int tool_dry_run(const struct hpm_evlist *list, const unsigned *rows, unsigned nr_rows,
                        const struct hpm_target *t, void *cfg, FILE *out, char *err, size_t errlen)
{
	(void)t;
	(void)cfg;
	(void)err;
	(void)errlen;
	unsigned *mine;
	unsigned nr = hpm_evlist_select(list, rows, nr_rows, is_tool, NULL, &mine);
	for (unsigned k = 0; k < nr; k++) {
		const struct hpm_evsel *e = &list->ev[mine[k]];
		fprintf(out, "%s: tool event, no perf_event_attr: %s\n", e->name,
		        hpm_host_tool_source((enum hpm_tool)e->tool));
	}
	free(mine);
	return 0;
}

static void tool_close(struct hpm_backend_inst *b)
{
	struct tool_inst *s = tool_inst(b);
	hpm_backend_inst_fini(&s->base);
	free(s);
}

const struct hpm_backend hpm_backend_tool = {
    .name = "tool",
    .open = tool_open,
    .enable = tool_enable,
    .disable = tool_disable,
    .read = tool_read,
    .advance = NULL,
    .dry_run = tool_dry_run,
    .close = tool_close,
};

/* format.c: the batch (plain text) and JSON frames, the value and bar
 * formatting the ncurses view shares, so all views show the same figures,
 * and the names of the Topdown level-1 categories.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "metric/metric.h"
#include "top/top.h"
#include "util/str.h"

/* The Topdown level-1 names every view and the task sources share (the
 * model, the per-task rows of tasks.c, the printers here), kept apart from
 * view-state.c so that tasks.c, which view-state.c drives, needs nothing of it. */
const char top_td_letter[TD_NR] = {'R', 'F', 'B', 'K'};
const char *const top_td_name[TD_NR] = {"Retiring", "Frontend_Bound", "Bad_Speculation",
                                        "Backend_Bound"};
const char *const top_td_metric[TD_NR] = {"tma_retiring", "tma_frontend_bound",
                                          "tma_bad_speculation", "tma_backend_bound"};

bool top_td_metric_is(const char *name, unsigned k)
{
	/* Arm's tables name them without the prefix (frontend_bound) */
	const char *want = top_td_metric[k];
	return !strcmp(name, want) || !strcmp(name, want + 4);
}

const char *top_bottleneck_of(const struct stat_metric *ms, unsigned nr)
{
	/* the path has one node per level: its deepest is the leaf */
	int leaf = -1;
	for (unsigned k = 0; k < nr; k++)
		if (ms[k].bottleneck && ms[k].level && (leaf < 0 || ms[k].level > ms[leaf].level))
			leaf = (int)k;
	return leaf < 0 ? "-" : ms[leaf].display;
}

/* Here, not in view-state.c: the printers ask it, and view-state.c drives
 * tasks.c, which needs these helpers and nothing of view-state.c. */
bool top_rows_are_workloads(const struct top_frame *f)
{
	return f->backend && !strcmp(f->backend, "emu") && !f->tasks[0];
}

void top_fmt_value(char *buf, size_t len, double v)
{
	static const char sfx[] = " KMGTP";
	if (isnan(v)) {
		snprintf(buf, len, "-");
		return;
	}
	unsigned k = 0;
	double a = fabs(v);
	while (a >= 10000 && k < sizeof(sfx) - 2) {
		a /= 1000;
		v /= 1000;
		k++;
	}
	if (k)
		snprintf(buf, len, "%.4g%c", v, sfx[k]);
	else if (a >= 100 || v == floor(v))
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.2f", v);
}

void top_fmt_bar(char *buf, unsigned w, const double td[TD_NR])
{
	double sum = 0;
	for (unsigned k = 0; k < TD_NR; k++)
		if (!isnan(td[k]) && td[k] > 0)
			sum += td[k];
	if (sum <= 0) {
		memset(buf, '-', w);
		buf[w] = '\0';
		return;
	}
	/* cumulative rounding, so the letters always fill the bar exactly */
	unsigned pos = 0;
	double acc = 0;
	for (unsigned k = 0; k < TD_NR; k++) {
		if (!isnan(td[k]) && td[k] > 0)
			acc += td[k];
		unsigned end = (unsigned)lround(acc / sum * w);
		if (end > w)
			end = w;
		while (pos < end)
			buf[pos++] = top_td_letter[k];
	}
	while (pos < w)
		buf[pos++] = top_td_letter[TD_NR - 1];
	buf[w] = '\0';
}

/* A share of time counted (running / enabled) no counter can have: more
 * than the whole time (beyond rounding), none at all for a count, or not
 * a number; -1 is the mark of a metric of scaled counts. */
static bool share_bad(const struct top_value *v)
{
	if (v->share == -1)
		return false;
	return isnan(v->share) || v->share <= 0 || v->share > 1.001;
}

void top_fmt_share(char *buf, size_t len, const struct top_value *v)
{
	char num[32];
	top_fmt_value(num, sizeof(num), v->v);
	if (isnan(v->v))
		snprintf(buf, len, "%s", num);
	else if (v->v < 0 || share_bad(v))
		snprintf(buf, len, "%s", TOP_BAD_TEXT);
	else if (v->share >= 0.999)
		snprintf(buf, len, "%s", num);
	else if (v->share < 0)
		snprintf(buf, len, "%s*", num);
	else
		snprintf(buf, len, "%s(%.0f%%)", num, v->share * 100);
}

static bool pcol_is(const struct top_frame *f, unsigned k, const char *name)
{
	return k < f->npcols && f->pcol_names[k] && !strcmp(f->pcol_names[k], name);
}

bool top_pcol_bad(const struct top_frame *f, unsigned k, double v)
{
	if (isnan(v))
		return false;
	/* NI is the one column with negative values */
	if (v < 0 && !pcol_is(f, k, "NI"))
		return true;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	return pcol_is(f, k, "%CPU") && ncpu > 0 && v > 100.0 * (double)ncpu + 0.5;
}

void top_fmt_pcol(char *buf, size_t len, const struct top_frame *f, unsigned k, double v)
{
	static const char sfx[] = "KMGTP";
	if (top_pcol_bad(f, k, v)) {
		snprintf(buf, len, "%s", TOP_BAD_TEXT);
		return;
	}
	if (isnan(v) || !(pcol_is(f, k, "VIRT") || pcol_is(f, k, "RES"))) {
		top_fmt_value(buf, len, v);
		return;
	}
	/* htop's memory columns: KiB up to 99999K, then M, G, ... */
	double x = v / 1024;
	unsigned i = 0;
	while (x >= 100000 && i < sizeof(sfx) - 2) {
		x /= 1024;
		i++;
	}
	if (x >= 1000 || i == 0)
		snprintf(buf, len, "%.0f%c", x, sfx[i]);
	else
		snprintf(buf, len, "%.1f%c", x, sfx[i]);
}

/* some task row has a Topdown level 1 of its own (tasks.h) */
static bool procs_have_td(const struct top_frame *f)
{
	for (unsigned i = 0; i < f->nprocs; i++)
		for (unsigned k = 0; k < TD_NR; k++)
			if (!isnan(f->procs[i].td[k]))
				return true;
	return false;
}

/* The first ev column of the process table: on the emulator its rows [0]
 * and [1], the model's cycles and instructions, are the CYCLES and INSTR
 * columns already. */
static unsigned ev_first(const struct top_frame *f)
{
	return !strcmp(f->backend, "emu") && f->nev >= 2 ? 2 : 0;
}

/* The rows that are processes running now: not the thread rows of the
 * tree view, nor the exited ones (--sticky's, and those a BPF frame saw
 * end), which <proc> no longer lists. */
static unsigned procs_running(const struct top_frame *f)
{
	unsigned n = 0;
	for (unsigned i = 0; i < f->nprocs; i++)
		n += !f->procs[i].thread && !f->procs[i].exited;
	return n;
}

/* some value of f is shown as TOP_BAD_TEXT */
static bool frame_has_bad(const struct top_frame *f)
{
	char buf[32];
	for (unsigned u = 0; u < f->nunits; u++) {
		const struct top_unit *t = &f->units[u];
		for (int k = -2; k < (int)f->ncols; k++) {
			const struct top_value *v = k == -2   ? &t->cycles
			                            : k == -1 ? &t->instructions
			                                      : &t->col[k];
			top_fmt_share(buf, sizeof(buf), v);
			if (!strcmp(buf, TOP_BAD_TEXT))
				return true;
		}
	}
	for (unsigned i = 0; i < f->nprocs; i++)
		for (unsigned k = 0; k < f->npcols; k++)
			if (top_pcol_bad(f, k, f->procs[i].v[k]))
				return true;
	return false;
}

/* ------------------------------------------ the tables every view shows */

/* The mark after the sort column's name: v in the column's own order
 * (numbers largest first, names and PIDs ascending), ^ reversed (r). */
static const char *sort_mark(const struct top_frame *f, int col)
{
	return f->sort_col != col ? "" : f->reverse ? "^" : "v";
}

/* A column as wide as its values or its name with the sort mark,
 * whichever is wider: no name is cut. */
static int col_width(int values, const char *name)
{
	int w = (int)strlen(name) + 1;
	return w > values ? w : values;
}

/* process column k: NI 3 wide, VIRT and RES 7 (htop's), the others 9 */
static int pcol_width(const struct top_frame *f, unsigned k)
{
	const char *n = f->pcol_names[k];
	int values = !strcmp(n, "NI") ? 3 : !strcmp(n, "VIRT") || !strcmp(n, "RES") ? 7 : 9;
	return col_width(values, n);
}

/* the name column: a workload's "hart12: balanced seed 13" whole */
static int name_width(const struct top_frame *f)
{
	return strcmp(f->backend, "emu") ? 20 : 24;
}

/* b's text without the blanks a last left-aligned column leaves */
static size_t line_end(struct str_buf *b)
{
	size_t n = b->n < b->len ? b->n : b->len - 1;
	while (n > 0 && b->buf[n - 1] == ' ')
		b->buf[--n] = '\0';
	return n;
}

static bool frame_emu(const struct top_frame *f)
{
	return !strcmp(f->backend, "emu");
}

size_t top_unit_header(char *buf, size_t len, const struct top_frame *f)
{
	struct str_buf b = {buf, len, 0};
	buf[0] = '\0';
	str_buf_add(&b, "%-8s %9s %9s %5s", "UNIT", "CYCLES", "INSTR", "IPC");
	for (unsigned k = 0; k < f->ncols; k++)
		str_buf_add(&b, " %*s", col_width(12, f->col_names[k]), f->col_names[k]);
	return line_end(&b);
}

size_t top_unit_line(char *buf, size_t len, const struct top_frame *f, unsigned u)
{
	const struct top_unit *t = &f->units[u];
	struct str_buf b = {buf, len, 0};
	char cy[48], in[48], ipc[48];
	buf[0] = '\0';
	top_fmt_share(cy, sizeof(cy), &t->cycles);
	top_fmt_share(in, sizeof(in), &t->instructions);
	top_fmt_value(ipc, sizeof(ipc), t->ipc);
	if (!isnan(t->ipc))
		snprintf(ipc, sizeof(ipc), "%.2f", t->ipc);
	str_buf_add(&b, "%-8s %9s %9s %5s", t->name, cy, in, ipc);
	for (unsigned k = 0; k < f->ncols; k++) {
		top_fmt_share(cy, sizeof(cy), &t->col[k]);
		str_buf_add(&b, " %*s", col_width(12, f->col_names[k]), cy);
	}
	return line_end(&b);
}

/* event column k of the task rows: a value's 10, or the whole name */
static int ev_width(const struct top_frame *f, unsigned k)
{
	return col_width(10, f->ev_names[k]) - 1;
}

size_t top_proc_header(char *buf, size_t len, const struct top_frame *f)
{
	struct str_buf b = {buf, len, 0};
	bool work = top_rows_are_workloads(f);
	char h[64];
	buf[0] = '\0';
	snprintf(h, sizeof(h), "%s%s", work ? "HART" : "PID", sort_mark(f, TOP_SORT_PID));
	str_buf_add(&b, "%7s", h);
	snprintf(h, sizeof(h), "%s%s", work ? "WORKLOAD" : "COMMAND", sort_mark(f, TOP_SORT_NAME));
	str_buf_add(&b, " %-*s", name_width(f), h);
	for (unsigned k = 0; k < f->npcols; k++) {
		snprintf(h, sizeof(h), "%s%s", f->pcol_names[k], sort_mark(f, (int)k));
		str_buf_add(&b, " %*s", pcol_width(f, k), h);
	}
	if (!frame_emu(f)) {
		/* the state letter's column, one wide but for the mark */
		snprintf(h, sizeof(h), "S%s", sort_mark(f, TOP_SORT_STATE));
		str_buf_add(&b, " %s", h);
		snprintf(h, sizeof(h), "USER%s", sort_mark(f, TOP_SORT_USER));
		str_buf_add(&b, " %-8s", h);
	}
	/* task rows (tasks.h): the session's events and Topdown per task */
	for (unsigned k = ev_first(f); f->ev_names && k < f->nev; k++)
		if (f->ev_names[k])
			str_buf_add(&b, " %*s", ev_width(f, k), f->ev_names[k]);
	if (procs_have_td(f))
		str_buf_add(&b, " %-*s", TOP_PROC_BAR_W, "TOPDOWN");
	if (frame_emu(f))
		str_buf_add(&b, " BOTTLENECK");
	return line_end(&b);
}

size_t top_proc_line(char *buf, size_t len, const struct top_frame *f, unsigned i,
                     const char *prefix, int *bar)
{
	const struct top_proc *p = &f->procs[i];
	struct str_buf b = {buf, len, 0};
	char v[48], name[sizeof(p->name) + 16];
	int nw = name_width(f);
	buf[0] = '\0';
	*bar = -1;
	snprintf(name, sizeof(name), "%s%s", prefix, p->name);
	if (p->pid >= 0)
		str_buf_add(&b, "%7d %-*.*s", p->pid, nw, nw, name);
	else
		str_buf_add(&b, "%7u %-*.*s", i, nw, nw, name);
	for (unsigned k = 0; k < f->npcols; k++) {
		top_fmt_pcol(v, sizeof(v), f, k, p->v[k]);
		str_buf_add(&b, " %*s", pcol_width(f, k), v);
	}
	/* the state letter; X (proc(5)'s dead) for a row kept exited */
	if (!frame_emu(f))
		str_buf_add(&b, " %-*s %-8s", f->sort_col == TOP_SORT_STATE ? 2 : 1,
		            p->exited     ? "X"
		            : p->extra[0] ? p->extra
		                          : "-",
		            p->user[0] ? p->user : "-");
	for (unsigned k = ev_first(f); f->ev_names && k < f->nev; k++) {
		if (!f->ev_names[k])
			continue;
		top_fmt_value(v, sizeof(v), p->ev ? p->ev[k] : (double)NAN);
		str_buf_add(&b, " %*s", ev_width(f, k), v);
	}
	if (procs_have_td(f)) {
		char letters[TOP_PROC_BAR_W + 1];
		top_fmt_bar(letters, TOP_PROC_BAR_W, p->td);
		*bar = (int)b.n + 1;
		str_buf_add(&b, " %s", letters);
	}
	if (frame_emu(f))
		str_buf_add(&b, " %s", p->extra);
	return line_end(&b);
}

void top_print_text(FILE *out, const struct top_frame *f)
{
	char a[48];
	fprintf(out, "hpmstat top - frame %u, %.2f s, every %g s, back end %s%s\n", f->seq, f->t,
	        f->delay, f->backend, f->paused ? " [paused]" : "");
	fprintf(out, "%s\n", f->source);
	if (f->tasks[0])
		fprintf(out, "%s\n", f->tasks);
	if (f->status[0])
		fprintf(out, "note: %s\n", f->status);
	fprintf(out,
	        "Topdown level %u%s%s  (bar: R Retiring, F Frontend_Bound, B Bad_Speculation, "
	        "K Backend_Bound)\n",
	        f->level, f->focus[0] ? ", drill: " : "", f->focus);
	char line[1024];
	top_unit_header(line, sizeof(line), f);
	fprintf(out, "%s  TOPDOWN\n", line);
	for (unsigned u = 0; u < f->nunits; u++) {
		char bar[41];
		top_unit_line(line, sizeof(line), f, u);
		top_fmt_bar(bar, 40, f->units[u].td);
		fprintf(out, "%s  %s\n", line, bar);
	}
	if (f->nnodes) {
		fprintf(out, "Topdown (%% of slots or cycles, all units; <== bottleneck%s)\n",
		        f->focus[0] ? ", >> drilled" : "");
		for (unsigned i = 0; i < f->nnodes; i++) {
			const struct top_node *n = &f->nodes[i];
			top_fmt_value(a, sizeof(a), n->value);
			if (!isnan(n->value))
				snprintf(a, sizeof(a), "%.1f", n->value);
			/* a share below 0 or over 100 %, shown as computed and
			 * flagged as hpmstat stat flags it */
			char why[64], flag[96] = "";
			if (n->out_of_range)
				snprintf(flag, sizeof(flag), "  [out of range: %s]",
				         metric_range_text(n->value, why, sizeof(why)));
			fprintf(out, "  %s%*s%-*s %6s%s%s\n", n->drilled ? ">>" : "  ",
			        (int)(2 * (n->level - 1)), "", 28 - (int)(2 * (n->level - 1)),
			        n->display, a, flag, n->bottleneck ? "  <==" : "");
		}
	}
	if (f->multiplexed)
		fprintf(out,
		        "(NN%%): counted NN%% of the time and scaled; *: from scaled counts\n");
	if (frame_has_bad(f))
		fprintf(out,
		        "%s: a value that cannot be right (a negative count or share, a "
		        "share over 100%%, a %%CPU over 100 x the CPUs), not shown\n",
		        TOP_BAD_TEXT);
	/* a table that could not be listed says why, never "0 shown of 0" */
	if (f->procs_error[0] && f->nprocs)
		fprintf(out, "Processes: %u shown; %s\n", f->nprocs, f->procs_error);
	else if (f->procs_error[0])
		fprintf(out, "Processes: %s\n", f->procs_error);
	else {
		/* processes shown of those counted, as htop's "Tasks:": never
		 * more shown than counted (the count is refreshed every few
		 * seconds only, and a process may start meanwhile) */
		unsigned shown = procs_running(f);
		fprintf(out, "%s: %u shown of %u\n",
		        top_rows_are_workloads(f) ? "Workloads" : "Processes", shown,
		        shown > f->nprocs_total ? shown : f->nprocs_total);
	}
	top_proc_header(line, sizeof(line), f);
	fprintf(out, "%s\n", line);
	for (unsigned i = 0; i < f->nprocs; i++) {
		int bar;
		/* a thread under its process, as ps f draws children */
		top_proc_line(line, sizeof(line), f, i, f->procs[i].thread ? " \\_ " : "", &bar);
		fprintf(out, "%s\n", line);
	}
	fprintf(out, "\n");
}

static json_t *number_json(double v)
{
	return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

static json_t *value_json(const struct top_value *v)
{
	json_t *o = json_object();
	bool bad = !isnan(v->v) && (v->v < 0 || share_bad(v));
	json_object_set_new(o, "value", bad ? json_null() : number_json(v->v));
	json_object_set_new(o, "share", bad || v->share < 0 ? json_null() : number_json(v->share));
	if (bad)
		json_object_set_new(o, "flagged", json_true());
	return o;
}

void top_print_json(FILE *out, const struct top_frame *f)
{
	json_t *o = json_object();
	json_object_set_new(o, "frame", json_integer(f->seq));
	json_object_set_new(o, "time", json_real(f->t));
	json_object_set_new(o, "interval", json_real(f->interval));
	json_object_set_new(o, "delay", json_real(f->delay));
	json_object_set_new(o, "backend", json_string(f->backend));
	json_object_set_new(o, "source", json_string(f->source));
	json_object_set_new(o, "level", json_integer(f->level));
	json_object_set_new(o, "drill", json_string(f->focus));
	json_object_set_new(o, "multiplexed", json_boolean(f->multiplexed));
	if (f->status[0])
		json_object_set_new(o, "note", json_string(f->status));
	if (f->tasks[0])
		json_object_set_new(o, "tasks", json_string(f->tasks));
	json_t *units = json_array();
	for (unsigned u = 0; u < f->nunits; u++) {
		const struct top_unit *t = &f->units[u];
		json_t *j = json_object();
		json_object_set_new(j, "unit", json_string(t->name));
		json_object_set_new(j, "cycles", number_json(t->cycles.v));
		json_object_set_new(j, "instructions", number_json(t->instructions.v));
		json_object_set_new(j, "ipc", number_json(t->ipc));
		if (t->idle)
			json_object_set_new(j, "idle", json_true());
		json_t *td = json_object();
		for (unsigned k = 0; k < TD_NR; k++)
			json_object_set_new(td, top_td_metric[k], number_json(t->td[k]));
		json_object_set_new(j, "topdown", td);
		json_t *cols = json_object();
		for (unsigned k = 0; k < f->ncols; k++)
			json_object_set_new(cols, f->col_names[k], value_json(&t->col[k]));
		json_object_set_new(j, "columns", cols);
		json_array_append_new(units, j);
	}
	json_object_set_new(o, "units", units);
	json_t *nodes = json_array();
	for (unsigned i = 0; i < f->nnodes; i++) {
		const struct top_node *n = &f->nodes[i];
		json_t *j = json_object();
		json_object_set_new(j, "name", json_string(n->name));
		json_object_set_new(j, "display", json_string(n->display));
		json_object_set_new(j, "level", json_integer(n->level));
		json_object_set_new(j, "value", number_json(n->value));
		json_object_set_new(j, "bottleneck", json_boolean(n->bottleneck));
		json_object_set_new(j, "drilled", json_boolean(n->drilled));
		if (n->out_of_range)
			json_object_set_new(j, "out_of_range", json_true());
		json_array_append_new(nodes, j);
	}
	json_object_set_new(o, "topdown", nodes);
	json_t *procs = json_array();
	for (unsigned i = 0; i < f->nprocs; i++) {
		const struct top_proc *p = &f->procs[i];
		json_t *j = json_object();
		if (p->pid >= 0)
			json_object_set_new(j, "pid", json_integer(p->pid));
		json_object_set_new(j, "name", json_string(p->name));
		json_t *flagged = json_array();
		for (unsigned k = 0; k < f->npcols; k++) {
			bool bad = top_pcol_bad(f, k, p->v[k]);
			json_object_set_new(j, f->pcol_names[k],
			                    bad ? json_null() : number_json(p->v[k]));
			if (bad)
				json_array_append_new(flagged, json_string(f->pcol_names[k]));
		}
		json_object_set_new(j, !strcmp(f->backend, "emu") ? "bottleneck" : "state",
		                    json_string(p->extra));
		if (p->user[0])
			json_object_set_new(j, "user", json_string(p->user));
		if (json_array_size(flagged))
			json_object_set_new(j, "flagged", flagged);
		else
			json_decref(flagged);
		if (p->exited)
			json_object_set_new(j, "exited", json_true());
		/* task rows (tasks.h) */
		if (p->thread) {
			json_object_set_new(j, "tgid", json_integer(p->tgid));
			json_object_set_new(j, "thread", json_true());
		}
		if (p->ev && f->ev_names) {
			json_t *ev = json_object();
			for (unsigned k = 0; k < f->nev; k++)
				if (f->ev_names[k])
					json_object_set_new(ev, f->ev_names[k],
					                    number_json(p->ev[k]));
			json_object_set_new(j, "events", ev);
		}
		if (p->truth && f->ev_names) {
			json_t *tr = json_object();
			for (unsigned k = 0; k < f->nev; k++)
				if (f->ev_names[k])
					json_object_set_new(tr, f->ev_names[k],
					                    number_json(p->truth[k]));
			json_object_set_new(j, "truth", tr);
		}
		bool td = false;
		for (unsigned k = 0; k < TD_NR; k++)
			td |= !isnan(p->td[k]);
		if (td) {
			json_t *t = json_object();
			for (unsigned k = 0; k < TD_NR; k++)
				json_object_set_new(t, top_td_metric[k], number_json(p->td[k]));
			json_object_set_new(j, "topdown", t);
		}
		json_array_append_new(procs, j);
	}
	json_object_set_new(o, "processes", procs);
	if (f->procs_error[0])
		json_object_set_new(o, "processes_error", json_string(f->procs_error));
	else
		json_object_set_new(o, "processes_total", json_integer(f->nprocs_total));
	json_object_set_new(o, "lag_ms", json_real(f->lag_ms));
	json_object_set_new(o, "work_ms", json_real(f->work_ms));
	json_dumpf(o, out, JSON_COMPACT);
	fputc('\n', out);
	json_decref(o);
}

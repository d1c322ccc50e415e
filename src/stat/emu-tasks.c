/* emu-tasks.c: see emu-tasks.h. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "stat/emu-tasks.h"

/* val x ena / run, rounded down, without overflow (perf's scaling);
 * false when the row never ran. */
static bool scaled(const struct hpm_count *c, uint64_t *out)
{
	if (!c->run)
		return false;
	*out = (uint64_t)((hpm_u128)c->val * c->ena / c->run);
	return true;
}

/* A JSON string body: the names are expressions, which may hold '"' or '\'. */
static void json_str(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		if ((unsigned char)*s >= 0x20)
			fputc(*s, f);
	}
}

/* The difference of an attributed count from its truth: "exact", or its
 * share of the truth ("+1.25%"). */
static const char *diff_str(uint64_t att, uint64_t truth, char *buf, size_t len)
{
	if (att == truth)
		snprintf(buf, len, "exact");
	else if (!truth)
		snprintf(buf, len, "+%" PRIu64, att);
	else
		snprintf(buf, len, "%+.2f%%",
		         ((double)att - (double)truth) * 100.0 / (double)truth);
	return buf;
}

static void print_row(const struct stat_config *cfg, const struct hpm_emu_task *t,
                      const struct hpm_evsel *e, const struct hpm_count *a, uint64_t truth,
                      bool show_truth)
{
	FILE *f = cfg->out;
	char task[48], num[32], db[32];
	uint64_t v = 0;
	bool ran = e->state == HPM_EV_OK && scaled(a, &v) && !a->wrapped;
	double pct = a->ena ? (double)a->run * 100.0 / (double)a->ena : 0;
	snprintf(task, sizeof(task), "%s-%d", t->comm, t->pid);
	if (ran)
		snprintf(num, sizeof(num), "%" PRIu64, v);
	else
		snprintf(num, sizeof(num), "<not counted>");

	switch (cfg->format) {
	case STAT_FORMAT_CSV: {
		const char *s = cfg->csv_sep ? cfg->csv_sep : ",";
		fprintf(f, "%s%s%d%s%u%s%s%s%s%s%" PRIu64 "%s%.2f%s%s", task, s, t->tgid, s,
		        t->hart_last, s, num, s, e->name, s, a->run, s, pct, s,
		        t->exited ? "exited" : "");
		if (show_truth)
			fprintf(f, "%s%" PRIu64 "%s%s", s, truth, s,
			        ran ? diff_str(v, truth, db, sizeof(db)) : "");
		fputc('\n', f);
		break;
	}
	case STAT_FORMAT_JSON:
		fprintf(f, "{\"thread\" : \"");
		json_str(f, task);
		fprintf(f, "\", \"pid\" : %d, \"tgid\" : %d, \"hart\" : %u, \"exited\" : %s, ",
		        t->pid, t->tgid, t->hart_last, t->exited ? "true" : "false");
		fprintf(f, "\"counter-value\" : \"%s\", \"event\" : \"",
		        ran ? num : "<not counted>");
		json_str(f, e->name);
		fprintf(f, "\", \"event-runtime\" : %" PRIu64 ", \"pcnt-running\" : %.2f", a->run,
		        pct);
		if (show_truth)
			fprintf(f, ", \"truth\" : %" PRIu64 "", truth);
		/* every emulated row's key (print-json.c) */
		fprintf(f, ", \"emulated\" : true}\n");
		break;
	default: {
		fprintf(f, "%24s %20s      %-28s", task, num, e->name);
		if (ran && a->run < a->ena)
			fprintf(f, " (%.2f%%)", pct);
		if (show_truth)
			fprintf(f, "  truth %" PRIu64 " (%s)", truth,
			        ran ? diff_str(v, truth, db, sizeof(db)) : "-");
		/* the mark every emulated row of the std output ends with */
		fputs("  " STAT_EMU_MARK "\n", f);
		break;
	}
	}
}

/* The rows, or -1 with why there are none. */
static int get_tasks(struct hpm_session *s, const struct hpm_emu_task **tasks, unsigned *nt,
                     const unsigned **evrows, unsigned *nr, char *err, size_t errlen)
{
	int rc = hpm_session_emu_tasks(s, tasks, nt, evrows, nr);
	if (rc == -EINVAL) {
		snprintf(err, errlen, "--emu-tasks: no event is counted on the emulator");
		return -1;
	}
	if (rc) {
		struct hpm_emu_info info;
		hpm_session_emu_info(s, &info);
		snprintf(err, errlen,
		         "--emu-tasks: %s%s declares no tasks (a profile's [task] sections, "
		         "hpmstat-emu-profile(5))",
		         info.profile ? "profile " : "trace ",
		         info.profile ? info.profile
		         : info.trace ? info.trace
		                      : "");
		return -1;
	}
	return 0;
}

int stat_emu_tasks_check(struct hpm_session *s, char *err, size_t errlen)
{
	const struct hpm_emu_task *tasks;
	const unsigned *evrows;
	unsigned nt, nr;
	return get_tasks(s, &tasks, &nt, &evrows, &nr, err, errlen);
}

int stat_print_emu_tasks(const struct stat_config *cfg, struct hpm_session *s, bool truth,
                         char *err, size_t errlen)
{
	const struct hpm_emu_task *tasks;
	const unsigned *evrows;
	unsigned nt, nr;
	if (get_tasks(s, &tasks, &nt, &evrows, &nr, err, errlen))
		return -1;
	if (cfg->format == STAT_FORMAT_STD) {
		struct hpm_emu_info info;
		hpm_session_emu_info(s, &info);
		fprintf(cfg->out,
		        " Per-task counts of the emulated harts (profile %s; attributed at each "
		        "context switch, as perf's BPF counters%s):\n\n",
		        info.profile ? info.profile : "?",
		        truth ? "; truth: what the task caused, counted by the emulator" : "");
	}
	for (unsigned i = 0; i < nt; i++) {
		const struct hpm_emu_task *t = &tasks[i];
		for (unsigned k = 0; k < nr; k++)
			print_row(cfg, t, &s->all.ev[evrows[k]], &t->att[k], t->truth[k], truth);
		if (cfg->format == STAT_FORMAT_STD && t->exited)
			fprintf(cfg->out, "%24s (exited: counted until its last switch)\n", "");
		if (cfg->format == STAT_FORMAT_STD && i + 1 < nt)
			fputc('\n', cfg->out);
	}
	return 0;
}

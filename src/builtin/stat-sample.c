/* stat-sample.c: see stat-sample.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arch/machine.h"
#include "builtin/stat-sample.h"
#include "metric/metric.h"
#include "registry/models.h"
#include "util/xalloc.h"

/* Appends text to the growing line *s. */
static void add(char **s, const char *text)
{
	size_t n = strlen(*s), k = strlen(text);
	*s = xrealloc(*s, n + k + 1);
	memcpy(*s + n, text, k + 1);
}

/* Appends one word as the shell reads it back: as it is when it has no
 * character the shell treats specially, else in single quotes. */
static void add_word(char **s, const char *w)
{
	add(s, " ");
	if (*w &&
	    strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./=:,+@%-") ==
	        strlen(w)) {
		add(s, w);
		return;
	}
	add(s, "'");
	for (const char *p = w; *p; p++) {
		char c[2] = {*p, '\0'};
		add(s, *p == '\'' ? "'\\''" : c);
	}
	add(s, "'");
}

/* The rows to sample: the deepest node of the bottleneck path, else (with
 * always) every level-1 node shown. Their name for the line in *what. */
static void pick_nodes(const struct stat_sample_run *r, bool always, struct metric_set *set,
                       const char **what)
{
	int leaf = -1;
	for (unsigned k = 0; k < r->nr_metrics; k++) {
		const struct stat_metric *m = &r->metrics[k];
		if (m->bottleneck && m->level && m->def &&
		    (leaf < 0 || m->level > r->metrics[leaf].level))
			leaf = (int)k;
	}
	if (leaf >= 0) {
		metric_set_add_metric(set, r->metrics[leaf].def);
		*what = r->metrics[leaf].display;
		return;
	}
	for (unsigned k = 0; always && k < r->nr_metrics; k++)
		if (r->metrics[k].level == 1 && r->metrics[k].def)
			metric_set_add_metric(set, r->metrics[k].def);
	*what = "level 1 (no bottleneck)";
}

/* The {...}:S group: led by an event that counts every cycle and can
 * sample (Kunminghu's mcycle cannot: its machine names the event that
 * can; elsewhere the core's cycle counter can), then the node's events. */
static void add_group(char **s, const struct hpm_emu_machine *mach, const struct metric_names *ev)
{
	const char *leader = mach && mach->cycle_sampler ? mach->cycle_sampler : "cycles";
	int lead = -1;
	for (unsigned i = 0; !(mach && mach->cycle_sampler) && i < ev->nr; i++)
		if (!strcasecmp(ev->name[i], "cpu_cycles") || !strcmp(ev->name[i], "cycles"))
			lead = (int)i;
	char *g = xstrdup("{");
	add(&g, lead >= 0 ? ev->name[lead] : leader);
	for (unsigned i = 0; i < ev->nr; i++)
		if ((int)i != lead) {
			add(&g, ",");
			add(&g, ev->name[i]);
		}
	add(&g, "}:S");
	add(s, " -e");
	add_word(s, g);
	free(g);
}

char *stat_sample_hint(const struct stat_sample_run *r, bool always)
{
	const struct hpm_session *s = r->s;
	if (!s->model || !s->metrics.table)
		return NULL;
	struct metric_set set;
	const char *what = NULL;
	metric_set_init(&set, s->metrics.table);
	pick_nodes(r, always, &set, &what);
	struct metric_names ev = {0};
	if (set.nr)
		metric_set_events(&set, s->subst, s->nr_subst, 0, NULL, NULL, &ev);
	metric_set_free(&set);
	if (!ev.nr) {
		metric_names_free(&ev);
		return NULL;
	}
	const struct hpm_emu_machine *mach = hpm_model_machine(s->model);
	/* the emulator's figures are its workload's, not the command's: the
	 * hint samples the same workload, when the emulator can sample */
	bool on_emu = r->emulated && mach && hpm_emu_can_sample(mach);
	char num[32];
	char *line = xasprintf(" Sample %s: hpmstat record", what);
	if (on_emu) {
		add(&line, " --backend emu");
		/* record's emulator takes the first model that can sample
		 * unless told: name the run's own (kunminghu-v3) */
		const struct hpm_pmu_model *first = NULL;
		for (unsigned i = 0; !first && i < hpm_model_count(); i++) {
			const struct hpm_emu_machine *m = hpm_model_machine(hpm_model_at(i));
			if (m && hpm_emu_can_sample(m))
				first = hpm_model_at(i);
		}
		if (first != s->model) {
			add(&line, " --pmu");
			add_word(&line, s->model->name);
		}
		if (r->emu->trace) {
			add(&line, " --emu-trace");
			add_word(&line, r->emu->trace);
		} else if (r->emu->profile) {
			add(&line, " --emu-profile");
			add_word(&line, r->emu->profile);
		}
		if (r->emu->seed != HPM_EMU_DEFAULT_SEED) {
			snprintf(num, sizeof(num), " --emu-seed %llu",
			         (unsigned long long)r->emu->seed);
			add(&line, num);
		}
		if (r->emu->harts > 1) {
			snprintf(num, sizeof(num), " --emu-harts %u", r->emu->harts);
			add(&line, num);
		}
	} else if (r->pid > 0) {
		snprintf(num, sizeof(num), " -p %d", r->pid);
		add(&line, num);
	} else if (r->tids) {
		add(&line, " -t");
		add_word(&line, r->tids);
	} else if (r->cpus) {
		add(&line, " -C");
		add_word(&line, r->cpus);
	} else if (r->all_cpus || !r->argv) {
		add(&line, " -a");
	}
	add_group(&line, mach, &ev);
	metric_names_free(&ev);
	if (!on_emu && r->argv && r->pid <= 0 && !r->tids) {
		add(&line, " --");
		for (char *const *a = r->argv; *a; a++)
			add_word(&line, *a);
	}
	if (r->emulated && !on_emu) {
		char *note =
		    xasprintf(" (on a %s host: its emulator cannot sample)", s->model->display);
		add(&line, note);
		free(note);
	}
	return line;
}

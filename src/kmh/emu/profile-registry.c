/* profile-registry.c: the registry of built-in and file profiles, and
 * what a loaded profile declares (the emu_profile_*() accessors of
 * workload.h).
 *
 * Owns: the registry (emukit/profile.h's, over profile.c's parser) and the
 * answers read off struct emu_profile (workload-int.h); profile.c owns the
 * text format and the checks done when a profile loads.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emukit/phase.h"
#include "emukit/profile.h"
#include "kmh/emu/workload-int.h"
#include "kmh/kmh.h"
#include "util/xalloc.h"

#define MAX_PROFILE_BYTES (1u << 20) /* "larger than 1048576 bytes" */

/* -------------------------------------------------------------- registry */

/* A built-in that does not load is a build error that the tests catch
 * (every file must load); here it is simply left out. */
static void *parse_builtin(unsigned i)
{
	char err[512];
	const struct wl_builtin_text *t = &wl_builtin_texts[i];
	struct emu_profile *p =
	    wl_profile_parse_text(t->file, t->text, strlen(t->text), err, sizeof(err));
	if (p) {
		p->builtin = true;
		p->origin = xstrdup("built-in");
	}
	return p;
}

static const char *profile_name(const void *p)
{
	return ((const struct emu_profile *)p)->name;
}

static void profile_free(void *p)
{
	wl_profile_destroy(p);
}

/* A file's profile, named by its path. */
static void *parse_file(const char *path, const char *text, size_t len, char *err, size_t errlen)
{
	struct emu_profile *p = wl_profile_parse_text(path, text, len, err, errlen);
	if (p)
		p->origin = xstrdup(path);
	return p;
}

static struct emu_profile_registry registry = {
    .nr_builtin_at = &wl_nr_builtin_texts,
    .builtin = parse_builtin,
    .name = profile_name,
    .destroy = profile_free,
    .parse_file = parse_file,
    .max_bytes = MAX_PROFILE_BYTES,
    .too_large = "larger than 1048576 bytes",
    .unknown = "unknown profile '%s' (known: %s; or a profile file path)",
};

unsigned emu_profile_count(void)
{
	return emu_profile_registry_count(&registry);
}

const struct emu_profile *emu_profile_at(unsigned i)
{
	return emu_profile_registry_at(&registry, i);
}

const struct emu_profile *emu_profile_parse(const char *file, const char *text, char *err,
                                            size_t errlen)
{
	void *p = parse_file(file, text, strlen(text), err, errlen);
	return p ? emu_profile_registry_keep(&registry, p) : NULL;
}

const struct emu_profile *emu_profile_builtin(const char *name)
{
	return emu_profile_registry_builtin(&registry, name);
}

const struct emu_profile *emu_profile_find(const char *name_or_path, char *err, size_t errlen)
{
	return emu_profile_registry_find(&registry, name_or_path, err, errlen);
}

void emu_profile_free(const struct emu_profile *p)
{
	emu_profile_registry_release(&registry, p);
}

/* ------------------------------------------------------------- accessors */

const char *emu_profile_name(const struct emu_profile *p)
{
	return p->name;
}

const char *emu_profile_description(const struct emu_profile *p)
{
	return p->description;
}

const char *emu_profile_origin(const struct emu_profile *p)
{
	return p->origin;
}

void emu_profile_declared(const struct emu_profile *p, struct emu_topdown *td)
{
	*td = p->td;
}

void emu_profile_declared_slots(const struct emu_profile *p, struct emu_topdown *td)
{
	double ev[WL_NR_TD_EVENTS];
	for (unsigned e = 0; e < WL_NR_TD_EVENTS; e++)
		ev[e] = p->mean[wl_td_offset((enum wl_td_event)e)];
	/* the document's formulas with RECOVERY_BUBBLE x 6 are the variant's:
	 * the model produces it as the RTL does, 1 per recovery cycle, whose
	 * 6 slots are all lost (wl_model_check) */
	ev[WL_TD_RECOVERY_BUBBLE] *= 6;
	wl_topdown(ev, td);
}

static bool in_range(int bank, unsigned index)
{
	return bank >= 0 && bank < KMH_NR_BANKS && index > 0 && index < wl_layout.nr[bank];
}

bool emu_profile_produces(const struct emu_profile *p, int bank, unsigned index)
{
	return in_range(bank, index) && p->produced[wl_layout.off[bank] + index];
}

unsigned emu_profile_unproduced(const struct emu_profile *p,
                                void (*visit)(void *ctx, const char *bank_colon_name), void *ctx)
{
	unsigned n = 0;
	char buf[160];
	for (int b = 0; b < KMH_NR_BANKS; b++)
		for (unsigned i = 1; i < kmh_table_v2.banks[b].nr_events; i++)
			if (!emu_profile_produces(p, b, i)) {
				n++;
				if (visit) {
					snprintf(buf, sizeof(buf), "%s:%s",
					         kmh_table_v2.banks[b].name,
					         kmh_str(&kmh_table_v2,
					                 kmh_table_v2.banks[b].events[i].name));
					visit(ctx, buf);
				}
			}
	return n;
}

double emu_profile_mean(const struct emu_profile *p, int bank, unsigned index)
{
	if (!emu_profile_produces(p, bank, index))
		return 0;
	return p->mean[wl_layout.off[bank] + index];
}

double emu_profile_mean_instret(const struct emu_profile *p)
{
	return p->mean_instret;
}

EMU_PHASE_GETTERS(emu_profile, struct emu_profile)

void emu_profile_phase_declared(const struct emu_profile *p, unsigned i, struct emu_topdown *td)
{
	*td = p->phases[i < p->nr_phases ? i : 0].td;
}

double emu_profile_mode_share(const struct emu_profile *p, unsigned mode)
{
	return mode < EMU_NR_MODES ? p->mode_share[mode] : 0;
}

double emu_profile_mean_run_cycles(const struct emu_profile *p)
{
	return p->mean_run;
}

unsigned emu_profile_nr_functions(const struct emu_profile *p)
{
	return p->nr_funcs;
}

bool emu_profile_function(const struct emu_profile *p, unsigned i, struct emu_function *f)
{
	if (i >= p->nr_funcs)
		return false;
	const struct wl_func *w = &p->funcs[i];
	f->name = w->name;
	f->start = w->lo;
	f->end = w->hi;
	f->share = w->share;
	f->line = w->line;
	f->td = w->mix.td;
	return true;
}

int emu_profile_function_at(const struct emu_profile *p, uint64_t pc)
{
	for (unsigned i = 0; i < p->nr_funcs; i++)
		if (pc >= p->funcs[i].lo && pc < p->funcs[i].hi)
			return (int)i;
	return -1;
}

bool emu_profile_check_vals(const uint8_t *const vals[KMH_NR_BANKS], char *err, size_t errlen)
{
	if (!wl_model_init(err, errlen))
		return false;
	uint8_t *flat = xcalloc(wl_layout.total, 1);
	for (unsigned b = 0; b < KMH_NR_BANKS; b++)
		if (vals[b])
			memcpy(flat + wl_layout.off[b], vals[b], wl_layout.nr[b]);
	bool ok = wl_model_check(flat, err, errlen);
	free(flat);
	return ok;
}

unsigned emu_profile_nr_tasks(const struct emu_profile *p)
{
	return p->nr_tasks;
}

bool emu_profile_task(const struct emu_profile *p, unsigned i, struct emu_task *t)
{
	if (i >= p->nr_tasks)
		return false;
	const struct wl_task *w = &p->tasks[i];
	t->name = w->name;
	t->pid = w->pid;
	t->tgid = w->tgid;
	t->hart = w->hart;
	t->share = w->share;
	t->start = w->start;
	t->exit = w->exit;
	t->line = w->line;
	t->td = w->mix.td;
	return true;
}

void emu_profile_task_slice(const struct emu_profile *p, uint32_t *lo, uint32_t *hi)
{
	*lo = p->slice_lo;
	*hi = p->slice_hi;
}

unsigned emu_profile_nr_keys(const struct emu_profile *p)
{
	return p->nr_cycles;
}

bool emu_profile_key_run(const struct emu_profile *p, uint32_t key, unsigned mode,
                         struct emu_run *run)
{
	if (key < 1 || key > p->nr_cycles)
		return false;
	const struct wl_cycle *c = &p->cycles[key - 1];
	memset(run, 0, sizeof(*run));
	run->cycles = 1;
	run->key = c->key;
	run->mode = (uint8_t)mode;
	run->instret = c->instret;
	for (unsigned b = 0; b < KMH_NR_BANKS; b++)
		run->vals[b] = c->bank[b];
	return true;
}

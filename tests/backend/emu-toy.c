/* emu-toy.c: the emulator back end (src/backend/emu.c) knows no model. A
 * throwaway model with one fixed counter and two programmable ones, and a
 * machine for it whose events count a known number per cycle, are added to
 * the registry at run time (hpm_model_register); the back end must place,
 * program, multiplex, read and describe them through the interfaces alone
 * (arch/model.h, arch/machine.h), with nothing of Kunminghu's 29 counters,
 * 4 banks or mcycle/minstret on 0/2. The counter scheduler (core/sched.c)
 * is checked on the same model.
 *
 * The toy (tests/toy/toy.h): fixed counter "ticks" (counter 0) counts
 * cycles; counters 1 and 2 form the class "pool"; "evK" delivers K per
 * cycle, except ev5, which its profile never produces.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/emu.h"
#include "emu-run.h"
#include "registry/models.h"
#include "tap.h"
#include "toy/toy.h"

static char err[512];
static const struct hpm_backend *be = &hpm_backend_emu;

/* --------------------------------------------------------------- helpers */

static unsigned add_ev(struct hpm_evlist *l, unsigned k, int group)
{
	char name[16];
	snprintf(name, sizeof(name), "ev%u", k);
	struct hpm_evsel *e = hpm_evlist_add(l, name, group);
	e->kind = HPM_EV_MODEL;
	e->enc.model = &toy_model;
	e->enc.value = k;
	e->enc.constraint = k ? 0 : -1; /* "ev0": no class */
	e->enc.fixed = -1;
	e->enc.nr_events = 1;
	return l->nr - 1;
}

static unsigned add_ticks(struct hpm_evlist *l)
{
	struct hpm_evsel *e = hpm_evlist_add(l, "ticks", -1);
	e->kind = HPM_EV_MODEL_FIXED;
	e->enc.model = &toy_model;
	e->enc.fixed = 0;
	e->enc.constraint = -1;
	return l->nr - 1;
}

static struct hpm_emu_config config(uint64_t cycles, uint64_t quantum)
{
	struct hpm_emu_config c;
	hpm_emu_config_init(&c);
	c.cycles = cycles;
	c.quantum = quantum;
	return c;
}

/* ----------------------------------------------------------------- tests */

static void test_registry(void)
{
	unsigned n = hpm_model_count();
	tap_ok(hpm_model_register(&toy_model, &toy_machine) == 0, "the toy model is registered");
	tap_ok(hpm_model_count() == n + 1 && hpm_model_at(n) == &toy_model &&
	           hpm_model_by_name("toy") == &toy_model,
	       "it comes after the built-in models and is found by its name");
	tap_ok(hpm_model_machine(&toy_model) == &toy_machine,
	       "its machine is the one it came with");
	tap_ok(hpm_model_register(&toy_model, NULL) == -1 && hpm_model_count() == n + 1,
	       "a second model of the same name is refused");
	struct hpm_pmu_model clash = toy_model;
	clash.name = hpm_model_at(0)->name;
	tap_ok(hpm_model_register(&clash, NULL) == -1, "so is one named as a built-in model ('%s')",
	       clash.name);
	tap_ok(hpm_model_machine(&clash) == NULL, "an unregistered model has no machine");
}

static void test_counts(void)
{
	struct hpm_evlist l = {0};
	struct hpm_backend_inst *h;
	struct hpm_emu_config c = config(1000, 0);
	c.harts = 2;
	add_ev(&l, 1, -1);
	add_ev(&l, 2, -1);
	add_ticks(&l);
	add_ev(&l, 2, -1); /* shares the first ev2's counter */
	tap_ok(emu_run_whole(&l, &c, &h, err, sizeof(err)) == 0 && !hpm_emu_multiplexed(h) &&
	           hpm_emu_harts(h) == 2,
	       "ev1, ev2, ticks, ev2 on 2 harts: open and run, one group");
	bool ok = true;
	for (unsigned u = 0; u < 2; u++)
		ok &= l.ev[0].counts[u].val == 1000 && l.ev[1].counts[u].val == 2000 &&
		      l.ev[2].counts[u].val == 1000 && l.ev[3].counts[u].val == 2000 &&
		      l.ev[0].counts[u].ena == 1000 && l.ev[0].counts[u].run == 1000;
	tap_ok(ok, "exact counts on every hart: ev1 1000, ev2 2000, ticks 1000");
	tap_is_str(l.ev[0].placement, "ctr1 (0x0000000000000001)",
	           "placement in the model's names");
	tap_is_str(l.ev[2].placement, "ticks", "the fixed counter by its name");
	tap_is_str(l.ev[3].placement, "ctr2 (0x0000000000000002), shared with ev2",
	           "a duplicate shares the counter");
	tap_ok(!strcmp(hpm_emu_profile_name(h), "steady"), "the machine's default profile");
	be->close(h);
	hpm_evlist_free(&l);
}

static void test_mux(void)
{
	struct hpm_evlist l = {0};
	struct hpm_backend_inst *h;
	struct hpm_emu_config c = config(1000, 100);
	for (unsigned k = 1; k <= 3; k++)
		add_ev(&l, k, -1);
	add_ticks(&l);
	tap_ok(emu_run_whole(&l, &c, &h, err, sizeof(err)) == 0 && hpm_emu_multiplexed(h),
	       "three events on two counters: multiplexed");
	struct hpm_emu_info info;
	hpm_emu_info(h, &info);
	tap_ok(info.nr_groups == 2 && info.rotations == 10 &&
	           hpm_emu_group_run(h, 0) + hpm_emu_group_run(h, 1) == 1000,
	       "2 groups, a rotation every 100 cycles, their run adds up to the 1000 cycles");
	bool ok = true;
	for (unsigned k = 1; k <= 3; k++) {
		const struct hpm_count *n = &l.ev[k - 1].counts[0];
		ok &= n->run == 500 && n->ena == 1000 && n->val == 500 * k;
	}
	tap_ok(ok, "each event counted exactly in its group's 500 cycles");
	tap_ok(l.ev[3].counts[0].val == 1000 && l.ev[3].counts[0].run == 1000,
	       "the fixed counter counts all the time");
	tap_is_str(l.ev[2].placement, "ctr1 (0x0000000000000003), group 1 of 2",
	           "placement of a multiplexed event");
	be->close(h);
	hpm_evlist_free(&l);
}

static void test_rows_without_number(void)
{
	struct hpm_evlist l = {0};
	struct hpm_backend_inst *h;
	struct hpm_emu_config c = config(100, 0);
	add_ev(&l, 0, -1);
	add_ev(&l, 5, -1);
	add_ev(&l, 4, -1);
	tap_ok(emu_run_whole(&l, &c, &h, err, sizeof(err)) == 0, "ev0, ev5, ev4: open and run");
	tap_ok(l.ev[0].state == HPM_EV_NOT_SUPPORTED &&
	           !strcmp(l.ev[0].placement,
	                   "no pool known: the emulator places an event by its pool, so it takes "
	                   "POOL:NAME or POOL:INDEX, not a raw value or term"),
	       "an event of no class is not supported, in the model's words");
	tap_ok(l.ev[1].state == HPM_EV_NOT_MODELLED &&
	           !strcmp(l.ev[1].placement, "profile steady does not produce pool:ev5"),
	       "an event the profile does not produce is not modelled");
	tap_ok(l.ev[2].state == HPM_EV_OK && l.ev[2].counts[0].val == 400, "ev4 counts 400");
	be->close(h);
	hpm_evlist_free(&l);
}

static void test_dry_run(void)
{
	struct hpm_evlist l = {0};
	struct hpm_emu_config c = config(0, 0);
	for (unsigned k = 1; k <= 3; k++)
		add_ev(&l, k, -1);
	add_ticks(&l);
	char *t = emu_run_dry(&l, &c, err, sizeof(err));
	tap_is_str(t ? t : "",
	           "emu: profile steady, seed 1, 1 hart, 1000000000 cycles\n"
	           "emu: hart0 STOP 0-2 (stop every counter)\n"
	           "ev1: hart0 SET ctr1=1 (group 0)\n"
	           "ev2: hart0 SET ctr2=2 (group 0)\n"
	           "ev3: hart0 SET ctr1=3 (group 1)\n"
	           "ticks: hart0 ticks (fixed counter, always counted)\n"
	           "emu: hart0 NOEVENT 2 (no event in group 1)\n"
	           "emu: hart0 ZERO 0-2\n"
	           "emu: hart0 START 0-1 (enable: ticks, ctr1)\n"
	           "emu: 2 multiplex groups, group 1 first; every 100000 counted cycles the next "
	           "group of a round in random order: ROTATE\n"
	           "emu: hart0 STOP 0-2 (disable)\n",
	           "the dry run in the machine's words");
	free(t);
	hpm_evlist_free(&l);

	struct hpm_evlist one = {0};
	add_ev(&one, 2, -1);
	t = emu_run_dry(&one, &c, err, sizeof(err));
	tap_ok(t && strstr(t, "ev2: hart0 SET ctr1=2 (group 0)\n") &&
	           strstr(t, "emu: hart0 NOEVENT 2 (no event in group 0)\n") &&
	           strstr(t, "START 0-1 (enable: ticks, ctr1)"),
	       "one event: the unused counter is given no event and stays stopped");
	free(t);
	hpm_evlist_free(&one);
}

static void test_errors(void)
{
	struct hpm_evlist l = {0};
	struct hpm_backend_inst *h = NULL;
	struct hpm_emu_config c = config(100, 0);
	add_ev(&l, 1, -1);
	c.harts = 5;
	tap_ok(be->open(&l, NULL, 0, NULL, &c, &h, err, sizeof(err)) != 0 &&
	           !strcmp(err, "--emu-harts 5: must be 1..4"),
	       "the machine's hart limit: %s", err);
	c.harts = 1;
	c.profile = "bursty";
	tap_ok(be->open(&l, NULL, 0, NULL, &c, &h, err, sizeof(err)) != 0 &&
	           !strcmp(err, "--emu-profile: unknown profile 'bursty' (known: steady)"),
	       "the machine's profile error, with the option: %s", err);
	c.profile = NULL;
	c.trace = "t.trace";
	tap_ok(be->open(&l, NULL, 0, NULL, &c, &h, err, sizeof(err)) != 0 &&
	           !strcmp(err, "--emu-trace t.trace: the toy replays no traces"),
	       "the machine's trace error, with the option: %s", err);
	hpm_evlist_free(&l);

	struct hpm_evlist g = {0};
	c = config(100, 0);
	for (unsigned k = 1; k <= 3; k++)
		add_ev(&g, k, 0);
	tap_ok(be->open(&g, NULL, 0, NULL, &c, &h, err, sizeof(err)) != 0 &&
	           !strcmp(err, "the group of ev1 needs 3 pool counters at once but the pool "
	                        "pool has only 2 (ctr1-2): it can never be counted whole"),
	       "a {...} group larger than the class: %s", err);
	hpm_evlist_free(&g);

	/* rows of two models cannot share one machine */
	struct hpm_evlist two = {0};
	add_ev(&two, 1, -1);
	struct hpm_evsel *k = hpm_evlist_add(&two, "mcycle", -1);
	k->kind = HPM_EV_MODEL_FIXED;
	k->enc.model = hpm_model_at(0);
	k->enc.fixed = 0;
	k->enc.constraint = -1;
	tap_ok(be->open(&two, NULL, 0, NULL, &c, &h, err, sizeof(err)) != 0 &&
	           strstr(err, "one machine emulates one model"),
	       "events of two models: %s", err);
	hpm_evlist_free(&two);
}

static void test_sched(void)
{
	struct hpm_sched_req r[3] = {
	    {.constraint = 0, .value = 1, .group = -1, .name = "a"},
	    {.fixed = true, .fixed_counter = 0, .group = -1, .name = "t"},
	    {.constraint = 0, .value = 1, .group = -1, .name = "b"},
	};
	struct hpm_sched s;
	char buf[128];
	tap_ok(hpm_sched_build(&toy_model, r, 3, &s, err, sizeof(err)) == 0 && s.nr_groups == 1 &&
	           r[0].counter == 1 && r[1].counter == 0 && r[2].owner == 0,
	       "the scheduler on the toy: ctr1, ticks, a shared ctr1");
	tap_is_str(hpm_sched_describe(&s, r, 2, buf, sizeof(buf)),
	           "ctr1 (0x0000000000000001), shared with a", "its placement text");
	hpm_sched_free(&s);
	r[1].fixed_counter = 2;
	tap_ok(hpm_sched_build(&toy_model, r, 3, &s, err, sizeof(err)) == -1 &&
	           !strcmp(err, "t: counter 2 is no fixed counter of Toy"),
	       "a fixed request on no fixed counter: %s", err);
}

int main(void)
{
	test_registry();
	test_counts();
	test_mux();
	test_rows_without_number();
	test_dry_run();
	test_errors();
	test_sched();
	return tap_done();
}

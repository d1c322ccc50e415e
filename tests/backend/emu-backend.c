/* emu-backend.c: the emulator back end (src/backend/emu.c) end to end on
 * the real emulator, through struct hpm_backend as the stat command drives
 * it, checked against the emulator programmed directly through emu.h (an
 * independent path: own counter choice, own CSR writes, own reads) and
 * against identities that hold exactly (SPEC §1).
 *
 * Multiplexing bound. With G groups rotated every q cycles in rounds (each
 * round activates every group once, in random order), an event of one group
 * is counted in round k during the quantum at a uniformly drawn slot of the
 * round. If y[k][j] is the event's count in quantum j of round k (measured
 * here by reading a directly programmed counter every q cycles of the same
 * stream: the stream depends only on profile and seed), the scaled value
 * G x sum_k y[k][slot_k] is unbiased and its variance is
 *   G x sum_k sum_j (y[k][j] - mean_k)^2,
 * so the test allows 6 standard deviations. The bound is large exactly when
 * the workload changes within a round: for the phased profile (5M-cycle
 * phases) with a 1e6-cycle quantum a round of 2 quanta often straddles two
 * phases, while with the default 1e5 quantum 25 rounds fit a phase exactly.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backend/emu.h"
#include "kmh/emu/emu.h"
#include "kmh/emu/workload.h"
#include "kmh/kmh.h"
#include "kmh/model.h"
#include "emu-run.h"
#include "tap.h"

static const struct hpm_backend *be = &hpm_backend_emu;
static char err[512];

static unsigned add_kmh(struct hpm_evlist *l, const char *expr, int group)
{
	struct hpm_diag kerr;
	struct hpm_evsel *e = hpm_evlist_add(l, expr, group);
	e->kind = HPM_EV_MODEL;
	if (hpm_model_kunminghu.encode(&hpm_model_kunminghu, expr, &e->enc, &kerr)) {
		tap_diag("%s: %s", expr, kerr.msg);
		abort();
	}
	return l->nr - 1;
}

static unsigned add_fixed(struct hpm_evlist *l, const char *name, enum kmh_fixed f)
{
	struct hpm_evsel *e = hpm_evlist_add(l, name, -1);
	e->kind = HPM_EV_MODEL_FIXED;
	e->enc.model = &hpm_model_kunminghu;
	e->enc.fixed = (int)f;
	e->enc.constraint = -1;
	return l->nr - 1;
}

static unsigned add_host(struct hpm_evlist *l, const char *name)
{
	struct hpm_evsel *e = hpm_evlist_add(l, name, -1);
	e->kind = HPM_EV_HOST;
	return l->nr - 1;
}

static struct hpm_emu_config config(const char *profile, uint64_t cycles)
{
	struct hpm_emu_config c;
	hpm_emu_config_init(&c);
	c.profile = profile;
	c.cycles = cycles;
	return c;
}

static double scaled(const struct hpm_count *c)
{
	return c->run ? (double)c->val * ((double)c->ena / (double)c->run) : (double)NAN;
}

/* --------------------------------------------- the emulator, programmed directly */

struct dreq {
	uint64_t value;
	int bank;
};

/* Counts requests r[0..n-1] on a fresh one-hart machine fed by profile p with
 * `seed` for `cycles`, in as many passes over the same stream as the banks
 * need. With perq, also the count of every quantum of q cycles:
 * perq[i][k]. */
static void direct(const struct emu_profile *p, uint64_t seed, const struct dreq *r, unsigned n,
                   uint64_t cycles, uint64_t q, uint64_t *total, uint64_t **perq, uint64_t *mcycle,
                   uint64_t *minstret)
{
	bool taken[64] = {false};
	unsigned left_req = n;
	while (left_req) {
		struct emu *emu = emu_new(1);
		struct emu_hart *h = emu_hart(emu, 0);
		unsigned next[KMH_NR_BANKS], ctr[64];
		bool in[64] = {false};
		for (int b = 0; b < KMH_NR_BANKS; b++)
			next[b] = kmh_table_v2.banks[b].first_counter;
		for (unsigned i = 0; i < n; i++) {
			if (taken[i] ||
			    next[r[i].bank] > kmh_table_v2.banks[r[i].bank].last_counter)
				continue;
			ctr[i] = next[r[i].bank]++;
			in[i] = taken[i] = true;
			left_req--;
			emu_hart_csr_write(h, EMU_MODE_M, EMU_CSR_MHPMEVENT(ctr[i]), r[i].value);
		}
		struct emu_workload *w = emu_workload_new(p, seed);
		uint64_t prev[64] = {0};
		for (uint64_t k = 0, ran = 0; ran < cycles; k++) {
			uint64_t step = q && q < cycles - ran ? q : cycles - ran;
			for (uint64_t left = step; left;) {
				struct emu_run run;
				emu_workload_next(w, left, &run);
				emu_hart_run(h, &run);
				left -= run.cycles;
			}
			ran += step;
			for (unsigned i = 0; perq && i < n; i++) {
				uint64_t v;
				if (!in[i])
					continue;
				emu_hart_csr_read(h, EMU_MODE_M, EMU_CSR_MHPMCOUNTER(ctr[i]), &v);
				perq[i][k] = v - prev[i];
				prev[i] = v;
			}
		}
		for (unsigned i = 0; i < n; i++)
			if (in[i])
				emu_hart_csr_read(h, EMU_MODE_M, EMU_CSR_MHPMCOUNTER(ctr[i]),
				                  &total[i]);
		if (mcycle)
			emu_hart_csr_read(h, EMU_MODE_M, EMU_CSR_MCYCLE, mcycle);
		if (minstret)
			emu_hart_csr_read(h, EMU_MODE_M, EMU_CSR_MINSTRET, minstret);
		emu_forget_source(emu, w);
		emu_workload_free(w);
		emu_free(emu);
	}
}

static const struct emu_profile *profile(const char *name)
{
	char e[256];
	const struct emu_profile *p = emu_profile_find(name, e, sizeof(e));
	if (!p) {
		tap_diag("%s", e);
		abort();
	}
	return p;
}

/* ------------------------------------------------------------------- tests */

static void test_direct(void)
{
	static const char *const ev[] = {"rob_commitInstr",
	                                 "INST_SPEC",
	                                 "Front_Bubble",
	                                 "MEMSTALL_ANY_LOAD",
	                                 "INST_SPEC + RECOVERY_BUBBLE",
	                                 "ifu_req | ifu_miss"};
	const uint64_t cycles = 20000000;
	for (unsigned pi = 0; pi < 2; pi++) {
		const char *pname = pi ? "phased" : "l3-bound";
		struct hpm_evlist l = {0};
		struct hpm_backend_inst *hl = NULL;
		struct hpm_emu_config c = config(pname, cycles);
		struct dreq r[8];
		uint64_t want[8], mc, mi;
		unsigned n = sizeof(ev) / sizeof(ev[0]);
		for (unsigned i = 0; i < n; i++) {
			unsigned k = add_kmh(&l, ev[i], -1);
			r[i].value = l.ev[k].enc.value;
			r[i].bank = l.ev[k].enc.constraint;
		}
		unsigned cy = add_fixed(&l, "cycles", KMH_FIXED_MCYCLE);
		unsigned in = add_fixed(&l, "instructions", KMH_FIXED_MINSTRET);
		c.seed = 7;
		tap_ok(emu_run_whole(&l, &c, &hl, err, sizeof(err)) == 0,
		       "%s: open, enable, advance(0), read", pname);
		direct(profile(pname), 7, r, n, cycles, 0, want, NULL, &mc, &mi);
		bool same = true;
		for (unsigned i = 0; i < n; i++) {
			same &= l.ev[i].counts[0].val == want[i];
			if (l.ev[i].counts[0].val != want[i])
				tap_diag("%s: back end %" PRIu64 ", direct %" PRIu64, ev[i],
				         l.ev[i].counts[0].val, want[i]);
		}
		tap_ok(same, "%s seed 7: every count equals the directly programmed emulator's",
		       pname);
		tap_ok(l.ev[cy].counts[0].val == mc && mc == cycles && l.ev[in].counts[0].val == mi,
		       "%s: mcycle %" PRIu64 " and minstret %" PRIu64 " equal the direct run's",
		       pname, l.ev[cy].counts[0].val, l.ev[in].counts[0].val);
		bool acc = true;
		for (unsigned i = 0; i < l.nr; i++)
			acc &= l.ev[i].counts[0].ena == cycles && l.ev[i].counts[0].run == cycles &&
			       l.ev[i].state == HPM_EV_OK;
		tap_ok(acc, "%s: not multiplexed, so ena == run == %" PRIu64 " for every event",
		       pname, cycles);
		tap_ok(hl->nr_units == 1 && !strcmp(hl->unit_names[0], "hart0"), "one unit, hart0");
		be->close(hl);
		hpm_evlist_free(&l);
	}
}

static void test_identities(void)
{
	struct hpm_evlist l = {0};
	struct hpm_backend_inst *hl = NULL;
	struct hpm_emu_config c = config("balanced", 30000000);
	unsigned a = add_kmh(&l, "INST_SPEC", -1), b = add_kmh(&l, "rob_commitInstr", -1);
	unsigned o = add_kmh(&l, "INST_SPEC | rob_commitInstr", -1);
	unsigned n = add_kmh(&l, "INST_SPEC & rob_commitInstr", -1);
	unsigned x = add_kmh(&l, "INST_SPEC ^ rob_commitInstr", -1);
	unsigned fa = add_kmh(&l, "Front_Bubble", -1), fb = add_kmh(&l, "Fetch_Latency_Bound", -1);
	unsigned fo = add_kmh(&l, "Front_Bubble | Fetch_Latency_Bound", -1);
	unsigned fn = add_kmh(&l, "Front_Bubble & Fetch_Latency_Bound", -1);
	unsigned r = add_kmh(&l, "rob_commitInstr", -1);
	unsigned ru = add_kmh(&l, "rob_commitInstr:u", -1);
	unsigned rk = add_kmh(&l, "rob_commitInstr:k", -1);
	tap_ok(emu_run_whole(&l, &c, &hl, err, sizeof(err)) == 0 && !hpm_emu_multiplexed(hl),
	       "balanced: 12 requests, 11 counters, one group");
#define V(i) (l.ev[i].counts[0].val)
	tap_ok(V(o) + V(n) == V(a) + V(b) && V(n) > 0 && V(o) > V(a),
	       "count(a|b) + count(a&b) == count(a) + count(b) exactly (%" PRIu64 " + %" PRIu64
	       " == %" PRIu64 " + %" PRIu64 ")",
	       V(o), V(n), V(a), V(b));
	tap_ok(V(x) == V(o) - V(n), "count(a^b) == count(a|b) - count(a&b) exactly");
	tap_ok(V(fo) + V(fn) == V(fa) + V(fb),
	       "frontend: count(a|b) + count(a&b) == count(a) + count(b) exactly");
	tap_ok(V(ru) + V(rk) == V(r) && V(ru) > 0 && V(rk) > 0,
	       "rob_commitInstr:u + :k == rob_commitInstr exactly (%" PRIu64 " + %" PRIu64
	       " == %" PRIu64 ")",
	       V(ru), V(rk), V(r));
	tap_ok(V(b) == V(r) && l.ev[r].placement && strstr(l.ev[r].placement, "shared with"),
	       "an identical request shares the counter (%s)", l.ev[r].placement);
	be->close(hl);
	hpm_evlist_free(&l);

	struct hpm_evlist m = {0};

	struct hpm_backend_inst *hm = NULL;
	r = add_kmh(&m, "rob_commitInstr", -1);
	unsigned rh = add_kmh(&m, "rob_commitInstr:H", -1);
	unsigned rg = add_kmh(&m, "rob_commitInstr:G", -1);
	unsigned ruh = add_kmh(&m, "rob_commitInstr:uH", -1);
	unsigned rkh = add_kmh(&m, "rob_commitInstr:kH", -1);
	unsigned rm = add_kmh(&m, "rob_commitInstr:m", -1);
	int rc = emu_run_whole(&m, &c, &hm, err, sizeof(err));
	tap_ok(rc == 0 && !hpm_emu_multiplexed(hm), "balanced: the host/guest split, one group");
	tap_ok(m.ev[rh].counts[0].val + m.ev[rg].counts[0].val == m.ev[r].counts[0].val &&
	           m.ev[rg].counts[0].val > 0,
	       "rob_commitInstr:H + :G == rob_commitInstr exactly (the profile runs VU/VS too)");
	tap_ok(m.ev[ruh].counts[0].val + m.ev[rkh].counts[0].val == m.ev[rh].counts[0].val,
	       "rob_commitInstr:uH + :kH == :H exactly");
	tap_ok(m.ev[rm].counts[0].val == 0,
	       "rob_commitInstr:m counts nothing: the profile never runs M-mode");
#undef V
	be->close(hm);
	hpm_evlist_free(&m);
}

/* n backend events the profile produces, as BANK:INDEX. */
static void add_produced(struct hpm_evlist *l, const char *pname, unsigned skip, unsigned n)
{
	const struct emu_profile *p = emu_profile_find(pname, err, sizeof(err));
	char buf[32];
	for (unsigned i = 1; n && i < kmh_table_v2.banks[KMH_BANK_BACKEND].nr_events; i++) {
		if (!emu_profile_produces(p, KMH_BANK_BACKEND, i))
			continue;
		if (skip) {
			skip--;
			continue;
		}
		snprintf(buf, sizeof(buf), "backend:%u", i);
		add_kmh(l, buf, -1);
		n--;
	}
}

/* The Topdown level-3 event set, unmerged (10 backend events: 2 groups). */
static const char *const topdown3[] = {"Front_Bubble",     "Fetch_Latency_Bound", "rob_commitInstr",
                                       "INST_SPEC",        "RECOVERY_BUBBLE",     "BR_MIS_PRED",
                                       "TOTAL_FLUSH",      "EXEC_STALL_CYCLE",    "MEMSTALL_STORE",
                                       "MEMSTALL_L1MISS",  "MEMSTALL_L2MISS",     "MEMSTALL_L3MISS",
                                       "MEMSTALL_ANY_LOAD"};
#define NTD (sizeof(topdown3) / sizeof(topdown3[0]))

static void test_mux(const char *pname, uint64_t cycles, uint64_t quantum)
{
	struct hpm_evlist l = {0};
	struct hpm_backend_inst *hl = NULL;
	struct hpm_emu_config c = config(pname, cycles);
	struct dreq r[NTD];
	uint64_t want[NTD], *perq[NTD];
	uint64_t nq = cycles / quantum;
	c.quantum = quantum;
	for (unsigned i = 0; i < NTD; i++) {
		unsigned k = add_kmh(&l, topdown3[i], -1);
		r[i].value = l.ev[k].enc.value;
		r[i].bank = l.ev[k].enc.constraint;
		perq[i] = calloc(nq + 1, sizeof(uint64_t));
	}
	unsigned cy = add_fixed(&l, "cycles", KMH_FIXED_MCYCLE);
	tap_ok(emu_run_whole(&l, &c, &hl, err, sizeof(err)) == 0 && hpm_emu_multiplexed(hl),
	       "%s, quantum %" PRIu64 ": Topdown level 3 multiplexes", pname, quantum);
	direct(profile(pname), 1, r, NTD, cycles, quantum, want, perq, NULL, NULL);

	struct hpm_emu_info info;
	hpm_emu_info(hl, &info);
	const unsigned G = info.nr_groups;
	bool within = true, accounting = true;
	double worst = 0, worst_bound = 0;
	for (unsigned i = 0; i < NTD; i++) {
		const struct hpm_count *k = &l.ev[i].counts[0];
		double got = scaled(k), truth = (double)want[i];
		/* placement tells the group */
		bool always = strstr(l.ev[i].placement, "every group") != NULL;
		if (always) {
			within &= k->val == want[i];
			accounting &= k->run == k->ena;
			continue;
		}
		int g = -1;
		const char *gp = strstr(l.ev[i].placement, "group ");
		if (gp)
			g = atoi(gp + 6);
		accounting &= g >= 0 && k->run == hpm_emu_group_run(hl, (unsigned)g) &&
		              k->ena == cycles && (uint64_t)G * k->run == k->ena;
		double var = 0;
		for (uint64_t rd = 0; rd + G <= nq; rd += G) {
			double mean = 0;
			for (unsigned j = 0; j < G; j++)
				mean += (double)perq[i][rd + j];
			mean /= G;
			for (unsigned j = 0; j < G; j++)
				var += ((double)perq[i][rd + j] - mean) *
				       ((double)perq[i][rd + j] - mean);
		}
		var *= G;
		double bound = 6 * sqrt(var) + 1;
		double dev = fabs(got - truth);
		if (dev > bound) {
			within = false;
			tap_diag("%s: scaled %.0f true %.0f: off by %.0f, bound %.0f", topdown3[i],
			         got, truth, dev, bound);
		}
		tap_diag("%s %s q=%" PRIu64 ": group %d, scaled %.0f, true %.0f, error %.3f%%, "
		         "6-sigma bound %.3f%%",
		         pname, topdown3[i], quantum, g, got, truth, 100 * dev / truth,
		         100 * bound / truth);
		if (truth > 0 && dev / truth > worst)
			worst = dev / truth;
		if (truth > 0 && bound / truth > worst_bound)
			worst_bound = bound / truth;
	}
	tap_ok(within,
	       "%s, quantum %" PRIu64 ": multiplexed scaled totals within 6 sigma of the "
	       "unmultiplexed ones (worst error %.3f%%, worst bound %.3f%%)",
	       pname, quantum, 100 * worst, 100 * worst_bound);
	tap_ok(accounting && l.ev[cy].counts[0].run == cycles,
	       "%s: run/ena = 1/%u for rotated events (whole rounds), 1 for always-counted "
	       "and fixed ones",
	       pname, G);
	tap_ok(info.rotations == nq, "%s: %" PRIu64 " rotations, one per quantum", pname,
	       info.rotations);
	for (unsigned i = 0; i < NTD; i++)
		free(perq[i]);
	be->close(hl);
	hpm_evlist_free(&l);
}

/* Every profile's Topdown level 3 from multiplexed, scaled counts (the
 * merged set a metric asks for: 9 backend requests, 2 groups) within 0.5
 * percentage points of the profile's declaration over 1e8 cycles. Measured
 * worst: about 0.2 points (phased) at 1e8 cycles, 0.04 at 1e9. A profile
 * with a task schedule is left out: its harts run the schedule (idle time,
 * tasks that start and exit), whose breakdown is not the declared one of
 * every task running all the time (tests/emu-tasks checks those). */
static void test_topdown_declared(void)
{
	static const char *const ev[] = {"Front_Bubble",     "Fetch_Latency_Bound",
	                                 "rob_commitInstr",  "INST_SPEC + RECOVERY_BUBBLE",
	                                 "BR_MIS_PRED",      "TOTAL_FLUSH",
	                                 "EXEC_STALL_CYCLE", "MEMSTALL_STORE",
	                                 "MEMSTALL_L1MISS",  "MEMSTALL_L2MISS",
	                                 "MEMSTALL_L3MISS",  "MEMSTALL_ANY_LOAD"};
	for (unsigned pi = 0; pi < emu_profile_count(); pi++) {
		const struct emu_profile *p = emu_profile_at(pi);
		if (emu_profile_nr_tasks(p))
			continue;
		struct hpm_evlist l = {0};
		struct hpm_backend_inst *hl = NULL;
		struct hpm_emu_config c = config(emu_profile_name(p), 100000000);
		double v[13];
		for (unsigned i = 0; i < 12; i++)
			add_kmh(&l, ev[i], -1);
		add_fixed(&l, "cycles", KMH_FIXED_MCYCLE);
		int rc = emu_run_whole(&l, &c, &hl, err, sizeof(err));
		bool mux = hpm_emu_multiplexed(hl);
		for (unsigned i = 0; i < 13; i++)
			v[i] = hpm_evsel_value(&l, &l.ev[i], -1, NULL);
		double C = v[12], S = 6 * C;
		double ret = v[2] / S, fe = v[0] / S, bs = (v[3] - v[2]) / S,
		       bk = 1 - (fe + bs + ret);
		double fl = v[1] / C, br = v[5] > 0 ? bs * v[4] / v[5] : (double)NAN;
		double got[15] = {ret,
		                  fe,
		                  bs,
		                  bk,
		                  fl,
		                  fe - fl,
		                  br,
		                  bs - br,
		                  (v[6] - v[11] - v[7]) / C,
		                  (v[11] + v[7]) / C,
		                  (v[11] - v[8]) / C,
		                  (v[8] - v[9]) / C,
		                  (v[9] - v[10]) / C,
		                  v[10] / C,
		                  v[7] / C};
		struct emu_topdown d;
		emu_profile_declared(p, &d);
		double want[15] = {d.retiring,
		                   d.frontend,
		                   d.bad_spec,
		                   d.backend,
		                   d.fetch_latency,
		                   d.fetch_bandwidth,
		                   d.branch_mispredict,
		                   d.machine_clears,
		                   d.core_bound,
		                   d.memory_bound,
		                   d.l1,
		                   d.l2,
		                   d.l3,
		                   d.dram,
		                   d.store};
		double worst = 0;
		bool ok = rc == 0 && mux;
		for (unsigned k = 0; k < 15; k++) {
			if (isnan(want[k])) {
				ok &= isnan(got[k]);
				continue;
			}
			double dv = fabs(got[k] - want[k]);
			worst = dv > worst ? dv : worst;
		}
		tap_ok(ok && worst <= 0.005,
		       "%s: multiplexed Topdown level 3 within 0.5 points of the declaration "
		       "(worst %.3f)",
		       emu_profile_name(p), 100 * worst);
		be->close(hl);
		hpm_evlist_free(&l);
	}
}

static void test_three_groups(void)
{
	struct hpm_evlist l = {0};
	struct hpm_backend_inst *hl = NULL;
	struct hpm_emu_config c = config("balanced", 10000000);
	add_produced(&l, "balanced", 0, 17);
	tap_ok(emu_run_whole(&l, &c, &hl, err, sizeof(err)) == 0, "17 backend events: run");
	struct hpm_emu_info info;
	hpm_emu_info(hl, &info);
	uint64_t q = info.quantum, sum = 0;
	bool shares = true;
	for (unsigned g = 0; g < info.nr_groups; g++) {
		uint64_t run = hpm_emu_group_run(hl, g);
		sum += run;
		/* 100 quanta over 3 groups: 33 whole rounds and one quantum */
		shares &= run == 33 * q || run == 34 * q;
	}
	tap_ok(info.nr_groups == 3 && shares && sum == 10000000 && info.rotations == 100,
	       "3 groups over 100 quanta: each ran 33 or 34 quanta, together all %" PRIu64
	       " cycles",
	       sum);
	bool ok = true;
	for (unsigned i = 0; i < l.nr; i++) {
		const char *gp = strstr(l.ev[i].placement, "group ");
		unsigned g = gp ? (unsigned)atoi(gp + 6) : 99;
		ok &= l.ev[i].counts[0].run == hpm_emu_group_run(hl, g) &&
		      l.ev[i].counts[0].ena == 10000000;
	}
	tap_ok(ok, "every event's run is its group's active time, ena the whole run");
	be->close(hl);
	hpm_evlist_free(&l);
}

static void test_not_modelled(void)
{
	struct hpm_evlist l = {0};
	struct hpm_backend_inst *hl = NULL;
	struct hpm_emu_config c = config("balanced", 1000000);
	add_produced(&l, "balanced", 1, 7);
	unsigned nm = add_kmh(&l, "rename_stall_cycle_fp", -1);
	unsigned mix = add_kmh(&l, "rob_commitInstr | rename_stall_cycle_vec", -1);
	unsigned ok = add_kmh(&l, "rob_commitInstr", -1);
	unsigned raw = add_kmh(&l, "r4000000000000035", -1);
	unsigned host = add_host(&l, "task-clock");
	tap_ok(emu_run_whole(&l, &c, &hl, err, sizeof(err)) == 0,
	       "a list with not-modelled events runs");
	tap_ok(l.ev[nm].state == HPM_EV_NOT_MODELLED &&
	           strstr(l.ev[nm].placement, "does not produce backend:rename_stall_cycle_fp"),
	       "an event the profile does not produce: <not modelled> (%s)", l.ev[nm].placement);
	tap_ok(l.ev[mix].state == HPM_EV_NOT_MODELLED,
	       "an expression using one such event: <not modelled>");
	tap_ok(l.ev[ok].state == HPM_EV_OK && l.ev[ok].counts[0].val > 0, "the others count");
	tap_ok(l.ev[raw].state == HPM_EV_NOT_SUPPORTED && strstr(l.ev[raw].placement, "no bank"),
	       "a raw value without bank: <not supported> (%s)", l.ev[raw].placement);
	tap_ok(!hpm_emu_multiplexed(hl), "not-modelled events take no counter: 8 backend "
	                                 "requests, one group");
	tap_ok(l.ev[host].state == HPM_EV_OK && l.ev[host].placement == NULL,
	       "a host event is left to perf");
	be->close(hl);
	hpm_evlist_free(&l);
}

static void test_harts(void)
{
	struct hpm_evlist l = {0};
	struct hpm_backend_inst *hl = NULL;
	struct hpm_emu_config c = config("balanced", 2000000);
	struct dreq r[2];
	c.harts = 3;
	unsigned a = add_kmh(&l, "rob_commitInstr", -1), b = add_kmh(&l, "MEMSTALL_L1MISS", -1);
	r[0].value = l.ev[a].enc.value;
	r[0].bank = l.ev[a].enc.constraint;
	r[1].value = l.ev[b].enc.value;
	r[1].bank = l.ev[b].enc.constraint;
	tap_ok(emu_run_whole(&l, &c, &hl, err, sizeof(err)) == 0 && hl->nr_units == 3 &&
	           hpm_emu_harts(hl) == 3,
	       "3 harts: 3 units");
	tap_ok(!strcmp(hl->unit_names[0], "hart0") && !strcmp(hl->unit_names[2], "hart2"),
	       "units named hart0..hart2");
	bool same = true;
	for (unsigned h = 0; h < 3; h++) {
		uint64_t want[2];
		direct(profile("balanced"), 1 + h, r, 2, 2000000, 0, want, NULL, NULL, NULL);
		same &= l.ev[a].counts[h].val == want[0] && l.ev[b].counts[h].val == want[1];
	}
	tap_ok(same, "hart h counts what a one-hart machine with seed 1 + h counts");
	tap_ok(l.ev[a].counts[0].val != l.ev[a].counts[1].val,
	       "harts differ (%" PRIu64 " vs %" PRIu64 ")", l.ev[a].counts[0].val,
	       l.ev[a].counts[1].val);
	be->close(hl);
	hpm_evlist_free(&l);
}

/* A multiplexed list (9 backend events), rotating every 1000 cycles. */
static void mux_list(struct hpm_evlist *l)
{
	add_produced(l, "balanced", 0, 9);
	add_fixed(l, "cycles", KMH_FIXED_MCYCLE);
}

static void test_advance(void)
{
	struct hpm_evlist a = {0}, b = {0};
	struct hpm_backend_inst *ha = NULL, *hb = NULL;
	struct hpm_emu_config c = config("balanced", 1000000000);
	bool done = true;
	c.freq = 12345678;
	c.quantum = 1000;
	mux_list(&a);
	mux_list(&b);
	tap_ok(be->open(&a, NULL, 0, NULL, &c, &ha, err, sizeof(err)) == 0 &&
	           be->open(&b, NULL, 0, NULL, &c, &hb, err, sizeof(err)) == 0,
	       "two sessions at once");
	be->enable(ha, err, sizeof(err));
	be->enable(hb, err, sizeof(err));
	for (unsigned i = 0; i < 10000; i++) {
		be->advance(ha, 777, &done, err, sizeof(err));
		if (i % 1000 == 0) /* reading must not disturb counting */
			be->read(ha, err, sizeof(err));
	}
	be->advance(hb, 7770000, &done, err, sizeof(err));
	be->read(ha, err, sizeof(err));
	be->read(hb, err, sizeof(err));
	/* 7.77 ms at 12345678 Hz: 95925.9 cycles; without the carry each 777 ns
	 * step would run 9 cycles, 90000 in all */
	tap_is_u64(hpm_emu_cycles_run(ha), 95925, "10000 x advance(777 ns) at 12345678 Hz");
	tap_is_u64(hpm_emu_cycles_run(hb), 95925, "1 x advance(7770000 ns)");
	bool same = true;
	for (unsigned i = 0; i < a.nr; i++)
		same &= a.ev[i].counts[0].val == b.ev[i].counts[0].val &&
		        a.ev[i].counts[0].ena == b.ev[i].counts[0].ena &&
		        a.ev[i].counts[0].run == b.ev[i].counts[0].run;
	tap_ok(same && !done, "small steps give the same val/ena/run as one big step, "
	                      "rotating every 1000 cycles");
	be->close(ha);
	be->close(hb);
	hpm_evlist_free(&a);
	hpm_evlist_free(&b);

	/* the end of --emu-cycles */
	struct hpm_evlist l = {0};
	struct hpm_backend_inst *hl = NULL;
	c = config("balanced", 1000);
	c.freq = 1000000000; /* 1 cycle per ns */
	add_fixed(&l, "cycles", KMH_FIXED_MCYCLE);
	be->open(&l, NULL, 0, NULL, &c, &hl, err, sizeof(err));
	be->advance(hl, 100, &done, err, sizeof(err)); /* before enable: not counted */
	be->enable(hl, err, sizeof(err));
	be->advance(hl, 600, &done, err, sizeof(err));
	tap_ok(!done && hpm_emu_cycles_run(hl) == 700, "advance(600 ns) at 1 GHz: 600 cycles");
	be->advance(hl, 600, &done, err, sizeof(err));
	tap_ok(done && hpm_emu_cycles_run(hl) == 1000, "the next advance stops at --emu-cycles "
	                                               "and sets done");
	be->advance(hl, 0, &done, err, sizeof(err));
	be->read(hl, err, sizeof(err));
	tap_ok(done && hpm_emu_cycles_run(hl) == 1000 && l.ev[0].counts[0].val == 900 &&
	           l.ev[0].counts[0].ena == 900,
	       "after the end nothing runs; the 100 cycles before enable were not counted "
	       "(mcycle %" PRIu64 ")",
	       l.ev[0].counts[0].val);
	be->close(hl);
	hpm_evlist_free(&l);

	/* following a command's wall time */
	struct hpm_evlist w = {0};
	struct hpm_backend_inst *hw = NULL;
	struct hpm_target t = {.pid = 4242, .cpu_list = NULL};
	c = config("balanced", 1000);
	c.freq = 1000000000;
	add_fixed(&w, "cycles", KMH_FIXED_MCYCLE);
	be->open(&w, NULL, 0, &t, &c, &hw, err, sizeof(err));
	be->enable(hw, err, sizeof(err));
	be->advance(hw, 0, &done, err, sizeof(err));
	tap_ok(!done && hpm_emu_cycles_run(hw) == 0, "with a command, advance(0) runs nothing");
	be->advance(hw, 5000, &done, err, sizeof(err));
	struct hpm_emu_info info;
	hpm_emu_info(hw, &info);
	tap_ok(!done && info.cycles_run == 5000 && info.follows_command && !info.cycles_limit,
	       "with a command, time is not clipped at --emu-cycles and done is never set");
	be->close(hw);
	hpm_evlist_free(&w);
}

static void test_enable_disable(void)
{
	struct hpm_evlist l = {0};
	struct hpm_backend_inst *hl = NULL;
	struct hpm_emu_config c = config("balanced", 1000000);
	bool done;
	c.freq = 1000000000;
	c.quantum = 1000;
	mux_list(&l);
	be->open(&l, NULL, 0, NULL, &c, &hl, err, sizeof(err));
	be->enable(hl, err, sizeof(err));
	be->advance(hl, 300000, &done, err, sizeof(err));
	be->disable(hl, err, sizeof(err));
	be->read(hl, err, sizeof(err));
	uint64_t v0 = l.ev[0].counts[0].val, c0 = l.ev[9].counts[0].val;
	be->advance(hl, 300000, &done, err, sizeof(err));
	be->read(hl, err, sizeof(err));
	tap_ok(l.ev[0].counts[0].val == v0 && l.ev[9].counts[0].val == c0 && c0 == 300000 &&
	           l.ev[9].counts[0].ena == 300000,
	       "disabled: cycles run but nothing counts");
	be->enable(hl, err, sizeof(err));
	be->advance(hl, 0, &done, err, sizeof(err));
	be->read(hl, err, sizeof(err));
	tap_ok(done && l.ev[9].counts[0].val == 700000 && l.ev[9].counts[0].ena == 700000 &&
	           l.ev[0].counts[0].val >= v0,
	       "enabled again: counting resumes (mcycle %" PRIu64 ")", l.ev[9].counts[0].val);
	uint64_t runs = 0;
	for (unsigned g = 0; g < 2; g++)
		runs += hpm_emu_group_run(hl, g);
	tap_ok(runs == 700000, "group run times add up to the enabled time");
	be->close(hl);
	hpm_evlist_free(&l);
}

static void test_dry_run(void)
{
	struct hpm_evlist l = {0};
	struct hpm_emu_config c = config(NULL, 0);
	add_kmh(&l, "rob_commitInstr", -1);
	add_kmh(&l, "INST_SPEC + RECOVERY_BUBBLE", -1);
	add_kmh(&l, "Front_Bubble", -1);
	add_kmh(&l, "rename_stall_cycle_fp", -1);
	add_fixed(&l, "cycles", KMH_FIXED_MCYCLE);
	char *t = emu_run_dry(&l, &c, err, sizeof(err));
	tap_ok(t != NULL, "dry run");
	if (!t)
		t = calloc(1, 1);
	tap_diag("dry run output:\n%s", t);
	tap_ok(strstr(t, "emu: profile balanced, seed 1, 1 hart, 1000000000 cycles\n") != NULL,
	       "dry run: source line with the defaults");
	tap_ok(
	    strstr(t, "rob_commitInstr: hart0 csrw mhpmevent11 0x4000000000000035 (group 0)\n") !=
	        NULL,
	    "dry run: rob_commitInstr: hart0 csrw mhpmevent11 0x4000000000000035 (group 0)");
	tap_ok(strstr(t, "INST_SPEC + RECOVERY_BUBBLE: hart0 csrw mhpmevent12 0x4000040000002007 "
	                 "(group 0)\n") != NULL,
	       "dry run: the ADD on mhpmevent12");
	tap_ok(strstr(t, "Front_Bubble: hart0 csrw mhpmevent3 0x4000000000000015 (group 0)\n") !=
	           NULL,
	       "dry run: frontend on mhpmevent3");
	tap_ok(strstr(t, "cycles: hart0 mcycle (fixed counter, always counted)\n") != NULL,
	       "dry run: mcycle line");
	tap_ok(strstr(t, "rename_stall_cycle_fp: <not modelled>: profile balanced does not "
	                 "produce backend:rename_stall_cycle_fp\n") != NULL,
	       "dry run: not-modelled line");
	tap_ok(
	    strstr(t, "emu: hart0 csrw mcountinhibit 0xfffffffd (stop every counter)\n") &&
	        strstr(t, "emu: hart0 csrc mcountinhibit 0x0000180d (enable: mcycle, minstret, "
	                  "mhpmcounter3,11-12)\n") &&
	        strstr(t,
	               "emu: hart0 csrw mhpmeventN 0 for N = 4-10,13-31 (no event in group 0)\n") &&
	        strstr(t, "emu: hart0 csrw mhpmcounterN 0 for N = 3-31; csrw mcycle 0; csrw "
	                  "minstret 0\n"),
	    "dry run: the mcountinhibit writes and the zeroing");
	tap_ok(l.ev[0].counts == NULL && l.ev[0].placement == NULL, "dry run changes no evsel");
	free(t);

	struct hpm_evlist m = {0};
	c.harts = 4;
	mux_list(&m);
	t = emu_run_dry(&m, &c, err, sizeof(err));
	if (!t)
		t = calloc(1, 1);
	char w0[128], w8[128];
	snprintf(w0, sizeof(w0), "%s: hart0-3 csrw mhpmevent11 0x%016" PRIx64 " (group 0)\n",
	         m.ev[0].name, m.ev[0].enc.value);
	snprintf(w8, sizeof(w8), "%s: hart0-3 csrw mhpmevent11 0x%016" PRIx64 " (group 1)\n",
	         m.ev[8].name, m.ev[8].enc.value);
	tap_ok(strstr(t, w0) && strstr(t, w8) && strstr(t, "emu: 2 multiplex groups"),
	       "dry run, 4 harts, multiplexed: group numbers and the rotation");
	free(t);
	hpm_evlist_free(&l);
	hpm_evlist_free(&m);
}

static void test_trace(void)
{
	char path[] = "/tmp/hpmstat-emu-trace-XXXXXX";
	int fd = mkstemp(path);
	static const char text[] = "hpmstat-emu-trace 1\n"
	                           "# two lines: 10 cycles in HU, 5 in HS\n"
	                           "10 HU 3 backend:53=3 backend:7=4\n"
	                           "5 HS 1 backend:53=1\n";
	if (fd < 0 || write(fd, text, sizeof(text) - 1) != (ssize_t)(sizeof(text) - 1))
		abort();
	close(fd);

	struct hpm_evlist l = {0};

	struct hpm_backend_inst *hl = NULL;
	struct hpm_emu_config c = config(NULL, 0);
	c.trace = path;
	unsigned r = add_kmh(&l, "rob_commitInstr", -1), ru = add_kmh(&l, "rob_commitInstr:u", -1);
	unsigned s = add_kmh(&l, "INST_SPEC", -1), other = add_kmh(&l, "rename_stall_cycle_fp", -1);
	unsigned cy = add_fixed(&l, "cycles", KMH_FIXED_MCYCLE);
	unsigned in = add_fixed(&l, "instructions", KMH_FIXED_MINSTRET);
	tap_ok(emu_run_whole(&l, &c, &hl, err, sizeof(err)) == 0,
	       "trace: runs for its own length by default");
	tap_ok(l.ev[r].counts[0].val == 35 && l.ev[ru].counts[0].val == 30 &&
	           l.ev[s].counts[0].val == 40 && l.ev[cy].counts[0].val == 15 &&
	           l.ev[in].counts[0].val == 35,
	       "trace: 10x3 + 5x1 = 35, :u 30, INST_SPEC 40, 15 cycles, 35 instructions");
	tap_ok(l.ev[other].state == HPM_EV_OK && l.ev[other].counts[0].val == 0,
	       "trace: every event is modelled (unlisted ones deliver 0)");
	tap_ok(hpm_emu_profile_name(hl) == NULL && !strcmp(hpm_emu_trace_path(hl), path),
	       "trace: labelled with its path, no profile");
	be->close(hl);
	hpm_evlist_free(&l);

	struct hpm_evlist m = {0};

	struct hpm_backend_inst *hm = NULL;
	c.cycles = 157; /* 10 loops and 7 cycles of the first line */
	c.harts = 2;
	r = add_kmh(&m, "rob_commitInstr", -1);
	int rc = emu_run_whole(&m, &c, &hm, err, sizeof(err));
	tap_ok(rc == 0 && m.ev[r].counts[0].val == 350 + 21 && m.ev[r].counts[1].val == 371,
	       "trace: looped when --emu-cycles is longer, on every hart (%" PRIu64 ")",
	       m.ev[r].counts[0].val);
	be->close(hm);
	hpm_evlist_free(&m);
	unlink(path);
}

static void test_errors(void)
{
	struct hpm_evlist l = {0};
	struct hpm_backend_inst *hl = NULL;
	struct hpm_emu_config c = config("no-such-profile", 1000);
	add_kmh(&l, "rob_commitInstr", -1);
	tap_ok(be->open(&l, NULL, 0, NULL, &c, &hl, err, sizeof(err)) < 0 &&
	           strstr(err, "unknown profile"),
	       "unknown profile: %s", err);
	c = config("balanced", 1000);
	c.trace = "/nonexistent";
	tap_ok(be->open(&l, NULL, 0, NULL, &c, &hl, err, sizeof(err)) < 0 && strstr(err, "exclude"),
	       "profile and trace: %s", err);
	c = config(NULL, 1000);
	c.trace = "/nonexistent/trace";
	tap_ok(be->open(&l, NULL, 0, NULL, &c, &hl, err, sizeof(err)) < 0 &&
	           strstr(err, "/nonexistent/trace"),
	       "missing trace: %s", err);
	c = config(NULL, 1000);
	c.harts = 0;
	tap_ok(be->open(&l, NULL, 0, NULL, &c, &hl, err, sizeof(err)) < 0 &&
	           strstr(err, "--emu-harts"),
	       "0 harts: %s", err);
	c = config(NULL, 1000);
	c.freq = 0;
	tap_ok(be->open(&l, NULL, 0, NULL, &c, &hl, err, sizeof(err)) < 0 &&
	           strstr(err, "--emu-freq"),
	       "0 Hz: %s", err);
	c = config(NULL, 1000);
	struct hpm_backend_inst *again = NULL;
	tap_ok(be->open(&l, NULL, 0, NULL, &c, &hl, err, sizeof(err)) == 0 &&
	           be->open(&l, NULL, 0, NULL, &c, &again, err, sizeof(err)) == -EBUSY && !again,
	       "a second open of the same list: %s", err);
	be->close(hl);
	hl = NULL; /* what the caller holds after close */
	tap_ok(!hpm_emu_info(hl, &(struct hpm_emu_info){0}) && hpm_emu_harts(hl) == 0,
	       "after close the accessors report nothing");
	hpm_evlist_free(&l);

	struct hpm_evlist g = {0};

	struct hpm_backend_inst *hg = NULL;
	char buf[32];
	for (unsigned i = 1; i <= 9; i++) {
		snprintf(buf, sizeof(buf), "backend:%u", i);
		add_kmh(&g, buf, 0);
	}
	g.nr_groups = 1;
	tap_ok(be->open(&g, NULL, 0, NULL, &c, &hg, err, sizeof(err)) < 0 && strstr(err, "only 8"),
	       "a {...} group of 9 backend events: %s", err);
	tap_ok(be->dry_run(&g, NULL, 0, NULL, &c, stdout, err, sizeof(err)) < 0,
	       "dry run refuses it too");
	hpm_evlist_free(&g);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Not a timed test: the figure for the report. HPM_EMU_BENCH_CYCLES=1e9
 * measures what issue 4's benchmark asks. */
static void bench(void)
{
	const char *env = getenv("HPM_EMU_BENCH_CYCLES");
	uint64_t cycles = env ? (uint64_t)strtod(env, NULL) : 100000000;
	const char *pname = getenv("HPM_EMU_BENCH_PROFILE");
	struct hpm_evlist l = {0};
	struct hpm_backend_inst *hl = NULL;
	struct hpm_emu_config c = config(pname ? pname : "balanced", cycles);
	for (unsigned i = 0; i < NTD; i++)
		add_kmh(&l, topdown3[i], -1);
	add_fixed(&l, "cycles", KMH_FIXED_MCYCLE);
	double t0 = now();
	int rc = emu_run_whole(&l, &c, &hl, err, sizeof(err));
	double t1 = now();
	tap_ok(rc == 0, "Topdown level 3 over %" PRIu64 " cycles (%s): %.3f s wall, %.2e cycles/s",
	       cycles, c.profile, t1 - t0, (double)cycles / (t1 - t0));
	be->close(hl);
	hpm_evlist_free(&l);
}

int main(void)
{
	if (getenv("HPM_EMU_BENCH_ONLY")) {
		bench();
		return tap_done();
	}
	test_direct();
	test_identities();
	test_mux("balanced", 100000000, HPM_EMU_DEFAULT_QUANTUM);
	test_mux("phased", 100000000, HPM_EMU_DEFAULT_QUANTUM);
	test_mux("phased", 100000000, 1000000);
	test_topdown_declared();
	test_three_groups();
	test_not_modelled();
	test_harts();
	test_advance();
	test_enable_disable();
	test_dry_run();
	test_trace();
	test_errors();
	bench();
	return tap_done();
}

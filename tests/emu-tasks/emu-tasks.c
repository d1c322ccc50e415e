/* emu-tasks.c: per-task attribution on the emulator (issue 16): the back
 * end (src/backend/emu.c) charges counter deltas to the task switched out
 * at every emulated context switch, as the BPF program does at
 * sched_switch; the machine keeps each task's ground truth. Checked here:
 *  - without multiplexing, the attributed count of every task and row is
 *    its ground truth exactly (reads at switches are exact in an emulator),
 *    and both equal a counter programmed directly (emu.h, not the back end)
 *    and fed the task's own stream for the cycles the task ran: an
 *    independent path to the same number;
 *  - the sum over tasks (the idle task included) is the per-hart total
 *    exactly, multiplexed or not (value, enabled and running);
 *  - a task that exits is accounted until its exit and never after;
 *  - a schedule worked by hand (golden values below).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/emu.h"
#include "kmh/emu/emu.h"
#include "kmh/emu/workload.h"
#include "kmh/kmh.h"
#include "kmh/model.h"
#include "emu-run.h"
#include "tap.h"

static char err[512];

static unsigned add_kmh(struct hpm_evlist *l, const char *expr)
{
	struct hpm_diag kerr;
	struct hpm_evsel *e = hpm_evlist_add(l, expr, -1);
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

static struct hpm_emu_config config(const char *profile, uint64_t cycles, unsigned harts)
{
	struct hpm_emu_config c;
	hpm_emu_config_init(&c);
	c.profile = profile;
	c.cycles = cycles;
	c.harts = harts;
	return c;
}

/* What a counter programmed with row e's event counts over `cycles` cycles
 * of task `task`'s own stream (seeded as the machine seeds it: seed + its
 * hart + pid << 32), on a machine of its own. */
static uint64_t direct_task(const struct emu_profile *p, unsigned task, unsigned hart,
                            uint64_t seed, const struct hpm_evsel *e, uint64_t cycles)
{
	struct emu_task t;
	emu_profile_task(p, task, &t);
	struct emu *emu = emu_new(1);
	struct emu_hart *h = emu_hart(emu, 0);
	unsigned ctr = e->kind == HPM_EV_MODEL_FIXED
	                   ? (e->enc.fixed == KMH_FIXED_MCYCLE ? 0u : 2u)
	                   : kmh_table_v2.banks[e->enc.constraint].first_counter;
	if (ctr >= KMH_FIRST_COUNTER)
		emu_hart_csr_write(h, EMU_MODE_M, EMU_CSR_MHPMEVENT(ctr), e->enc.value);
	struct emu_workload *w =
	    emu_workload_new_task(p, task, seed + hart + ((uint64_t)t.pid << 32));
	for (uint64_t left = cycles; left;) {
		struct emu_run run;
		emu_workload_next(w, left, &run);
		emu_hart_run(h, &run);
		left -= run.cycles;
	}
	uint64_t v = 0;
	emu_hart_csr_read(h, EMU_MODE_M, EMU_CSR_MHPMCOUNTER(ctr), &v);
	emu_workload_free(w);
	emu_forget_source(emu, w);
	emu_free(emu);
	return v;
}

/* The sum over tasks of every row equals the row's total over harts. */
static void check_sums(struct hpm_evlist *l, struct hpm_backend_inst *h,
                       const struct hpm_emu_task *rows, unsigned n, const char *what)
{
	for (unsigned k = 0; k < h->nr_rows; k++) {
		const struct hpm_evsel *e = &l->ev[h->rows[k]];
		struct hpm_count sum = {0}, tot = {0};
		for (unsigned i = 0; i < n; i++) {
			sum.val += rows[i].att[k].val;
			sum.ena += rows[i].att[k].ena;
			sum.run += rows[i].att[k].run;
		}
		for (unsigned u = 0; u < e->nr_units; u++) {
			tot.val += e->counts[u].val;
			tot.ena += e->counts[u].ena;
			tot.run += e->counts[u].run;
		}
		tap_ok(sum.val == tot.val && sum.ena == tot.ena && sum.run == tot.run,
		       "%s: %s: sum over tasks %" PRIu64 " (ena %" PRIu64 ", run %" PRIu64
		       ") = the harts' total %" PRIu64 " (ena %" PRIu64 ", run %" PRIu64 ")",
		       what, e->name, sum.val, sum.ena, sum.run, tot.val, tot.ena, tot.run);
	}
}

/* tasks-mixed on 2 harts, 4e7 cycles each, 5 events on counters of their
 * own (no multiplexing). */
static void test_exact(void)
{
	const uint64_t cycles = 40000000;
	struct hpm_evlist l = {0};
	add_fixed(&l, "cycles", KMH_FIXED_MCYCLE);
	add_fixed(&l, "instructions", KMH_FIXED_MINSTRET);
	add_kmh(&l, "rob_commitInstr");
	add_kmh(&l, "Front_Bubble");
	add_kmh(&l, "MEMSTALL_ANY_LOAD");
	add_kmh(&l, "INST_SPEC | RECOVERY_BUBBLE");
	struct hpm_emu_config c = config("tasks-mixed", cycles, 2);
	struct hpm_backend_inst *h;
	if (!tap_ok(emu_run_whole(&l, &c, &h, err, sizeof(err)) == 0, "tasks-mixed runs")) {
		hpm_evlist_free(&l);
		return;
	}
	tap_ok(!hpm_emu_multiplexed(h), "6 events: no multiplexing");
	const struct hpm_emu_task *rows;
	unsigned n;
	int rc = hpm_emu_tasks(h, &rows, &n);
	tap_ok(rc == 0 && n == 6, "5 tasks and the idle task (rc %d, %u rows)", rc, n);
	const struct emu_profile *p = emu_profile_find("tasks-mixed", err, sizeof(err));
	uint64_t total_cycles = 0;
	for (unsigned i = 0; rc == 0 && i < n; i++) {
		const struct hpm_emu_task *t = &rows[i];
		total_cycles += t->cycles;
		bool exact = true;
		for (unsigned k = 0; k < h->nr_rows; k++) {
			const struct hpm_count *a = &t->att[k];
			if (a->val != t->truth[k] || a->ena != t->cycles || a->run != t->cycles) {
				tap_diag("%s %s: attributed %" PRIu64 " (ena %" PRIu64
				         " run %" PRIu64 "), truth %" PRIu64 " in %" PRIu64
				         " cycles",
				         t->comm, l.ev[h->rows[k]].name, a->val, a->ena, a->run,
				         t->truth[k], t->cycles);
				exact = false;
			}
		}
		tap_ok(exact,
		       "%s (pid %d): attributed = ground truth for every event, ena = run = "
		       "its %" PRIu64 " cycles",
		       t->comm, t->pid, t->cycles);
		if (i + 1 == n) {
			tap_ok(t->pid == 0 && strcmp(t->comm, "swapper") == 0,
			       "the last row is the idle task");
			continue;
		}
		/* the independent path: the task's stream on a counter of its own */
		bool same = true;
		for (unsigned k = 0; k < h->nr_rows; k++) {
			uint64_t d =
			    direct_task(p, i, t->hart_last, c.seed, &l.ev[h->rows[k]], t->cycles);
			if (d != t->truth[k]) {
				tap_diag("%s %s: direct %" PRIu64 ", truth %" PRIu64, t->comm,
				         l.ev[h->rows[k]].name, d, t->truth[k]);
				same = false;
			}
		}
		tap_ok(same, "%s: a counter fed its own stream for its cycles counts its truth",
		       t->comm);
	}
	tap_is_u64(total_cycles, 2 * cycles, "the tasks' cycles add up to the harts' cycles");
	check_sums(&l, h, rows, n, "unmultiplexed");

	/* the declared schedule: parse exits at 3e7 cycles of hart 1 */
	for (unsigned i = 0; rc == 0 && i < n; i++) {
		const struct hpm_emu_task *t = &rows[i];
		if (strcmp(t->comm, "parse") == 0)
			tap_ok(t->exited && !t->running && t->hart_last == 1,
			       "parse exited on hart 1 (exited %d, running %d)", t->exited,
			       t->running);
		if (strcmp(t->comm, "matmul") == 0)
			tap_ok(!t->exited && t->cycles > 0, "matmul started at 2e7 and runs");
	}
	hpm_backend_emu.close(h);
	hpm_evlist_free(&l);
}

/* More events than counters: multiplexed. The attributed values are the
 * deltas of the same reads the totals are made of, so their sums are still
 * exact, and each task's run is below its ena. */
static void test_multiplexed(void)
{
	static const char *const ev[] = {
	    "rob_commitInstr",    "INST_SPEC",         "RECOVERY_BUBBLE",   "BR_MIS_PRED",
	    "TOTAL_FLUSH",        "EXEC_STALL_CYCLE",  "MEMSTALL_STORE",    "MEMSTALL_L1MISS",
	    "MEMSTALL_L2MISS",    "MEMSTALL_L3MISS",   "MEMSTALL_ANY_LOAD", "rob_commitInstr:u",
	    "INST_SPEC:u",        "RECOVERY_BUBBLE:u", "BR_MIS_PRED:u",     "TOTAL_FLUSH:u",
	    "EXEC_STALL_CYCLE:u", "MEMSTALL_STORE:u",  "MEMSTALL_L1MISS:u", "MEMSTALL_L2MISS:u",
	};
	struct hpm_evlist l = {0};
	add_fixed(&l, "cycles", KMH_FIXED_MCYCLE);
	for (unsigned i = 0; i < sizeof(ev) / sizeof(ev[0]); i++)
		add_kmh(&l, ev[i]);
	struct hpm_emu_config c = config("tasks-mixed", 20000000, 2);
	struct hpm_backend_inst *h;
	if (!tap_ok(emu_run_whole(&l, &c, &h, err, sizeof(err)) == 0, "multiplexed run")) {
		hpm_evlist_free(&l);
		return;
	}
	tap_ok(hpm_emu_multiplexed(h), "%zu events: multiplexed", sizeof(ev) / sizeof(ev[0]));
	const struct hpm_emu_task *rows;
	unsigned n;
	if (hpm_emu_tasks(h, &rows, &n) == 0) {
		check_sums(&l, h, rows, n, "multiplexed");
		bool below = false;
		for (unsigned k = 1; k < h->nr_rows; k++)
			below |= rows[0].att[k].run < rows[0].att[k].ena;
		tap_ok(below, "a multiplexed row of task 0 ran less than it was enabled");
	}
	hpm_backend_emu.close(h);
	hpm_evlist_free(&l);
}

/* A schedule worked by hand. Hart 0 runs A (share 1/2, 6 instructions a
 * cycle) and B (share 1/4, 4 a cycle, exits at cycle 5500); the idle task
 * weighs 1 - the runnable tasks' shares. Slices of 1000 cycles; smooth
 * weighted round robin: at each slice every runnable weight (units of 1/4:
 * A 2, B 1, idle 1) is added to its current value, the largest runs (ties:
 * A, then B, then idle) and gives back the total (4). Current values
 * (A, B, I) after adding, the choice, and its value after giving back:
 *   t=0     2, 1, 1 -> A     A -2
 *   t=1000  0, 2, 2 -> B     B -2
 *   t=2000  2,-1, 3 -> idle  I -1
 *   t=3000  4, 0, 0 -> A     A  0
 *   t=4000  2, 1, 1 -> A     A -2
 *   t=5000  0, 2, 2 -> B     B -2; cut at its exit: 500 cycles
 * B has exited: idle weighs 4 - 2 = 2 (A 2, I 2, total 4):
 *   t=5500  A 2, I 4 -> idle  I 0
 *   t=6500  A 4, I 2 -> A     A 0
 *   t=7500  A 2, I 4 -> idle  I 0
 *   t=8500  A 4, I 2 -> A     A 0
 *   t=9500  A 2, I 4 -> idle  (500 cycles: the run ends at 10000)
 * Totals over 10000 cycles: A 1000 + 2000 + 1000 + 1000 = 5000 cycles,
 * B 1000 + 500 = 1500, idle 1000 + 1000 + 1000 + 500 = 3500 on the hart;
 * instructions (and rob_commitInstr) A 6 x 5000 = 30000, B 4 x 1500 =
 * 6000, idle 0. The idle task is a hart in wfi, whose clock Kunminghu
 * gates: its 3500 cycles are time enabled, and no counter counts in them,
 * mcycle included (cycles 0). B switched out at t=2000 and at its exit. */
static const char golden_profile[] =
    "name = golden\n"
    "description = two tasks, worked by hand\n"
    "task-slice = 1000\n"
    "[cycle six]\ncommit = 6\n"
    "[cycle four]\ncommit = 4\nfused = 1\n"
    "[class six]\nruns = six:10\n"
    "[class four]\nruns = four:10\n"
    "[task A]\npid = 10\nshare = 0.5\nmix = six:1\n"
    "[task B]\npid = 11\nshare = 0.25\nexit = 5500\nmix = four:1\n";

static void test_golden(void)
{
	char path[] = "/tmp/hpmstat-golden-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0 || write(fd, golden_profile, sizeof(golden_profile) - 1) < 0) {
		tap_ok(false, "golden profile written");
		return;
	}
	close(fd);
	struct hpm_evlist l = {0};
	add_fixed(&l, "cycles", KMH_FIXED_MCYCLE);
	add_fixed(&l, "instructions", KMH_FIXED_MINSTRET);
	add_kmh(&l, "rob_commitInstr");
	struct hpm_emu_config c = config(path, 10000, 1);
	struct hpm_backend_inst *h;
	if (tap_ok(emu_run_whole(&l, &c, &h, err, sizeof(err)) == 0, "golden profile runs")) {
		const struct hpm_emu_task *rows;
		unsigned n;
		static const uint64_t cyc[3] = {5000, 1500, 0}, ins[3] = {30000, 6000, 0};
		if (tap_ok(hpm_emu_tasks(h, &rows, &n) == 0 && n == 3, "A, B and idle")) {
			for (unsigned i = 0; i < 3; i++) {
				tap_is_u64(rows[i].att[0].val, cyc[i], "%s: cycles", rows[i].comm);
				tap_is_u64(rows[i].att[1].val, ins[i], "%s: instructions",
				           rows[i].comm);
				tap_is_u64(rows[i].att[2].val, ins[i], "%s: rob_commitInstr",
				           rows[i].comm);
			}
			tap_is_u64(rows[2].att[0].ena, 3500,
			           "idle: 3500 cycles enabled on the hart, none counted");
			tap_ok(rows[1].exited && !rows[0].exited, "B exited, A did not");
			tap_is_u64(rows[1].switches, 2, "B was switched out twice");
		}
		hpm_backend_emu.close(h);
	}
	unlink(path);
	hpm_evlist_free(&l);
}

int main(void)
{
	test_golden();
	test_exact();
	test_multiplexed();
	return tap_done();
}

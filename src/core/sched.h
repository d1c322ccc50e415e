/* sched.h: placing counter requests on a PMU model's counters.
 *
 * Owns: the counter scheduler (which request goes on which counter, in
 * which multiplex group) and the placement text `-v` shows. Pure logic over
 * a model's data and constraint operations (arch/model.h): no emulator, no
 * kernel, no model named. The emulator back end (backend/emu.c) programs
 * what it returns; the --no-multiplex planner (stat/nomux.c) splits a run
 * by its groups.
 *
 * The hardware, as the model describes it: constraint class c (Kunminghu:
 * a bank) may only use counters first..last of constraint_counters(c)
 * (Kunminghu: frontend mhpmcounter3-10, backend 11-18, memblock 19-26,
 * cache 27-31); the ranges of different classes must not overlap, and
 * every counter number is below HPM_SCHED_MAX_COUNTERS. The model's fixed
 * counters (Kunminghu: mcycle 0, minstret 2) are outside the classes and
 * always counted.
 *
 * The rules, in order:
 *  0. A fixed counter that also counts an event (alt_fixed: the model's
 *     fixed_alt, Arm's PMCCNTR_EL0 for CPU_CYCLES) takes the first request
 *     of that event when no request asks for the fixed counter itself, and
 *     every request identical to it (rule 1 shares them), as Linux's
 *     arm_pmuv3 puts CPU_CYCLES on the cycle counter while it is free; the
 *     others of that event stay in their class.
 *  1. Sharing. Requests with the same class and event-select value (the
 *     mode bits included, so x:u and x differ) share one counter: one of
 *     them owns it, the others point at the owner. Inside one perf {...}
 *     group the members share among themselves; an ungrouped request
 *     shares with an identical grouped one (it is then counted exactly
 *     when that group is); two different {...} groups never share, because
 *     each group must be complete in its own multiplex group.
 *  2. Fewest multiplex groups. G = the smallest number of groups into which
 *     every {...} group fits whole (bin packing over the classes, exact
 *     search with a node limit, first-fit-decreasing beyond it) and which
 *     has room for all requests: G >= ceil(requests of class c / counters
 *     of class c) for every c. G == 1 means no multiplexing. A {...} group
 *     that needs more counters of one class than the class has can never
 *     run and is an error that says so.
 *  3. Always-counted classes. When a class's ungrouped requests fit beside
 *     the largest {...} load that class carries in any group, they are
 *     placed on the same counter in every group (mux = HPM_SCHED_ALWAYS):
 *     nothing in that class competes, so nothing there is multiplexed (a
 *     Kunminghu topdown run multiplexes its ten backend events, not its two
 *     frontend ones).
 *  4. Otherwise the ungrouped requests of a class fill the groups in
 *     request order, each group up to the class's counters, after the
 *     {...} groups: events asked for together tend to be counted over the
 *     same windows, which keeps their ratios consistent. Each such request
 *     is in exactly one group.
 * Within a class counters are taken from the lowest number up: always-
 * counted requests first, then the group's own.
 */
#ifndef HPM_CORE_SCHED_H
#define HPM_CORE_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/model.h"

#define HPM_SCHED_ALWAYS       (-1)    /* mux value: counted in every group */
#define HPM_SCHED_MAX_COUNTERS 32u     /* counter numbers 0..31: a set is a uint32_t */
#define HPM_SCHED_MAX_NODES    200000u /* exact bin-packing search budget */

/* One request: a counter of a constraint class (fixed == false) or one of
 * the model's fixed counters. The caller fills the inputs;
 * hpm_sched_build() fills the outputs. */
struct hpm_sched_req {
	/* in */
	bool fixed;             /* one of the model's fixed counters */
	unsigned fixed_counter; /* its counter number (model->fixed[i].counter) when fixed */
	int constraint;         /* the model's class (Kunminghu: the bank) when !fixed */
	uint64_t value;         /* event-select value (struct hpm_event_code.value) when !fixed */
	int group;              /* perf {...} group, -1 none */
	const char *name;       /* for messages only; may be NULL */
	bool alt_fixed;         /* when !fixed: fixed counter alt_counter counts it too (rule 0) */
	unsigned alt_counter;
	/* out */
	bool moved;       /* rule 0 put it on alt_counter: fixed and fixed_counter say so,
	                   * and value is what that counter is programmed with (Arm: the
	                   * filter PMCCFILTR_EL0); a later build starts from !fixed again */
	unsigned counter; /* fixed_counter, or a counter of the class */
	int mux;          /* multiplex group 0..nr_groups-1, or HPM_SCHED_ALWAYS */
	unsigned owner;   /* index of the request that owns the counter (itself if it does) */
};

/* What one multiplex group programs. Indexed by counter number. */
struct hpm_sched_group {
	uint32_t used;                          /* bit n: counter n is programmed */
	uint64_t event[HPM_SCHED_MAX_COUNTERS]; /* event-select value of counter n */
	int owner[HPM_SCHED_MAX_COUNTERS];      /* request index owning counter n, -1 unused */
};

struct hpm_sched {
	const struct hpm_pmu_model *model;
	unsigned nr_groups; /* >= 1 */
	struct hpm_sched_group *groups;
	uint32_t always; /* counters with the same owner in every group: never reprogrammed */
	bool exact;      /* G is proven minimal (false: the search budget ran out) */
};

/* Places req[0..nr-1] on the counters of model m. Returns 0, or -1 with a
 * one-line reason in err (a {...} group that cannot fit, a request with an
 * unknown class, a model whose counters break the rules above). nr may be
 * 0 (one empty group). Free the result with hpm_sched_free(). */
int hpm_sched_build(const struct hpm_pmu_model *m, struct hpm_sched_req *req, unsigned nr,
                    struct hpm_sched *out, char *err, size_t errlen);
void hpm_sched_free(struct hpm_sched *s);

/* Counters that changed owner between groups a and b: the counters a
 * rotation from a to b must stop, read, reprogram and restart. */
uint32_t hpm_sched_changes(const struct hpm_sched *s, unsigned a, unsigned b);

/* The placement of request r for -v and evsel->placement, in the model's
 * names (Kunminghu):
 *   "mhpmcounter11 (0x4000000000000035)"                  one group
 *   "mhpmcounter11 (0x4000000000000035), group 1 of 2"    multiplexed
 *   "mhpmcounter3 (0x4000000000000015), every group"      always counted
 *   "mcycle" / "minstret"                                 fixed
 * with ", shared with NAME" when it shares another request's counter. */
const char *hpm_sched_describe(const struct hpm_sched *s, const struct hpm_sched_req *req,
                               unsigned r, char *buf, size_t len);

#endif

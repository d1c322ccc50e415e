/* sched.h: placing Kunminghu counter requests on the hardware counters.
 *
 * Owns: the counter scheduler (which request goes on which mhpmcounter, in
 * which multiplex group), the ADD merge of two single-event requests, and
 * the placement text `-v` shows. Pure logic: no emulator, no kernel; the
 * emulator back end (src/backend/emu.c) programs what it returns, and the
 * stat layer may use the merge helper before it hands requests over.
 *
 * The hardware (SPEC §1): a counter only sees its own bank; frontend has
 * mhpmcounter3-10, backend 11-18, memblock 19-26, cache 27-31 (8+8+8+5).
 * mcycle (counter 0) and minstret (counter 2) are fixed counters outside
 * the 29 and are always counted.
 *
 * The rules, in order:
 *  1. Sharing. Requests with the same bank and mhpmevent value (INH bits
 *     included, so x:u and x differ) share one counter: one of them owns
 *     it, the others point at the owner. Inside one perf {...} group the
 *     members share among themselves; an ungrouped request shares with an
 *     identical grouped one (it is then counted exactly when that group
 *     is); two different {...} groups never share, because each group must
 *     be complete in its own multiplex group.
 *  2. Fewest multiplex groups. G = the smallest number of groups into which
 *     every {...} group fits whole (bin packing over the four banks, exact
 *     search with a node limit, first-fit-decreasing beyond it) and which
 *     has room for all requests: G >= ceil(requests of bank b / counters of
 *     bank b) for every b. G == 1 means no multiplexing. A {...} group that
 *     needs more counters of one bank than the bank has can never run and
 *     is an error that says so.
 *  3. Always-counted banks. When a bank's ungrouped requests fit beside the
 *     largest {...} load that bank carries in any group, they are placed on
 *     the same counter in every group (mux = HPM_SCHED_ALWAYS): nothing in
 *     that bank competes, so nothing there is multiplexed (a topdown run
 *     multiplexes its ten backend events, not its two frontend ones).
 *  4. Otherwise the ungrouped requests of a bank fill the groups in request
 *     order, each group up to the bank's counters, after the {...} groups:
 *     events asked for together tend to be counted over the same windows,
 *     which keeps their ratios consistent. Each such request is in exactly
 *     one group.
 * Within a bank counters are taken from the lowest number up: always-
 * counted requests first, then the group's own.
 */
#ifndef HPM_STAT_SCHED_H
#define HPM_STAT_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kmh/kmh.h"

#define HPM_SCHED_ALWAYS    (-1) /* mux value: counted in every group */
#define HPM_SCHED_MCYCLE    0u   /* counter numbers of the fixed counters */
#define HPM_SCHED_MINSTRET  2u
#define HPM_SCHED_MAX_NODES 200000u /* exact bin-packing search budget */

/* One request: a bank counter (fixed == false) or a fixed counter. The
 * caller fills the inputs; hpm_sched_build() fills the outputs. */
struct hpm_sched_req {
	/* in */
	bool fixed;             /* mcycle or minstret */
	unsigned fixed_counter; /* HPM_SCHED_MCYCLE or HPM_SCHED_MINSTRET when fixed */
	int bank;               /* enum kmh_bank when !fixed */
	uint64_t value;         /* mhpmevent value when !fixed */
	int group;              /* perf {...} group, -1 none */
	const char *name;       /* for messages only; may be NULL */
	/* out */
	unsigned counter; /* 0 (mcycle), 2 (minstret) or 3..31 */
	int mux;          /* multiplex group 0..nr_groups-1, or HPM_SCHED_ALWAYS */
	unsigned owner;   /* index of the request that owns the counter (itself if it does) */
};

/* What one multiplex group programs. Indexed by counter number (3..31). */
struct hpm_sched_group {
	uint32_t used;      /* bit n: mhpmcounter n is programmed */
	uint64_t event[32]; /* mhpmevent value of counter n */
	int owner[32];      /* request index owning counter n, -1 unused */
};

struct hpm_sched {
	unsigned nr_groups; /* >= 1 */
	struct hpm_sched_group *groups;
	uint32_t always; /* counters with the same owner in every group: never reprogrammed */
	bool exact;      /* G is proven minimal (false: the search budget ran out) */
};

/* Places req[0..nr-1]. Returns 0, or -1 with a one-line reason in err (a
 * {...} group that cannot fit, a request with an unknown bank). nr may be
 * 0 (one empty group). Free the result with hpm_sched_free(). */
int hpm_sched_build(struct hpm_sched_req *req, unsigned nr, struct hpm_sched *out, char *err,
                    size_t errlen);
void hpm_sched_free(struct hpm_sched *s);

/* Counters of mhpmcounter n changed between groups a and b: the counters a
 * rotation from a to b must stop, read, reprogram and restart. */
uint32_t hpm_sched_changes(const struct hpm_sched *s, unsigned a, unsigned b);

/* The placement of request r for -v and evsel->placement, e.g.
 *   "mhpmcounter11 (0x4000000000000035)"                  one group
 *   "mhpmcounter11 (0x4000000000000035), group 1 of 2"    multiplexed
 *   "mhpmcounter3 (0x4000000000000015), every group"      always counted
 *   "mcycle" / "minstret"                                 fixed
 * with ", shared with NAME" when it shares another request's counter. */
const char *hpm_sched_describe(const struct hpm_sched *s, const struct hpm_sched_req *req,
                               unsigned r, char *buf, size_t len);

/* Whether two single-event requests can share one counter as the ADD of
 * the two events: both from the same known bank, both counting the same
 * modes, each using exactly one EVENTn slot, and different events (equal
 * requests share a counter by rule 1 instead). The caller must know the
 * per-cycle sum stays below 64 (ADD is modulo 64 in hardware): true of
 * Topdown's slot counts (at most 6 each). */
bool hpm_sched_can_merge(const struct kmh_encoding *a, const struct kmh_encoding *b);
/* Builds the merged encoding: EVENT0 = a's event, EVENT1 = b's, OP_TYPE0 =
 * ADD, OP_TYPE1/2 = OR (so the empty right half adds nothing), the common
 * INH bits; bank, modes, nr_events = 2 and a canonical expression that
 * encodes back to the value. E.g. INST_SPEC + RECOVERY_BUBBLE ->
 * 0x4000040000002007. Returns 0, or -1 when !hpm_sched_can_merge(a, b). */
int hpm_sched_merge(const struct kmh_encoding *a, const struct kmh_encoding *b,
                    struct kmh_encoding *out);

#endif

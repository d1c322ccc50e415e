/* workload.h: workload profiles, a cycle-level model of a 6-wide Kunminghu
 * core that feeds the emulated harts with runs of per-cycle event values.
 *
 * Owns: the profile registry (built-in profiles embedded at build time from
 * profiles/NAME.profile, and profile files loaded by path), the cycle model that
 * turns a profile's cycle definitions into full event vectors, the
 * invariants those vectors obey, the Topdown breakdown each profile declares
 * (and each of its declared functions), and the deterministic stream of
 * struct emu_run (kmh/emu/source.h) with the function and PC of each run.
 *
 * How a stream is made. A profile defines CYCLES (one fixed per-cycle vector
 * of every produced event, e.g. "retire 6", "waiting for DRAM"), CLASSES (a
 * sequence of runs of cycles, each run with a length range: e.g. one cycle
 * that misses the L1 followed by 150..450 cycles stalled on DRAM) and the
 * MIX: the share of all cycles spent in each class, optionally per PHASE
 * (phases follow one another for a fixed number of cycles each, cycling).
 * The stream draws classes at random (xoshiro256** seeded from the seed by
 * splitmix64; Walker's alias table, so a draw is O(1)) with probability
 * share / mean length, so that the cycle share of every class converges to
 * its declared share, and draws each run's length uniformly in its range.
 * Privilege modes are drawn the same way, from a second generator, for
 * stretches of mode-switch cycles; runs are split at mode changes.
 *
 * Declared breakdown. emu_profile_declared() is not typed in by hand: it is
 * computed when the profile is loaded, from the class shares, the mean run
 * lengths and the cycle vectors, with the SPEC §3 formulas applied to the
 * expected event totals. It is therefore exactly what the stream converges
 * to (draw probabilities are exact to 2^-32); measured over 1e8 cycles
 * every node of every built-in profile is within 0.1 percentage point
 * (tests/emu/workload.c requires 0.5).
 *
 * Invariants. Every cycle vector a profile defines is checked when the
 * profile is loaded (a profile that breaks one is refused, with the reason),
 * so they hold in every cycle and therefore in every run and every sum of
 * runs. The list (BANK:EVENT names of kmh.h; ".k" is load pipeline or slice
 * k; "one-hot" means at most one of the occupancy quarters is 1):
 *  frontend  ifu_miss <= ifu_req; ifu_req_cacheline_1 <= ifu_req_cacheline_0
 *            <= ifu_req; ifu_req_cacheline_K_hit <= ifu_req_cacheline_K;
 *            only_0_hit + only_0_miss + hit_0_hit_1 + hit_0_miss_1 +
 *            miss_0_hit_1 + miss_0_miss_1 = ifu_req_cacheline_0, the last
 *            four = ifu_req_cacheline_1; ifu_miss = only_0_miss +
 *            hit_0_miss_1 + miss_0_hit_1 + miss_0_miss_1; icache_miss_bubble =
 *            missed cachelines; itlb_miss <= itlb_access;
 *            BpRight + BpWrong = BpInstr, BpBRight + BpBWrong = BpBInstr,
 *            BpRight = sum of Bp[BJICR]Right, BpWrong = sum of Bp[BJICR]Wrong;
 *            fauftb_commit_hit + fauftb_commit_miss = ftb_commit_hits +
 *            ftb_commit_misses; Front_Bubble <= 6; Fetch_Latency_Bound <= 1
 *            and only when Front_Bubble = 6; IBuffer occupancy one-hot and
 *            IBuffer_full only with IBuffer_4_4_valid.
 *  backend   rob_commitInstr <= INST_SPEC <= 6; RECOVERY_BUBBLE <= 6;
 *            INST_SPEC + RECOVERY_BUBBLE + Front_Bubble <= 6 (so every
 *            Topdown level-1 share is in [0, 1] in every cycle);
 *            BR_MIS_PRED <= TOTAL_FLUSH; EXEC_STALL_CYCLE <= 1;
 *            MEMSTALL_ANY_LOAD + MEMSTALL_STORE <= EXEC_STALL_CYCLE;
 *            MEMSTALL_L3MISS <= MEMSTALL_L2MISS <= MEMSTALL_L1MISS <=
 *            MEMSTALL_ANY_LOAD <= 1; rob_commitInstrLoad + Store + Branch <=
 *            rob_commitInstr; rob_commitUop + rob_commitInstrFused =
 *            rob_commitInstr; BRANCH_JUMP = rob_commitInstrBranch = BpInstr;
 *            BpWrong = BR_MIS_PRED = mispredictRedirect; frontendFlush =
 *            TOTAL_FLUSH; rob_walkCycle = (rob_walkInstr > 0); ROB and
 *            me_freelist occupancy one-hot.
 *  memblock  per load pipeline k: load_s2_in_fire.k <= load_s1_in_fire.k <=
 *            load_s0_in_fire.k, load_s1_tlb_miss.k <= load_s1_in_fire.k,
 *            load_s2_dcache_miss.k <= load_s2_in_fire.k,
 *            load_to_load_forward.k <= load_s0_in_fire.k,
 *            l1D_load_hw_prf_miss.k <= l1D_load_hw_prf_access.k,
 *            l1D_read_dcache_miss.k <= l1D_read_dcache_access.k;
 *            sbuffer_req_fire <= sbuffer_req_valid; sbuffer_merge +
 *            sbuffer_newline = sbuffer_req_fire; dcache_req_fire <=
 *            dcache_req_valid; l1D_write_dcache_miss <=
 *            l1D_write_dcache_access; dtlb_ld_miss <= dtlb_ld_access;
 *            dtlb_st_miss <= dtlb_st_access; replay_tlb_miss +
 *            replay_dcache_miss <= enq.2; sbuffer_idle and the sbuffer
 *            occupancy one-hot together; stq and dcache_missq occupancy
 *            one-hot.
 *  cache     per slice: hit + miss = access; access_rd + access_wr = access;
 *            miss_rd <= miss; miss_rd <= access_rd; rd_refill + wr_refill =
 *            refill <= miss; long_miss <= miss; prefetch_miss <=
 *            prefetch_access; wb_victim <= refill.
 *  every event 0..63, noEvent 0, and run instret = rob_commitInstr.
 *
 * Events the model does not produce (emu_profile_produces() is false, the
 * vals are 0 and mean nothing; a profile may still set them explicitly, and
 * then they are produced by that profile): frontend ftb_false_hit,
 * tage_tht_hit, sc_update_on_mispred, sc_update_on_unconf; backend
 * rename_stall_cycle_fp/vec/v0/vl, std_freelist_*, dispatch_stall_cycle_fp_dq,
 * rob_interrupt_num, rob_exception_num, issueQueue_enq_fire_cnt.1 and .2
 * and every floating-point and vector issue queue _full event; memblock
 * stall_dcache.*, load_replay*.*, sbuffer_flush, sbuffer_replace,
 * mpipe_resp_valid, replay_resp_valid, coh_timeout, deq, deq_block,
 * replay_full, replay_rar_nack, replay_raw_nack, replay_nuke,
 * replay_mem_amb, replay_bank_conflict, replay_dcache_replay,
 * replay_forward_fail, full_mask_*, nuke_rollback, nack_rollback, mmio*,
 * dcache_wbq_*_valid, dcache_mp_total_penalty, dcache_probq_*, every PTW_*
 * but PTW_access; cache Slice*_l2_cache_wb_cleaning_coh and
 * Slice*_l2_cache_inv. The model has no floating point, vector, MMIO,
 * interrupts or coherence traffic, and no reading of those events.
 *
 * The vectors carry each event's own signal; the counters read them as
 * XiangShan's RTL wires them (kmh_event_wire): an event wired to 0 or to
 * another event's signal counts that, whatever its own signal carries. The
 * IssueQueue*_full signals already carry what the RTL counts: 1 in each
 * cycle the queue can accept (the floating-point and vector queues, which
 * the model never fills, in every cycle).
 *
 * The profile file format, the cycle parameters and the built-in profiles
 * are documented in hpmstat-emu-profile(5).
 *
 * Library rules: nothing here prints or exits (out of memory aborts through
 * xalloc). Built-in profiles are parsed on first use and live until exit;
 * that first use is not thread-safe, everything after it is read-only.
 * A workload is used by one thread at a time.
 */
#ifndef HPM_KMH_EMU_WORKLOAD_H
#define HPM_KMH_EMU_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kmh/emu/source.h"

struct emu_profile;
struct emu_workload;

/* A Topdown breakdown (SPEC §3), as fractions: level 1 (retiring, frontend,
 * bad_spec, backend; slots), level 2 (fetch_latency + fetch_bandwidth =
 * frontend, branch_mispredict + machine_clears = bad_spec; core_bound and
 * memory_bound are per cycle, not per slot, so they need not add up to
 * backend) and level 3 under memory_bound (l1 + l2 + l3 + dram + store =
 * memory_bound). A node whose formula divides by zero (branch_mispredict
 * and machine_clears when TOTAL_FLUSH is 0) is NAN. */
struct emu_topdown {
	double retiring, frontend, bad_spec, backend;
	double fetch_latency, fetch_bandwidth, branch_mispredict, machine_clears, core_bound,
	    memory_bound;
	double l1, l2, l3, dram, store;
};

/* ---------------------------------------------------------------- profiles */

/* The built-in profiles, sorted by name. emu_profile_at() returns NULL when
 * i >= emu_profile_count(). */
unsigned emu_profile_count(void);
const struct emu_profile *emu_profile_at(unsigned i);

/* A built-in profile by name; otherwise name_or_path is read as a profile
 * file. On failure returns NULL and writes one line (no newline) to err:
 *   unknown profile 'x' (known: balanced, branch-mispredict, ...)
 *   FILE: cannot read: REASON
 *   FILE:LINE: REASON          (syntax, unknown key, bad value)
 *   FILE:LINE: cycle 'c' breaks ifu_miss <= ifu_req (2 > 1)   (invariant)
 * A file profile stays valid until emu_profile_free() or exit. */
const struct emu_profile *emu_profile_find(const char *name_or_path, char *err, size_t errlen);

/* The built-in profile called name, or NULL: never a file (for a name read
 * from a recording, which must not make hpmstat open a path it names). */
const struct emu_profile *emu_profile_builtin(const char *name);

/* Parse profile text held in memory; `file` is only used in messages.
 * Same results and messages as emu_profile_find() on a file. */
const struct emu_profile *emu_profile_parse(const char *file, const char *text, char *err,
                                            size_t errlen);

/* Releases a profile returned by emu_profile_find() for a file or by
 * emu_profile_parse(); no workload of it may be alive. Built-in profiles
 * and NULL are ignored. */
void emu_profile_free(const struct emu_profile *p);

const char *emu_profile_name(const struct emu_profile *p);
const char *emu_profile_description(const struct emu_profile *p);
/* "built-in" or the file name the profile was read from. */
const char *emu_profile_origin(const struct emu_profile *p);

/* The Topdown breakdown the profile produces by construction (levels 1-3):
 * the SPEC §3 formulas applied to the expected event totals per cycle. For
 * a phased profile, the totals are the cycle-weighted mean over one period
 * of the phases, so every node except branch_mispredict/machine_clears
 * (a ratio of flush counts) is the cycle-weighted mean of the phases'. */
void emu_profile_declared(const struct emu_profile *p, struct emu_topdown *td);
/* The same under the metrics' "slots" variant (hpmstat stat
 * --topdown-variant=slots): each RECOVERY_BUBBLE cycle counts as the 6
 * slots it wastes, so Bad Speculation, Backend Bound, Branch Mispredicts
 * and Machine Clears differ; every other node is the same. */
void emu_profile_declared_slots(const struct emu_profile *p, struct emu_topdown *td);

/* false for events the model does not produce (list above), for noEvent
 * and for out-of-range bank or index. */
bool emu_profile_produces(const struct emu_profile *p, int bank, unsigned index);

/* The events p does not produce, noEvent aside: their number, each passed
 * to visit (unless NULL) as "BANK:NAME" in bank and index order. The name
 * is only valid during the call. This is what `emu profiles --json` lists
 * as not_produced, so a consumer need not know the banks. */
unsigned emu_profile_unproduced(const struct emu_profile *p,
                                void (*visit)(void *ctx, const char *bank_colon_name), void *ctx);

/* Expected per-cycle value of one event over a long run (over one period of
 * the phases): the declared breakdown is computed from these. 0 for events
 * not produced. emu_profile_mean_instret() is the expected IPC. */
double emu_profile_mean(const struct emu_profile *p, int bank, unsigned index);
double emu_profile_mean_instret(const struct emu_profile *p);

/* Phases. A profile without [phase] sections has one phase, named "all",
 * of 0 cycles (meaning: forever). Phases run in file order, each for its
 * cycles, and then start again from the first. */
unsigned emu_profile_nr_phases(const struct emu_profile *p);
const char *emu_profile_phase_name(const struct emu_profile *p, unsigned i);
uint64_t emu_profile_phase_cycles(const struct emu_profile *p, unsigned i);
/* i out of range reads phase 0. */
void emu_profile_phase_declared(const struct emu_profile *p, unsigned i, struct emu_topdown *td);

/* Share of cycles spent in a mode (enum emu_mode), 0..1; they sum to 1. */
double emu_profile_mode_share(const struct emu_profile *p, unsigned mode);

/* Expected cycles per run of an unclipped stream (ignoring the splits at
 * mode changes and phase ends, which are rare): a measure of how much work
 * a consumer saves by working on runs. */
double emu_profile_mean_run_cycles(const struct emu_profile *p);

/* Checks the invariants above on one cycle vector (vals[b] has
 * kmh_table_v2.banks[b].nr_events entries; a NULL bank reads as all 0). Returns true,
 * or false with the first broken invariant in err, e.g.
 * "ifu_miss <= ifu_req (2 > 1)". Used at load time; exported for tests and
 * for other sources that want to hold themselves to the same rules. */
bool emu_profile_check_vals(const uint8_t *const vals[KMH_NR_BANKS], char *err, size_t errlen);

/* Functions: [function] sections (hpmstat-emu-profile(5)), the ground
 * truth of sampling. Each is an address range with a share of all cycles
 * and its own mix of the profile's classes; its declared Topdown is
 * computed from that mix as the whole profile's is from all of them. A
 * profile without [function] sections has none (its runs carry PC 0). */
struct emu_function {
	const char *name;
	uint64_t start, end; /* [start, end) */
	double share;        /* of all cycles; the functions' sum to 1 */
	unsigned line;       /* of its [function] header */
	struct emu_topdown td;
};

unsigned emu_profile_nr_functions(const struct emu_profile *p);
/* Function i in file order; false when i is out of range. */
bool emu_profile_function(const struct emu_profile *p, unsigned i, struct emu_function *f);
/* The function whose range holds pc, or -1. */
int emu_profile_function_at(const struct emu_profile *p, uint64_t pc);

/* Tasks: [task] sections (hpmstat-emu-profile(5)), the ground truth of
 * per-task counting. Each is a pid (of process tgid) on a hart, with a
 * share of the hart's cycles while it is runnable (start <= hart cycle <
 * exit) and its own mix of the profile's classes; its declared Topdown is
 * computed from that mix. A profile without [task] sections has none. */
struct emu_task {
	const char *name; /* its comm */
	int pid, tgid;
	unsigned hart;
	double share;
	uint64_t start, exit; /* exit UINT64_MAX: never */
	unsigned line;        /* of its [task] header */
	struct emu_topdown td;
};

unsigned emu_profile_nr_tasks(const struct emu_profile *p);
/* Task i in file order; false when i is out of range. */
bool emu_profile_task(const struct emu_profile *p, unsigned i, struct emu_task *t);
/* The scheduler's slice, in cycles: uniform in *lo..*hi (task-slice). */
void emu_profile_task_slice(const struct emu_profile *p, uint32_t *lo, uint32_t *hi);

/* The profile's cycle definitions are the keys of the runs its streams
 * give, 1..emu_profile_nr_keys(p). emu_profile_key_run() fills *run with
 * one cycle of definition `key` in `mode` (source NULL), as a stream gives
 * it; false for a key out of range. For counting what runs of known keys
 * and modes add up to without keeping the runs. */
unsigned emu_profile_nr_keys(const struct emu_profile *p);
bool emu_profile_key_run(const struct emu_profile *p, uint32_t key, unsigned mode,
                         struct emu_run *run);

/* --------------------------------------------------------------- workloads */

/* A stream of runs of profile p (which must outlive it), determined
 * entirely by (p, seed): the same pair gives the same sequence of cycles,
 * whatever max_cycles the consumer passes. */
struct emu_workload *emu_workload_new(const struct emu_profile *p, uint64_t seed);

/* The stream of task `task` of p (< emu_profile_nr_tasks(p)): runs of its
 * own mix, determined by (p, task, seed) as emu_workload_new()'s. */
struct emu_workload *emu_workload_new_task(const struct emu_profile *p, unsigned task,
                                           uint64_t seed);

/* The next run: 1..max_cycles identical cycles (0 cycles, consuming
 * nothing, when max_cycles is 0). run->vals point into memory owned by the
 * profile and stay valid until the next call at least (in fact as long as
 * the profile); run->key is the cycle definition (1..number of cycles), so
 * equal keys mean equal vals and instret, whatever the mode; run->source is
 * w. O(1) and cheap (about 10 ns a run on this project's machine, that is
 * 3.6 to 8 G cycles/s for the built-ins): runs are drawn 64 at a time into a
 * buffer and this pops one, clipping it at mode changes, phase ends and
 * max_cycles. */
void emu_workload_next(struct emu_workload *w, uint64_t max_cycles, struct emu_run *run);

/* The function (index, -1 for none) and the PC of the cycles the last
 * emu_workload_next() returned. A run's PC is one of up to 16 points
 * spread evenly over its function, drawn for each new run (from a
 * generator of its own, so functions never shift the other draws). */
int emu_workload_function(const struct emu_workload *w);
uint64_t emu_workload_pc(const struct emu_workload *w);

/* Index of the phase the next cycle belongs to. */
unsigned emu_workload_phase(const struct emu_workload *w);

void emu_workload_free(struct emu_workload *w);

#endif

/* profile.h: Arm workload profiles and the stream of runs they generate
 * (issue 14, item 4).
 *
 * Owns: the Arm profile registry (built-in profiles embedded at build time
 * from profiles/arm64/NAME.profile, and profile files loaded by path), the
 * per-cycle rules a profile's cycles obey, the level-1 Topdown each profile
 * declares, and the deterministic stream of struct arm_emu_run
 * (arm64/emu/source.h) for one PE.
 *
 * A profile (format: hpmstat-emu-profile(5), "ARM PROFILES") declares
 * CYCLES (one fixed per-cycle vector of Arm events: OP_SPEC = 8,
 * STALL_SLOT_BACKEND = 6, ...), CLASSES (sequences of runs of cycles with
 * length ranges) and their SHARES of all cycles, optionally per PHASE;
 * CONTEXTS (exception level, security state, SME streaming mode, context ID
 * and VMID) with their shares of time, per phase if wanted; and for
 * PCSample FUNCTIONS (an address range in a context, and a share of that
 * context's time). The stream draws classes with probability share / mean
 * length (Walker's alias table; xoshiro256** seeded by splitmix64), so each
 * class's cycle share converges to its share; contexts and functions are
 * drawn the same way for stretches of `switch` and `function-switch`
 * cycles, from their own generators, and runs are split where they change.
 * The PC of a run is one of 16 points spread evenly over its function
 * (fewer for a function shorter than 64 bytes), drawn for each new piece of
 * a run, so the PC stays inside the function and keys stay few.
 *
 * Declared Topdown: computed when the profile is loaded, never typed in:
 * the expected per-cycle value of every event (class shares, mean run
 * lengths, cycle vectors; cycle-weighted over one period of the phases) put
 * into Arm's formulas (events/arm64/arm/neoverse-v2/metrics.json):
 *   frontend = STALL_SLOT_FRONTEND / (SLOTS x CPU_CYCLES)
 *   backend  = STALL_SLOT_BACKEND / (SLOTS x CPU_CYCLES)
 *   retiring = OP_RETIRED / OP_SPEC x (1 - STALL_SLOT / (SLOTS x CPU_CYCLES))
 *   bad_spec = (1 - OP_RETIRED / OP_SPEC) x (1 - STALL_SLOT / (SLOTS x CPU_CYCLES))
 * (the SBSA form), Arm's own per-core forms with BR_MIS_PRED over it
 * (enum arm_src_td_form below),
 * and, for cores without the slot events (Neoverse N1), the cycle form
 *   frontend = STALL_FRONTEND / CPU_CYCLES, backend = STALL_BACKEND / CPU_CYCLES,
 *   retiring = INST_RETIRED / INST_SPEC x (1 - (STALL_FRONTEND + STALL_BACKEND) / CPU_CYCLES),
 *   bad_spec = (1 - INST_RETIRED / INST_SPEC) x (1 - (STALL_FRONTEND + STALL_BACKEND) /
 * CPU_CYCLES). A node whose formula divides by zero is NAN.
 *
 * Per-cycle rules (a cycle that breaks one is refused with FILE:LINE):
 * every VB at most arm_src_event_max_vb() (SLOTS for the slot family, 1 for
 * the cycle events); STALL_SLOT, when not given, is STALL_SLOT_FRONTEND +
 * STALL_SLOT_BACKEND, and when given at least that; OP_SPEC + STALL_SLOT <=
 * SLOTS (every slot either sends an operation or stalls);
 * STALL_FRONTEND + STALL_BACKEND <= 1; OP_RETIRED <= OP_SPEC; INST_RETIRED
 * <= INST_SPEC; BR_MIS_PRED_RETIRED <= BR_RETIRED; each REFILL (and
 * LL_CACHE_MISS_RD) at most its access event. So every Topdown node of
 * every cycle, and of every sum of cycles, is in [0, 1].
 *
 * Library rules: nothing here prints or exits (out of memory aborts through
 * xalloc). Built-in profiles are parsed on first use and live until exit;
 * that first use is not thread-safe. A stream is used by one thread.
 */
#ifndef HPM_ARM64_EMU_PROFILE_H
#define HPM_ARM64_EMU_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arm64/emu/source.h"

struct arm_src_profile;
struct arm_src_stream;

/* Level-1 Topdown, as fractions. */
struct arm_src_topdown {
	double frontend, backend, retiring, bad_spec;
};
/* Arm's own level-1 formulas (Arm's Neoverse telemetry specifications):
 * the slot form above with BR_MIS_PRED (BM) per CPU_CYCLES moved between
 * nodes. V1: frontend - 4 BM, bad_spec + 4 BM. V2 and N2 (and N2 r0p0-r0p2
 * with stall_slot_bias 1, whose CPU_CYCLES the slot form takes off already):
 * frontend - BM, backend - 3 BM, bad_spec + 4 BM. Retiring is the slot
 * form's. */
enum arm_src_td_form {
	ARM_SRC_TD_V1,
	ARM_SRC_TD_V2, /* V2 and N2 */
	ARM_SRC_TD_NR,
};

/* The built-in profiles, sorted by name; NULL when i >= count. */
unsigned arm_src_profile_count(void);
const struct arm_src_profile *arm_src_profile_at(unsigned i);

/* A built-in profile by name; otherwise name_or_path is read as a file.
 * NULL on failure, with one line in err:
 *   unknown Arm profile 'x' (known: arm-backend-memory, ...)
 *   FILE: cannot read: REASON
 *   FILE:LINE: REASON */
const struct arm_src_profile *arm_src_profile_find(const char *name_or_path, char *err,
                                                   size_t errlen);
/* Profile text in memory; `file` only names it in messages. */
const struct arm_src_profile *arm_src_profile_parse(const char *file, const char *text, char *err,
                                                    size_t errlen);
/* Frees a profile from a file or text (no stream of it may live);
 * built-ins and NULL are ignored. */
void arm_src_profile_free(const struct arm_src_profile *p);

const char *arm_src_profile_name(const struct arm_src_profile *p);
const char *arm_src_profile_description(const struct arm_src_profile *p);
const char *arm_src_profile_origin(const struct arm_src_profile *p); /* "built-in" or the file */
unsigned arm_src_profile_slots(const struct arm_src_profile *p);
/* Slots the PMU counts in STALL_SLOT_FRONTEND and STALL_SLOT every cycle
 * besides stalls (stall_slot_bias: 1 for Neoverse N2), which the declared
 * slot-form Topdown leaves out. */
unsigned arm_src_profile_stall_slot_bias(const struct arm_src_profile *p);

/* Declared level-1 Topdown: slot form and cycle form (see above). */
void arm_src_profile_declared(const struct arm_src_profile *p, struct arm_src_topdown *slots,
                              struct arm_src_topdown *cycles);
/* The same as a Non-secure kernel counts it on the emulator (stat): the
 * events of Secure state, Root and EL3 are not counted (prohibited while
 * MDCR_EL3.SPME = 0, its reset value), CPU_CYCLES on PMCCNTR_EL0 counts
 * every cycle (PMCR_EL0.DP = 0). Equal to the declaration for a profile
 * that never leaves Non-secure and Realm ELs 0-2. */
void arm_src_profile_declared_kernel(const struct arm_src_profile *p, struct arm_src_topdown *slots,
                                     struct arm_src_topdown *cycles);
/* Declared level-1 Topdown by Arm's formula `form`, over all cycles or
 * (kernel) as a Non-secure kernel counts them. A profile whose cycles
 * have slot events is refused at load when a node of either form leaves
 * [0, 1] over the period or over one of its phases. */
void arm_src_profile_declared_arm(const struct arm_src_profile *p, enum arm_src_td_form form,
                                  bool kernel, struct arm_src_topdown *out);
/* Expected VB per cycle of event `code` over one period (0 if never given). */
double arm_src_profile_mean(const struct arm_src_profile *p, uint16_t code);
/* The events the profile delivers (non-zero in some cycle), in number
 * order: their count, and the i-th. */
unsigned arm_src_profile_nr_events(const struct arm_src_profile *p);
uint16_t arm_src_profile_event(const struct arm_src_profile *p, unsigned i);

/* Share of cycles (over one period) at exception level el, in security
 * state sec, in streaming mode. */
double arm_src_profile_el_share(const struct arm_src_profile *p, unsigned el);
double arm_src_profile_sec_share(const struct arm_src_profile *p, unsigned sec);
double arm_src_profile_streaming_share(const struct arm_src_profile *p);

/* Phases (a profile without [phase] sections has one, "all", 0 cycles:
 * forever). */
unsigned arm_src_profile_nr_phases(const struct arm_src_profile *p);
const char *arm_src_profile_phase_name(const struct arm_src_profile *p, unsigned i);
uint64_t arm_src_profile_phase_cycles(const struct arm_src_profile *p, unsigned i);

/* Functions, for PCSample: [lo, hi) and share of all cycles. */
struct arm_src_function {
	const char *name;
	uint64_t lo, hi;
	double share; /* of all cycles, over one period */
};
unsigned arm_src_profile_nr_functions(const struct arm_src_profile *p);
void arm_src_profile_function(const struct arm_src_profile *p, unsigned i,
                              struct arm_src_function *f);

/* The largest key a stream of p gives (keys are 1..max): a consumer may
 * size a per-key cache with it. */
uint32_t arm_src_profile_max_key(const struct arm_src_profile *p);

/* A stream of runs of p (which must outlive it) for one PE, determined by
 * (p, seed) alone: the same pair gives the same cycles, whatever max_cycles
 * the consumer passes; each PE takes its own seed. */
struct arm_src_stream *arm_src_stream_new(const struct arm_src_profile *p, uint64_t seed);
/* The next 1..max_cycles identical cycles (cycles 0 when max_cycles is 0).
 * run->vals point into p and live as long as p; run->key (1..max key)
 * names the (cycle, context, PC) combination, so equal keys mean equal
 * runs but for cycles; run->source is the profile, so keys are comparable
 * between streams of one profile. */
void arm_src_stream_next(struct arm_src_stream *s, uint64_t max_cycles, struct arm_emu_run *run);
unsigned arm_src_stream_phase(const struct arm_src_stream *s);
void arm_src_stream_free(struct arm_src_stream *s);

#endif

/* workload-int.h: the pieces of the workload library that its three files
 * share (not part of the API; see workload.h).
 *
 * Owns: the in-memory form of a parsed profile, and the interface between
 * the parser (profile.c), the cycle model (workload-model.c) and the stream
 * (workload.c). Event vectors are stored flat: the four banks one after the
 * other, bank b at wl_layout.off[b].
 */
#ifndef HPM_KMH_EMU_WORKLOAD_INT_H
#define HPM_KMH_EMU_WORKLOAD_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kmh/emu/workload.h"

/* --------------------------------------------------------------- layout */

struct wl_layout {
	unsigned off[KMH_NR_BANKS];
	unsigned nr[KMH_NR_BANKS];
	unsigned total;
};
extern struct wl_layout wl_layout;

/* Resolves the event names the model writes against the kmh tables and
 * fills wl_layout. Idempotent. Fails (with a message) only if the tables
 * lack an event the model needs, which is a build error. */
bool wl_model_init(char *err, size_t errlen);

/* ------------------------------------------------------ cycle parameters */

/* The parameters of one cycle definition, as the profile gives them. Every
 * field starts WL_UNSET and the model derives the value from the others
 * (see wl_model_fill and hpmstat-emu-profile(5)). */
#define WL_UNSET         (-1)
#define WL_NR_LOAD_PIPES 3 /* load pipelines: ld-issue and its kin are 0..3 */
enum wl_stall {
	WL_STALL_NONE,
	WL_STALL_CORE,
	WL_STALL_L1,
	WL_STALL_L2,
	WL_STALL_L3,
	WL_STALL_DRAM,
	WL_STALL_STORE
};
enum wl_flush { WL_FLUSH_NONE, WL_FLUSH_BRANCH, WL_FLUSH_STLD, WL_FLUSH_LDLD, WL_FLUSH_PIPE };
enum wl_level { WL_LEVEL_NONE, WL_LEVEL_L2, WL_LEVEL_L3, WL_LEVEL_DRAM };
enum wl_redirect { WL_REDIRECT_NONE, WL_REDIRECT_S2, WL_REDIRECT_S3, WL_REDIRECT_PREDECODE };
enum wl_cause { WL_CAUSE_IQ, WL_CAUSE_DIV, WL_CAUSE_FREELIST };
enum wl_btype { WL_BR_B, WL_BR_J, WL_BR_I, WL_BR_C, WL_BR_R, WL_NR_BTYPES };

struct wl_params {
	int commit, spec, bubble, recovery;
	int stall, exec_stall, cause;
	int flush, wrong;
	int loads, stores, branches, btype[WL_NR_BTYPES], fused;
	int fetch, lines, icache_miss, icache_wait, itlb_miss, redirect;
	int walk;
	int ld_issue, st_issue, dcache_miss, dtlb_miss, dtlb_st_miss, forward, prefetch,
	    prefetch_miss;
	int load_miss, store_miss, slices;
	int l2_rd_hit, l2_rd_miss, l2_wr_hit, l2_wr_miss, l2_pf, l2_pf_miss, l2_wb, l1_wb,
	    long_miss;
	int ibuf, ibuf_full, rob, freelist, sbuffer, stq, missq;
	int merge;
};

void wl_params_init(struct wl_params *p);
/* The btype key's words, by enum wl_btype (NULL-terminated). */
extern const char *const wl_btype_words[];

/* Sets parameter `key` from its text value. Returns 1 when set, 0 when key
 * is not a cycle parameter (the caller reports it), -1 on a bad value (err
 * says why). */
int wl_params_set(struct wl_params *p, const char *key, const char *value, char *err,
                  size_t errlen);

/* Derives every unset parameter and writes the full event vector (flat,
 * wl_layout.total bytes). Returns false when the parameters contradict one
 * another (e.g. more loads than instructions), with the reason in err. The
 * result still has to pass wl_model_check() after the profile's explicit
 * event values are applied. */
bool wl_model_fill(const struct wl_params *p, uint8_t *vals, char *err, size_t errlen);

/* The invariants of workload.h on a flat vector. */
bool wl_model_check(const uint8_t *vals, char *err, size_t errlen);

/* Sets produced[off] = 1 for every event the model writes. */
void wl_model_produced(uint8_t *produced);

/* Flat offsets of the Topdown events (SPEC §3). */
enum wl_td_event {
	WL_TD_INST_RETIRED,
	WL_TD_INST_SPEC,
	WL_TD_RECOVERY_BUBBLE,
	WL_TD_BR_MIS_PRED,
	WL_TD_TOTAL_FLUSH,
	WL_TD_EXEC_STALL,
	WL_TD_MEMSTALL_STORE,
	WL_TD_MEMSTALL_L1MISS,
	WL_TD_MEMSTALL_L2MISS,
	WL_TD_MEMSTALL_L3MISS,
	WL_TD_MEMSTALL_ANY_LOAD,
	WL_TD_FETCH_BUBBLE,
	WL_TD_FETCH_LATENCY,
	WL_NR_TD_EVENTS,
};
unsigned wl_td_offset(enum wl_td_event e);

/* SPEC §3 on per-cycle expected values (or totals divided by cycles). */
void wl_topdown(const double ev[WL_NR_TD_EVENTS], struct emu_topdown *td);

/* -------------------------------------------------------------- profiles */

struct wl_cycle {
	char *name;
	unsigned line;
	uint8_t *vals; /* flat, wl_layout.total */
	const uint8_t *bank[KMH_NR_BANKS];
	uint8_t instret;
	uint32_t key;
	bool used;
};

struct wl_seg {
	unsigned cycle;
	const struct wl_cycle *c; /* &profile->cycles[cycle] */
	uint32_t lo, hi;          /* run length, uniform in lo..hi, 1 <= lo <= hi */
};

struct wl_class {
	char *name;
	unsigned line;
	struct wl_seg *segs;
	unsigned nr_segs;
	double mean_cycles; /* expected cycles of one run of the class */
	double share;       /* [class] share, when the profile has no phases */
	bool has_share;
	bool used;
};

struct wl_phase {
	char *name;
	unsigned line;
	uint64_t cycles; /* 0: forever */
	unsigned nr;     /* classes of this phase's mix */
	unsigned *cls;
	double *share; /* cycle shares, summing to 1 */
	/* Walker's alias table over the nr classes: draw i uniformly, then take
	 * cls[i] when a 32-bit draw is below thr[i], else cls[alias[i]]. */
	uint32_t *thr;
	unsigned *alias;
	double *mean; /* expected per-cycle value of every event (flat) */
	double mean_instret;
	double runs_per_cycle;
	struct emu_topdown td;
};

/* A declared function ([function NAME]): an address range with a share of
 * all cycles and its own cycle model, a mix of the profile's classes held
 * as a phase of its own (draw table, expected events, declared Topdown). */
struct wl_func {
	char *name;
	unsigned line;
	uint64_t lo, hi; /* [lo, hi) */
	uint64_t size;   /* hi - lo, as given */
	double share;    /* of all cycles; the functions sum to 1 */
	unsigned npts;   /* PCs a run may carry: points spread over [lo, hi) */
	bool has_addr, has_size, has_share;
	struct wl_phase mix;
};

/* A declared task ([task NAME]): a pid on a hart with a share of the
 * hart's cycles while it is runnable (start <= cycle < exit) and its own
 * mix of the profile's classes, held as a phase of its own as a
 * function's is. */
struct wl_task {
	char *name; /* its comm, at most 15 characters */
	unsigned line;
	int pid, tgid;
	unsigned hart;
	double share;
	uint64_t start, exit; /* exit UINT64_MAX: never */
	bool has_pid, has_tgid, has_share;
	struct wl_phase mix;
};

struct emu_profile {
	char *name, *description, *origin;
	bool builtin;
	struct wl_cycle *cycles;
	unsigned nr_cycles;
	struct wl_class *classes;
	unsigned nr_classes;
	struct wl_phase *phases;
	unsigned nr_phases;
	uint64_t period; /* sum of phase cycles; 0 with one endless phase */
	double mode_share[EMU_NR_MODES];
	uint64_t mode_cut[EMU_NR_MODES];
	uint32_t mode_lo, mode_hi;
	uint8_t *produced; /* flat */
	double *mean;      /* flat, over one period */
	double mean_instret;
	double mean_run;
	struct emu_topdown td;
	/* Functions (none: nr_funcs 0). With functions the stream draws a
	 * function for every fn_lo..fn_hi class draws, with probability
	 * fn_thr/fn_alias (share / expected cycles of a class draw), then each
	 * class from that function's mix: each function's cycle share converges
	 * to its share, its classes to its mix. phases[0] is then the combined
	 * mix, for the whole profile's expectations. */
	struct wl_func *funcs;
	unsigned nr_funcs;
	uint32_t fn_lo, fn_hi;
	uint32_t *fn_thr;
	unsigned *fn_alias;
	/* Tasks (none: nr_tasks 0): each hart runs its tasks in slices of
	 * slice_lo..slice_hi cycles; phases[0] is then the share-weighted
	 * combined mix, for the whole profile's expectations. */
	struct wl_task *tasks;
	unsigned nr_tasks;
	uint32_t slice_lo, slice_hi;
	struct emu_profile *next; /* list of file profiles */
};

/* profile.c's parser: a profile of file's text, checked whole (NULL with
 * "FILE:LINE: reason" in err); wl_profile_destroy() frees one. The
 * registry (profile-registry.c) keeps what it returns. */
struct emu_profile *wl_profile_parse_text(const char *file, const char *text, size_t len, char *err,
                                          size_t errlen);
void wl_profile_destroy(struct emu_profile *p);

/* The built-in profile files, embedded by src/gen/profiles2c.awk
 * (profiles-gen.c). */
struct wl_builtin_text {
	const char *file; /* profiles/NAME.profile, for messages */
	const char *text;
};
extern const struct wl_builtin_text wl_builtin_texts[];
extern const unsigned wl_nr_builtin_texts;

#endif

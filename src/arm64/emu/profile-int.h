/* profile-int.h: the inside of an Arm workload profile, shared by its
 * parser (profile.c) and its stream (profile-stream.c).
 *
 * Owns: struct arm_src_profile and the parts it is made of: cycle
 * definitions, classes, contexts, functions, alias tables and phases.
 */
#ifndef HPM_ARM64_EMU_PROFILE_INT_H
#define HPM_ARM64_EMU_PROFILE_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "arm64/emu/profile.h"
#include "emukit/profile.h"

struct cyc {
	char *name;
	unsigned line;
	struct arm_emu_val *vals; /* sorted, no zeros */
	unsigned nr, cap;
	unsigned *vline; /* the line of each assignment, parallel to vals while parsing */
	bool used;
};

struct seg {
	unsigned cyc;
	uint32_t lo, hi;
};

struct cls {
	char *name;
	unsigned line;
	struct seg *segs;
	unsigned nr_segs;
	unsigned runs_line;
	char *runs; /* the runs text, resolved once every cycle is known */
	double mean;
	double share;
	bool has_share, used;
};

struct ctx {
	char *name;
	unsigned line;
	uint8_t el, sec;
	bool streaming;
	uint32_t contextid;
	uint16_t vmid;
	double share;
	bool has_share, used;
	/* its functions */
	unsigned nr_fn;
	unsigned *fn;
	double *fn_share;
	uint32_t *fn_thr;
	unsigned *fn_alias;
	double period_share;
};

struct fn {
	char *name;
	unsigned line;
	char *ctx_name;
	unsigned ctx;
	uint64_t lo, size;
	double share;
	bool has_addr, has_size, has_share;
	unsigned npts, pt_base; /* points pt_base+1 .. pt_base+npts of the key */
};

struct alias {
	unsigned n;
	uint32_t *thr;
	unsigned *alias;
	unsigned *item;
};

struct phase {
	char *name;
	unsigned line;
	uint64_t cycles;
	struct emu_profile_shares mix; /* of classes */
	unsigned *mix_cls;             /* mix.v[k]'s class */
	struct emu_profile_shares ctx_mix;
	struct alias cls_alias, ctx_alias;
	double *mean; /* per profile event */
	double *ctxs; /* share per context */
};

struct arm_src_profile {
	char *name, *description, *origin;
	bool builtin;
	unsigned slots;
	/* stall_slot_bias: slots the PMU adds to STALL_SLOT_FRONTEND and
	 * STALL_SLOT in every cycle (Neoverse N2 counts one: its metrics
	 * subtract CPU_CYCLES); the [cycle] values include it */
	unsigned bias;
	uint32_t sw_lo, sw_hi, fsw_lo, fsw_hi;
	struct cyc *cycs;
	unsigned nr_cycs;
	struct cls *clss;
	unsigned nr_clss;
	struct ctx *ctxs;
	unsigned nr_ctxs;
	struct fn *fns;
	unsigned nr_fns;
	struct phase *phases;
	unsigned nr_phases;
	uint64_t period;
	uint16_t *events; /* every event some cycle delivers, sorted */
	unsigned nr_events;
	double *mean; /* per event, over one period */
	struct arm_src_topdown td_slots, td_cycles;
	/* as a Non-secure kernel counts it: the events not counted where
	 * counting is prohibited by default (Secure state, Root, EL3: reset
	 * MDCR_EL3.SPME = 0), CPU_CYCLES on PMCCNTR counted everywhere
	 * (PMCR_EL0.DP = 0, as Linux leaves it) */
	struct arm_src_topdown td_kernel_slots, td_kernel_cycles;
	/* Arm's level-1 formulas (enum arm_src_td_form), and as a kernel
	 * counts them */
	struct arm_src_topdown td_arm[ARM_SRC_TD_NR], td_kernel_arm[ARM_SRC_TD_NR];
	double el_share[ARM_EMU_NR_EL], sec_share[ARM_EMU_NR_SEC], streaming_share;
	unsigned nr_pts; /* 1 + every function's points */
	uint32_t max_key;
};

#endif

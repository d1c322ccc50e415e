/* workload-model.c: the cycle model: from the few parameters of one cycle
 * definition (instructions committed, fetch bubbles, what the core is
 * stalled on, which caches miss...) to the value of every produced event in
 * that cycle, and the invariants every such vector must obey.
 *
 * Owns: the list of events the model produces, the derivation rules (also
 * written out in hpmstat-emu-profile(5)) and the invariant checker; the
 * parameters themselves (their keys, ranges and defaults) are
 * workload-params.c's. The
 * rules aim at consistency first: every event that another event bounds or
 * equals is derived from the same parameter, so a default vector can never
 * break an invariant; only explicit values in a profile can, and those are
 * refused at load time.
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmh/emu/workload-int.h"
#include "kmh/kmh.h"
#include "util/str.h"

struct wl_layout wl_layout;

#define NPIPE  WL_NR_LOAD_PIPES /* load pipelines */
#define NSLICE 4                /* L2 slices */

/* Flat offsets of every event the model writes, resolved by name. */
static struct {
	/* frontend */
	unsigned frontendFlush, ifu_req, ifu_miss, line0, line1, line0_hit, line1_hit, only_0_hit,
	    only_0_miss, hit_0_hit_1, hit_0_miss_1, miss_0_hit_1, miss_0_miss_1, ibuf_flushed,
	    ibuf_hungry, ibuf_q[4], ibuf_full, front_bubble, fetch_latency, icache_miss_cnt,
	    icache_miss_penalty, bpu_s2, bpu_s3, bpu_ftq_stall, mispredict_redirect,
	    replay_redirect, predecode_redirect, to_ifu_bubble, bpu_real_bubble, bp_instr,
	    bp_b_instr, bp_right, bp_wrong, bp_type_right[WL_NR_BTYPES],
	    bp_type_wrong[WL_NR_BTYPES], ftb_hit, fauftb_hit, fauftb_miss, ftb_commit_hits,
	    ftb_commit_misses, itlb_access, itlb_miss;
	/* backend */
	unsigned dec_fused, dec_wait, dec_stall, dec_util, fe_stall_cycle, be_stall_cycle,
	    inst_spec, recovery_bubble, rename_in, rename_wait, rename_stall, rename_walk,
	    rename_dispatch, rename_int, freelist_q[4], dispatch_in, dispatch_empty, dispatch_utili,
	    dispatch_wait, dispatch_lsq, dispatch_rob, dispatch_int_dq, dispatch_ls_dq,
	    rob_flush_pipe, rob_replay, commit_uop, commit_instr, commit_fused, commit_load,
	    commit_branch, commit_store, walk_instr, walk_cycle, rob_q[4], branch_jump, br_mis_pred,
	    total_flush, exec_stall, memstall_store, memstall_l1, memstall_l2, memstall_l3,
	    iq_enq_int, iq_enq_mem, iq_alu_full[2], iq_alu_i2f_full, iq_div_full, iq_sta_full[2],
	    iq_ldu_full[3], iq_std_full[2], iq_fp_vec_full[8];
	/* memblock */
	unsigned s0[NPIPE], l2l_fwd[NPIPE], s1[NPIPE], s1_tlb_miss[NPIPE], s2[NPIPE],
	    s2_dcache_miss[NPIPE], prf_access[NPIPE], prf_miss[NPIPE], load_req[NPIPE],
	    rd_access[NPIPE], rd_miss[NPIPE];
	unsigned sb_valid, sb_fire, sb_merge, sb_newline, dc_req_valid, dc_req_fire, sb_idle,
	    sb_q[4], memstall_any, rar_enq, ld_ld_violation, raw_enq, stld_rollback, replay_enq,
	    replay_tlb_miss, replay_dcache_miss, stq_q[4], wbq_req, wr_access, wr_miss, mp_req,
	    missq_req, missq_q[4], dtlb_ld_access, dtlb_ld_miss, dtlb_st_access, dtlb_st_miss,
	    ptw_access, ld_deq, st_deq;
	/* cache, per slice */
	unsigned refill[NSLICE], rd_refill[NSLICE], wr_refill[NSLICE], long_miss[NSLICE],
	    hit[NSLICE], miss[NSLICE], access[NSLICE], l2wb[NSLICE], l1wb[NSLICE],
	    wb_victim[NSLICE], pf_access[NSLICE], pf_miss[NSLICE], access_rd[NSLICE],
	    access_wr[NSLICE], miss_rd[NSLICE];
} E;

/* How the tables spell the names of the instances K = 0.. of a field that is
 * an array: one row stands for the whole family of events. */
enum ev_kind {
	EV_ONE,        /* NAME (a field that is not an array) */
	EV_PIPE,       /* NAME.K */
	EV_SLICE,      /* SliceK_l2_cache_NAME */
	EV_QUARTER,    /* NAME_(K+1)_4_valid: the occupancy quarters */
	EV_QUARTER_SB, /* the same, but the sbuffer's fourth is NAME_full_valid */
	EV_BTYPE,      /* BpXNAME, X the branch type's letter (wl_btype_words) */
};
struct ev_def {
	int bank;
	const char *name;
	unsigned *dst;
	unsigned n; /* instances */
	unsigned char kind;
};

#define FE KMH_BANK_FRONTEND
#define BE KMH_BANK_BACKEND
#define MB KMH_BANK_MEMBLOCK
#define CA KMH_BANK_CACHE
/* clang-format off */
#define EV(b, name, field, kind) \
	{b, name, (unsigned *)&E.field, sizeof(E.field) / sizeof(unsigned), kind}
/* clang-format on */

static const struct ev_def ev_defs[] = {
    EV(FE, "frontendFlush", frontendFlush, EV_ONE),
    EV(FE, "ifu_req", ifu_req, EV_ONE),
    EV(FE, "ifu_miss", ifu_miss, EV_ONE),
    EV(FE, "ifu_req_cacheline_0", line0, EV_ONE),
    EV(FE, "ifu_req_cacheline_1", line1, EV_ONE),
    EV(FE, "ifu_req_cacheline_0_hit", line0_hit, EV_ONE),
    EV(FE, "ifu_req_cacheline_1_hit", line1_hit, EV_ONE),
    EV(FE, "only_0_hit", only_0_hit, EV_ONE),
    EV(FE, "only_0_miss", only_0_miss, EV_ONE),
    EV(FE, "hit_0_hit_1", hit_0_hit_1, EV_ONE),
    EV(FE, "hit_0_miss_1", hit_0_miss_1, EV_ONE),
    EV(FE, "miss_0_hit_1", miss_0_hit_1, EV_ONE),
    EV(FE, "miss_0_miss_1", miss_0_miss_1, EV_ONE),
    EV(FE, "IBuffer_Flushed", ibuf_flushed, EV_ONE),
    EV(FE, "IBuffer_hungry", ibuf_hungry, EV_ONE),
    EV(FE, "IBuffer", ibuf_q, EV_QUARTER),
    EV(FE, "IBuffer_full", ibuf_full, EV_ONE),
    EV(FE, "Front_Bubble", front_bubble, EV_ONE),
    EV(FE, "Fetch_Latency_Bound", fetch_latency, EV_ONE),
    EV(FE, "icache_miss_bubble", icache_miss_cnt, EV_ONE),
    EV(FE, "icache_miss_penalty", icache_miss_penalty, EV_ONE),
    EV(FE, "bpu_s2_redirect", bpu_s2, EV_ONE),
    EV(FE, "bpu_s3_redirect", bpu_s3, EV_ONE),
    EV(FE, "bpu_to_ftq_stall", bpu_ftq_stall, EV_ONE),
    EV(FE, "mispredictRedirect", mispredict_redirect, EV_ONE),
    EV(FE, "replayRedirect", replay_redirect, EV_ONE),
    EV(FE, "predecodeRedirect", predecode_redirect, EV_ONE),
    EV(FE, "to_ifu_bubble", to_ifu_bubble, EV_ONE),
    EV(FE, "from_bpu_real_bubble", bpu_real_bubble, EV_ONE),
    EV(FE, "BpInstr", bp_instr, EV_ONE),
    EV(FE, "BpBInstr", bp_b_instr, EV_ONE),
    EV(FE, "BpRight", bp_right, EV_ONE),
    EV(FE, "BpWrong", bp_wrong, EV_ONE),
    EV(FE, "Right", bp_type_right, EV_BTYPE),
    EV(FE, "Wrong", bp_type_wrong, EV_BTYPE),
    EV(FE, "ftb_hit", ftb_hit, EV_ONE),
    EV(FE, "fauftb_commit_hit", fauftb_hit, EV_ONE),
    EV(FE, "fauftb_commit_miss", fauftb_miss, EV_ONE),
    EV(FE, "ftb_commit_hits", ftb_commit_hits, EV_ONE),
    EV(FE, "ftb_commit_misses", ftb_commit_misses, EV_ONE),
    EV(FE, "itlb_access", itlb_access, EV_ONE),
    EV(FE, "itlb_miss", itlb_miss, EV_ONE),

    EV(BE, "decoder_fused_instr", dec_fused, EV_ONE),
    EV(BE, "decoder_waitInstr", dec_wait, EV_ONE),
    EV(BE, "decoder_stall_cycle", dec_stall, EV_ONE),
    EV(BE, "decoder_utilization", dec_util, EV_ONE),
    EV(BE, "frontend_stall_cycle", fe_stall_cycle, EV_ONE),
    EV(BE, "backend_stall_cycle", be_stall_cycle, EV_ONE),
    EV(BE, "INST_SPEC", inst_spec, EV_ONE),
    EV(BE, "RECOVERY_BUBBLE", recovery_bubble, EV_ONE),
    EV(BE, "rename_in", rename_in, EV_ONE),
    EV(BE, "rename_waitinstr", rename_wait, EV_ONE),
    EV(BE, "rename_stall", rename_stall, EV_ONE),
    EV(BE, "rename_stall_cycle_walk", rename_walk, EV_ONE),
    EV(BE, "rename_stall_cycle_dispatch", rename_dispatch, EV_ONE),
    EV(BE, "rename_stall_cycle_int", rename_int, EV_ONE),
    EV(BE, "me_freelist", freelist_q, EV_QUARTER),
    EV(BE, "dispatch_in", dispatch_in, EV_ONE),
    EV(BE, "dispatch_empty", dispatch_empty, EV_ONE),
    EV(BE, "dispatch_utili", dispatch_utili, EV_ONE),
    EV(BE, "dispatch_waitinstr", dispatch_wait, EV_ONE),
    EV(BE, "dispatch_stall_cycle_lsq", dispatch_lsq, EV_ONE),
    EV(BE, "dispatch_stall_cycle_rob", dispatch_rob, EV_ONE),
    EV(BE, "dispatch_stall_cycle_int_dq", dispatch_int_dq, EV_ONE),
    EV(BE, "dispatch_stall_cycle_ls_dq", dispatch_ls_dq, EV_ONE),
    EV(BE, "rob_flush_pipe_num", rob_flush_pipe, EV_ONE),
    EV(BE, "rob_replay_inst_num", rob_replay, EV_ONE),
    EV(BE, "rob_commitUop", commit_uop, EV_ONE),
    EV(BE, "rob_commitInstr", commit_instr, EV_ONE),
    EV(BE, "rob_commitInstrFused", commit_fused, EV_ONE),
    EV(BE, "rob_commitInstrLoad", commit_load, EV_ONE),
    EV(BE, "rob_commitInstrBranch", commit_branch, EV_ONE),
    EV(BE, "rob_commitInstrStore", commit_store, EV_ONE),
    EV(BE, "rob_walkInstr", walk_instr, EV_ONE),
    EV(BE, "rob_walkCycle", walk_cycle, EV_ONE),
    EV(BE, "rob", rob_q, EV_QUARTER),
    EV(BE, "BRANCH_JUMP", branch_jump, EV_ONE),
    EV(BE, "BR_MIS_PRED", br_mis_pred, EV_ONE),
    EV(BE, "TOTAL_FLUSH", total_flush, EV_ONE),
    EV(BE, "EXEC_STALL_CYCLE", exec_stall, EV_ONE),
    EV(BE, "MEMSTALL_STORE", memstall_store, EV_ONE),
    EV(BE, "MEMSTALL_L1MISS", memstall_l1, EV_ONE),
    EV(BE, "MEMSTALL_L2MISS", memstall_l2, EV_ONE),
    EV(BE, "MEMSTALL_L3MISS", memstall_l3, EV_ONE),
    EV(BE, "issueQueue_enq_fire_cnt.0", iq_enq_int, EV_ONE),
    EV(BE, "issueQueue_enq_fire_cnt.3", iq_enq_mem, EV_ONE),
    EV(BE, "IssueQueueAluMulBkuBrhJmp_full", iq_alu_full, EV_PIPE),
    EV(BE, "IssueQueueAluBrhJmpI2fVsetriwiVsetriwvfI2v_full", iq_alu_i2f_full, EV_ONE),
    EV(BE, "IssueQueueAluCsrFenceDiv_full", iq_div_full, EV_ONE),
    EV(BE, "IssueQueueStaMou_full", iq_sta_full, EV_PIPE),
    EV(BE, "IssueQueueLdu_full", iq_ldu_full, EV_PIPE),
    EV(BE, "IssueQueueStdMoud_full", iq_std_full, EV_PIPE),
    /* the floating-point and vector queues the model never fills */
    EV(BE, "IssueQueueFaluFcvtF2vFmacFdiv_full", iq_fp_vec_full[0], EV_ONE),
    EV(BE, "IssueQueueFaluFmacFdiv_full", iq_fp_vec_full[1], EV_ONE),
    EV(BE, "IssueQueueFaluFmac_full", iq_fp_vec_full[2], EV_ONE),
    EV(BE, "IssueQueueVfmaVialuFixVimacVppuVfaluVfcvtVipuVsetrvfwvf_full", iq_fp_vec_full[3],
       EV_ONE),
    EV(BE, "IssueQueueVfmaVialuFixVfalu_full", iq_fp_vec_full[4], EV_ONE),
    EV(BE, "IssueQueueVfdivVidiv_full", iq_fp_vec_full[5], EV_ONE),
    EV(BE, "IssueQueueVlduVstuVseglduVsegstu_full", iq_fp_vec_full[6], EV_ONE),
    EV(BE, "IssueQueueVlduVstu_full", iq_fp_vec_full[7], EV_ONE),

    EV(MB, "load_s0_in_fire", s0, EV_PIPE),
    EV(MB, "load_to_load_forward", l2l_fwd, EV_PIPE),
    EV(MB, "load_s1_in_fire", s1, EV_PIPE),
    EV(MB, "load_s1_tlb_miss", s1_tlb_miss, EV_PIPE),
    EV(MB, "load_s2_in_fire", s2, EV_PIPE),
    EV(MB, "load_s2_dcache_miss", s2_dcache_miss, EV_PIPE),
    EV(MB, "l1D_load_hw_prf_access", prf_access, EV_PIPE),
    EV(MB, "l1D_load_hw_prf_miss", prf_miss, EV_PIPE),
    EV(MB, "load_req", load_req, EV_PIPE),
    EV(MB, "l1D_read_dcache_access", rd_access, EV_PIPE),
    EV(MB, "l1D_read_dcache_miss", rd_miss, EV_PIPE),
    EV(MB, "sbuffer_req_valid", sb_valid, EV_ONE),
    EV(MB, "sbuffer_req_fire", sb_fire, EV_ONE),
    EV(MB, "sbuffer_merge", sb_merge, EV_ONE),
    EV(MB, "sbuffer_newline", sb_newline, EV_ONE),
    EV(MB, "dcache_req_valid", dc_req_valid, EV_ONE),
    EV(MB, "dcache_req_fire", dc_req_fire, EV_ONE),
    EV(MB, "sbuffer_idle", sb_idle, EV_ONE),
    EV(MB, "sbuffer", sb_q, EV_QUARTER_SB),
    EV(MB, "MEMSTALL_ANY_LOAD", memstall_any, EV_ONE),
    EV(MB, "enq.0", rar_enq, EV_ONE),
    EV(MB, "ld_ld_violation", ld_ld_violation, EV_ONE),
    EV(MB, "enq.1", raw_enq, EV_ONE),
    EV(MB, "stld_rollback", stld_rollback, EV_ONE),
    EV(MB, "enq.2", replay_enq, EV_ONE),
    EV(MB, "replay_tlb_miss", replay_tlb_miss, EV_ONE),
    EV(MB, "replay_dcache_miss", replay_dcache_miss, EV_ONE),
    EV(MB, "stq", stq_q, EV_QUARTER),
    EV(MB, "dcache_wbq_req", wbq_req, EV_ONE),
    EV(MB, "l1D_write_dcache_access", wr_access, EV_ONE),
    EV(MB, "l1D_write_dcache_miss", wr_miss, EV_ONE),
    EV(MB, "dcache_mp_req", mp_req, EV_ONE),
    EV(MB, "dcache_missq_req", missq_req, EV_ONE),
    EV(MB, "dcache_missq", missq_q, EV_QUARTER),
    EV(MB, "dtlb_ld_access", dtlb_ld_access, EV_ONE),
    EV(MB, "dtlb_ld_miss", dtlb_ld_miss, EV_ONE),
    EV(MB, "dtlb_st_access", dtlb_st_access, EV_ONE),
    EV(MB, "dtlb_st_miss", dtlb_st_miss, EV_ONE),
    EV(MB, "PTW_access", ptw_access, EV_ONE),
    EV(MB, "ldDeqCount", ld_deq, EV_ONE),
    EV(MB, "stDeqCount", st_deq, EV_ONE),

    EV(CA, "refill", refill, EV_SLICE),
    EV(CA, "rd_refill", rd_refill, EV_SLICE),
    EV(CA, "wr_refill", wr_refill, EV_SLICE),
    EV(CA, "long_miss", long_miss, EV_SLICE),
    EV(CA, "hit", hit, EV_SLICE),
    EV(CA, "miss", miss, EV_SLICE),
    EV(CA, "access", access, EV_SLICE),
    EV(CA, "l2wb", l2wb, EV_SLICE),
    EV(CA, "l1wb", l1wb, EV_SLICE),
    EV(CA, "wb_victim", wb_victim, EV_SLICE),
    EV(CA, "prefetch_access", pf_access, EV_SLICE),
    EV(CA, "prefetch_miss", pf_miss, EV_SLICE),
    EV(CA, "access_rd", access_rd, EV_SLICE),
    EV(CA, "access_wr", access_wr, EV_SLICE),
    EV(CA, "miss_rd", miss_rd, EV_SLICE),
};

/* Names for messages, by flat offset (the kmh tables' names, plus the bank
 * when the name alone could be ambiguous: never, for the events here). */
static const char **ev_name_by_off;

static unsigned td_off[WL_NR_TD_EVENTS];

static bool initialized;

static bool resolve(int bank, const char *name, unsigned *off, char *err, size_t errlen)
{
	const struct kmh_event *ev = kmh_event_by_name(&kmh_table_v2, bank, name);
	if (!ev || ev->bank != bank) {
		str_seterr(err, errlen,
		           "the event tables lack %s:%s, which the workload model needs",
		           kmh_table_v2.banks[bank].name, name);
		return false;
	}
	*off = wl_layout.off[bank] + ev->index;
	return true;
}

bool wl_model_init(char *err, size_t errlen)
{
	if (initialized)
		return true;
	unsigned total = 0;
	for (unsigned b = 0; b < KMH_NR_BANKS; b++) {
		wl_layout.off[b] = total;
		wl_layout.nr[b] = kmh_table_v2.banks[b].nr_events;
		total += kmh_table_v2.banks[b].nr_events;
	}
	wl_layout.total = total;

	for (size_t i = 0; i < sizeof(ev_defs) / sizeof(ev_defs[0]); i++) {
		const struct ev_def *d = &ev_defs[i];
		for (unsigned k = 0; k < d->n; k++) {
			char name[96];
			if (d->kind == EV_SLICE)
				snprintf(name, sizeof(name), "Slice%u_l2_cache_%s", k, d->name);
			else if (d->kind == EV_PIPE)
				snprintf(name, sizeof(name), "%s.%u", d->name, k);
			else if (d->kind == EV_QUARTER_SB && k == 3)
				snprintf(name, sizeof(name), "%s_full_valid", d->name);
			else if (d->kind == EV_QUARTER || d->kind == EV_QUARTER_SB)
				snprintf(name, sizeof(name), "%s_%u_4_valid", d->name, k + 1);
			else if (d->kind == EV_BTYPE)
				snprintf(name, sizeof(name), "Bp%s%s", wl_btype_words[k], d->name);
			else
				snprintf(name, sizeof(name), "%s", d->name);
			if (!resolve(d->bank, name, &d->dst[k], err, errlen))
				return false;
		}
	}

	static const struct {
		int bank;
		const char *name;
	} td_names[WL_NR_TD_EVENTS] = {
	    [WL_TD_INST_RETIRED] = {BE, "rob_commitInstr"},
	    [WL_TD_INST_SPEC] = {BE, "INST_SPEC"},
	    [WL_TD_RECOVERY_BUBBLE] = {BE, "RECOVERY_BUBBLE"},
	    [WL_TD_BR_MIS_PRED] = {BE, "BR_MIS_PRED"},
	    [WL_TD_TOTAL_FLUSH] = {BE, "TOTAL_FLUSH"},
	    [WL_TD_EXEC_STALL] = {BE, "EXEC_STALL_CYCLE"},
	    [WL_TD_MEMSTALL_STORE] = {BE, "MEMSTALL_STORE"},
	    [WL_TD_MEMSTALL_L1MISS] = {BE, "MEMSTALL_L1MISS"},
	    [WL_TD_MEMSTALL_L2MISS] = {BE, "MEMSTALL_L2MISS"},
	    [WL_TD_MEMSTALL_L3MISS] = {BE, "MEMSTALL_L3MISS"},
	    [WL_TD_MEMSTALL_ANY_LOAD] = {MB, "MEMSTALL_ANY_LOAD"},
	    [WL_TD_FETCH_BUBBLE] = {FE, "Front_Bubble"},
	    [WL_TD_FETCH_LATENCY] = {FE, "Fetch_Latency_Bound"},
	};
	for (unsigned i = 0; i < WL_NR_TD_EVENTS; i++)
		if (!resolve(td_names[i].bank, td_names[i].name, &td_off[i], err, errlen))
			return false;

	/* Static for the life of the process, like the tables it points into. */
	static const char **names;
	names = calloc(total, sizeof(*names));
	if (!names) {
		str_seterr(err, errlen, "out of memory");
		return false;
	}
	for (unsigned b = 0; b < KMH_NR_BANKS; b++)
		for (unsigned i = 0; i < wl_layout.nr[b]; i++)
			names[wl_layout.off[b] + i] =
			    kmh_str(&kmh_table_v2, kmh_table_v2.banks[b].events[i].name);
	ev_name_by_off = names;
	initialized = true;
	return true;
}

unsigned wl_td_offset(enum wl_td_event e)
{
	return td_off[e];
}

void wl_model_produced(uint8_t *produced)
{
	for (size_t i = 0; i < sizeof(ev_defs) / sizeof(ev_defs[0]); i++)
		for (unsigned k = 0; k < ev_defs[i].n; k++)
			produced[ev_defs[i].dst[k]] = 1;
}

/* ------------------------------------------------------------- the model */

static int dflt(int v, int d)
{
	return v == WL_UNSET ? d : v;
}

static int imax(int a, int b)
{
	return a > b ? a : b;
}

static int imin(int a, int b)
{
	return a < b ? a : b;
}

static int popcount4(int m)
{
	return (m & 1) + (m >> 1 & 1) + (m >> 2 & 1) + (m >> 3 & 1);
}

static int bit(int mask, unsigned k)
{
	return mask >> k & 1;
}

/* Occupancy quarters (0 = empty, no quarter event) of the IBuffer, ROB,
 * freelist, sbuffer, store queue and miss queue. */
static void derive_occupancy(struct wl_params *p, bool stalled, bool mem_stall)
{
	int ib = 2;
	if (stalled)
		ib = 4;
	else if (p->flush != WL_FLUSH_NONE || p->recovery > 0 || p->bubble == 6)
		ib = 0;
	else if (p->bubble > 0)
		ib = 1;
	p->ibuf = dflt(p->ibuf, ib);
	p->ibuf_full = dflt(p->ibuf_full, stalled && p->ibuf == 4);
	int rob = 2;
	if (mem_stall)
		rob = 4;
	else if (stalled)
		rob = 3;
	else if (p->flush != WL_FLUSH_NONE || p->recovery > 0 || p->bubble == 6)
		rob = 1;
	p->rob = dflt(p->rob, rob);
	int fl = 4;
	if (p->stall == WL_STALL_CORE && p->cause == WL_CAUSE_FREELIST)
		fl = 1;
	else if (mem_stall)
		fl = 2;
	p->freelist = dflt(p->freelist, fl);
	p->sbuffer = dflt(p->sbuffer, p->stall == WL_STALL_STORE ? 4 : p->stores > 0 ? 1 : 0);
	int stq = p->stores > 0 ? 1 : 0;
	if (p->stall == WL_STALL_STORE)
		stq = 4;
	else if (mem_stall)
		stq = 2;
	p->stq = dflt(p->stq, stq);
	int mq = 0;
	if (p->stall == WL_STALL_L2)
		mq = 1;
	else if (p->stall == WL_STALL_L3)
		mq = 2;
	else if (p->stall == WL_STALL_DRAM)
		mq = 3;
	else if (p->load_miss != WL_LEVEL_NONE || p->store_miss != WL_LEVEL_NONE)
		mq = 1;
	p->missq = dflt(p->missq, mq);
}

/* Derivation of unset parameters: see hpmstat-emu-profile(5), "Cycle
 * parameters". The defaults describe a plausible core: a full-width cycle
 * commits 2 loads, 1 store and 1 branch; a stalled backend fills the ROB and
 * the IBuffer and stops fetch; a recovery cycle walks the ROB. */
static bool derive(const struct wl_params *in, struct wl_params *p, char *err, size_t errlen)
{
	*p = *in;
	p->commit = dflt(p->commit, 0);
	p->spec = dflt(p->spec, p->commit);
	p->bubble = dflt(p->bubble, 0);
	p->recovery = dflt(p->recovery, 0);
	p->stall = dflt(p->stall, WL_STALL_NONE);
	p->exec_stall = dflt(p->exec_stall, p->stall != WL_STALL_NONE);
	p->cause = dflt(p->cause, WL_CAUSE_IQ);
	p->flush = dflt(p->flush, WL_FLUSH_NONE);
	p->wrong = dflt(p->wrong, WL_BR_B);
	p->load_miss = dflt(p->load_miss, WL_LEVEL_NONE);
	p->store_miss = dflt(p->store_miss, WL_LEVEL_NONE);
	p->slices = dflt(p->slices, 1);
	bool stalled = p->stall != WL_STALL_NONE;
	bool mem_stall = p->stall >= WL_STALL_L2 && p->stall <= WL_STALL_STORE;

	/* Committed branches by type: the mispredicted one commits in the cycle
	 * it flushes (the flush cycle), so that BpWrong = BR_MIS_PRED per cycle. */
	bool branch_flush = p->flush == WL_FLUSH_BRANCH;
	int given = 0;
	bool any_type = false;
	for (int t = 0; t < WL_NR_BTYPES; t++)
		if (p->btype[t] != WL_UNSET) {
			given += p->btype[t];
			any_type = true;
		}
	if (p->branches == WL_UNSET) {
		if (any_type)
			p->branches = given + (branch_flush && p->btype[p->wrong] == WL_UNSET);
		else
			p->branches = imax(p->commit >= 1 ? (p->commit + 2) / 5 : 0, branch_flush);
	}
	for (int t = WL_BR_J; t < WL_NR_BTYPES; t++)
		if (p->btype[t] == WL_UNSET)
			p->btype[t] = branch_flush && p->wrong == t;
	if (p->btype[WL_BR_B] == WL_UNSET) {
		int rest = 0;
		for (int t = WL_BR_J; t < WL_NR_BTYPES; t++)
			rest += p->btype[t];
		p->btype[WL_BR_B] = p->branches - rest;
	}
	int sum = 0;
	for (int t = 0; t < WL_NR_BTYPES; t++)
		sum += p->btype[t];
	if (p->btype[WL_BR_B] < 0 || sum != p->branches) {
		str_seterr(err, errlen,
		           "branches (%d) is not the sum of cond, jump, indirect, call and ret",
		           p->branches);
		return false;
	}
	if (branch_flush && p->btype[p->wrong] < 1) {
		str_seterr(
		    err, errlen,
		    "flush = branch needs a committed branch of type %s (the mispredicted one)",
		    wl_btype_words[p->wrong]);
		return false;
	}

	p->loads = dflt(p->loads, p->commit / 3);
	p->stores = dflt(p->stores, imax(p->commit / 5, p->store_miss != WL_LEVEL_NONE));
	p->fused = dflt(p->fused, 0);

	p->icache_miss = dflt(p->icache_miss, 0);
	p->itlb_miss = dflt(p->itlb_miss, 0);
	p->icache_wait = dflt(p->icache_wait, 0);
	p->redirect = dflt(p->redirect, WL_REDIRECT_NONE);
	p->lines = dflt(p->lines, p->icache_miss & 2 ? 2 : 1);
	if (p->fetch == WL_UNSET) {
		/* A fetch that misses has been sent; a stalled backend (full
		 * IBuffer and FTQ), a flush, an ICache miss being waited for and a
		 * BPU that delivers nothing send none. */
		if (p->icache_miss || p->itlb_miss)
			p->fetch = 1;
		else if (stalled || p->flush != WL_FLUSH_NONE || p->icache_wait || p->bubble == 6)
			p->fetch = 0;
		else
			p->fetch = 1;
	}
	if (!p->fetch && (p->icache_miss || p->itlb_miss)) {
		str_seterr(err, errlen, "icache-miss or itlb-miss needs fetch = 1");
		return false;
	}
	/* RECOVERY_BUBBLE is XiangShan's 1-bit flag, set on a redirect and
	 * cleared at the first decode fire: a recovery cycle decodes nothing,
	 * so it has no INST_SPEC (nor commit) and no Front_Bubble slot. */
	if (p->recovery && (p->spec > 0 || p->bubble > 0)) {
		str_seterr(
		    err, errlen,
		    "recovery = 1 is a cycle that decodes nothing (RECOVERY_BUBBLE clears at "
		    "the first decode fire): it needs spec = 0 and bubble = 0");
		return false;
	}
	p->walk = dflt(p->walk, p->recovery ? 6 : 0);

	p->dcache_miss = dflt(
	    p->dcache_miss, p->load_miss != WL_LEVEL_NONE ? imin(NPIPE, popcount4(p->slices)) : 0);
	p->dtlb_miss = dflt(p->dtlb_miss, 0);
	p->dtlb_st_miss = dflt(p->dtlb_st_miss, 0);
	p->forward = dflt(p->forward, 0);
	p->prefetch_miss = dflt(p->prefetch_miss, 0);
	p->prefetch = dflt(p->prefetch, p->prefetch_miss);
	p->ld_issue = dflt(p->ld_issue,
	                   imin(NPIPE, imax(imax(p->loads, p->spec / 3),
	                                    imax(imax(p->dcache_miss, p->dtlb_miss), p->forward))));
	p->st_issue = dflt(p->st_issue, imin(2, imax(p->stores, p->dtlb_st_miss)));

	int m = p->slices;
	p->l2_rd_hit = dflt(p->l2_rd_hit, 0) | (p->load_miss == WL_LEVEL_L2 ? m : 0);
	p->l2_rd_miss = dflt(p->l2_rd_miss, 0) | (p->load_miss > WL_LEVEL_L2 ? m : 0);
	p->l2_wr_hit = dflt(p->l2_wr_hit, 0) | (p->store_miss == WL_LEVEL_L2 ? m : 0);
	p->l2_wr_miss = dflt(p->l2_wr_miss, 0) | (p->store_miss > WL_LEVEL_L2 ? m : 0);
	p->l2_pf = dflt(p->l2_pf, 0);
	p->l2_pf_miss = dflt(p->l2_pf_miss, 0);
	p->l2_wb = dflt(p->l2_wb, 0);
	p->l1_wb = dflt(p->l1_wb, 0);
	p->long_miss =
	    dflt(p->long_miss, p->load_miss == WL_LEVEL_DRAM || p->store_miss == WL_LEVEL_DRAM);

	derive_occupancy(p, stalled, mem_stall);
	p->merge = dflt(p->merge, 0);
	return true;
}

/* The core's events in a cycle of parameters p: the frontend (fetch and
 * ICache, IBuffer, BPU and FTQ) and the backend (decode, rename, dispatch,
 * issue queues, ROB and commit, Topdown's backend events). */
static void fill_core(const struct wl_params *p, int *v)
{
	bool stalled = p->stall != WL_STALL_NONE;
	bool flushed = p->flush != WL_FLUSH_NONE;
	bool replay = p->flush == WL_FLUSH_STLD || p->flush == WL_FLUSH_LDLD;
	/* fetch and ICache */
	int f = p->fetch, two = f && p->lines == 2;
	int m0 = f && (p->icache_miss & 1), m1 = two && (p->icache_miss & 2);
	v[E.ifu_req] = f;
	v[E.line0] = f;
	v[E.line1] = two;
	v[E.line0_hit] = f && !m0;
	v[E.line1_hit] = two && !m1;
	v[E.only_0_hit] = f && !two && !m0;
	v[E.only_0_miss] = f && !two && m0;
	v[E.hit_0_hit_1] = two && !m0 && !m1;
	v[E.hit_0_miss_1] = two && !m0 && m1;
	v[E.miss_0_hit_1] = two && m0 && !m1;
	v[E.miss_0_miss_1] = two && m0 && m1;
	v[E.ifu_miss] = m0 || m1;
	v[E.icache_miss_cnt] = m0 + m1;
	v[E.icache_miss_penalty] = p->icache_wait;
	v[E.itlb_access] = f;
	v[E.itlb_miss] = f && p->itlb_miss;
	/* IBuffer and Topdown frontend */
	v[E.ibuf_flushed] = flushed;
	v[E.ibuf_hungry] = p->bubble > 0;
	if (p->ibuf > 0)
		v[E.ibuf_q[p->ibuf - 1]] = 1;
	v[E.ibuf_full] = p->ibuf_full;
	v[E.front_bubble] = p->bubble;
	v[E.fetch_latency] = p->bubble == 6;
	/* BPU and FTQ */
	v[E.bpu_s2] = p->redirect == WL_REDIRECT_S2;
	v[E.bpu_s3] = p->redirect == WL_REDIRECT_S3;
	v[E.predecode_redirect] = p->redirect == WL_REDIRECT_PREDECODE;
	v[E.to_ifu_bubble] = p->redirect != WL_REDIRECT_NONE;
	v[E.bpu_real_bubble] = p->redirect == WL_REDIRECT_S2 || p->redirect == WL_REDIRECT_S3;
	v[E.bpu_ftq_stall] = stalled;
	v[E.mispredict_redirect] = p->flush == WL_FLUSH_BRANCH;
	v[E.replay_redirect] = replay;
	v[E.frontendFlush] = flushed;
	int wrong = p->flush == WL_FLUSH_BRANCH;
	for (int t = 0; t < WL_NR_BTYPES; t++) {
		int w = t == p->wrong ? wrong : 0;
		v[E.bp_type_wrong[t]] = w;
		v[E.bp_type_right[t]] = p->btype[t] - w;
	}
	v[E.bp_instr] = p->branches;
	v[E.bp_b_instr] = p->btype[WL_BR_B];
	v[E.bp_right] = p->branches - wrong;
	v[E.bp_wrong] = wrong;
	v[E.ftb_hit] = f && p->redirect != WL_REDIRECT_PREDECODE;
	/* One FTQ entry (fetch block) commits in a cycle that commits. */
	int blocks = p->commit > 0;
	int uftb_miss = blocks && (p->redirect == WL_REDIRECT_S2 || p->redirect == WL_REDIRECT_S3);
	int ftb_miss = blocks && p->redirect == WL_REDIRECT_PREDECODE;
	v[E.fauftb_hit] = blocks - uftb_miss;
	v[E.fauftb_miss] = uftb_miss;
	v[E.ftb_commit_hits] = blocks - ftb_miss;
	v[E.ftb_commit_misses] = ftb_miss;

	/* decode, rename, dispatch */
	v[E.dec_fused] = p->fused;
	v[E.dec_wait] = stalled ? 6 : 0;
	v[E.dec_stall] = stalled;
	v[E.dec_util] = p->spec;
	v[E.fe_stall_cycle] = p->bubble == 6;
	v[E.be_stall_cycle] = stalled;
	v[E.inst_spec] = p->spec;
	v[E.recovery_bubble] = p->recovery;
	v[E.rename_in] = p->spec;
	v[E.rename_wait] = stalled ? 6 : 0;
	v[E.rename_stall] = stalled || p->walk > 0;
	v[E.rename_walk] = p->walk > 0;
	bool freelist_stall = p->stall == WL_STALL_CORE && p->cause == WL_CAUSE_FREELIST;
	v[E.rename_dispatch] = stalled && !freelist_stall;
	v[E.rename_int] = freelist_stall;
	if (p->freelist > 0)
		v[E.freelist_q[p->freelist - 1]] = 1;
	v[E.dispatch_in] = p->spec;
	v[E.dispatch_utili] = p->spec;
	v[E.dispatch_empty] = p->spec == 0 && !stalled;
	v[E.dispatch_wait] = stalled ? 6 : 0;
	v[E.dispatch_lsq] = p->stall == WL_STALL_STORE;
	v[E.dispatch_rob] = p->stall >= WL_STALL_L2 && p->stall <= WL_STALL_DRAM;
	v[E.dispatch_int_dq] = p->stall == WL_STALL_CORE && !freelist_stall;
	v[E.dispatch_ls_dq] = p->stall == WL_STALL_L1;
	/* issue queues */
	int mem_ops = imin(p->spec, p->ld_issue + p->st_issue);
	v[E.iq_enq_int] = p->spec - mem_ops;
	v[E.iq_enq_mem] = mem_ops;
	/* The IssueQueue*_full events count, on XiangShan's RTL, the cycles in
	 * which the queue can accept: the complement of the queue being full
	 * (kmh.h's KMH_RTL_INVERSE), so the model delivers that. */
	int iq_full = p->stall == WL_STALL_CORE && p->cause == WL_CAUSE_IQ;
	v[E.iq_alu_full[0]] = v[E.iq_alu_full[1]] = v[E.iq_alu_i2f_full] = !iq_full;
	v[E.iq_div_full] = !(p->stall == WL_STALL_CORE && p->cause == WL_CAUSE_DIV);
	for (unsigned k = 0; k < 2; k++)
		v[E.iq_sta_full[k]] = v[E.iq_std_full[k]] = p->stall != WL_STALL_STORE;
	for (unsigned k = 0; k < NPIPE; k++)
		v[E.iq_ldu_full[k]] = p->stall != WL_STALL_L1;
	for (unsigned k = 0; k < 8; k++)
		v[E.iq_fp_vec_full[k]] = 1; /* empty: they can always accept */
	/* ROB and commit */
	v[E.rob_flush_pipe] = p->flush == WL_FLUSH_PIPE;
	v[E.rob_replay] = replay;
	v[E.commit_instr] = p->commit;
	v[E.commit_fused] = p->fused;
	v[E.commit_uop] = p->commit - p->fused;
	v[E.commit_load] = p->loads;
	v[E.commit_store] = p->stores;
	v[E.commit_branch] = p->branches;
	v[E.branch_jump] = p->branches;
	v[E.walk_instr] = p->walk;
	v[E.walk_cycle] = p->walk > 0;
	if (p->rob > 0)
		v[E.rob_q[p->rob - 1]] = 1;
	/* Topdown backend */
	v[E.br_mis_pred] = p->flush == WL_FLUSH_BRANCH;
	v[E.total_flush] = flushed;
	v[E.exec_stall] = p->exec_stall;
	v[E.memstall_store] = p->stall == WL_STALL_STORE;
	v[E.memstall_any] = p->stall >= WL_STALL_L1 && p->stall <= WL_STALL_DRAM;
	v[E.memstall_l1] = p->stall >= WL_STALL_L2 && p->stall <= WL_STALL_DRAM;
	v[E.memstall_l2] = p->stall >= WL_STALL_L3 && p->stall <= WL_STALL_DRAM;
	v[E.memstall_l3] = p->stall == WL_STALL_DRAM;
}

/* The memory's: the memblock's load pipelines (the first ld_issue of them
 * busy), TLBs, load and store queues, sbuffer and miss queue; the L2's. */
static void fill_memory(const struct wl_params *p, int *v)
{
	for (unsigned k = 0; k < NPIPE; k++) {
		int fire = (int)k < p->ld_issue;
		v[E.s0[k]] = v[E.s1[k]] = v[E.s2[k]] = fire;
		v[E.load_req[k]] = v[E.rd_access[k]] = fire;
		v[E.l2l_fwd[k]] = (int)k < p->forward;
		v[E.s1_tlb_miss[k]] = (int)k < p->dtlb_miss;
		v[E.s2_dcache_miss[k]] = v[E.rd_miss[k]] = (int)k < p->dcache_miss;
		v[E.prf_access[k]] = (int)k < p->prefetch;
		v[E.prf_miss[k]] = (int)k < p->prefetch_miss;
	}
	v[E.dtlb_ld_access] = p->ld_issue;
	v[E.dtlb_ld_miss] = p->dtlb_miss;
	v[E.dtlb_st_access] = p->st_issue;
	v[E.dtlb_st_miss] = p->dtlb_st_miss;
	v[E.ptw_access] = v[E.itlb_miss] + p->dtlb_miss + p->dtlb_st_miss;
	v[E.rar_enq] = v[E.raw_enq] = p->ld_issue;
	v[E.ld_ld_violation] = p->flush == WL_FLUSH_LDLD;
	v[E.stld_rollback] = p->flush == WL_FLUSH_STLD;
	/* A load that misses the DTLB or the DCache waits in the replay queue. */
	v[E.replay_enq] = p->dtlb_miss + p->dcache_miss;
	v[E.replay_tlb_miss] = p->dtlb_miss;
	v[E.replay_dcache_miss] = p->dcache_miss;
	/* stores: committed stores enter the sbuffer; each new line is written
	 * to the DCache; a store stall is an sbuffer that cannot drain */
	int blocked = p->stall == WL_STALL_STORE;
	v[E.sb_valid] = p->stores + blocked;
	v[E.sb_fire] = p->stores;
	v[E.sb_merge] = p->merge;
	v[E.sb_newline] = p->stores - p->merge;
	v[E.dc_req_valid] = p->stores - p->merge + blocked;
	v[E.dc_req_fire] = p->stores - p->merge;
	v[E.wr_access] = p->stores - p->merge;
	v[E.wr_miss] = p->store_miss != WL_LEVEL_NONE;
	v[E.mp_req] = p->stores - p->merge;
	v[E.sb_idle] = p->sbuffer == 0;
	if (p->sbuffer > 0)
		v[E.sb_q[p->sbuffer - 1]] = 1;
	if (p->stq > 0)
		v[E.stq_q[p->stq - 1]] = 1;
	v[E.missq_req] = p->dcache_miss + (p->store_miss != WL_LEVEL_NONE);
	if (p->missq > 0)
		v[E.missq_q[p->missq - 1]] = 1;
	v[E.wbq_req] = popcount4(p->l1_wb);
	v[E.ld_deq] = p->loads;
	v[E.st_deq] = p->stores;

	/* the L2 cache: each mask bit is one request to that slice */
	for (unsigned s = 0; s < NSLICE; s++) {
		int rh = bit(p->l2_rd_hit, s), rm = bit(p->l2_rd_miss, s);
		int wh = bit(p->l2_wr_hit, s), wm = bit(p->l2_wr_miss, s);
		v[E.hit[s]] = rh + wh;
		v[E.miss[s]] = rm + wm;
		v[E.access[s]] = rh + wh + rm + wm;
		v[E.access_rd[s]] = rh + rm;
		v[E.access_wr[s]] = wh + wm;
		v[E.miss_rd[s]] = rm;
		v[E.refill[s]] = rm + wm;
		v[E.rd_refill[s]] = rm;
		v[E.wr_refill[s]] = wm;
		v[E.long_miss[s]] = p->long_miss ? rm + wm : 0;
		v[E.l2wb[s]] = v[E.wb_victim[s]] = bit(p->l2_wb, s);
		v[E.l1wb[s]] = bit(p->l1_wb, s);
		v[E.pf_access[s]] = bit(p->l2_pf, s);
		v[E.pf_miss[s]] = bit(p->l2_pf_miss, s);
	}
}

bool wl_model_fill(const struct wl_params *in, uint8_t *vals, char *err, size_t errlen)
{
	struct wl_params p;
	if (!derive(in, &p, err, errlen))
		return false;
	int *v = calloc(wl_layout.total, sizeof(*v));
	if (!v) {
		str_seterr(err, errlen, "out of memory");
		return false;
	}
	fill_core(&p, v);
	fill_memory(&p, v);
	bool ok = true;
	for (unsigned i = 0; i < wl_layout.total; i++) {
		if (v[i] < 0 || v[i] > 63) {
			str_seterr(err, errlen, "the parameters give %s = %d, outside 0..63",
			           ev_name_by_off[i], v[i]);
			ok = false;
			break;
		}
		vals[i] = (uint8_t)v[i];
	}
	free(v);
	return ok;
}

/* ------------------------------------------------------------ invariants */

struct chk {
	const uint8_t *v;
	char *err;
	size_t errlen;
	bool ok;
};

static const char *nm(unsigned off)
{
	return ev_name_by_off[off];
}

/* a <= b */
static void le(struct chk *c, unsigned a, unsigned b)
{
	if (c->ok && c->v[a] > c->v[b]) {
		str_seterr(c->err, c->errlen, "%s <= %s (%u > %u)", nm(a), nm(b), c->v[a], c->v[b]);
		c->ok = false;
	}
}

/* a <= n */
static void le_n(struct chk *c, unsigned a, unsigned n)
{
	if (c->ok && c->v[a] > n) {
		str_seterr(c->err, c->errlen, "%s <= %u (%u)", nm(a), n, c->v[a]);
		c->ok = false;
	}
}

/* the sum of the n values at the offsets in ap */
static unsigned sum_offsets(const struct chk *c, unsigned n, va_list ap)
{
	unsigned sum = 0;
	for (unsigned i = 0; i < n; i++)
		sum += c->v[va_arg(ap, unsigned)];
	return sum;
}

/* value == sum of the listed offsets; `what` describes the sum */
static void eq_sum(struct chk *c, unsigned a, const char *what, unsigned n, ...)
{
	va_list ap;
	va_start(ap, n);
	unsigned sum = sum_offsets(c, n, ap);
	va_end(ap);
	if (c->ok && c->v[a] != sum) {
		str_seterr(c->err, c->errlen, "%s = %s (%u != %u)", nm(a), what, c->v[a], sum);
		c->ok = false;
	}
}

/* sum of the listed offsets <= limit; `what` describes the sum */
static void sum_le(struct chk *c, const char *what, unsigned limit, unsigned n, ...)
{
	va_list ap;
	va_start(ap, n);
	unsigned sum = sum_offsets(c, n, ap);
	va_end(ap);
	if (c->ok && sum > limit) {
		str_seterr(c->err, c->errlen, "%s <= %u (%u)", what, limit, sum);
		c->ok = false;
	}
}

static void onehot(struct chk *c, const char *what, const unsigned q[4])
{
	sum_le(c, what, 1, 4, q[0], q[1], q[2], q[3]);
}

/* the frontend bank's identities in one cycle */
static void check_frontend(struct chk *c)
{
	le(c, E.ifu_miss, E.ifu_req);
	le(c, E.line0, E.ifu_req);
	le(c, E.line1, E.line0);
	le(c, E.line0_hit, E.line0);
	le(c, E.line1_hit, E.line1);
	eq_sum(c, E.line0, "the six hit/miss combinations", 6, E.only_0_hit, E.only_0_miss,
	       E.hit_0_hit_1, E.hit_0_miss_1, E.miss_0_hit_1, E.miss_0_miss_1);
	eq_sum(c, E.line1, "the four two-line combinations", 4, E.hit_0_hit_1, E.hit_0_miss_1,
	       E.miss_0_hit_1, E.miss_0_miss_1);
	eq_sum(c, E.line0_hit, "only_0_hit + hit_0_hit_1 + hit_0_miss_1", 3, E.only_0_hit,
	       E.hit_0_hit_1, E.hit_0_miss_1);
	eq_sum(c, E.line1_hit, "hit_0_hit_1 + miss_0_hit_1", 2, E.hit_0_hit_1, E.miss_0_hit_1);
	eq_sum(c, E.ifu_miss, "the fetches with a missing line", 4, E.only_0_miss, E.hit_0_miss_1,
	       E.miss_0_hit_1, E.miss_0_miss_1);
	if (c->ok && c->v[E.icache_miss_cnt] != (c->v[E.line0] - c->v[E.line0_hit]) +
	                                            (c->v[E.line1] - c->v[E.line1_hit])) {
		str_seterr(c->err, c->errlen, "icache_miss_bubble = missed cachelines (%u != %u)",
		           c->v[E.icache_miss_cnt],
		           (c->v[E.line0] - c->v[E.line0_hit]) +
		               (c->v[E.line1] - c->v[E.line1_hit]));
		c->ok = false;
	}
	le(c, E.itlb_miss, E.itlb_access);
	eq_sum(c, E.bp_instr, "BpRight + BpWrong", 2, E.bp_right, E.bp_wrong);
	eq_sum(c, E.bp_b_instr, "BpBRight + BpBWrong", 2, E.bp_type_right[WL_BR_B],
	       E.bp_type_wrong[WL_BR_B]);
	eq_sum(c, E.bp_right, "BpBRight + BpJRight + BpIRight + BpCRight + BpRRight", 5,
	       E.bp_type_right[0], E.bp_type_right[1], E.bp_type_right[2], E.bp_type_right[3],
	       E.bp_type_right[4]);
	eq_sum(c, E.bp_wrong, "BpBWrong + BpJWrong + BpIWrong + BpCWrong + BpRWrong", 5,
	       E.bp_type_wrong[0], E.bp_type_wrong[1], E.bp_type_wrong[2], E.bp_type_wrong[3],
	       E.bp_type_wrong[4]);
	if (c->ok && c->v[E.fauftb_hit] + c->v[E.fauftb_miss] !=
	                 c->v[E.ftb_commit_hits] + c->v[E.ftb_commit_misses]) {
		str_seterr(c->err, c->errlen,
		           "fauftb_commit_hit + fauftb_commit_miss = ftb_commit_hits + "
		           "ftb_commit_misses (%u != %u)",
		           c->v[E.fauftb_hit] + c->v[E.fauftb_miss],
		           c->v[E.ftb_commit_hits] + c->v[E.ftb_commit_misses]);
		c->ok = false;
	}
	le_n(c, E.front_bubble, 6);
	le_n(c, E.fetch_latency, 1);
	if (c->ok && c->v[E.fetch_latency] && c->v[E.front_bubble] != 6) {
		str_seterr(c->err, c->errlen,
		           "Fetch_Latency_Bound only when Front_Bubble = 6 (Front_Bubble %u)",
		           c->v[E.front_bubble]);
		c->ok = false;
	}
	onehot(c, "IBuffer_1_4_valid + ... + IBuffer_4_4_valid", E.ibuf_q);
	le(c, E.ibuf_full, E.ibuf_q[3]);
}

/* the backend bank's identities in one cycle */
static void check_backend(struct chk *c)
{
	le_n(c, E.commit_instr, 6);
	le(c, E.commit_instr, E.inst_spec);
	le_n(c, E.inst_spec, 6);
	/* RECOVERY_BUBBLE counts cycles (a 1-bit flag on the RTL), and a
	 * recovery cycle's 6 slots are all lost: so INST_SPEC + 6 x
	 * RECOVERY_BUBBLE + Front_Bubble <= 6 keeps each level-1 share in [0, 1]
	 * under the document's formula and the slots variant alike. */
	le_n(c, E.recovery_bubble, 1);
	if (c->ok && c->v[E.inst_spec] + 6u * c->v[E.recovery_bubble] + c->v[E.front_bubble] > 6) {
		str_seterr(c->err, c->errlen,
		           "INST_SPEC + 6 x RECOVERY_BUBBLE + Front_Bubble <= 6 (%u)",
		           c->v[E.inst_spec] + 6u * c->v[E.recovery_bubble] + c->v[E.front_bubble]);
		c->ok = false;
	}
	le(c, E.br_mis_pred, E.total_flush);
	le_n(c, E.exec_stall, 1);
	if (c->ok && c->v[E.memstall_any] + c->v[E.memstall_store] > c->v[E.exec_stall]) {
		str_seterr(c->err, c->errlen,
		           "MEMSTALL_ANY_LOAD + MEMSTALL_STORE <= EXEC_STALL_CYCLE (%u > %u)",
		           c->v[E.memstall_any] + c->v[E.memstall_store], c->v[E.exec_stall]);
		c->ok = false;
	}
	le(c, E.memstall_l3, E.memstall_l2);
	le(c, E.memstall_l2, E.memstall_l1);
	le(c, E.memstall_l1, E.memstall_any);
	le_n(c, E.memstall_any, 1);
	if (c->ok && c->v[E.commit_load] + c->v[E.commit_store] + c->v[E.commit_branch] >
	                 c->v[E.commit_instr]) {
		str_seterr(c->err, c->errlen,
		           "rob_commitInstrLoad + rob_commitInstrStore + rob_commitInstrBranch <= "
		           "rob_commitInstr (%u > %u)",
		           c->v[E.commit_load] + c->v[E.commit_store] + c->v[E.commit_branch],
		           c->v[E.commit_instr]);
		c->ok = false;
	}
	eq_sum(c, E.commit_instr, "rob_commitUop + rob_commitInstrFused", 2, E.commit_uop,
	       E.commit_fused);
	eq_sum(c, E.branch_jump, "rob_commitInstrBranch", 1, E.commit_branch);
	eq_sum(c, E.bp_instr, "rob_commitInstrBranch", 1, E.commit_branch);
	eq_sum(c, E.bp_wrong, "BR_MIS_PRED", 1, E.br_mis_pred);
	eq_sum(c, E.mispredict_redirect, "BR_MIS_PRED", 1, E.br_mis_pred);
	eq_sum(c, E.frontendFlush, "TOTAL_FLUSH", 1, E.total_flush);
	if (c->ok && c->v[E.walk_cycle] != (c->v[E.walk_instr] > 0)) {
		str_seterr(c->err, c->errlen, "rob_walkCycle = (rob_walkInstr > 0) (%u, %u)",
		           c->v[E.walk_cycle], c->v[E.walk_instr]);
		c->ok = false;
	}
	onehot(c, "rob_1_4_valid + ... + rob_4_4_valid", E.rob_q);
	onehot(c, "me_freelist_1_4_valid + ... + me_freelist_4_4_valid", E.freelist_q);
}

/* the memblock bank's identities in one cycle */
static void check_memblock(struct chk *c)
{
	for (unsigned k = 0; k < NPIPE; k++) {
		le(c, E.s2[k], E.s1[k]);
		le(c, E.s1[k], E.s0[k]);
		le(c, E.s1_tlb_miss[k], E.s1[k]);
		le(c, E.s2_dcache_miss[k], E.s2[k]);
		le(c, E.l2l_fwd[k], E.s0[k]);
		le(c, E.prf_miss[k], E.prf_access[k]);
		le(c, E.rd_miss[k], E.rd_access[k]);
	}
	le(c, E.sb_fire, E.sb_valid);
	eq_sum(c, E.sb_fire, "sbuffer_merge + sbuffer_newline", 2, E.sb_merge, E.sb_newline);
	le(c, E.dc_req_fire, E.dc_req_valid);
	le(c, E.wr_miss, E.wr_access);
	le(c, E.dtlb_ld_miss, E.dtlb_ld_access);
	le(c, E.dtlb_st_miss, E.dtlb_st_access);
	if (c->ok && c->v[E.replay_tlb_miss] + c->v[E.replay_dcache_miss] > c->v[E.replay_enq]) {
		str_seterr(
		    c->err, c->errlen, "replay_tlb_miss + replay_dcache_miss <= enq.2 (%u > %u)",
		    c->v[E.replay_tlb_miss] + c->v[E.replay_dcache_miss], c->v[E.replay_enq]);
		c->ok = false;
	}
	sum_le(c, "sbuffer_idle + sbuffer_1_4_valid + ... + sbuffer_full_valid", 1, 5, E.sb_idle,
	       E.sb_q[0], E.sb_q[1], E.sb_q[2], E.sb_q[3]);
	onehot(c, "stq_1_4_valid + ... + stq_4_4_valid", E.stq_q);
	onehot(c, "dcache_missq_1_4_valid + ... + dcache_missq_4_4_valid", E.missq_q);
}

/* the cache bank's identities in one cycle */
static void check_cache(struct chk *c)
{
	for (unsigned s = 0; s < NSLICE; s++) {
		eq_sum(c, E.access[s], "hit + miss", 2, E.hit[s], E.miss[s]);
		eq_sum(c, E.access[s], "access_rd + access_wr", 2, E.access_rd[s], E.access_wr[s]);
		le(c, E.miss_rd[s], E.miss[s]);
		le(c, E.miss_rd[s], E.access_rd[s]);
		eq_sum(c, E.refill[s], "rd_refill + wr_refill", 2, E.rd_refill[s], E.wr_refill[s]);
		le(c, E.refill[s], E.miss[s]);
		le(c, E.long_miss[s], E.miss[s]);
		le(c, E.pf_miss[s], E.pf_access[s]);
		le(c, E.wb_victim[s], E.refill[s]);
	}
}

bool wl_model_check(const uint8_t *v, char *err, size_t errlen)
{
	struct chk c = {v, err, errlen, true};
	for (unsigned b = 0; b < KMH_NR_BANKS && c.ok; b++) {
		if (v[wl_layout.off[b]]) {
			str_seterr(err, errlen, "%s:noEvent must be 0", kmh_table_v2.banks[b].name);
			return false;
		}
		for (unsigned i = 0; i < wl_layout.nr[b]; i++)
			if (v[wl_layout.off[b] + i] > 63) {
				str_seterr(err, errlen, "%s:%s = %u, outside 0..63",
				           kmh_table_v2.banks[b].name, nm(wl_layout.off[b] + i),
				           v[wl_layout.off[b] + i]);
				return false;
			}
	}

	check_frontend(&c);
	check_backend(&c);
	check_memblock(&c);
	check_cache(&c);
	return c.ok;
}

/* ---------------------------------------------------------------- Topdown */

void wl_topdown(const double ev[WL_NR_TD_EVENTS], struct emu_topdown *td)
{
	const double slots = 6.0; /* IssueBW */
	td->retiring = ev[WL_TD_INST_RETIRED] / slots;
	td->frontend = ev[WL_TD_FETCH_BUBBLE] / slots;
	td->bad_spec =
	    (ev[WL_TD_INST_SPEC] - ev[WL_TD_INST_RETIRED] + ev[WL_TD_RECOVERY_BUBBLE]) / slots;
	td->backend = 1.0 - (td->frontend + td->bad_spec + td->retiring);
	td->fetch_latency = ev[WL_TD_FETCH_LATENCY];
	td->fetch_bandwidth = td->frontend - td->fetch_latency;
	if (ev[WL_TD_TOTAL_FLUSH] > 0) {
		/* BR_MIS_PRED <= TOTAL_FLUSH in every cycle (wl_model_check):
		 * a ratio above 1 is the rounding of two means, which would
		 * leave Machine Clears a hair below 0 */
		double mispredicted = ev[WL_TD_BR_MIS_PRED] / ev[WL_TD_TOTAL_FLUSH];
		td->branch_mispredict = td->bad_spec * (mispredicted < 1 ? mispredicted : 1);
		td->machine_clears = td->bad_spec - td->branch_mispredict;
	} else {
		td->branch_mispredict = (double)NAN;
		td->machine_clears = (double)NAN;
	}
	double any = ev[WL_TD_MEMSTALL_ANY_LOAD], store = ev[WL_TD_MEMSTALL_STORE];
	td->core_bound = ev[WL_TD_EXEC_STALL] - any - store;
	td->memory_bound = any + store;
	td->l1 = any - ev[WL_TD_MEMSTALL_L1MISS];
	td->l2 = ev[WL_TD_MEMSTALL_L1MISS] - ev[WL_TD_MEMSTALL_L2MISS];
	td->l3 = ev[WL_TD_MEMSTALL_L2MISS] - ev[WL_TD_MEMSTALL_L3MISS];
	td->dram = ev[WL_TD_MEMSTALL_L3MISS];
	td->store = store;
}

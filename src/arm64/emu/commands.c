/* commands.c (arm64/emu): what `hpmstat emu --arch arm64` runs on the Arm
 * PMUv3 emulator (struct hpm_emu_commands, arch/machine.h): the Arm
 * workload profiles listed with what they declare, the bench, and the
 * script language (script.h) on a machine of a feature profile. Library
 * code: lines go to the caller's callback.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "arm64/emu/bench.h"
#include "arm64/emu/machine.h"
#include "arm64/emu/pmu.h"
#include "arm64/emu/profile.h"
#include "arm64/emu/script.h"
#include "emukit/bench.h"
#include "emukit/lines.h"
#include "emukit/script.h"
#include "util/xalloc.h"

static json_t *arm_td_json(const struct arm_src_topdown *td)
{
	/* Arm's metric names, in stat's order */
	json_t *o = json_object();
	json_object_set_new(o, "frontend_bound", hpm_emu_json_num(td->frontend));
	json_object_set_new(o, "bad_speculation", hpm_emu_json_num(td->bad_spec));
	json_object_set_new(o, "backend_bound", hpm_emu_json_num(td->backend));
	json_object_set_new(o, "retiring", hpm_emu_json_num(td->retiring));
	return o;
}

/* A declared level 1 as text, by stat's node names and in stat's order. */
static const char *arm_td_text(const struct arm_src_topdown *td, char *buf, size_t len)
{
	char b[4][16];
	snprintf(buf, len, "Frontend_Bound %s  Bad_Speculation %s  Backend_Bound %s  Retiring %s",
	         hpm_emu_pct(td->frontend, b[0]), hpm_emu_pct(td->bad_spec, b[1]),
	         hpm_emu_pct(td->backend, b[2]), hpm_emu_pct(td->retiring, b[3]));
	return buf;
}

/* `emu profiles` (arch/machine.h): every Arm workload profile with its
 * declared level-1 Topdown, by slots, by cycles and by Arm's formulas. */
static int arm_profiles(const struct hpm_emu_options *opts, hpm_emu_line_fn out, void *ctx,
                        char *err, size_t errlen)
{
	if (opts->json) {
		json_t *arr = json_array();
		for (unsigned i = 0; i < arm_src_profile_count(); i++) {
			const struct arm_src_profile *p = arm_src_profile_at(i);
			struct arm_src_topdown sl, cy, ksl, kcy;
			arm_src_profile_declared(p, &sl, &cy);
			arm_src_profile_declared_kernel(p, &ksl, &kcy);
			json_array_append_new(
			    arr,
			    json_pack("{s:s,s:s,s:b,s:i,s:i,s:o,s:o,s:o,s:o}", "name",
			              arm_src_profile_name(p), "description",
			              arm_src_profile_description(p), "emulated", 1, "slots",
			              (int)arm_src_profile_slots(p), "stall_slot_bias",
			              (int)arm_src_profile_stall_slot_bias(p), "declared_slots",
			              arm_td_json(&sl), "declared_cycles", arm_td_json(&cy),
			              "declared_kernel_slots", arm_td_json(&ksl),
			              "declared_kernel_cycles", arm_td_json(&kcy)));
			/* Arm's own formulas (BR_MIS_PRED moved between nodes) */
			json_t *o = json_array_get(arr, json_array_size(arr) - 1);
			for (unsigned f = 0; f < ARM_SRC_TD_NR; f++)
				for (int kernel = 0; kernel < 2; kernel++) {
					struct arm_src_topdown a;
					char key[40];
					arm_src_profile_declared_arm(p, f, kernel, &a);
					snprintf(key, sizeof(key), "declared_%sarm_%s",
					         kernel ? "kernel_" : "",
					         f == ARM_SRC_TD_V1 ? "v1" : "v2");
					json_object_set_new(o, key, arm_td_json(&a));
				}
		}
		return hpm_emu_json_out(arr, out, ctx, err, errlen) ? HPM_EMU_EFAIL : 0;
	}
	hpm_emu_linef(out, ctx, "Emulated Arm workload profiles (declared level-1 Topdown, %%):\n");
	for (unsigned i = 0; i < arm_src_profile_count(); i++) {
		const struct arm_src_profile *p = arm_src_profile_at(i);
		struct arm_src_topdown sl, cy, ksl, kcy;
		char line[160];
		arm_src_profile_declared(p, &sl, &cy);
		arm_src_profile_declared_kernel(p, &ksl, &kcy);
		hpm_emu_linef(out, ctx, "\n%s: %s\n", arm_src_profile_name(p),
		              arm_src_profile_description(p));
		hpm_emu_linef(out, ctx, "  slots (%u): %s\n", arm_src_profile_slots(p),
		              arm_td_text(&sl, line, sizeof(line)));
		hpm_emu_linef(out, ctx, "  cycles:    %s\n", arm_td_text(&cy, line, sizeof(line)));
		for (unsigned f = 0; f < ARM_SRC_TD_NR; f++) {
			struct arm_src_topdown a;
			arm_src_profile_declared_arm(p, f, false, &a);
			hpm_emu_linef(out, ctx, "  %s %s\n",
			              f == ARM_SRC_TD_V1 ? "Arm V1:   " : "Arm V2/N2:",
			              arm_td_text(&a, line, sizeof(line)));
		}
		if (memcmp(&sl, &ksl, sizeof(sl)) != 0)
			hpm_emu_linef(out, ctx,
			              "  as a Non-secure kernel counts it (Secure, Root and EL3 "
			              "prohibited), slots: %s\n",
			              arm_td_text(&ksl, line, sizeof(line)));
	}
	return 0;
}

/* The bench's producer over a workload profile's stream (the engine
 * knows no sources library: see arm64/emu/bench.h). */
static void arm_bench_next(void *ctx, uint64_t max_cycles, struct arm_emu_run *run)
{
	arm_src_stream_next(ctx, max_cycles, run);
}

/* `emu bench` (arch/machine.h): 31 counters with thresholds, edges and
 * linking on the synthetic stream or a workload profile's, fast path
 * against reference. */
static int arm_bench(const struct hpm_emu_options *opts, hpm_emu_line_fn out,
                     hpm_emu_bench_mismatch_fn mismatch, void *ctx, char *err, size_t errlen)
{
	uint64_t cycles = opts->cycles, seed = opts->seed;
	uint64_t max_run = opts->max_run ? opts->max_run : 100;
	const char *pname = opts->profile, *pmu = opts->pmu ? opts->pmu : "future";
	bool max_run_given = opts->max_run != 0;

	if (pname && max_run_given) {
		snprintf(err, errlen,
		         "--max-run shapes the synthetic stream; a profile's runs have the lengths "
		         "it declares");
		return HPM_EMU_EUSAGE;
	}
	const struct arm_emu_features *f = arm_emu_features_find(pmu);
	if (!f) {
		snprintf(
		    err, errlen,
		    "--pmu %s: no Arm emulator profile of that name (n1, v2, future, or an Arm "
		    "core such as neoverse-v2)",
		    pmu);
		return HPM_EMU_EFAIL;
	}
	const struct arm_src_profile *p = NULL;
	if (pname && !(p = arm_src_profile_find(pname, err, errlen)))
		return HPM_EMU_EFAIL;

	struct hpm_emu_bench_result res;
	struct arm_emu_bench *b;
	if (p) {
		unsigned nr = arm_src_profile_nr_events(p);
		uint16_t *events = xcalloc(nr ? nr : 1, sizeof(*events));
		for (unsigned i = 0; i < nr; i++)
			events[i] = arm_src_profile_event(p, i);
		struct arm_src_stream *st = arm_src_stream_new(p, seed);
		struct arm_emu_bench_source src = {
		    .next = arm_bench_next, .ctx = st, .events = events, .nr_events = nr};
		b = arm_emu_bench_stream(f, &src, seed, cycles, 3, &res, err, errlen);
		arm_src_stream_free(st);
		free(events);
	} else {
		b = arm_emu_bench_run(f, seed, cycles, (unsigned)max_run, true, 3, &res, err,
		                      errlen);
	}
	if (!b) {
		arm_src_profile_free(p);
		return HPM_EMU_EFAIL;
	}
	if (p) {
		hpm_emu_linef(out, ctx,
		              "machine:    Arm PMUv3 emulator, feature profile %s, emulated\n",
		              f->name);
		hpm_emu_linef(out, ctx, "workload:   %s (%s, seed %" PRIu64 "), emulated\n",
		              arm_src_profile_name(p), arm_src_profile_origin(p), seed);
		hpm_emu_linef(
		    out, ctx,
		    "stream:     %" PRIu64 " cycles in %" PRIu64 " runs (%.1f cycles/run)\n",
		    res.cycles, res.runs, res.runs ? (double)res.cycles / (double)res.runs : 0.0);
	} else {
		hpm_emu_linef(out, ctx,
		              "machine:    Arm PMUv3 emulator, profile %s (seed %" PRIu64
		              "), emulated\n",
		              f->name, seed);
		hpm_emu_linef(out, ctx,
		              "stream:     %" PRIu64 " cycles in %" PRIu64 " runs of 1-%" PRIu64
		              " cycles (%.1f cycles/run)\n",
		              res.cycles, res.runs, max_run,
		              res.runs ? (double)res.cycles / (double)res.runs : 0.0);
	}
	hpm_emu_linef(out, ctx,
	              "counters:   31 programmed: thresholds, edges, linking, filters, overflow\n");
	hpm_emu_bench_lines(&res, out, ctx);
	int status = arm_emu_bench_compare(b, mismatch, ctx) ? 1 : 0;
	if (!status)
		hpm_emu_linef(out, ctx,
		              "check:      equal: every register of every PE and the edge state\n");
	arm_emu_bench_free(b);
	arm_src_profile_free(p);
	return status;
}

/* `emu --arch arm64 [SCRIPT]` (arch/machine.h): script.h's language on
 * a machine of feature profile opts->pmu (default v2), run as an
 * hpm_emu_script_session. */
static void arm_script_end(void *script, void *m)
{
	arm_script_free(script);
	arm_emu_free(m);
}

static int arm_script_start(const struct hpm_emu_options *opts, hpm_emu_line_fn out, void *ctx,
                            const volatile sig_atomic_t *stop, void **s, char *err, size_t errlen)
{
	const char *pmu = opts->pmu ? opts->pmu : "v2";
	const struct arm_emu_features *feat = arm_emu_features_find(pmu);
	*s = NULL;
	if (!feat) {
		snprintf(
		    err, errlen,
		    "--pmu %s: no Arm emulator profile of that name (n1, v1, n2, v2, future, or "
		    "neoverse-n1, neoverse-n2, neoverse-v1, neoverse-v2)",
		    pmu);
		return HPM_EMU_EUSAGE;
	}
	struct arm_emu *m =
	    arm_emu_new(feat, (unsigned)opts->harts, (unsigned)opts->per_core, err, errlen);
	if (!m)
		return HPM_EMU_EUSAGE;
	/* an Arm core's name also names the events of `feed` */
	struct arm_script *script =
	    arm_script_new(m, arm_emu_core_profile(pmu) ? pmu : NULL, out, ctx);
	*s = hpm_emu_script_session_new(arm_script_core(script), script, m, arm_script_end, stop,
	                                opts->trace_out, err, errlen);
	return *s ? 0 : HPM_EMU_EFAIL;
}

const struct hpm_emu_commands arm_emu_commands = {
    .arch = "arm64",
    .arch_alias = "aarch64",
    .title = "the Arm PMUv3",
    .options = HPM_EMU_OPT_PES | HPM_EMU_OPT_PMU | HPM_EMU_OPT_MAX_RUN,
    .max_harts = ARM_EMU_MAX_PES,
    .max_per_core = ARM_EMU_MAX_PES_PER_CORE,
    .profiles = arm_profiles,
    .bench = arm_bench,
    .script_max_line = ARM_SCRIPT_MAX_LINE,
    .script_new = arm_script_start,
    HPM_EMU_SCRIPT_SESSION_OPS,
};

/* commands.c: what `hpmstat emu` runs on Kunminghu's machine (struct
 * hpm_emu_commands, arch/machine.h): its workload profiles listed with
 * what they declare, its bench, and its script language on a machine of
 * emu.h's harts. Library code: lines go to the caller's callback.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <jansson.h>

#include "emukit/bench.h"
#include "emukit/lines.h"
#include "emukit/script.h"
#include "kmh/emu/bench.h"
#include "kmh/emu/emu.h"
#include "kmh/emu/machine.h"
#include "kmh/emu/workload.h"
#include "util/xalloc.h"

/* A Topdown node: a number, or null where its formula divides by zero. */
static json_t *td_num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *td_json(const struct emu_topdown *td)
{
	json_t *l1 = json_object(), *l2 = json_object(), *l3 = json_object(), *o = json_object();

	json_object_set_new(l1, "retiring", td_num(td->retiring));
	json_object_set_new(l1, "frontend_bound", td_num(td->frontend));
	json_object_set_new(l1, "bad_speculation", td_num(td->bad_spec));
	json_object_set_new(l1, "backend_bound", td_num(td->backend));
	json_object_set_new(l2, "fetch_latency", td_num(td->fetch_latency));
	json_object_set_new(l2, "fetch_bandwidth", td_num(td->fetch_bandwidth));
	json_object_set_new(l2, "branch_mispredict", td_num(td->branch_mispredict));
	json_object_set_new(l2, "machine_clears", td_num(td->machine_clears));
	json_object_set_new(l2, "core_bound", td_num(td->core_bound));
	json_object_set_new(l2, "memory_bound", td_num(td->memory_bound));
	json_object_set_new(l3, "l1_bound", td_num(td->l1));
	json_object_set_new(l3, "l2_bound", td_num(td->l2));
	json_object_set_new(l3, "l3_bound", td_num(td->l3));
	json_object_set_new(l3, "dram_bound", td_num(td->dram));
	json_object_set_new(l3, "store_bound", td_num(td->store));
	json_object_set_new(o, "level1", l1);
	json_object_set_new(o, "level2", l2);
	json_object_set_new(o, "level3", l3);
	return o;
}

/* emu_profile_unproduced()'s visitor: one "BANK:NAME" into the JSON array. */
static void append_unproduced(void *list, const char *bank_colon_name)
{
	json_array_append_new(list, json_string(bank_colon_name));
}

/* `emu profiles` (arch/machine.h): every workload profile with its
 * declared Topdown breakdown (levels 1-3), functions and tasks. */
static int kmh_profiles(const struct hpm_emu_options *opts, hpm_emu_line_fn out, void *ctx,
                        char *err, size_t errlen)
{
	if (opts->json) {
		json_t *arr = json_array();
		for (unsigned i = 0; i < emu_profile_count(); i++) {
			const struct emu_profile *p = emu_profile_at(i);
			struct emu_topdown td;
			json_t *unp = json_array();
			struct emu_topdown slots;
			emu_profile_declared(p, &td);
			emu_profile_declared_slots(p, &slots);
			emu_profile_unproduced(p, append_unproduced, unp);
			json_t *o = json_pack("{s:s,s:s,s:b,s:o,s:o}", "name", emu_profile_name(p),
			                      "description", emu_profile_description(p), "emulated",
			                      1, "declared", td_json(&td), "not_produced", unp);
			/* what stat --topdown-variant=slots converges to */
			json_object_set_new(o, "declared_variants",
			                    json_pack("{s:o}", "slots", td_json(&slots)));
			/* the declared functions, only where there are some */
			unsigned nf = emu_profile_nr_functions(p);
			if (nf) {
				json_t *fa = json_array();
				for (unsigned k = 0; k < nf; k++) {
					struct emu_function f;
					emu_profile_function(p, k, &f);
					json_array_append_new(
					    fa, json_pack("{s:s,s:I,s:I,s:f,s:o}", "name", f.name,
					                  "start", (json_int_t)f.start, "end",
					                  (json_int_t)f.end, "share", f.share,
					                  "declared", td_json(&f.td)));
				}
				json_object_set_new(o, "functions", fa);
			}
			/* the declared task schedule, only where there is one */
			unsigned nt = emu_profile_nr_tasks(p);
			if (nt) {
				json_t *ta = json_array();
				for (unsigned k = 0; k < nt; k++) {
					struct emu_task t;
					emu_profile_task(p, k, &t);
					json_t *to = json_pack(
					    "{s:s,s:i,s:i,s:i,s:f,s:I,s:o}", "comm", t.name, "pid",
					    t.pid, "tgid", t.tgid, "hart", (int)t.hart, "share",
					    t.share, "start", (json_int_t)t.start, "exit",
					    t.exit == UINT64_MAX
					        ? json_null()
					        : json_integer((json_int_t)t.exit));
					json_object_set_new(to, "declared", td_json(&t.td));
					json_array_append_new(ta, to);
				}
				json_object_set_new(o, "tasks", ta);
			}
			json_array_append_new(arr, o);
		}
		char *text = json_dumps(arr, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		json_decref(arr);
		if (!text) {
			snprintf(err, errlen, "cannot format JSON");
			return HPM_EMU_EFAIL;
		}
		out(ctx, text);
		free(text);
		return 0;
	}
	hpm_emu_linef(out, ctx, "Emulated workload profiles (declared Topdown breakdown, %%):\n");
	for (unsigned i = 0; i < emu_profile_count(); i++) {
		const struct emu_profile *p = emu_profile_at(i);
		struct emu_topdown td;
		emu_profile_declared(p, &td);
		hpm_emu_linef(out, ctx, "\n%s: %s\n", emu_profile_name(p),
		              emu_profile_description(p));
		char b[15][16];
		hpm_emu_linef(
		    out, ctx,
		    "  level 1: retiring %s  frontend %s  bad-speculation %s  backend %s\n",
		    hpm_emu_pct(td.retiring, b[0]), hpm_emu_pct(td.frontend, b[1]),
		    hpm_emu_pct(td.bad_spec, b[2]), hpm_emu_pct(td.backend, b[3]));
		hpm_emu_linef(
		    out, ctx,
		    "  level 2: fetch-latency %s  fetch-bandwidth %s  branch-mispredict %s  "
		    "machine-clears %s  core-bound %s  memory-bound %s\n",
		    hpm_emu_pct(td.fetch_latency, b[4]), hpm_emu_pct(td.fetch_bandwidth, b[5]),
		    hpm_emu_pct(td.branch_mispredict, b[6]), hpm_emu_pct(td.machine_clears, b[7]),
		    hpm_emu_pct(td.core_bound, b[8]), hpm_emu_pct(td.memory_bound, b[9]));
		hpm_emu_linef(out, ctx, "  level 3: l1 %s  l2 %s  l3 %s  dram %s  store %s\n",
		              hpm_emu_pct(td.l1, b[10]), hpm_emu_pct(td.l2, b[11]),
		              hpm_emu_pct(td.l3, b[12]), hpm_emu_pct(td.dram, b[13]),
		              hpm_emu_pct(td.store, b[14]));
		for (unsigned k = 0; k < emu_profile_nr_functions(p); k++) {
			struct emu_function f;
			emu_profile_function(p, k, &f);
			hpm_emu_linef(
			    out, ctx,
			    "  function %s [0x%" PRIx64 ", 0x%" PRIx64
			    ") %.1f%% of cycles: retiring "
			    "%s  frontend %s  bad-speculation %s  backend %s\n",
			    f.name, f.start, f.end, 100 * f.share, hpm_emu_pct(f.td.retiring, b[0]),
			    hpm_emu_pct(f.td.frontend, b[1]), hpm_emu_pct(f.td.bad_spec, b[2]),
			    hpm_emu_pct(f.td.backend, b[3]));
		}
		for (unsigned k = 0; k < emu_profile_nr_tasks(p); k++) {
			struct emu_task t;
			emu_profile_task(p, k, &t);
			hpm_emu_linef(
			    out, ctx,
			    "  task %s pid %d tgid %d hart %u, %.1f%% of its hart: retiring %s  "
			    "frontend %s  bad-speculation %s  backend %s\n",
			    t.name, t.pid, t.tgid, t.hart, 100 * t.share,
			    hpm_emu_pct(t.td.retiring, b[0]), hpm_emu_pct(t.td.frontend, b[1]),
			    hpm_emu_pct(t.td.bad_spec, b[2]), hpm_emu_pct(t.td.backend, b[3]));
		}
		unsigned n = emu_profile_unproduced(p, NULL, NULL);
		if (n)
			hpm_emu_linef(out, ctx, "  not produced: %u events (listed by --json)\n",
			              n);
	}
	return 0;
}

/* `emu bench` (arch/machine.h): all 29 counters on a profile's stream,
 * fast path against reference. */
static int kmh_bench(const struct hpm_emu_options *opts, hpm_emu_line_fn out,
                     void (*mismatch)(void *ctx, const char *reg, uint64_t fast, uint64_t ref),
                     void *ctx, char *err, size_t errlen)
{
	const char *pname = opts->profile;
	uint64_t seed = opts->seed;
	const struct emu_profile *p = NULL;
	err[0] = '\0';
	if (pname)
		p = emu_profile_find(pname, err, errlen);
	else if (!(p = emu_profile_find("balanced", err, errlen)) && emu_profile_count())
		p = emu_profile_at(0);
	if (!p) {
		if (!err[0])
			snprintf(err, errlen, "no workload profile");
		return HPM_EMU_EFAIL;
	}

	struct hpm_emu_bench_result res;
	struct emu_bench *bench = emu_bench_run(p, seed, opts->cycles, &res, err, errlen);
	if (!bench)
		return HPM_EMU_EFAIL;
	uint64_t done = res.cycles;
	hpm_emu_linef(out, ctx, "profile:    %s (seed %" PRIu64 "), emulated\n",
	              emu_profile_name(p), seed);
	hpm_emu_linef(out, ctx,
	              "stream:     %" PRIu64 " cycles in %" PRIu64 " runs (%.1f cycles/run, %zu "
	              "distinct)\n",
	              done, res.runs, res.runs ? (double)done / (double)res.runs : 0.0,
	              res.distinct);
	hpm_emu_linef(out, ctx,
	              "counters:   29 programmed with 1-4 events each, ops or, and, xor, add\n");
	hpm_emu_bench_lines(&res, out, ctx);
	/* after the figures: they are worth seeing even when a counter differs */
	int status = emu_bench_compare(bench, mismatch, ctx) ? 1 : 0;
	if (!status) {
		hpm_emu_linef(out, ctx,
		              "check:      equal: mcycle, minstret, mhpmcounter3-31, mhpmevent3-31 "
		              "(OF), mip\n");
	}
	emu_bench_free(bench);
	return status;
}

/* `emu [SCRIPT]` (arch/machine.h): the script language of emu.h on a
 * machine of opts->harts harts, run as an hpm_emu_script_session. */
static void kmh_script_free(void *s)
{
	emu_script_free(s);
}

static void kmh_machine_free(void *emu)
{
	emu_free(emu);
}

static int kmh_script_new(const struct hpm_emu_options *opts, hpm_emu_line_fn out, void *ctx,
                          const volatile sig_atomic_t *stop, void **s, char *err, size_t errlen)
{
	struct emu *emu = emu_new((unsigned)opts->harts);
	struct emu_script *script = emu_script_new(emu, out, ctx);
	*s = hpm_emu_script_session_new(emu_script_core(script), script, kmh_script_free, emu,
	                                kmh_machine_free, stop, opts->trace_out, err, errlen);
	return *s ? 0 : HPM_EMU_EFAIL;
}

const struct hpm_emu_commands kmh_emu_commands = {
    .arch = "riscv64",
    .arch_alias = "riscv",
    .title = "Kunminghu",
    .options = HPM_EMU_OPT_HARTS,
    .max_harts = EMU_MAX_HARTS,
    .profiles = kmh_profiles,
    .bench = kmh_bench,
    .script_max_line = EMU_SCRIPT_MAX_LINE,
    .script_new = kmh_script_new,
    .script_exec = hpm_emu_script_session_exec,
    .script_end = hpm_emu_script_session_end,
};

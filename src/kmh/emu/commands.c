/* commands.c: what `hpmstat emu` runs on Kunminghu's machine (struct
 * hpm_emu_commands, arch/machine.h): its workload profiles listed with
 * what they declare, its bench, and its script language on a machine of
 * emu.h's harts. Library code: lines go to the caller's callback.
 */
#include "config.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "emukit/bench.h"
#include "emukit/lines.h"
#include "emukit/script.h"
#include "kmh/emu/bench.h"
#include "kmh/emu/emu.h"
#include "kmh/emu/machine.h"
#include "kmh/emu/workload.h"
#include "util/xalloc.h"

/* stat's Topdown nodes, by the names stat gives them (its metric names in
 * JSON, its tree names in text) and in stat's order: `emu profiles` speaks
 * the vocabulary of the output it is compared with. */
static const struct td_node {
	const char *metric, *display;
	unsigned level;
	size_t off; /* the node's field of struct emu_topdown */
} td_nodes[] = {
    {"tma_frontend_bound", "Frontend_Bound", 1, offsetof(struct emu_topdown, frontend)},
    {"tma_fetch_latency", "Fetch_Latency", 2, offsetof(struct emu_topdown, fetch_latency)},
    {"tma_fetch_bandwidth", "Fetch_Bandwidth", 2, offsetof(struct emu_topdown, fetch_bandwidth)},
    {"tma_bad_speculation", "Bad_Speculation", 1, offsetof(struct emu_topdown, bad_spec)},
    {"tma_branch_mispredicts", "Branch_Mispredicts", 2,
     offsetof(struct emu_topdown, branch_mispredict)},
    {"tma_machine_clears", "Machine_Clears", 2, offsetof(struct emu_topdown, machine_clears)},
    {"tma_backend_bound", "Backend_Bound", 1, offsetof(struct emu_topdown, backend)},
    {"tma_core_bound", "Core_Bound", 2, offsetof(struct emu_topdown, core_bound)},
    {"tma_memory_bound", "Memory_Bound", 2, offsetof(struct emu_topdown, memory_bound)},
    {"tma_l1_bound", "L1_Bound", 3, offsetof(struct emu_topdown, l1)},
    {"tma_l2_bound", "L2_Bound", 3, offsetof(struct emu_topdown, l2)},
    {"tma_l3_bound", "L3_Bound", 3, offsetof(struct emu_topdown, l3)},
    {"tma_dram_bound", "DRAM_Bound", 3, offsetof(struct emu_topdown, dram)},
    {"tma_store_bound", "Store_Bound", 3, offsetof(struct emu_topdown, store)},
    {"tma_retiring", "Retiring", 1, offsetof(struct emu_topdown, retiring)},
};

static double td_value(const struct emu_topdown *td, const struct td_node *n)
{
	return *(const double *)((const char *)td + n->off);
}

static json_t *td_json(const struct emu_topdown *td)
{
	json_t *o = json_object();
	for (unsigned level = 1; level <= 3; level++) {
		json_t *nodes = json_object();
		char key[8];
		for (size_t i = 0; i < sizeof(td_nodes) / sizeof(td_nodes[0]); i++)
			if (td_nodes[i].level == level)
				json_object_set_new(nodes, td_nodes[i].metric,
				                    hpm_emu_json_num(td_value(td, &td_nodes[i])));
		snprintf(key, sizeof(key), "level%u", level);
		json_object_set_new(o, key, nodes);
	}
	return o;
}

/* One level of a declared breakdown as text: "Frontend_Bound 12.1  ...". */
static const char *td_text(const struct emu_topdown *td, unsigned level, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(td_nodes) / sizeof(td_nodes[0]) && used < len; i++) {
		char pct[16];
		if (td_nodes[i].level != level)
			continue;
		int n = snprintf(buf + used, len - used, "%s%s %s", used ? "  " : "",
		                 td_nodes[i].display, hpm_emu_pct(td_value(td, &td_nodes[i]), pct));
		if (n < 0)
			break;
		used += (size_t)n;
	}
	return buf;
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
		return hpm_emu_json_out(arr, out, ctx, err, errlen) ? HPM_EMU_EFAIL : 0;
	}
	hpm_emu_linef(out, ctx, "Emulated workload profiles (declared Topdown breakdown, %%):\n");
	for (unsigned i = 0; i < emu_profile_count(); i++) {
		const struct emu_profile *p = emu_profile_at(i);
		struct emu_topdown td;
		emu_profile_declared(p, &td);
		hpm_emu_linef(out, ctx, "\n%s: %s\n", emu_profile_name(p),
		              emu_profile_description(p));
		char line[256];
		for (unsigned level = 1; level <= 3; level++)
			hpm_emu_linef(out, ctx, "  level %u: %s\n", level,
			              td_text(&td, level, line, sizeof(line)));
		for (unsigned k = 0; k < emu_profile_nr_functions(p); k++) {
			struct emu_function f;
			emu_profile_function(p, k, &f);
			hpm_emu_linef(out, ctx,
			              "  function %s [0x%" PRIx64 ", 0x%" PRIx64
			              ") %.1f%% of cycles: %s\n",
			              f.name, f.start, f.end, 100 * f.share,
			              td_text(&f.td, 1, line, sizeof(line)));
		}
		for (unsigned k = 0; k < emu_profile_nr_tasks(p); k++) {
			struct emu_task t;
			emu_profile_task(p, k, &t);
			hpm_emu_linef(out, ctx,
			              "  task %s pid %d tgid %d hart %u, %.1f%% of its hart: %s\n",
			              t.name, t.pid, t.tgid, t.hart, 100 * t.share,
			              td_text(&t.td, 1, line, sizeof(line)));
		}
		unsigned n = emu_profile_unproduced(p, NULL, NULL);
		if (n)
			hpm_emu_linef(out, ctx, "  not produced: %u events (listed by --json)\n",
			              n);
	}
	return 0;
}

/* --pmu NAME: the event table of the Kunminghu model of that name, as
 * registry/models.c names them (kunminghu, also kunminghu-v2, and
 * kunminghu-v3) and as the emulator back end's machines of those models
 * take it (machine.c: create_for); NULL: the model's default, v2. Else
 * HPM_EMU_EUSAGE with the choices in err. */
static int kmh_table_of(const char *pmu, const struct kmh_table **t, char *err, size_t errlen)
{
	static const struct {
		const char *model; /* the model's name; the table's own is its other */
		const struct kmh_table *table;
	} tables[] = {{"kunminghu", &kmh_table_v2}, {"kunminghu-v3", &kmh_table_v3}};
	*t = &kmh_table_v2;
	if (!pmu)
		return 0;
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		if (strcmp(pmu, tables[i].model) == 0 || strcmp(pmu, tables[i].table->name) == 0) {
			*t = tables[i].table;
			return 0;
		}
	snprintf(err, errlen,
	         "--pmu %s: the Kunminghu emulator's event tables are kunminghu (also "
	         "kunminghu-v2, the default) and kunminghu-v3",
	         pmu);
	return HPM_EMU_EUSAGE;
}

/* `emu bench` (arch/machine.h): all 29 counters on a profile's stream,
 * fast path against reference. */
static int kmh_bench(const struct hpm_emu_options *opts, hpm_emu_line_fn out,
                     hpm_emu_bench_mismatch_fn mismatch, void *ctx, char *err, size_t errlen)
{
	const char *pname = opts->profile;
	uint64_t seed = opts->seed;
	const struct emu_profile *p = NULL;
	const struct kmh_table *table;
	err[0] = '\0';
	/* the bench programs counters by index, fast path and reference alike:
	 * a table renames them and changes nothing it measures */
	int rc = kmh_table_of(opts->pmu, &table, err, errlen);
	if (rc)
		return rc;
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
static void kmh_script_free(void *script, void *emu)
{
	emu_script_free(script);
	emu_free(emu);
}

static int kmh_script_new(const struct hpm_emu_options *opts, hpm_emu_line_fn out, void *ctx,
                          const volatile sig_atomic_t *stop, void **s, char *err, size_t errlen)
{
	const struct kmh_table *table;
	int rc = kmh_table_of(opts->pmu, &table, err, errlen);
	*s = NULL;
	if (rc)
		return rc;
	struct emu *emu = emu_new((unsigned)opts->harts);
	emu_set_table(emu, table);
	struct emu_script *script = emu_script_new(emu, out, ctx);
	*s = hpm_emu_script_session_new(emu_script_core(script), script, emu, kmh_script_free, stop,
	                                opts->trace_out, err, errlen);
	return *s ? 0 : HPM_EMU_EFAIL;
}

const struct hpm_emu_commands kmh_emu_commands = {
    .arch = "riscv64",
    .arch_alias = "riscv",
    .title = "Kunminghu",
    .options = HPM_EMU_OPT_HARTS | HPM_EMU_OPT_PMU,
    .max_harts = EMU_MAX_HARTS,
    .profiles = kmh_profiles,
    .bench = kmh_bench,
    .script_max_line = EMU_SCRIPT_MAX_LINE,
    .script_new = kmh_script_new,
    HPM_EMU_SCRIPT_SESSION_OPS,
};

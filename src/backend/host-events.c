/* host-events.c: see host-events.h.
 *
 * The generic names follow perf's lexer (tools/perf/util/parse-events.l) and
 * its hardware-cache tables (tools/perf/util/evsel.c: evsel__hw_cache,
 * evsel__hw_cache_op, evsel__hw_cache_result, evsel__hw_cache_stat), so a
 * name perf accepts here means the same attr here.
 */
#include "backend/host-events.h"

#include <errno.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* linux/perf_event.h first: libpfm4's copy of it steps aside when it sees it. */
#include <linux/perf_event.h>
#include <sys/stat.h>
#ifdef HAVE_LIBPFM4
#include <perfmon/pfmlib_perf_event.h>
#endif

#include "backend/host-pmu.h"
#include "core/evlist.h"
#include "registry/models.h"
#include "util/dlib.h"
#include "util/suggest.h"
#include "util/str.h"
#include "util/xalloc.h"

/* Newer than some installed headers; the values are ABI. */
#define SW_BPF_OUTPUT      10
#define SW_CGROUP_SWITCHES 11

/* ------------------------------------------------------------ tables */

struct sym {
	const char *name;
	const char *alias;
	uint32_t type;
	uint64_t config;
};

static const struct sym hw_syms[] = {
    {"cycles", "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
    {"instructions", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
    {"cache-references", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES},
    {"cache-misses", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES},
    {"branches", "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
    {"branch-misses", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES},
    {"bus-cycles", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES},
    {"stalled-cycles-frontend", "idle-cycles-frontend", PERF_TYPE_HARDWARE,
     PERF_COUNT_HW_STALLED_CYCLES_FRONTEND},
    {"stalled-cycles-backend", "idle-cycles-backend", PERF_TYPE_HARDWARE,
     PERF_COUNT_HW_STALLED_CYCLES_BACKEND},
    {"ref-cycles", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES},
};

static const struct sym sw_syms[] = {
    {"cpu-clock", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK},
    {"task-clock", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK},
    {"page-faults", "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
    {"context-switches", "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
    {"cpu-migrations", "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS},
    {"minor-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN},
    {"major-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ},
    {"alignment-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS},
    {"emulation-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS},
    {"dummy", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY},
    {"bpf-output", NULL, PERF_TYPE_SOFTWARE, SW_BPF_OUTPUT},
    {"cgroup-switches", NULL, PERF_TYPE_SOFTWARE, SW_CGROUP_SWITCHES},
};

#define NR_HW        (sizeof(hw_syms) / sizeof(hw_syms[0]))
#define NR_SW        (sizeof(sw_syms) / sizeof(sw_syms[0]))
#define MAX_ALIASES  5
#define NR_CACHE     7 /* PERF_COUNT_HW_CACHE_MAX */
#define NR_CACHE_OP  3
#define NR_CACHE_RES 2

/* evsel__hw_cache and friends: the first name is the canonical one. */
static const char *const cache_names[NR_CACHE][MAX_ALIASES] = {
    {"L1-dcache", "l1-d", "l1d", "L1-data"},
    {"L1-icache", "l1-i", "l1i", "L1-instruction"},
    {"LLC", "L2"},
    {"dTLB", "d-tlb", "Data-TLB"},
    {"iTLB", "i-tlb", "Instruction-TLB"},
    {"branch", "branches", "bpu", "btb", "bpc"},
    {"node"},
};

static const char *const cache_op_names[NR_CACHE_OP][MAX_ALIASES] = {
    {"load", "loads", "read"},
    {"store", "stores", "write"},
    {"prefetch", "prefetches", "speculative-read", "speculative-load"},
};

static const char *const cache_res_names[NR_CACHE_RES][MAX_ALIASES] = {
    {"refs", "Reference", "ops", "access"},
    {"misses", "miss"},
};

/* evsel__hw_cache_stat: the ops each cache has (bit = op). */
static const unsigned cache_ops_valid[NR_CACHE] = {
    [PERF_COUNT_HW_CACHE_L1D] = 7,  [PERF_COUNT_HW_CACHE_L1I] = 5,  [PERF_COUNT_HW_CACHE_LL] = 7,
    [PERF_COUNT_HW_CACHE_DTLB] = 7, [PERF_COUNT_HW_CACHE_ITLB] = 1, [PERF_COUNT_HW_CACHE_BPU] = 1,
    [PERF_COUNT_HW_CACHE_NODE] = 7,
};

/* The canonical cache names, built once: "L1-dcache-loads",
 * "L1-dcache-load-misses", ... (perf's __evsel__hw_cache_type_op_res_name). */
#define MAX_CACHE_EVENTS (NR_CACHE * NR_CACHE_OP * NR_CACHE_RES)
static char cache_event_names[MAX_CACHE_EVENTS][40];
static struct hpm_host_event all_events[NR_HW + NR_SW + MAX_CACHE_EVENTS];
static unsigned nr_all_events;

static uint64_t cache_config(unsigned type, unsigned op, unsigned res)
{
	return type | ((uint64_t)op << 8) | ((uint64_t)res << 16);
}

static void build_table(void)
{
	if (nr_all_events)
		return;
	unsigned n = 0, nc = 0;
	for (unsigned i = 0; i < NR_HW; i++)
		all_events[n++] =
		    (struct hpm_host_event){hw_syms[i].name, hw_syms[i].alias, HPM_HOST_HARDWARE,
		                            hw_syms[i].type, hw_syms[i].config};
	for (unsigned i = 0; i < NR_SW; i++)
		all_events[n++] =
		    (struct hpm_host_event){sw_syms[i].name, sw_syms[i].alias, HPM_HOST_SOFTWARE,
		                            sw_syms[i].type, sw_syms[i].config};
	for (unsigned t = 0; t < NR_CACHE; t++)
		for (unsigned op = 0; op < NR_CACHE_OP; op++) {
			if (!(cache_ops_valid[t] & (1u << op)))
				continue;
			for (unsigned r = 0; r < NR_CACHE_RES; r++) {
				char *buf = cache_event_names[nc++];
				if (r)
					snprintf(buf, sizeof(cache_event_names[0]), "%s-%s-%s",
					         cache_names[t][0], cache_op_names[op][0],
					         cache_res_names[r][0]);
				else
					snprintf(buf, sizeof(cache_event_names[0]), "%s-%s",
					         cache_names[t][0], cache_op_names[op][1]);
				all_events[n++] = (struct hpm_host_event){buf, NULL, HPM_HOST_CACHE,
				                                          PERF_TYPE_HW_CACHE,
				                                          cache_config(t, op, r)};
			}
		}
	nr_all_events = n;
}

unsigned hpm_host_nr_events(void)
{
	build_table();
	return nr_all_events;
}

const struct hpm_host_event *hpm_host_event_at(unsigned i)
{
	build_table();
	return i < nr_all_events ? &all_events[i] : NULL;
}

/* ------------------------------------------------------------ name lookup */

static const struct sym *find_sym(const struct sym *tab, size_t n, const char *name, size_t len)
{
	for (size_t i = 0; i < n; i++) {
		if (strlen(tab[i].name) == len && strncmp(tab[i].name, name, len) == 0)
			return &tab[i];
		if (tab[i].alias && strlen(tab[i].alias) == len &&
		    strncmp(tab[i].alias, name, len) == 0)
			return &tab[i];
	}
	return NULL;
}

/* One op-or-result token that must end exactly at s+len or at a '-'. The
 * op and result names are disjoint, so the kind is known from the match. */
static bool cache_token(const char *s, size_t len, bool want_end, int *op, int *res, size_t *used)
{
	for (int k = 0; k < NR_CACHE_OP; k++) {
		for (unsigned j = 0; j < MAX_ALIASES && cache_op_names[k][j]; j++) {
			size_t n = strlen(cache_op_names[k][j]);
			if (n <= len && strncmp(s, cache_op_names[k][j], n) == 0 &&
			    (n == len || (!want_end && s[n] == '-'))) {
				*op = k;
				*res = -1;
				*used = n;
				return true;
			}
		}
	}
	for (int k = 0; k < NR_CACHE_RES; k++) {
		for (unsigned j = 0; j < MAX_ALIASES && cache_res_names[k][j]; j++) {
			size_t n = strlen(cache_res_names[k][j]);
			if (n <= len && strncmp(s, cache_res_names[k][j], n) == 0 &&
			    (n == len || (!want_end && s[n] == '-'))) {
				*op = -1;
				*res = k;
				*used = n;
				return true;
			}
		}
	}
	return false;
}

/* CACHE[-OP_OR_RESULT[-OP_OR_RESULT]] as perf's lexer and
 * parse_events__decode_legacy_cache read it. Returns 1 and the config when
 * name is a cache event, 0 when it is not one, -1 (with a message) when it
 * has the shape of one but asks for an op its cache does not have. */
static int parse_cache(const char *name, size_t len, uint64_t *config, char *err, size_t errlen)
{
	for (unsigned t = 0; t < NR_CACHE; t++) {
		for (unsigned j = 0; j < MAX_ALIASES && cache_names[t][j]; j++) {
			size_t n = strlen(cache_names[t][j]);
			if (n > len || strncmp(name, cache_names[t][j], n) != 0)
				continue;
			int op = -1, res = -1;
			const char *p = name + n;
			size_t rest = len - n;
			if (rest) {
				if (*p != '-')
					continue;
				int op1, res1;
				size_t used;
				if (!cache_token(p + 1, rest - 1, false, &op1, &res1, &used))
					continue;
				op = op1;
				res = res1;
				p += 1 + used;
				rest -= 1 + used;
				if (rest) {
					int op2, res2;
					if (!cache_token(p + 1, rest - 1, true, &op2, &res2, &used))
						continue;
					/* the second token fills what the first did not */
					if ((op >= 0 && op2 >= 0) || (res >= 0 && res2 >= 0))
						continue;
					if (op2 >= 0)
						op = op2;
					if (res2 >= 0)
						res = res2;
				}
			}
			if (op < 0)
				op = PERF_COUNT_HW_CACHE_OP_READ;
			if (res < 0)
				res = PERF_COUNT_HW_CACHE_RESULT_ACCESS;
			if (!(cache_ops_valid[t] & (1u << op))) {
				snprintf(err, errlen,
				         "'%.*s' is not a cache event: %s has no %s operation",
				         (int)len, name, cache_names[t][0], cache_op_names[op][0]);
				return -1;
			}
			*config = cache_config(t, (unsigned)op, (unsigned)res);
			return 1;
		}
	}
	return 0;
}

/* ------------------------------------------------------------ modifiers */

static void attr_defaults(struct hpm_host_attr *a)
{
	a->exclude_user = a->exclude_kernel = a->exclude_hv = a->exclude_host = false;
	/* perf's event_attr_init(): perf_guest is false by default */
	a->exclude_guest = true;
	a->guest_default = true;
	a->precise_ip = 0;
	a->precise_max = false;
}

/* perf's get_event_modifier() for the letters that set exclude_* flags. */
static int apply_modifiers(struct hpm_host_attr *a, const char *spec, const char *mods, char *err,
                           size_t errlen)
{
	bool eu = a->exclude_user, ek = a->exclude_kernel, eh = a->exclude_hv;
	bool eH = a->exclude_host, eG = a->exclude_guest;
	bool exclude = eu || ek || eh, exclude_GH = !a->guest_default;
	unsigned precise = a->precise_ip;
	bool precise_max = a->precise_max;
	char buf[96];

	if (!*mods) {
		snprintf(err, errlen, "'%s': empty modifier after ':'",
		         str_escape(spec, buf, sizeof(buf)));
		return -EINVAL;
	}
	for (const char *p = mods; *p; p++) {
		switch (*p) {
		case 'u':
			if (!exclude)
				exclude = eu = ek = eh = true;
			if (!exclude_GH)
				eG = true;
			eu = false;
			break;
		case 'k':
			if (!exclude)
				exclude = eu = ek = eh = true;
			ek = false;
			break;
		case 'h':
			if (!exclude)
				exclude = eu = ek = eh = true;
			eh = false;
			break;
		case 'G':
			if (!exclude_GH)
				exclude_GH = eG = eH = true;
			eG = false;
			break;
		case 'H':
			if (!exclude_GH)
				exclude_GH = eG = eH = true;
			eH = false;
			break;
		case 'p': /* perf's precise_ip: at most 3 (perf: "Bad modifier") */
			if (++precise > 3) {
				snprintf(err, errlen,
				         "'%s': bad modifier: precise_ip is at most 3 (ppp)",
				         str_escape(spec, buf, sizeof(buf)));
				return -EINVAL;
			}
			break;
		case 'P':
			precise_max = true;
			break;
		case 'W': /* weak group, sample read: nothing for one counted event */
		case 'S':
			break;
		default:
			snprintf(err, errlen,
			         "'%s': modifier '%c' is not supported for counting "
			         "(u k h H G p P are)",
			         str_escape(spec, buf, sizeof(buf)), *p);
			return -EINVAL;
		}
	}
	a->exclude_user = eu;
	a->exclude_kernel = ek;
	a->exclude_hv = eh;
	a->exclude_host = eH;
	a->exclude_guest = eG;
	a->guest_default = !exclude_GH;
	a->precise_ip = precise;
	a->precise_max = precise_max;
	return 0;
}

static void set_unit(struct hpm_host_attr *a)
{
	/* perf shows the two clocks, counted in ns, as msec */
	if (a->type == PERF_TYPE_SOFTWARE &&
	    (a->config == PERF_COUNT_SW_CPU_CLOCK || a->config == PERF_COUNT_SW_TASK_CLOCK)) {
		a->unit = "msec";
		a->scale = 1e-6;
	} else {
		a->unit = "";
		a->scale = 1.0;
	}
}

/* ------------------------------------------------------------ libpfm4 */

#ifdef HAVE_LIBPFM4
static bool all_perf_modifiers(const char *s)
{
	return *s && strspn(s, "ukhHGWSpP") == strlen(s);
}

static int pfm_state;     /* 0 not tried, 1 ready, -1 failed */
static char pfm_why[256]; /* libpfm4 is not installed: why (util/dlib.h) */

/* libpfm4 is opened here, the first time a name is not perf's generic one
 * or the model's */
static bool pfm_ready(void)
{
	if (!pfm_state)
		pfm_state =
		    !hpm_dl_pfm_load(pfm_why, sizeof(pfm_why)) && pfm_initialize() == PFM_SUCCESS
		        ? 1
		        : -1;
	return pfm_state > 0;
}

/* Encode name with libpfm4; 0 or a PFM_ERR_* code. The default privilege
 * levels are perf's: user, kernel and hypervisor. */
static int pfm_encode(const char *name, struct hpm_host_attr *a)
{
	struct perf_event_attr attr;
	pfm_perf_encode_arg_t arg;
	memset(&attr, 0, sizeof(attr));
	memset(&arg, 0, sizeof(arg));
	arg.attr = &attr;
	arg.size = sizeof(arg);
	int rc = pfm_get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3 | PFM_PLMH,
	                                   PFM_OS_PERF_EVENT_EXT, &arg);
	if (rc != PFM_SUCCESS)
		return rc;
	a->kind = HPM_HOST_PFM;
	a->type = attr.type;
	a->config = attr.config;
	a->config1 = attr.config1;
	a->config2 = attr.config2;
	a->exclude_user = attr.exclude_user;
	a->exclude_kernel = attr.exclude_kernel;
	a->exclude_hv = attr.exclude_hv;
	a->exclude_host = attr.exclude_host;
	a->exclude_guest = attr.exclude_guest;
	/* libpfm4's own mg=/mh= modifiers are a request, not perf's default */
	a->guest_default = !strstr(name, ":mg=") && !strstr(name, ":mh=");
	return 0;
}

/* libpfm4 first takes the whole spec (its own modifier syntax, e.g.
 * INST_RETIRED:ANY_P:u=1); when it fails and the spec ends in perf letters
 * (X:uG), the name without them, with perf's modifier semantics on top. */
static int pfm_parse(const char *spec, struct hpm_host_attr *a, char *err, size_t errlen)
{
	if (!pfm_ready())
		return -ENOENT;
	if (pfm_encode(spec, a) == 0) {
		set_unit(a);
		return 0;
	}
	const char *colon = strrchr(spec, ':');
	if (colon && colon > spec && all_perf_modifiers(colon + 1)) {
		char base[256];
		size_t n = (size_t)(colon - spec);
		if (n < sizeof(base)) {
			memcpy(base, spec, n);
			base[n] = '\0';
			if (pfm_encode(base, a) == 0) {
				/* perf's letters replace libpfm4's default levels */
				a->exclude_user = a->exclude_kernel = a->exclude_hv = false;
				a->exclude_host = false;
				a->exclude_guest = true;
				a->guest_default = true;
				int rc = apply_modifiers(a, spec, colon + 1, err, errlen);
				if (rc)
					return rc;
				set_unit(a);
				return 0;
			}
		}
	}
	return -ENOENT;
}

bool hpm_host_have_pfm(void)
{
	return pfm_ready();
}
#else
bool hpm_host_have_pfm(void)
{
	return false;
}
#endif

/* ------------------------------------------------------------ parse */

/* A name of the generic table (hardware, software or cache); returns 1 and
 * fills a, 0 when name is not one, -1 with a message for a malformed cache
 * name. */
static int generic_lookup(const char *name, size_t len, struct hpm_host_attr *a, char *err,
                          size_t errlen)
{
	const struct sym *s;
	if ((s = find_sym(hw_syms, NR_HW, name, len))) {
		a->kind = HPM_HOST_HARDWARE;
	} else if ((s = find_sym(sw_syms, NR_SW, name, len))) {
		a->kind = HPM_HOST_SOFTWARE;
	} else {
		uint64_t config;
		int rc = parse_cache(name, len, &config, err, errlen);
		if (rc <= 0)
			return rc;
		a->kind = HPM_HOST_CACHE;
		a->type = PERF_TYPE_HW_CACHE;
		a->config = config;
		return 1;
	}
	a->type = s->type;
	a->config = s->config;
	return 1;
}

static void unknown_message(const char *spec, char *err, size_t errlen)
{
	const char *sugg[3];
	char buf[96];
	unsigned n = hpm_host_event_suggest(spec, sugg, 3);
	int w = snprintf(err, errlen, "unknown event '%s'", str_escape(spec, buf, sizeof(buf)));
	for (unsigned i = 0; i < n && w >= 0 && (size_t)w < errlen; i++)
		w += snprintf(err + w, errlen - (size_t)w, "%s'%s'",
		              i == 0 ? " (did you mean " : (i + 1 == n ? " or " : ", "), sugg[i]);
	if (n && w >= 0 && (size_t)w < errlen)
		snprintf(err + w, errlen - (size_t)w, "?)");
}

/* A unit string that lives as long as the program (evsel.unit points to
 * it); the few units sysfs names are kept once each. */
static const char *intern_unit(const char *u)
{
	static char units[16][16];
	static unsigned n;
	if (!*u)
		return "";
	for (unsigned i = 0; i < n; i++)
		if (strcmp(units[i], u) == 0)
			return units[i];
	if (n == sizeof(units) / sizeof(units[0]))
		return "";
	snprintf(units[n], sizeof(units[0]), "%s", u);
	return units[n++];
}

/* PMU/TERMS/[MODS] of a sysfs PMU. */
static int sysfs_pmu_parse(const char *spec, struct hpm_host_attr *a, char *err, size_t errlen)
{
	struct hpm_pmu_event pe;
	int rc = hpm_pmu_event_parse(NULL, spec, &pe, err, errlen);
	if (rc)
		return rc;
	a->kind = HPM_HOST_PMU;
	a->type = pe.type;
	a->config = pe.config[0];
	a->config1 = pe.config[1];
	a->config2 = pe.config[2];
	snprintf(a->name, sizeof(a->name), "%s", pe.name);
	/* no msec here: perf shows software/config=0/ in ns; a named event's
	 * unit and scale are its sysfs .unit and .scale */
	a->unit = intern_unit(pe.unit);
	a->scale = pe.scale;
	return pe.mods[0] ? apply_modifiers(a, spec, pe.mods, err, errlen) : 0;
}

bool hpm_host_model_try(const char *spec, struct hpm_model_attempt *k)
{
	if (!k->tried) {
		k->ok = k->model->encode(k->model, spec, &k->enc, &k->err) == 0;
		k->tried = true;
	}
	return k->ok;
}

/* PMU/.../ that is not the model's (k: spec's encoding, made if needed):
 * a PMU this host has, or any name but "cpu" that the model does not take
 * whole. */
static bool is_sysfs_pmu_syntax(const char *spec, struct hpm_model_attempt *k)
{
	char pmu[64];
	if (!hpm_pmu_spec_shape(spec, pmu, sizeof(pmu)) || strcmp(pmu, k->model->name) == 0)
		return false;
	return strcmp(pmu, "cpu") != 0 || !hpm_host_model_try(spec, k);
}

/* is_sysfs_pmu_syntax, for an event the session routes: a name that no
 * PMU of the host has and that is the model's event (an Arm event with
 * perf's terms, stall_slot/threshold=2/) is the model's, so that terms it
 * refuses get its reason (a threshold too wide), not "no PMU
 * 'stall_slot'". */
static bool is_sysfs_pmu_syntax_routed(const char *spec, struct hpm_model_attempt *k)
{
	char pmu[64], dir[PATH_MAX];
	struct stat st;
	if (!is_sysfs_pmu_syntax(spec, k) || !hpm_pmu_spec_shape(spec, pmu, sizeof(pmu)))
		return false;
	snprintf(dir, sizeof(dir), "%s/bus/event_source/devices/%s", hpm_sysfs_root(), pmu);
	if (stat(dir, &st) == 0)
		return true;
	struct hpm_event_code code;
	struct hpm_diag merr;
	return k->model->encode(k->model, pmu, &code, &merr) != 0;
}

/* hpm_host_event_parse, told whether spec is PMU/TERMS/ syntax. */
static int parse_host(const char *spec, bool sysfs, struct hpm_host_attr *a, char *err,
                      size_t errlen)
{
	char ebuf[256];
	memset(a, 0, sizeof(*a));
	attr_defaults(a);
	if (sysfs)
		return sysfs_pmu_parse(spec, a, err, errlen);

	size_t len = strcspn(spec, ":");
	int rc = len ? generic_lookup(spec, len, a, ebuf, sizeof(ebuf)) : 0;
	if (rc < 0) {
		snprintf(err, errlen, "%s", ebuf);
		return -EINVAL;
	}
	if (rc > 0) {
		set_unit(a);
		if (spec[len] == ':')
			return apply_modifiers(a, spec, spec + len + 1, err, errlen);
		return 0;
	}
#ifdef HAVE_LIBPFM4
	rc = pfm_parse(spec, a, err, errlen);
	if (rc != -ENOENT)
		return rc;
	memset(a, 0, sizeof(*a));
#endif
	unknown_message(spec, err, errlen);
	/* the name may be one of libpfm4's: say that it could not be asked */
	const char *nopfm = hpm_host_event_pfm_missing();
	size_t w = strlen(err);
	if (nopfm && w < errlen)
		snprintf(err + w, errlen - w, "; host event names are read by libpfm4: %s", nopfm);
	return -ENOENT;
}

const char *hpm_host_event_pfm_missing(void)
{
#ifdef HAVE_LIBPFM4
	if (pfm_why[0])
		return pfm_why;
#endif
	return NULL;
}

int hpm_host_event_parse(const char *spec, struct hpm_host_attr *a, char *err, size_t errlen)
{
	struct hpm_model_attempt k = {.model = hpm_model_at(0)};
	return parse_host(spec, is_sysfs_pmu_syntax(spec, &k), a, err, errlen);
}

int hpm_host_event_fill(struct hpm_evsel *ev, char *err, size_t errlen)
{
	struct hpm_host_attr a;
	const char *spec = ev->spec ? ev->spec : ev->name;
	/* a host event with a '/' is PMU/TERMS/ (hpm_host_event_is_host): no
	 * need to ask Kunminghu's encoder again */
	int rc = parse_host(spec, strchr(spec, '/') != NULL, &a, err, errlen);
	if (rc)
		return rc;
	if (a.name[0]) {
		/* perf: PMU/...,name=foo/ is the row "foo" */
		free(ev->name);
		ev->name = xstrdup(a.name);
	}
	ev->attr_type = a.type;
	ev->attr_config = a.config;
	ev->attr_config1 = a.config1;
	ev->attr_config2 = a.config2;
	ev->exclude_user = a.exclude_user;
	ev->exclude_kernel = a.exclude_kernel;
	ev->exclude_hv = a.exclude_hv;
	ev->exclude_host = a.exclude_host;
	ev->exclude_guest = a.exclude_guest;
	ev->unit = a.unit;
	ev->scale = a.scale;
	return 0;
}

/* rHEX[:MODS]: perf's raw syntax, which SPEC §1 gives to Kunminghu. */
static bool is_raw_syntax(const char *spec)
{
	size_t len = strcspn(spec, ":");
	return len > 1 && spec[0] == 'r' && strspn(spec + 1, "0123456789abcdefABCDEF") == len - 1;
}

bool hpm_host_event_is_host_once(const char *spec, struct hpm_model_attempt *k)
{
	struct hpm_host_attr a;
	char ebuf[256];
	size_t len = strcspn(spec, ":");
	if (is_raw_syntax(spec))
		return false;
	if (strchr(spec, '/'))
		return is_sysfs_pmu_syntax_routed(spec, k);
	attr_defaults(&a);
	/* a generic name with a bad modifier is still a host event: parsing
	 * it later gives the modifier error, not "unknown event" */
	if (len && generic_lookup(spec, len, &a, ebuf, sizeof(ebuf)) != 0)
		return true;
#ifdef HAVE_LIBPFM4
	/* A Kunminghu name stays Kunminghu even where a host PMU has the
	 * same one (Arm's INST_SPEC), and needs no libpfm4 start-up. */
	if (hpm_host_model_try(spec, k))
		return false;
	if (pfm_parse(spec, &a, ebuf, sizeof(ebuf)) != -ENOENT)
		return true;
#else
	(void)k;
#endif
	return false;
}

bool hpm_host_event_is_host(const char *spec)
{
	/* the emulated model's names are not host events */
	struct hpm_model_attempt k = {.model = hpm_model_at(0)};
	return hpm_host_event_is_host_once(spec, &k);
}

/* ------------------------------------------------------------ tool events */

static const struct {
	const char *name, *desc, *source;
} tool_events[HPM_NR_TOOLS] = {
    [HPM_TOOL_DURATION] = {"duration_time", "Wall-clock time of the run, in ns",
                           "the run's wall time"},
    [HPM_TOOL_USER] = {"user_time", "User CPU time of the workload (its rusage), in ns",
                       "the workload's rusage"},
    [HPM_TOOL_SYSTEM] = {"system_time", "System CPU time of the workload (its rusage), in ns",
                         "the workload's rusage"},
};

/* ------------------------------------------------------------ suggestions */

unsigned hpm_host_event_suggest(const char *name, const char **out, unsigned max)
{
	struct suggest sg;
	size_t len = strcspn(name, ":");
	/* a typo costs about one edit per four letters, and always two */
	suggest_init(&sg, name, len, len / 4 > 2 ? (unsigned)(len / 4) : 2, false, out, max);
	build_table();
	for (unsigned i = 0; i < nr_all_events; i++) {
		suggest_offer(&sg, all_events[i].name);
		if (all_events[i].alias)
			suggest_offer(&sg, all_events[i].alias);
	}
	for (unsigned t = 0; t < HPM_NR_TOOLS; t++)
		suggest_offer(&sg, tool_events[t].name);
	return sg.n;
}

/* ------------------------------------------------------------ listing */

#ifdef HAVE_LIBPFM4
/* Visit name when this file's parser takes it as a host event, as stat -e
 * will: an event whose umask is mandatory is listed by its umasks only. */
static unsigned pfm_offer(const pfm_pmu_info_t *p, const char *name, const char *desc,
                          hpm_pfm_visit_fn visit, void *ctx)
{
	struct hpm_host_attr a;
	char ebuf[256];
	if (!hpm_host_event_is_host(name) || hpm_host_event_parse(name, &a, ebuf, sizeof(ebuf)))
		return 0;
	visit(ctx, &(struct hpm_pfm_name){p->name, p->desc, name, desc ? desc : ""});
	return 1;
}

unsigned hpm_host_pfm_names(hpm_pfm_visit_fn visit, void *ctx)
{
	unsigned n = 0;
	int i;
	if (!pfm_ready())
		return 0;
	pfm_for_all_pmus(i)
	{
		pfm_pmu_info_t p;
		memset(&p, 0, sizeof(p));
		p.size = sizeof(p);
		/* perf_raw's one event, r0000, is the rHEX template, not a name */
		if (pfm_get_pmu_info(i, &p) != PFM_SUCCESS || !p.is_present ||
		    p.pmu == PFM_PMU_PERF_EVENT_RAW)
			continue;
		for (int e = p.first_event; e != -1; e = pfm_get_event_next(e)) {
			pfm_event_info_t info;
			char name[512];
			memset(&info, 0, sizeof(info));
			info.size = sizeof(info);
			if (pfm_get_event_info(e, PFM_OS_PERF_EVENT_EXT, &info) != PFM_SUCCESS)
				continue;
			snprintf(name, sizeof(name), "%s::%s", p.name, info.name);
			n += pfm_offer(&p, name, info.desc, visit, ctx);
			for (int k = 0; k < info.nattrs; k++) {
				pfm_event_attr_info_t at;
				memset(&at, 0, sizeof(at));
				at.size = sizeof(at);
				if (pfm_get_event_attr_info(e, k, PFM_OS_PERF_EVENT_EXT, &at) !=
				        PFM_SUCCESS ||
				    at.type != PFM_ATTR_UMASK)
					continue;
				snprintf(name, sizeof(name), "%s::%s:%s", p.name, info.name,
				         at.name);
				n += pfm_offer(&p, name, at.desc, visit, ctx);
			}
		}
	}
	return n;
}
#else
unsigned hpm_host_pfm_names(hpm_pfm_visit_fn visit, void *ctx)
{
	(void)visit;
	(void)ctx;
	return 0;
}
#endif

/* ------------------------------------------------------------ tool event names */

const char *hpm_host_tool_name(enum hpm_tool t)
{
	return tool_events[t].name;
}

const char *hpm_host_tool_desc(enum hpm_tool t)
{
	return tool_events[t].desc;
}

const char *hpm_host_tool_source(enum hpm_tool t)
{
	return tool_events[t].source;
}

int hpm_host_tool_parse(const char *spec, enum hpm_tool *t, char *err, size_t errlen)
{
	size_t len = strcspn(spec, ":");
	for (unsigned i = 0; i < HPM_NR_TOOLS; i++) {
		if (strlen(tool_events[i].name) != len || strncmp(spec, tool_events[i].name, len))
			continue;
		*t = (enum hpm_tool)i;
		if (spec[len] != ':')
			return 1;
		/* perf takes its modifier letters here and counts the same time */
		struct hpm_host_attr a;
		memset(&a, 0, sizeof(a));
		attr_defaults(&a);
		return apply_modifiers(&a, spec, spec + len + 1, err, errlen) ? -EINVAL : 1;
	}
	return 0;
}

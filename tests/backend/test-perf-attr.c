/* test-perf-attr.c: what the perf back end would program, without opening
 * anything: Kunminghu raw events on 48- and 56-bit kernels (and the
 * refusals), privilege modes -> exclude_* flags checked against a model of
 * riscv_pmu_sbi's filter, counterid_mask bank pinning, mcycle/minstret,
 * --dry-run lines, -C lists and perf's error advice. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/host-events.h"
#include "backend/perf.h"
#include "fake.h"
#include "kmh/kmh.h"
#include "kmh/perf-attr.h"
#include "tap.h"

#define MINH  (UINT64_C(1) << 62)
#define SINH  (UINT64_C(1) << 61)
#define UINH  (UINT64_C(1) << 60)
#define VSINH (UINT64_C(1) << 59)
#define VUINH (UINT64_C(1) << 58)

static void pmu_at(const char *root, struct hpm_pmu *pmu)
{
	char sys[512], proc[512], err[300];
	snprintf(sys, sizeof(sys), "%s/sys", root);
	snprintf(proc, sizeof(proc), "%s/proc", root);
	if (hpm_pmu_detect_at(pmu, sys, proc, err, sizeof(err)) || !pmu->present) {
		fprintf(stderr, "fake pmu: %s %s\n", err, pmu->reason);
		abort();
	}
}

static int attr_of(const char *expr, const struct hpm_pmu *pmu, struct hpm_perf_event *pe,
                   char *err, size_t errlen)
{
	struct hpm_evlist l;
	fake_list_init(&l);
	struct hpm_evsel *e = fake_add_kmh(&l, expr, -1);
	int rc = hpm_perf_event_attr(e, pmu, pe, err, errlen);
	fake_list_free(&l);
	return rc;
}

static const struct width_case {
	const char *expr;
	uint64_t config48; /* 0: refused on config:0-47 */
	uint64_t config56;
	int line;
} widths[] = {
    {"rob_commitInstr", 0x35, 0x35, __LINE__},
    {"backend:53", 0x35, 0x35, __LINE__},
    {"ifu_req | ifu_miss", 0xc02, 0xc02, __LINE__},
    {"INST_SPEC + RECOVERY_BUBBLE", 0x40000002007, 0x40000002007, __LINE__},
    {"ifu_req | ifu_miss | itlb_miss", 0x3900c02, 0x3900c02, __LINE__},
    /* OP_TYPE1 ADD (bit 47) still fits 48 bits, OP_TYPE2 does not */
    {"(ifu_req & ifu_miss) | (itlb_access + itlb_miss)", 0x810e43800c02, 0x810e43800c02, __LINE__},
    {"ifu_req & ifu_miss & itlb_miss", 0, 0x4010003900c02, __LINE__},
    {"ifu_req + ifu_miss + itlb_miss", 0, 0x10040003900c02, __LINE__},
    {"ifu_req + ifu_miss + itlb_access + itlb_miss", 0, 0x10840e43800c02, __LINE__},
    {"(ifu_req & ifu_miss) + itlb_access + itlb_miss", 0, 0x10810e43800c02, __LINE__},
    {"load_s0_in_fire", 0, 0x10040001302801, __LINE__},
    /* raw: INH, OF and reserved bits 57:55 are not passed; a reserved bit
     * beyond the kernel's format/event (55 on config:0-47) is refused, as
     * the kernel would drop it silently */
    {"r35", 0x35, 0x35, __LINE__},
    {"r4000000000000035", 0x35, 0x35, __LINE__},
    {"rC080000000000035", 0, 0x35, __LINE__},
    {"r0003000000000035", 0, 0x3000000000035, __LINE__},
};

static void test_widths(void)
{
	char *r48 = fake_kunminghu("config:0-47", NULL), *r56 = fake_kunminghu("config:0-55", NULL);
	struct hpm_pmu p48, p56;
	pmu_at(r48, &p48);
	pmu_at(r56, &p56);
	for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); i++) {
		const struct width_case *c = &widths[i];
		struct hpm_perf_event pe;
		char err[300] = "";
		int rc = attr_of(c->expr, &p48, &pe, err, sizeof(err));
		if (c->config48)
			tap_ok(rc == 0 && pe.type == 4 && pe.config == c->config48,
			       "48-bit: '%s' -> type 4 config 0x%llx (line %d)", c->expr,
			       (unsigned long long)c->config48, c->line);
		else
			tap_ok(rc == -EINVAL && strstr(err, c->expr) &&
			           strstr(err, "this kernel takes config:0-47 (SBI < 3.0)"),
			       "48-bit: '%s' refused (line %d)", c->expr, c->line);
		if ((rc == 0) != (c->config48 != 0) || (rc == 0 && pe.config != c->config48))
			tap_diag("rc %d config 0x%llx: %s", rc, (unsigned long long)pe.config, err);
		rc = attr_of(c->expr, &p56, &pe, err, sizeof(err));
		tap_ok(rc == 0 && pe.type == 4 && pe.config == c->config56,
		       "56-bit: '%s' -> config 0x%llx (line %d)", c->expr,
		       (unsigned long long)c->config56, c->line);
		if (rc || pe.config != c->config56)
			tap_diag("rc %d config 0x%llx: %s", rc, (unsigned long long)pe.config, err);
	}
	struct hpm_perf_event pe;
	char err[300];
	attr_of("ifu_req & ifu_miss & itlb_miss", &p48, &pe, err, sizeof(err));
	tap_is_str(err,
	           "'ifu_req & ifu_miss & itlb_miss' needs OP_TYPE2 (bits 54:50) but this kernel "
	           "takes config:0-47 (SBI < 3.0)",
	           "the OP_TYPE2 refusal");
	attr_of("r0003000000000035", &p48, &pe, err, sizeof(err));
	tap_is_str(err,
	           "'r0003000000000035' needs config bits 49:48 (OP_TYPE1) but this kernel takes "
	           "config:0-47 (SBI < 3.0)",
	           "a raw value with OP_TYPE1 bits 49:48");

	/* bit 62 of a raw value is MINH, the INH bit the firmware always
	 * sets: taken as the modes it names (U, S, VU, VS), not as config */
	int rc62 = attr_of("r4000000000000001", &p48, &pe, err, sizeof(err));
	tap_ok(rc62 == 0 && pe.config == 0x1 && !pe.exclude_user && !pe.exclude_kernel,
	       "r4000000000000001: MINH is the kernel's own setting, config 0x1 with no exclude "
	       "flag");
	/* UINH (bit 60) is exclude_user: the modes, never a config bit */
	int rc60 = attr_of("r1000000000000001", &p48, &pe, err, sizeof(err));
	tap_ok(rc60 == 0 && pe.config == 0x1 && pe.exclude_user && !pe.exclude_kernel,
	       "r1000000000000001: UINH becomes exclude_user, config 0x1");
	/* the PMU's own raw term: bits beyond every format/ term are refused,
	 * bits inside pass (riscv_pmu_sbi would drop the former silently) */
	{
		struct hpm_evlist hl;
		char sys48[512], sys56[512];
		snprintf(sys48, sizeof(sys48), "%s/sys", r48);
		snprintf(sys56, sizeof(sys56), "%s/sys", r56);
		/* host specs are parsed under HPMSTAT_SYSFS, as hpmstat runs */
		setenv("HPMSTAT_SYSFS", sys48, 1);
		fake_list_init(&hl);
		struct hpm_evsel *h = fake_add_host(&hl, "cpu/config=0x1000000000001/", -1);
		int rc = hpm_perf_event_attr(h, &p48, &pe, err, sizeof(err));
		tap_is_str(rc ? err : "",
		           "'cpu/config=0x1000000000001/' sets config bits 48:48, which no term of "
		           "this kernel's PMU covers (it takes config:0-47): the kernel would drop "
		           "them silently",
		           "cpu/config= with bit 48 on config:0-47 is refused");
		struct hpm_evsel *h2 = fake_add_host(&hl, "cpu/config=0x800000000035/", -1);
		rc = hpm_perf_event_attr(h2, &p48, &pe, err, sizeof(err));
		tap_ok(rc == 0 && pe.type == 4 && pe.config == 0x800000000035,
		       "cpu/config= within config:0-47 opens as given (rc %d)", rc);
		setenv("HPMSTAT_SYSFS", sys56, 1);
		rc = hpm_perf_event_attr(h, &p56, &pe, err, sizeof(err));
		tap_ok(rc == 0 && pe.config == 0x1000000000001,
		       "the same bit 48 on config:0-55 is taken (rc %d)", rc);
		fake_list_free(&hl);
		unsetenv("HPMSTAT_SYSFS");
	}

	/* an odd width: no "(SBI < 3.0)" */
	char *r40 = fake_kunminghu("config:0-39", NULL);
	struct hpm_pmu p40;
	pmu_at(r40, &p40);
	attr_of("INST_SPEC + RECOVERY_BUBBLE", &p40, &pe, err, sizeof(err));
	tap_is_str(err,
	           "'INST_SPEC + RECOVERY_BUBBLE' needs config bits 42:42 (OP_TYPE0) but this "
	           "kernel takes config:0-39",
	           "a 40-bit kernel refuses OP_TYPE0");
	fake_rm(r40);

	/* type from sysfs */
	fake_write(r56, "sys/bus/event_source/devices/cpu/type", "9\n");
	struct hpm_pmu p9;
	pmu_at(r56, &p9);
	int rc = attr_of("rob_commitInstr", &p9, &pe, err, sizeof(err));
	tap_ok(rc == 0 && pe.type == 9, "the PMU's sysfs type is used (9)");
	fake_rm(r48);
	fake_rm(r56);
}

/* riscv_pmu_sbi's pmu_sbi_get_filter_flags(), written again from the kernel
 * source, as the INH bits (MINH always set by OpenSBI). */
static uint64_t model_inh_attr(const struct hpm_model_perf_attr *pe)
{
	bool guest = pe->config1 & 1;
	uint64_t inh = MINH;
	if (pe->exclude_kernel)
		inh |= guest ? VSINH : SINH;
	if (pe->exclude_user)
		inh |= guest ? VUINH : UINH;
	if (guest && pe->exclude_hv)
		inh |= SINH;
	if (pe->exclude_host)
		inh |= UINH | SINH;
	if (pe->exclude_guest)
		inh |= VSINH | VUINH;
	return inh;
}

static uint64_t model_inh(const struct hpm_perf_event *pe)
{
	struct hpm_model_perf_attr a = {.config1 = pe->config1,
	                                .exclude_user = pe->exclude_user,
	                                .exclude_kernel = pe->exclude_kernel,
	                                .exclude_hv = pe->exclude_hv,
	                                .exclude_host = pe->exclude_host,
	                                .exclude_guest = pe->exclude_guest};
	return model_inh_attr(&a);
}

static const struct mode_case {
	const char *mods; /* NULL: refused */
	int cfg1, eu, ek, eh, eH, eG;
	uint64_t inh; /* what the SPEC's modifier table says */
	int line;
} modes[] = {
    {"", 0, 0, 0, 0, 0, 0, MINH, __LINE__},
    {"uk", 0, 0, 0, 0, 0, 0, MINH, __LINE__},
    {"u", 1, 0, 1, 1, 0, 0, MINH | SINH | VSINH, __LINE__},
    {"G", 0, 0, 0, 0, 1, 0, MINH | SINH | UINH, __LINE__},
    {"H", 0, 0, 0, 0, 0, 1, MINH | VSINH | VUINH, __LINE__},
    {"uG", 1, 0, 1, 0, 1, 0, MINH | SINH | UINH | VSINH, __LINE__},
    {"kH", 0, 1, 0, 1, 0, 1, MINH | UINH | VSINH | VUINH, __LINE__},
    {"uH", 0, 0, 1, 1, 0, 1, MINH | SINH | VSINH | VUINH, __LINE__},
    {"kG", 1, 1, 0, 0, 1, 0, MINH | SINH | UINH | VUINH, __LINE__},
    {"ukG", 0, 0, 0, 0, 1, 0, MINH | SINH | UINH, __LINE__},
    {"ukH", 0, 0, 0, 0, 0, 1, MINH | VSINH | VUINH, __LINE__},
    {"GH", 0, 0, 0, 0, 0, 0, MINH, __LINE__},
};

static void test_modes(void)
{
	char *r = fake_kunminghu("config:0-47", NULL);
	struct hpm_pmu pmu;
	pmu_at(r, &pmu);
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		const struct mode_case *m = &modes[i];
		char expr[64], err[300] = "";
		struct hpm_perf_event pe;
		snprintf(expr, sizeof(expr), "rob_commitInstr%s%s", *m->mods ? ":" : "", m->mods);
		int rc = attr_of(expr, &pmu, &pe, err, sizeof(err));
		bool ok = rc == 0 && pe.config == 0x35 && (int)pe.config1 == m->cfg1 &&
		          pe.exclude_user == m->eu && pe.exclude_kernel == m->ek &&
		          pe.exclude_hv == m->eh && pe.exclude_host == m->eH &&
		          pe.exclude_guest == m->eG;
		tap_ok(ok, "'%s' -> config1 %d exclude u%d k%d hv%d host%d guest%d (line %d)", expr,
		       m->cfg1, m->eu, m->ek, m->eh, m->eH, m->eG, m->line);
		if (!ok)
			tap_diag("rc %d config1 %llu u%d k%d hv%d host%d guest%d %s", rc,
			         (unsigned long long)pe.config1, pe.exclude_user, pe.exclude_kernel,
			         pe.exclude_hv, pe.exclude_host, pe.exclude_guest, err);
		tap_is_u64(model_inh(&pe), m->inh,
		           "'%s': the kernel's filter sets exactly the INH bits", expr);
	}
	/* S and VS: no flags give exactly that; the driver can count S, VS and
	 * VU, and the difference is a guest mode only, so it is counted (the
	 * caller notes VU) rather than refused: perf users type :k all the time */
	static const char *const noted[] = {"rob_commitInstr:k", "rob_commitInstr:kGH"};
	for (size_t i = 0; i < 2; i++) {
		char err[300] = "";
		struct hpm_perf_event pe;
		int rc = attr_of(noted[i], &pmu, &pe, err, sizeof(err));
		tap_ok(rc == 0 && pe.extra_modes == KMH_MODE_VU &&
		           model_inh(&pe) == (KMH_MINH | KMH_UINH),
		       "'%s' (S and VS) counts S, VS and VU, with VU noted: %s", noted[i], err);
	}
	char err[300];
	struct hpm_perf_event pe;
	int rc = attr_of("rob_commitInstr:m", &pmu, &pe, err, sizeof(err));
	tap_ok(rc == -EINVAL && strstr(err, "Linux cannot count M-mode"), "':m' refused: %s", err);
	rc = attr_of("rob_commitInstr:uk", &pmu, &pe, err, sizeof(err));
	tap_ok(rc == 0, "':uk' is the default set");
	/* a raw value's own INH bits: UINH|SINH = guest only */
	rc = attr_of("r3000000000000035", &pmu, &pe, err, sizeof(err));
	tap_ok(rc == 0 && pe.exclude_host && !pe.exclude_guest && pe.config == 0x35,
	       "a raw value's INH bits become exclude_host");
	rc = attr_of("r35:m", &pmu, &pe, err, sizeof(err));
	tap_ok(rc == -EINVAL && strstr(err, "M-mode"), "a raw value with :m is refused");

	/* every mode set without M: either exactly the INH bits, or refused */
	unsigned exact = 0, refusals = 0, wrong = 0;
	for (unsigned set = 1; set < 16; set++) {
		struct hpm_model_perf_attr q;
		memset(&q, 0, sizeof(q));
		if (!kmh_perf_modes_to_attr(set, &q))
			refusals++;
		else if (model_inh_attr(&q) == kmh_modes_to_inh(set))
			exact++;
		else
			wrong++;
	}
	tap_ok(wrong == 0 && exact + refusals == 15, "15 mode sets: %u exact, %u refused, 0 wrong",
	       exact, refusals);
	struct hpm_model_perf_attr q;
	tap_ok(!kmh_perf_modes_to_attr(KMH_MODE_M | KMH_MODE_U, &q),
	       "a set with M is never mapped");
	fake_rm(r);
}

static void test_pinning(void)
{
	static const struct {
		const char *expr;
		uint64_t config2;
		int line;
	} banks[] = {
	    {"ifu_req", 0x7f8, __LINE__},
	    {"rob_commitInstr", 0x7f800, __LINE__},
	    {"MEMSTALL_ANY_LOAD", 0x7f80000, __LINE__},
	    {"Slice0_l2_cache_hit", 0xf8000000, __LINE__},
	    {"ifu_req & ifu_miss & itlb_miss", 0x7f8, __LINE__},
	};
	char *r = fake_kunminghu("config:0-55", "config2:0-31");
	struct hpm_pmu pmu;
	pmu_at(r, &pmu);
	for (size_t i = 0; i < sizeof(banks) / sizeof(banks[0]); i++) {
		struct hpm_perf_event pe;
		char err[300] = "";
		int rc = attr_of(banks[i].expr, &pmu, &pe, err, sizeof(err));
		tap_ok(rc == 0 && pe.config2 == banks[i].config2 && pe.pinned && !pe.unpinned,
		       "counterid_mask: '%s' -> config2 0x%llx (line %d)", banks[i].expr,
		       (unsigned long long)banks[i].config2, banks[i].line);
		if (rc || pe.config2 != banks[i].config2)
			tap_diag("rc %d config2 0x%llx %s", rc, (unsigned long long)pe.config2,
			         err);
	}
	struct hpm_perf_event pe;
	char err[300];
	int rc = attr_of("r35", &pmu, &pe, err, sizeof(err));
	tap_ok(rc == 0 && pe.config2 == 0 && pe.unpinned, "a raw value has no bank: not pinned");
	fake_rm(r);

	r = fake_kunminghu("config:0-55", "config2:8-39");
	pmu_at(r, &pmu);
	rc = attr_of("rob_commitInstr", &pmu, &pe, err, sizeof(err));
	tap_ok(rc == 0 && pe.config2 == UINT64_C(0x7f800) << 8,
	       "counterid_mask at config2:8-39 shifts");
	fake_rm(r);

	r = fake_kunminghu("config:0-55", "config2:0-15");
	pmu_at(r, &pmu);
	rc = attr_of("Slice0_l2_cache_hit", &pmu, &pe, err, sizeof(err));
	tap_ok(rc == 0 && pe.config2 == 0 && pe.unpinned,
	       "a mask that does not fit the term is not pinned");
	rc = attr_of("ifu_req", &pmu, &pe, err, sizeof(err));
	tap_ok(rc == 0 && pe.config2 == 0x7f8, "one that fits is");
	fake_rm(r);

	r = fake_kunminghu("config:0-47", NULL);
	pmu_at(r, &pmu);
	rc = attr_of("rob_commitInstr", &pmu, &pe, err, sizeof(err));
	tap_ok(rc == 0 && pe.config2 == 0 && !pe.pinned && pe.unpinned,
	       "no counterid_mask: not pinned, warned");
	fake_rm(r);
}

static void test_fixed(void)
{
	char *r = fake_kunminghu("config:0-55", "config2:0-31");
	struct hpm_pmu pmu;
	pmu_at(r, &pmu);
	struct hpm_evlist l;
	fake_list_init(&l);
	struct hpm_evsel *c = fake_add_fixed(&l, KMH_FIXED_MCYCLE, "mcycle", -1);
	struct hpm_evsel *n = fake_add_fixed(&l, KMH_FIXED_MINSTRET, "minstret", -1);
	struct hpm_perf_event pe;
	char err[300];
	int rc = hpm_perf_event_attr(c, &pmu, &pe, err, sizeof(err));
	tap_ok(rc == 0 && pe.type == 0 && pe.config == 0 && pe.config2 == 1 && !pe.exclude_user &&
	           !pe.exclude_guest,
	       "mcycle -> PERF_TYPE_HARDWARE cycles, counter 0");
	rc = hpm_perf_event_attr(n, &pmu, &pe, err, sizeof(err));
	tap_ok(rc == 0 && pe.type == 0 && pe.config == 1 && pe.config2 == 4,
	       "minstret -> PERF_TYPE_HARDWARE instructions, counter 2");
	n->enc.modes = KMH_MODE_U | KMH_MODE_VU;
	rc = hpm_perf_event_attr(n, &pmu, &pe, err, sizeof(err));
	tap_ok(rc == 0 && pe.config1 == 1 && pe.exclude_kernel && pe.exclude_hv,
	       "minstret:u -> the same mode mapping");
	n->enc.modes = KMH_MODES_ALL;
	rc = hpm_perf_event_attr(n, &pmu, &pe, err, sizeof(err));
	tap_ok(rc == 0 && pe.config1 == 0 && !pe.exclude_user && !pe.exclude_kernel &&
	           !pe.exclude_host && !pe.exclude_guest,
	       "minstret in every mode (the stat command's default): no exclude flag");
	n->enc.modes = KMH_MODE_M;
	rc = hpm_perf_event_attr(n, &pmu, &pe, err, sizeof(err));
	tap_ok(rc == -EINVAL && strstr(err, "M-mode"), "minstret:m refused");

	/* host events through the same call */
	struct hpm_evsel *h = fake_add_host(&l, "task-clock:u", -1);
	rc = hpm_perf_event_attr(h, NULL, &pe, err, sizeof(err));
	tap_ok(rc == 0 && pe.type == 1 && pe.config == 1 && pe.exclude_kernel && pe.guest_default &&
	           strcmp(pe.unit, "msec") == 0,
	       "host event attr needs no PMU");
	struct hpm_evsel *u = fake_add_host(&l, "cyclse", -1);
	rc = hpm_perf_event_attr(u, NULL, &pe, err, sizeof(err));
	tap_ok(rc == -ENOENT && strstr(err, "did you mean 'cycles'"), "unknown host event: %s",
	       err);
	tap_ok(hpm_perf_owns(h, NULL) && !hpm_perf_owns(c, NULL) && hpm_perf_owns(c, &pmu),
	       "hpm_perf_owns: host always, Kunminghu with a PMU");

	/* no Kunminghu PMU */
	struct hpm_pmu none;
	memset(&none, 0, sizeof(none));
	rc = hpm_perf_event_attr(c, &none, &pe, err, sizeof(err));
	tap_is_str(rc ? err : "",
	           "Kunminghu (kunminghu-v2) events need that PMU, and this host "
	           "has none (use --backend emu or auto)",
	           "Kunminghu event without a PMU");
	/* a model without a mapping to a kernel driver: refused, naming it */
	struct hpm_pmu_model nomap = *c->enc.model;
	nomap.perf_attr = NULL;
	c->enc.model = &nomap;
	rc = hpm_perf_event_attr(c, &pmu, &pe, err, sizeof(err));
	tap_is_str(rc == -EOPNOTSUPP ? err : "",
	           "'mcycle' cannot be counted through perf: the Kunminghu (kunminghu-v2) model "
	           "has no mapping to a kernel driver",
	           "a model without perf_attr is refused");
	fake_list_free(&l);
	fake_rm(r);
}

static char *dry(const struct hpm_evlist *l, struct hpm_perf_cfg *cfg, int *rc, char *err,
                 size_t errlen)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct hpm_target t = {.pid = -1, .inherit = true};
	*rc = hpm_backend_perf.dry_run(l, NULL, 0, &t, cfg, f, err, errlen);
	fclose(f);
	return buf;
}

static void test_dry_run(void)
{
	struct hpm_evlist l;
	fake_list_init(&l);
	fake_add_host(&l, "cycles", -1);
	fake_add_host(&l, "task-clock:u", -1);
	fake_add_kmh(&l, "rob_commitInstr", 0);
	fake_add_kmh(&l, "ifu_req | ifu_miss", 0);
	fake_add_fixed(&l, KMH_FIXED_MCYCLE, "mcycle", -1);
	fake_add_kmh(&l, "rob_commitInstr:u", -1);

	char *r = fake_kunminghu("config:0-47", NULL);
	struct hpm_pmu pmu;
	pmu_at(r, &pmu);
	struct hpm_perf_cfg cfg = {.pmu = &pmu};
	char err[300] = "";
	int rc;
	char *out = dry(&l, &cfg, &rc, err, sizeof(err));
	tap_is_str(
	    out,
	    "cycles: perf_event_attr type=0 config=0x0 config1=0x0 config2=0x0 exclude_user=0 "
	    "exclude_kernel=0 exclude_hv=0 exclude_host=0 exclude_guest=1\n"
	    "task-clock:u: perf_event_attr type=1 config=0x1 config1=0x0 config2=0x0 "
	    "exclude_user=0 exclude_kernel=1 exclude_hv=1 exclude_host=0 exclude_guest=1\n"
	    "rob_commitInstr: perf_event_attr type=4 config=0x35 config1=0x0 config2=0x0 "
	    "exclude_user=0 exclude_kernel=0 exclude_hv=0 exclude_host=0 exclude_guest=0\n"
	    "ifu_req | ifu_miss: perf_event_attr type=4 config=0xc02 config1=0x0 config2=0x0 "
	    "exclude_user=0 exclude_kernel=0 exclude_hv=0 exclude_host=0 exclude_guest=0\n"
	    "mcycle: perf_event_attr type=0 config=0x0 config1=0x0 config2=0x0 exclude_user=0 "
	    "exclude_kernel=0 exclude_hv=0 exclude_host=0 exclude_guest=0\n"
	    "rob_commitInstr:u: perf_event_attr type=4 config=0x35 config1=0x1 config2=0x0 "
	    "exclude_user=0 exclude_kernel=1 exclude_hv=1 exclude_host=0 exclude_guest=0\n",
	    "dry run, 48-bit kernel without counterid_mask");
	tap_ok(rc == 0 && cfg.warn && strcmp(cfg.warning, KMH_PERF_BANK_WARNING) == 0 &&
	           strstr(cfg.warning, "bank placement is up to the firmware"),
	       "the bank warning is raised once (%s)", cfg.warning);
	tap_ok(cfg.nr_opened == 6, "six evsels taken");
	free(out);
	fake_rm(r);

	/* 56-bit with counterid_mask, through the environment */
	r = fake_kunminghu("config:0-55", "config2:0-31");
	char sys[512], proc[512];
	snprintf(sys, sizeof(sys), "%s/sys", r);
	snprintf(proc, sizeof(proc), "%s/proc", r);
	setenv("HPMSTAT_SYSFS", sys, 1);
	setenv("HPMSTAT_PROCFS", proc, 1);
	fake_add_kmh(&l, "ifu_req & ifu_miss & itlb_miss", -1);
	struct hpm_perf_cfg cfg2 = {0};
	out = dry(&l, &cfg2, &rc, err, sizeof(err));
	const char *want56 =
	    "rob_commitInstr: perf_event_attr type=4 config=0x35 config1=0x0 config2=0x7f800 "
	    "exclude_user=0 exclude_kernel=0 exclude_hv=0 exclude_host=0 exclude_guest=0\n"
	    "ifu_req | ifu_miss: perf_event_attr type=4 config=0xc02 config1=0x0 config2=0x7f8 "
	    "exclude_user=0 exclude_kernel=0 exclude_hv=0 exclude_host=0 exclude_guest=0\n"
	    "mcycle: perf_event_attr type=0 config=0x0 config1=0x0 config2=0x1 exclude_user=0 "
	    "exclude_kernel=0 exclude_hv=0 exclude_host=0 exclude_guest=0\n"
	    "rob_commitInstr:u: perf_event_attr type=4 config=0x35 config1=0x1 config2=0x7f800 "
	    "exclude_user=0 exclude_kernel=1 exclude_hv=1 exclude_host=0 exclude_guest=0\n"
	    "ifu_req & ifu_miss & itlb_miss: perf_event_attr type=4 config=0x4010003900c02 "
	    "config1=0x0 config2=0x7f8 exclude_user=0 exclude_kernel=0 exclude_hv=0 "
	    "exclude_host=0 exclude_guest=0\n";
	tap_ok(rc == 0 && out && strstr(out, want56),
	       "dry run, 56-bit kernel with counterid_mask (from HPMSTAT_SYSFS)");
	if (rc || !strstr(out, want56))
		tap_diag("rc %d %s\n%s", rc, err, out);
	tap_ok(!cfg2.warn, "pinned: no warning");
	free(out);
	unsetenv("HPMSTAT_SYSFS");
	unsetenv("HPMSTAT_PROCFS");
	fake_rm(r);

	/* 48-bit: the OP_TYPE2 event fails the dry run */
	r = fake_kunminghu("config:0-47", NULL);
	pmu_at(r, &pmu);
	struct hpm_perf_cfg cfg3 = {.pmu = &pmu};
	out = dry(&l, &cfg3, &rc, err, sizeof(err));
	tap_ok(rc == -EINVAL && strstr(err, "needs OP_TYPE2"),
	       "dry run refuses OP_TYPE2 on 48 bits");
	free(out);
	fake_rm(r);

	/* no PMU */
	struct hpm_pmu none;
	memset(&none, 0, sizeof(none));
	struct hpm_perf_cfg cfg4 = {.pmu = &none};
	out = dry(&l, &cfg4, &rc, err, sizeof(err));
	tap_ok(rc != 0 &&
	           strcmp(err, "Kunminghu (kunminghu-v2) events need that "
	                       "PMU, and this host has none (use --backend emu or auto)") == 0,
	       "no PMU: the dry run fails: %s", err);
	free(out);
	struct hpm_perf_cfg cfg5 = {.pmu = &none, .leave_model = true};
	out = dry(&l, &cfg5, &rc, err, sizeof(err));
	tap_ok(rc == 0 && cfg5.nr_opened == 2 && out && strncmp(out, "cycles:", 7) == 0 &&
	           strstr(out, "task-clock:u:") && !strstr(out, "rob_commitInstr"),
	       "leave_model: only the host events");
	free(out);
	fake_list_free(&l);
}

static void test_cpu_list(void)
{
	static const struct {
		const char *list;
		const char *want;
	} ok[] = {
	    {"0-3,5", "0,1,2,3,5"},     {"5,0-3", "0,1,2,3,5"}, {"1,1", "1"}, {"7", "7"},
	    {"0-7", "0,1,2,3,4,5,6,7"}, {"3-3", "3"},
	};
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		int *c = NULL;
		unsigned n = 0;
		char err[200] = "", got[64] = "";
		int rc = hpm_perf_parse_cpu_list(ok[i].list, "0-7", &c, &n, err, sizeof(err));
		for (unsigned j = 0, w = 0; rc == 0 && j < n; j++)
			w += (unsigned)snprintf(got + w, sizeof(got) - w, "%s%d", j ? "," : "",
			                        c[j]);
		tap_ok(rc == 0 && strcmp(got, ok[i].want) == 0, "-C %s -> %s", ok[i].list,
		       ok[i].want);
		free(c);
	}
	static const struct {
		const char *list;
		const char *msg;
	} bad[] = {
	    {"", "empty CPU list"},
	    {"a", "bad CPU list 'a': expected a CPU number (0..65535) at 'a'"},
	    {"3-1", "bad CPU list '3-1': range 3-1 ends before it starts"},
	    {"0-", "bad CPU list '0-': expected a CPU number after '-' at ''"},
	    {"0,,1", "bad CPU list '0,,1': expected a CPU number (0..65535) at ',1'"},
	    {"8", "CPU 8 is not online (online CPUs: 0-7)"},
	    {"-1", "bad CPU list '-1': expected a CPU number (0..65535) at '-1'"},
	    {"0-3x", "bad CPU list '0-3x': unexpected 'x'"},
	    {"1 2", "bad CPU list '1 2': unexpected ' '"},
	    {"99999999", "bad CPU list '99999999': expected a CPU number (0..65535) at '99999999'"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int *c = NULL;
		unsigned n = 0;
		char err[200] = "";
		int rc = hpm_perf_parse_cpu_list(bad[i].list, "0-7", &c, &n, err, sizeof(err));
		tap_ok(rc == -EINVAL && strcmp(err, bad[i].msg) == 0, "-C '%s' refused: %s",
		       bad[i].list, err);
		if (rc != -EINVAL || strcmp(err, bad[i].msg))
			tap_diag("want: %s", bad[i].msg);
	}
	int *c = NULL;
	unsigned n = 0;
	char err[200];
	int rc = hpm_perf_parse_cpu_list("0", NULL, &c, &n, err, sizeof(err));
	tap_ok(rc == 0 && n == 1 && c[0] == 0, "-C 0 on this host");
	free(c);
	rc = hpm_perf_parse_cpu_list(NULL, NULL, &c, &n, err, sizeof(err));
	tap_ok(rc == 0 && n >= 1 && c[0] == 0, "no list: all online CPUs (%u)", n);
	free(c);
}

static void test_advice(void)
{
	char *r = fake_root();
	char proc[512], buf[600];
	snprintf(proc, sizeof(proc), "%s/proc", r);
	setenv("HPMSTAT_PROCFS", proc, 1);
	struct hpm_evlist l;
	fake_list_init(&l);
	struct hpm_evsel *e = fake_add_host(&l, "cycles", -1);
	char err[300];
	hpm_host_event_fill(e, err, sizeof(err));
	struct hpm_target task = {.pid = 1234, .inherit = true};
	struct hpm_target cpu = {.pid = -1, .system_wide = true};

	fake_write(r, "proc/sys/kernel/perf_event_paranoid", "2\n");
	tap_ok(hpm_perf_paranoid() == 2, "paranoid read from HPMSTAT_PROCFS");
	hpm_perf_open_strerror(EACCES, e, &cpu, buf, sizeof(buf));
	tap_ok(strstr(buf, "cannot count 'cycles': permission denied (EACCES)") &&
	           strstr(buf, "/proc/sys/kernel/perf_event_paranoid is 2") &&
	           strstr(buf, "CPU-wide counting (-a, -C)") && !strchr(buf, '\n'),
	       "EACCES, -a, paranoid 2: %s", buf);
	hpm_perf_open_strerror(EACCES, e, &task, buf, sizeof(buf));
	tap_ok(strstr(buf, "is 2: 2 forbids counting kernel mode") && strstr(buf, "add :u"),
	       "EACCES, task, kernel counted: %s", buf);
	e->exclude_kernel = true;
	hpm_perf_open_strerror(EPERM, e, &task, buf, sizeof(buf));
	tap_ok(strstr(buf, "(EPERM)") && strstr(buf, "another reason"), "EPERM, :u: %s", buf);
	fake_write(r, "proc/sys/kernel/perf_event_paranoid", "3\n");
	hpm_perf_open_strerror(EACCES, e, &task, buf, sizeof(buf));
	tap_ok(strstr(buf, "is 3: 3 and above (a Debian addition)"), "EACCES, paranoid 3: %s", buf);
	fake_write(r, "proc/sys/kernel/perf_event_paranoid", "-1\n");
	hpm_perf_open_strerror(EACCES, e, &cpu, buf, sizeof(buf));
	tap_ok(strstr(buf, "is -1: that allows this request"), "EACCES, paranoid -1: %s", buf);

	hpm_perf_open_strerror(ESRCH, e, &task, buf, sizeof(buf));
	tap_is_str(buf, "cannot count 'cycles': no such process (pid 1234)", "ESRCH");
	hpm_perf_open_strerror(EMFILE, e, &task, buf, sizeof(buf));
	tap_ok(strstr(buf, "too many open files (EMFILE)") && strstr(buf, "ulimit -n"),
	       "EMFILE: %s", buf);
	hpm_perf_open_strerror(EINVAL, e, &task, buf, sizeof(buf));
	tap_ok(strstr(buf, "rejected its perf_event_attr (EINVAL: type 0 config 0x0)") &&
	           strstr(buf, "privilege mode"),
	       "EINVAL with modifiers: %s", buf);
	e->exclude_kernel = false;
	e->attr_type = 12;
	hpm_perf_open_strerror(EINVAL, e, &task, buf, sizeof(buf));
	tap_ok(strstr(buf, "system wide with -a"), "EINVAL, PMU event per task: %s", buf);
	hpm_perf_open_strerror(ENOENT, e, &task, buf, sizeof(buf));
	tap_ok(strstr(buf, "not supported") && strstr(buf, "ENOENT"), "ENOENT: %s", buf);
	hpm_perf_open_strerror(EBUSY, e, &task, buf, sizeof(buf));
	tap_ok(strstr(buf, "busy"), "EBUSY: %s", buf);
	hpm_perf_open_strerror(EIO, e, &task, buf, sizeof(buf));
	tap_ok(strstr(buf, "perf_event_open failed") && strstr(buf, "dmesg"), "other: %s", buf);

	unsetenv("HPMSTAT_PROCFS");
	fake_list_free(&l);
	fake_rm(r);
}

int main(void)
{
	test_widths();
	test_modes();
	test_pinning();
	test_fixed();
	test_dry_run();
	test_cpu_list();
	test_advice();
	return tap_done();
}

/* host-pmu.c: the host's PMUs, as sysfs and procfs describe them (see
 * host-pmu.h). */
#include "backend/host-pmu.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "registry/models.h"

#define PERF_TYPE_RAW_ 4 /* linux/perf_event.h PERF_TYPE_RAW; the header is not needed here */
#define PMU_DEVICES    "/bus/event_source/devices"

static const char *env_root(const char *var, const char *dflt)
{
	const char *v = getenv(var);
	return v && *v ? v : dflt;
}

const char *hpm_sysfs_root(void)
{
	return env_root("HPMSTAT_SYSFS", "/sys");
}

const char *hpm_procfs_root(void)
{
	return env_root("HPMSTAT_PROCFS", "/proc");
}

pid_t hpm_proc_tgid(const char *procfs, pid_t tid)
{
	char path[512], line[256];
	snprintf(path, sizeof(path), "%s/%d/status", procfs, (int)tid);
	FILE *f = fopen(path, "re");
	pid_t tgid = tid;
	if (!f)
		return tid;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Tgid: %d", &tgid) == 1)
			break;
	fclose(f);
	return tgid;
}

/* Read a small sysfs file, whitespace trimmed at both ends. 0 or -errno. */
static int read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = read(fd, buf, len - 1);
	int e = errno;
	close(fd);
	if (n < 0)
		return -e;
	buf[n] = '\0';
	while (n > 0 && isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
	size_t skip = strspn(buf, " \t\r\n");
	memmove(buf, buf + skip, (size_t)n - skip + 1);
	return 0;
}

/* ------------------------------------------------------------ format terms */

static int fmt_fail(char *err, size_t errlen, const char *text, const char *why)
{
	snprintf(err, errlen, "bad sysfs format term '%.64s': %s", text, why);
	return -EINVAL;
}

static bool parse_bit(const char **pp, unsigned *out)
{
	const char *p = *pp;
	if (!isdigit((unsigned char)*p))
		return false;
	unsigned v = 0;
	while (isdigit((unsigned char)*p)) {
		v = v * 10 + (unsigned)(*p - '0');
		if (v > 63)
			return false;
		p++;
	}
	*out = v;
	*pp = p;
	return true;
}

int hpm_pmu_parse_format(const char *text, struct hpm_pmu_format *f, char *err, size_t errlen)
{
	memset(f, 0, sizeof(*f));
	size_t skip = strspn(text, " \t\r\n");
	snprintf(f->text, sizeof(f->text), "%s", text + skip);
	for (size_t n = strlen(f->text); n > 0 && isspace((unsigned char)f->text[n - 1]); n--)
		f->text[n - 1] = '\0';

	const char *p = f->text;
	const char *colon = strchr(p, ':');
	if (!colon)
		return fmt_fail(err, errlen, f->text, "no ':' after the field name");
	size_t nlen = (size_t)(colon - p);
	if (nlen == 6 && strncmp(p, "config", 6) == 0)
		f->field = HPM_PMU_CONFIG;
	else if (nlen == 7 && strncmp(p, "config1", 7) == 0)
		f->field = HPM_PMU_CONFIG1;
	else if (nlen == 7 && strncmp(p, "config2", 7) == 0)
		f->field = HPM_PMU_CONFIG2;
	else
		return fmt_fail(err, errlen, f->text, "field is not config, config1 or config2");

	p = colon + 1;
	for (;;) {
		unsigned lo, hi;
		if (!parse_bit(&p, &lo))
			return fmt_fail(err, errlen, f->text, "expected a bit number 0..63");
		hi = lo;
		if (*p == '-') {
			p++;
			if (!parse_bit(&p, &hi))
				return fmt_fail(err, errlen, f->text,
				                "expected a bit number 0..63 after '-'");
			if (hi < lo)
				return fmt_fail(err, errlen, f->text,
				                "range ends before it starts");
		}
		uint64_t m = hi == 63 ? ~UINT64_C(0) : (UINT64_C(1) << (hi + 1)) - 1;
		m &= ~((UINT64_C(1) << lo) - 1);
		f->mask |= m;
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p)
			return fmt_fail(err, errlen, f->text,
			                "unexpected text after the bit range");
		break;
	}
	f->lo = (unsigned)__builtin_ctzll(f->mask);
	f->hi = 63u - (unsigned)__builtin_clzll(f->mask);
	return 0;
}

/* ------------------------------------------------------------ cpuinfo */

struct cpuid_parts {
	char v[3][32]; /* mvendorid, marchid, mimpid */
	bool have[3];
};

static const char *const cpuid_keys[3] = {"mvendorid", "marchid", "mimpid"};

/* One cpuinfo line: "key<spaces/tabs>: value". */
static void cpuinfo_line(struct cpuid_parts *c, const char *line, size_t len)
{
	const char *colon = memchr(line, ':', len);
	if (!colon)
		return;
	size_t klen = (size_t)(colon - line);
	while (klen > 0 && isspace((unsigned char)line[klen - 1]))
		klen--;
	for (unsigned k = 0; k < 3; k++) {
		if (c->have[k] || strlen(cpuid_keys[k]) != klen ||
		    strncmp(line, cpuid_keys[k], klen) != 0)
			continue;
		const char *v = colon + 1, *end = line + len;
		while (v < end && isspace((unsigned char)*v))
			v++;
		while (end > v && isspace((unsigned char)end[-1]))
			end--;
		if (end == v || (size_t)(end - v) >= sizeof(c->v[k]))
			return;
		memcpy(c->v[k], v, (size_t)(end - v));
		c->v[k][end - v] = '\0';
		c->have[k] = true;
	}
}

static bool cpuid_done(const struct cpuid_parts *c, char *out, size_t outlen)
{
	if (!c->have[0] || !c->have[1] || !c->have[2])
		return false;
	/* as perf's arch/riscv/util/header.c builds it */
	snprintf(out, outlen, "%s-%s-%s", c->v[0], c->v[1], c->v[2]);
	return true;
}

bool hpm_pmu_cpuid_from_cpuinfo(const char *cpuinfo, char *out, size_t outlen)
{
	struct cpuid_parts c;
	memset(&c, 0, sizeof(c));
	for (const char *p = cpuinfo; *p;) {
		size_t len = strcspn(p, "\n");
		cpuinfo_line(&c, p, len);
		p += len;
		if (*p == '\n')
			p++;
	}
	return cpuid_done(&c, out, outlen);
}

/* Whether an isa line's value ("rv64imafdch_sscofpmf_sstc") names the
 * multi-letter extension ext. */
static bool isa_names_extension(const char *value, const char *ext)
{
	size_t n = strlen(ext);
	for (const char *p = strchr(value, '_'); p; p = strchr(p + 1, '_'))
		if (strncmp(p + 1, ext, n) == 0 && strchr("_ \t\n", p[1 + n] ? p[1 + n] : ' '))
			return true;
	return false;
}

/* What detect wants of cpuinfo, in one read of it (each read costs the
 * kernel a walk of every CPU): the RISC-V cpuid into out, and into
 * *sscofpmf whether the first "isa" line names Sscofpmf (1 or 0; -1
 * without an isa line: a fake tree, or not RISC-V). Line by line: it can be
 * large on many-hart hosts, and the keys are in the first block. */
static bool cpuinfo_scan(const char *path, char *out, size_t outlen, int *sscofpmf)
{
	*sscofpmf = -1;
	FILE *f = fopen(path, "re");
	if (!f)
		return false;
	struct cpuid_parts c;
	memset(&c, 0, sizeof(c));
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	while ((n = getline(&line, &cap, f)) > 0) {
		cpuinfo_line(&c, line, (size_t)n);
		if (*sscofpmf < 0 && strncmp(line, "isa", 3) == 0 && strchr(" \t:", line[3])) {
			const char *v = strchr(line, ':');
			if (v)
				*sscofpmf = isa_names_extension(v, "sscofpmf");
		}
		if (c.have[0] && c.have[1] && c.have[2] && *sscofpmf >= 0)
			break;
	}
	free(line);
	fclose(f);
	return cpuid_done(&c, out, outlen);
}

/* ------------------------------------------------------------ driver */

static const struct hpm_pmu *pmu_of(const struct hpm_model_perf_pmu *drv)
{
	return drv->ctx;
}

static bool driver_format(const struct hpm_model_perf_pmu *drv, const char *term,
                          struct hpm_model_perf_format *out)
{
	const struct hpm_pmu *pmu = pmu_of(drv);
	for (unsigned i = 0; i < pmu->nr_terms; i++)
		if (strcmp(pmu->terms[i].name, term) == 0) {
			const struct hpm_pmu_format *f = &pmu->terms[i].f;
			out->field = (unsigned)f->field;
			out->mask = f->mask;
			out->lo = f->lo;
			out->hi = f->hi;
			out->text = f->text;
			return true;
		}
	return false;
}

static bool driver_cap(const struct hpm_model_perf_pmu *drv, const char *name, uint64_t *value)
{
	const struct hpm_pmu *pmu = pmu_of(drv);
	for (unsigned i = 0; i < pmu->nr_caps; i++)
		if (strcmp(pmu->caps[i].name, name) == 0) {
			const char *t = pmu->caps[i].text;
			char *end;
			errno = 0;
			unsigned long long v = strtoull(t, &end, 0);
			if (errno || end == t || *end || *t == '-')
				return false;
			*value = v;
			return true;
		}
	return false;
}

void hpm_pmu_driver(const struct hpm_pmu *pmu, struct hpm_model_perf_pmu *out)
{
	memset(out, 0, sizeof(*out));
	out->type = pmu->type;
	out->event_mask = pmu->event.mask;
	out->event_format = pmu->event.text;
	out->has_counter_mask = pmu->has_counterid_mask;
	out->counter_mask_field = (unsigned)pmu->counterid_mask.field;
	out->counter_mask_lo = pmu->counterid_mask.lo;
	out->counter_mask_bits = pmu->counterid_mask.mask;
	out->kernel_version = pmu->kernel_version;
	out->kernel_release = pmu->kernel_release;
	out->mode_filtering = pmu->sscofpmf;
	out->pmu_name = pmu->name;
	out->format = driver_format;
	out->cap = driver_cap;
	out->ctx = pmu;
}

/* ------------------------------------------------------------ kernel */

unsigned hpm_pmu_kernel_version(const char *release)
{
	char *end;
	unsigned long major = strtoul(release, &end, 10);
	if (end == release || *end != '.' || major > 999)
		return 0;
	const char *m = end + 1;
	unsigned long minor = strtoul(m, &end, 10);
	if (end == m || minor > 999)
		return 0;
	return (unsigned)(major * 1000 + minor);
}

/* ------------------------------------------------------------ detect */

/* The names in dir, sorted (format/ and caps/ files, PMUs); how many, at
 * most max, each under len bytes. */
static unsigned dir_names(const char *dir, char (*out)[64], unsigned max)
{
	struct dirent **names = NULL;
	int n = scandir(dir, &names, NULL, alphasort);
	unsigned k = 0;
	for (int i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.' && k < max && strlen(names[i]->d_name) < 64)
			snprintf(out[k++], 64, "%s", names[i]->d_name);
		free(names[i]);
	}
	free(names);
	return k;
}

/* The PMU's format/ terms that parse and its caps/ files; the union of the
 * config bits the terms cover. */
static uint64_t read_terms(struct hpm_pmu *pmu)
{
	char path[1024], buf[128], names[HPM_PMU_MAX_TERMS][64];
	uint64_t mask = 0;
	snprintf(path, sizeof(path), "%s" PMU_DEVICES "/%s/format", pmu->sysfs, pmu->name);
	unsigned n = dir_names(path, names, HPM_PMU_MAX_TERMS);
	for (unsigned i = 0; i < n; i++) {
		struct hpm_pmu_term *t = &pmu->terms[pmu->nr_terms];
		char ferr[160];
		if (strlen(names[i]) >= sizeof(t->name))
			continue;
		snprintf(path, sizeof(path), "%s" PMU_DEVICES "/%s/format/%s", pmu->sysfs,
		         pmu->name, names[i]);
		if (read_small(path, buf, sizeof(buf)) != 0 ||
		    hpm_pmu_parse_format(buf, &t->f, ferr, sizeof(ferr)) != 0)
			continue;
		snprintf(t->name, sizeof(t->name), "%s", names[i]);
		pmu->nr_terms++;
		if (t->f.field == HPM_PMU_CONFIG)
			mask |= t->f.mask;
	}
	snprintf(path, sizeof(path), "%s" PMU_DEVICES "/%s/caps", pmu->sysfs, pmu->name);
	char cnames[HPM_PMU_MAX_CAPS][64];
	n = dir_names(path, cnames, HPM_PMU_MAX_CAPS);
	for (unsigned i = 0; i < n; i++) {
		struct hpm_pmu_cap *c = &pmu->caps[pmu->nr_caps];
		if (strlen(cnames[i]) >= sizeof(c->name))
			continue;
		snprintf(path, sizeof(path), "%s" PMU_DEVICES "/%s/caps/%s", pmu->sysfs, pmu->name,
		         cnames[i]);
		if (read_small(path, buf, sizeof(buf)) != 0 || strlen(buf) >= sizeof(c->text))
			continue;
		snprintf(c->name, sizeof(c->name), "%s", cnames[i]);
		snprintf(c->text, sizeof(c->text), "%s", buf);
		pmu->nr_caps++;
	}
	return mask;
}

bool hpm_pmu_midr(const char *sysfs, unsigned cpu, char *out, size_t outlen)
{
	char path[512], buf[64], *end;
	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%u/regs/identification/midr_el1",
	         sysfs, cpu);
	if (read_small(path, buf, sizeof(buf)) != 0)
		return false;
	errno = 0;
	unsigned long long v = strtoull(buf, &end, 0);
	if (errno || end == buf || *end || buf[0] == '-')
		return false;
	/* as perf's arch/arm64/util/header.c writes it */
	snprintf(out, outlen, "0x%016llx", v);
	return true;
}

/* The first CPU of a cpus list ("0-3,8"), or -1. */
static long first_cpu(const char *list)
{
	char *end;
	if (!isdigit((unsigned char)*list))
		return -1;
	unsigned long v = strtoul(list, &end, 10);
	return v > 4095 ? -1 : (long)v;
}

/* Arm: every core PMU (a PMU with a cpus file, as perf's
 * is_sysfs_pmu_core) and the MIDR_EL1 of its first CPU; the first whose
 * core is want (NULL: any model) becomes the model's PMU, else the first
 * whose core is some model's (big.LITTLE: one PMU per kind of core). Without core PMUs, CPU 0's
 * MIDR still names the core (for the message). */
static void arm_cores(struct hpm_pmu *pmu, const struct hpm_pmu_model *want)
{
	char path[1024], names[32][64];
	snprintf(path, sizeof(path), "%s" PMU_DEVICES, pmu->sysfs);
	unsigned n = dir_names(path, names, 32);
	for (unsigned i = 0; i < n && pmu->nr_cores < HPM_PMU_MAX_CORES; i++) {
		struct hpm_pmu_core *c = &pmu->cores[pmu->nr_cores];
		char cpus[64];
		snprintf(path, sizeof(path), "%s" PMU_DEVICES "/%.63s/cpus", pmu->sysfs, names[i]);
		if (read_small(path, cpus, sizeof(cpus)) != 0)
			continue;
		memset(c, 0, sizeof(*c));
		snprintf(c->name, sizeof(c->name), "%.63s", names[i]);
		snprintf(c->cpus, sizeof(c->cpus), "%s", cpus);
		long cpu = first_cpu(cpus);
		if (cpu >= 0 && hpm_pmu_midr(pmu->sysfs, (unsigned)cpu, c->cpuid, sizeof(c->cpuid)))
			c->model = hpm_model_for_cpuid(c->cpuid);
		else
			c->cpuid[0] = '\0';
		pmu->nr_cores++;
	}
	/* want's core PMU, else the first that is some model's */
	int pick = -1;
	for (unsigned i = 0; i < pmu->nr_cores; i++) {
		const struct hpm_pmu_model *m = pmu->cores[i].model;
		if (m && (pick < 0 || (m == want && pmu->cores[pick].model != want)))
			pick = (int)i;
	}
	if (pick >= 0) {
		const struct hpm_pmu_core *c = &pmu->cores[pick];
		/* same sizes or larger: plain copies */
		memcpy(pmu->cpuid, c->cpuid, sizeof(c->cpuid));
		memcpy(pmu->name, c->name, sizeof(c->name));
		memcpy(pmu->cpus, c->cpus, sizeof(c->cpus));
		pmu->model = c->model;
		return;
	}
	for (unsigned i = 0; i < pmu->nr_cores; i++)
		if (pmu->cores[i].cpuid[0]) {
			memcpy(pmu->cpuid, pmu->cores[i].cpuid, sizeof(pmu->cores[i].cpuid));
			return;
		}
	if (hpm_pmu_midr(pmu->sysfs, 0, pmu->cpuid, sizeof(pmu->cpuid)))
		pmu->model = hpm_model_for_cpuid(pmu->cpuid);
}

/* "MIDR 0x... (armv8_cortex_a55, CPUs 0-3), MIDR 0x... (...)": the cores
 * found, for the message that none is a model's. */
static void cores_text(const struct hpm_pmu *pmu, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < pmu->nr_cores && n < len; i++)
		if (pmu->cores[i].cpuid[0])
			n += (size_t)snprintf(buf + n, len - n, "%sMIDR %s (%s, CPUs %s)",
			                      n ? ", " : "", pmu->cores[i].cpuid,
			                      pmu->cores[i].name, pmu->cores[i].cpus);
	if (!n)
		snprintf(buf, len, "MIDR %s", pmu->cpuid);
}

static int detect(struct hpm_pmu *pmu, const char *sysfs, const char *procfs,
                  const struct hpm_pmu_model *want, char *err, size_t errlen)
{
	char path[512], buf[128];
	memset(pmu, 0, sizeof(*pmu));
	snprintf(pmu->sysfs, sizeof(pmu->sysfs), "%s", sysfs ? sysfs : hpm_sysfs_root());
	snprintf(pmu->procfs, sizeof(pmu->procfs), "%s", procfs ? procfs : hpm_procfs_root());
	pmu->type = PERF_TYPE_RAW_;

	snprintf(path, sizeof(path), "%s/cpuinfo", pmu->procfs);
	bool riscv = cpuinfo_scan(path, pmu->cpuid, sizeof(pmu->cpuid), &pmu->sscofpmf);
	if (riscv) {
		pmu->model = hpm_model_for_cpuid(pmu->cpuid);
		snprintf(pmu->name, sizeof(pmu->name), "cpu");
	} else {
		arm_cores(pmu, want);
	}
	snprintf(path, sizeof(path), "%s/sys/kernel/osrelease", pmu->procfs);
	if (read_small(path, pmu->kernel_release, sizeof(pmu->kernel_release)) == 0)
		pmu->kernel_version = hpm_pmu_kernel_version(pmu->kernel_release);

	struct stat st;
	snprintf(path, sizeof(path), "%s" PMU_DEVICES "/%s", pmu->sysfs, pmu->name);
	pmu->has_cpu_pmu = pmu->name[0] && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
	if (pmu->has_cpu_pmu) {
		snprintf(path, sizeof(path), "%s" PMU_DEVICES "/%s/type", pmu->sysfs, pmu->name);
		if (read_small(path, buf, sizeof(buf)) == 0) {
			char *end;
			errno = 0;
			unsigned long t = strtoul(buf, &end, 10);
			if (!errno && end != buf && !*end && t <= UINT32_MAX) {
				pmu->type = (uint32_t)t;
				pmu->type_from_sysfs = true;
			}
		}
	}

	/* Only a model's host's format files matter; elsewhere a strange
	 * "cpu" PMU (x86's has format/event "config:0-7") is not ours to judge. */
	if (pmu->model && pmu->has_cpu_pmu) {
		snprintf(path, sizeof(path), "%s" PMU_DEVICES "/%s/format/event", pmu->sysfs,
		         pmu->name);
		if (read_small(path, buf, sizeof(buf)) == 0) {
			char ferr[160];
			if (hpm_pmu_parse_format(buf, &pmu->event, ferr, sizeof(ferr))) {
				snprintf(err, errlen, "%s: %s", path, ferr);
				return -EINVAL;
			}
			if (pmu->event.field != HPM_PMU_CONFIG) {
				snprintf(err, errlen, "%s: '%s' is not in config", path,
				         pmu->event.text);
				return -EINVAL;
			}
			pmu->event_from_sysfs = true;
		} else {
			/* riscv_pmu_sbi has always taken 48 bits when it
			 * does not say (SBI < 3.0); arm_pmuv3 has always
			 * said (config:0-15) */
			hpm_pmu_parse_format(riscv ? "config:0-47" : "config:0-15", &pmu->event,
			                     err, errlen);
		}
		pmu->event_bits = pmu->event.hi + 1;
		pmu->config_mask = pmu->event.mask | read_terms(pmu);

		snprintf(path, sizeof(path), "%s" PMU_DEVICES "/%s/format/counterid_mask",
		         pmu->sysfs, pmu->name);
		if (read_small(path, buf, sizeof(buf)) == 0) {
			char ferr[160];
			if (hpm_pmu_parse_format(buf, &pmu->counterid_mask, ferr, sizeof(ferr))) {
				snprintf(err, errlen, "%s: %s", path, ferr);
				return -EINVAL;
			}
			pmu->has_counterid_mask = true;
		}
	}

	pmu->present = pmu->model && pmu->has_cpu_pmu;
	if (!pmu->cpuid[0]) {
		snprintf(pmu->reason, sizeof(pmu->reason),
		         "%.120s/cpuinfo has no mvendorid/marchid/mimpid and no CPU has a "
		         "midr_el1 (not a RISC-V host, nor an Arm one)",
		         pmu->procfs);
	} else if (!pmu->model) {
		char cores[200];
		if (riscv)
			snprintf(pmu->reason, sizeof(pmu->reason),
			         "cpuid %s is a core of no PMU model hpmstat knows (mapfile.csv)",
			         pmu->cpuid);
		else {
			cores_text(pmu, cores, sizeof(cores));
			snprintf(pmu->reason, sizeof(pmu->reason),
			         "%.180s %s of no PMU model hpmstat knows "
			         "(events/arm64/mapfile.csv)",
			         cores, strstr(cores, "), MIDR") ? "are cores" : "is a core");
		}
	} else if (!pmu->has_cpu_pmu) {
		if (riscv)
			snprintf(pmu->reason, sizeof(pmu->reason),
			         "%s core %.40s but no cpu PMU in %.100s/bus/event_source/devices "
			         "(kernel without CONFIG_RISCV_PMU_SBI?)",
			         pmu->model->display, pmu->cpuid, pmu->sysfs);
		else
			snprintf(pmu->reason, sizeof(pmu->reason),
			         "%s core (MIDR %.20s) but no core PMU (one with a cpus file) in "
			         "%.90s/bus/event_source/devices (kernel without CONFIG_ARM_PMU?)",
			         pmu->model->display, pmu->cpuid, pmu->sysfs);
	}
	return 0;
}

int hpm_pmu_detect_at(struct hpm_pmu *pmu, const char *sysfs, const char *procfs, char *err,
                      size_t errlen)
{
	return detect(pmu, sysfs, procfs, NULL, err, errlen);
}

int hpm_pmu_detect(struct hpm_pmu *pmu, char *err, size_t errlen)
{
	return detect(pmu, NULL, NULL, NULL, err, errlen);
}

int hpm_pmu_detect_model(struct hpm_pmu *pmu, const struct hpm_pmu_model *want, char *err,
                         size_t errlen)
{
	return detect(pmu, NULL, NULL, want, err, errlen);
}

/* ------------------------------------------------------------ host PMUs */

#define MAX_TERM_DEPTH 2 /* a term of events/NAME may not name another event */

bool hpm_pmu_spec_shape(const char *spec, char *pmu, size_t pmulen)
{
	size_t n =
	    strspn(spec, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.");
	if (n == 0 || spec[n] != '/' || !strchr(spec + n + 1, '/') || n >= pmulen)
		return false;
	memcpy(pmu, spec, n);
	pmu[n] = '\0';
	return true;
}

/* "a, b, c" of the entries of a directory, sorted, into out. */
static void list_dir(const char *path, const char *extra, char *out, size_t len)
{
	struct dirent **names = NULL;
	int n = scandir(path, &names, NULL, alphasort);
	size_t w = 0;
	out[0] = '\0';
	for (int i = 0; i < n; i++) {
		const char *d = names[i]->d_name;
		/* events/NAME.scale, .unit, .per-pkg describe NAME */
		if (d[0] != '.' && !strchr(d, '.') && w < len)
			w += (size_t)snprintf(out + w, len - w, "%s%s", w ? ", " : "", d);
		free(names[i]);
	}
	free(names);
	if (extra && w < len)
		snprintf(out + w, len - w, "%s%s", w ? ", " : "", extra);
}

static int unknown_term(const char *dir, const struct hpm_pmu_event *ev, const char *spec,
                        const char *term, size_t tlen, char *err, size_t errlen)
{
	char path[512], terms[200], events[160];
	snprintf(path, sizeof(path), "%s/format", dir);
	list_dir(path, "config, config1, config2, name, period, percore, metric-id", terms,
	         sizeof(terms));
	snprintf(path, sizeof(path), "%s/events", dir);
	list_dir(path, NULL, events, sizeof(events));
	snprintf(err, errlen, "'%.100s': unknown term '%.*s' for PMU '%s' (terms: %s%s%s)", spec,
	         (int)(tlen > 40 ? 40 : tlen), term, ev->pmu, terms, events[0] ? "; events: " : "",
	         events);
	return -EINVAL;
}

static int parse_terms(const char *dir, bool present, const char *spec, const char *terms,
                       size_t len, unsigned depth, struct hpm_pmu_event *ev, char *err,
                       size_t errlen);

/* One term: KEY, KEY=VALUE. */
static int parse_term(const char *dir, bool present, const char *spec, const char *t, size_t n,
                      unsigned depth, struct hpm_pmu_event *ev, char *err, size_t errlen)
{
	const char *eq = memchr(t, '=', n);
	size_t klen = eq ? (size_t)(eq - t) : n;
	char key[64], val[128], path[600], buf[256];
	if (klen == 0 || klen >= sizeof(key) || (eq && (size_t)(t + n - eq - 1) >= sizeof(val))) {
		snprintf(err, errlen, "'%.100s': bad term '%.*s' (a term is NAME or NAME=VALUE)",
		         spec, (int)(n > 40 ? 40 : n), t);
		return -EINVAL;
	}
	memcpy(key, t, klen);
	key[klen] = '\0';
	if (eq) {
		memcpy(val, eq + 1, n - klen - 1);
		val[n - klen - 1] = '\0';
	} else {
		snprintf(val, sizeof(val), "1");
	}
	if (strcmp(key, "name") == 0) {
		snprintf(ev->name, sizeof(ev->name), "%s", val);
		return 0;
	}
	if (strcmp(key, "period") == 0 || strcmp(key, "percore") == 0 ||
	    strcmp(key, "metric-id") == 0)
		return 0; /* sampling and metric grouping: nothing to count */

	/* a named event of events/ (only as a bare word, as perf) */
	if (!eq && present && depth < MAX_TERM_DEPTH && !strchr(key, '/')) {
		snprintf(path, sizeof(path), "%s/events/%s", dir, key);
		if (read_small(path, buf, sizeof(buf)) == 0) {
			char extra[64], *end;
			snprintf(path, sizeof(path), "%s/events/%s.unit", dir, key);
			if (read_small(path, extra, sizeof(extra)) == 0)
				snprintf(ev->unit, sizeof(ev->unit), "%.15s", extra);
			snprintf(path, sizeof(path), "%s/events/%s.scale", dir, key);
			if (read_small(path, extra, sizeof(extra)) == 0) {
				double sc = strtod(extra, &end);
				if (end != extra && !*end && sc > 0)
					ev->scale = sc;
			}
			return parse_terms(dir, present, spec, buf, strlen(buf), depth + 1, ev, err,
			                   errlen);
		}
	}

	char *end;
	errno = 0;
	unsigned long long v = strtoull(val, &end, 0);
	if (errno || end == val || *end || val[0] == '-') {
		snprintf(err, errlen, "'%.100s': term '%s': '%s' is not a number", spec, key, val);
		return -EINVAL;
	}
	struct hpm_pmu_format f;
	static const char *const raw[3] = {"config", "config1", "config2"};
	for (unsigned i = 0; i < 3; i++)
		if (strcmp(key, raw[i]) == 0) {
			/* the raw fields: every bit, as given */
			ev->config[i] = v;
			return 0;
		}
	if (!present)
		return 0; /* the syntax is all that can be checked */
	snprintf(path, sizeof(path), "%s/format/%s", dir, key);
	if (strchr(key, '/') || read_small(path, buf, sizeof(buf)) != 0)
		return unknown_term(dir, ev, spec, key, klen, err, errlen);
	char ferr[160];
	if (hpm_pmu_parse_format(buf, &f, ferr, sizeof(ferr))) {
		snprintf(err, errlen, "%s: %s", path, ferr);
		return -EINVAL;
	}
	/* perf's pmu_format_value: lowest bit first */
	if (!hpm_model_perf_deposit(v, f.mask, &ev->config[f.field])) {
		snprintf(err, errlen, "'%.100s': term '%s': value %s is too big for its format %s",
		         spec, key, val, f.text);
		return -EINVAL;
	}
	return 0;
}

static int parse_terms(const char *dir, bool present, const char *spec, const char *terms,
                       size_t len, unsigned depth, struct hpm_pmu_event *ev, char *err,
                       size_t errlen)
{
	const char *p = terms, *end = terms + len;
	while (p < end) {
		const char *c = memchr(p, ',', (size_t)(end - p));
		size_t n = c ? (size_t)(c - p) : (size_t)(end - p);
		/* blanks are the lexer's: "event = 0" is event=0 */
		char t[200];
		size_t w = 0;
		for (size_t i = 0; i < n && w + 1 < sizeof(t); i++)
			if (!isspace((unsigned char)p[i]))
				t[w++] = p[i];
		t[w] = '\0';
		if (w == 0) {
			snprintf(err, errlen, "'%.100s': empty term", spec);
			return -EINVAL;
		}
		int rc = parse_term(dir, present, spec, t, w, depth, ev, err, errlen);
		if (rc)
			return rc;
		p += n + (c != NULL);
	}
	return 0;
}

int hpm_pmu_event_parse(const char *sysfs, const char *spec, struct hpm_pmu_event *ev, char *err,
                        size_t errlen)
{
	char dir[512], path[600], buf[64];
	memset(ev, 0, sizeof(*ev));
	ev->scale = 1.0;
	if (!hpm_pmu_spec_shape(spec, ev->pmu, sizeof(ev->pmu))) {
		snprintf(err, errlen, "'%.100s' is not PMU/TERMS/", spec);
		return -EINVAL;
	}
	const char *open_ = spec + strlen(ev->pmu), *close_ = strchr(open_ + 1, '/');
	const char *mods = close_ + 1;
	if (*mods == ':')
		mods++; /* hpmstat's Kunminghu terms take "/:u" as well as perf's "/u" */
	if (strlen(mods) >= sizeof(ev->mods) || strspn(mods, "ukhHGWS") != strlen(mods)) {
		snprintf(
		    err, errlen,
		    "'%.100s': '%s' after the closing '/' is not a modifier (u k h H G W S are)",
		    spec, close_ + 1);
		return -EINVAL;
	}
	snprintf(ev->mods, sizeof(ev->mods), "%s", mods);

	snprintf(dir, sizeof(dir), "%s" PMU_DEVICES "/%s", sysfs ? sysfs : hpm_sysfs_root(),
	         ev->pmu);
	struct stat st;
	bool present = stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
	if (present) {
		snprintf(path, sizeof(path), "%s/type", dir);
		char *end;
		unsigned long t = 0;
		if (read_small(path, buf, sizeof(buf)) != 0 ||
		    (errno = 0, t = strtoul(buf, &end, 10), errno || end == buf || *end) ||
		    t > UINT32_MAX) {
			snprintf(err, errlen, "'%.100s': cannot read the PMU's type from %s", spec,
			         path);
			return -EINVAL;
		}
		ev->type = (uint32_t)t;
	}
	size_t tlen = (size_t)(close_ - open_ - 1);
	int rc = tlen ? parse_terms(dir, present, spec, open_ + 1, tlen, 0, ev, err, errlen) : 0;
	if (rc)
		return rc;
	if (!present) {
		/* perf's words (parse-events.c), on one line */
		snprintf(err, errlen,
		         "'%.100s': Cannot find PMU `%s'. Missing kernel support? (no %s)", spec,
		         ev->pmu, dir);
		return -ENODEV;
	}
	return 0;
}

/* ------------------------------------------------------------ listing */

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The entries of dir that pass keep(name), sorted (perf lists PMUs and
 * their events in name order); *names is allocated, NULL when dir cannot
 * be read. */
static unsigned sorted_entries(const char *dir, bool (*keep)(const char *), char ***names)
{
	DIR *d = opendir(dir);
	unsigned n = 0, cap = 0;
	*names = NULL;
	if (!d)
		return 0;
	for (struct dirent *de; (de = readdir(d));) {
		if (de->d_name[0] == '.' || !keep(de->d_name))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			char **more = realloc(*names, cap * sizeof(**names));
			if (!more)
				break;
			*names = more;
		}
		if (!((*names)[n] = strdup(de->d_name)))
			break;
		n++;
	}
	closedir(d);
	if (n)
		qsort(*names, n, sizeof(**names), by_name);
	return n;
}

static void free_entries(char **names, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* kunminghu/.../ is Kunminghu's own syntax, not a host PMU's */
static bool host_pmu_name(const char *name)
{
	return strcmp(name, "kunminghu") != 0;
}

/* events/NAME, not its NAME.unit, NAME.scale, NAME.per-pkg or
 * NAME.snapshot companions */
static bool event_file_name(const char *name)
{
	return strchr(name, '.') == NULL;
}

unsigned hpm_pmu_list_events(const char *sysfs, hpm_pmu_event_visit_fn visit, void *ctx)
{
	char dir[512], path[1024], terms[256];
	char **pmus, **events;
	unsigned seen = 0;
	snprintf(dir, sizeof(dir), "%s" PMU_DEVICES, sysfs ? sysfs : hpm_sysfs_root());
	unsigned nr_pmus = sorted_entries(dir, host_pmu_name, &pmus);
	for (unsigned p = 0; p < nr_pmus; p++) {
		snprintf(path, sizeof(path), "%s/%s/events", dir, pmus[p]);
		unsigned nr_events = sorted_entries(path, event_file_name, &events);
		for (unsigned e = 0; e < nr_events; e++) {
			struct hpm_pmu_named_event ev = {.pmu = pmus[p], .event = events[e]};
			char spec[256];
			snprintf(path, sizeof(path), "%s/%s/events/%s", dir, pmus[p], events[e]);
			if (read_small(path, terms, sizeof(terms)) != 0)
				continue;
			snprintf(spec, sizeof(spec), "%s/%s/", pmus[p], events[e]);
			ev.spec = spec;
			ev.terms = terms;
			visit(ctx, &ev);
			seen++;
		}
		free_entries(events, nr_events);
	}
	free_entries(pmus, nr_pmus);
	return seen;
}

/* fake.c: see fake.h. */
#include "fake.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kmh/kmh.h"
#include "kmh/model.h"

static void die(const char *what, const char *path)
{
	fprintf(stderr, "fake: %s %s: %s\n", what, path, strerror(errno));
	abort();
}

char *fake_root(void)
{
	char tmpl[] = "/tmp/hpmstat-backend-XXXXXX";
	if (!mkdtemp(tmpl))
		die("mkdtemp", tmpl);
	return strdup(tmpl);
}

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

void fake_rm(char *root)
{
	if (root)
		nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(root);
}

static void mkdir_p(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			die("mkdir", path);
		*p = '/';
	}
}

void fake_write(const char *root, const char *rel, const char *content)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	mkdir_p(path);
	FILE *f = fopen(path, "w");
	if (!f)
		die("fopen", path);
	fputs(content, f);
	if (fclose(f))
		die("fclose", path);
}

void fake_riscv_cpuinfo(const char *root, const char *mvendorid, const char *marchid,
                        const char *mimpid)
{
	char buf[1024];
	size_t w = 0;
	for (int hart = 0; hart < 2; hart++)
		w += (size_t)snprintf(buf + w, sizeof(buf) - w,
		                      "processor\t: %d\nhart\t\t: %d\nisa\t\t: "
		                      "rv64imafdcbhv_sscofpmf_sstc\nmmu\t\t: sv39\n"
		                      "mvendorid\t: %s\nmarchid\t\t: %s\nmimpid\t\t: %s\n\n",
		                      hart, hart, mvendorid, marchid, mimpid);
	fake_write(root, "proc/cpuinfo", buf);
}

char *fake_kunminghu(const char *event, const char *cmask)
{
	char *root = fake_root();
	fake_riscv_cpuinfo(root, "0x0", "0x19", "0x0");
	fake_write(root, "sys/bus/event_source/devices/cpu/type", "4\n");
	if (event) {
		char buf[96];
		snprintf(buf, sizeof(buf), "%s\n", event);
		fake_write(root, "sys/bus/event_source/devices/cpu/format/event", buf);
	}
	fake_write(root, "sys/bus/event_source/devices/cpu/format/firmware", "config:62-63\n");
	if (cmask) {
		char buf[96];
		snprintf(buf, sizeof(buf), "%s\n", cmask);
		fake_write(root, "sys/bus/event_source/devices/cpu/format/counterid_mask", buf);
	}
	return root;
}

void fake_arm_pmu(const char *root, const char *name, unsigned type, const char *cpus,
                  const char *threshold_max)
{
	static const char *const files[][2] = {
	    {"format/event", "config:0-15\n"},  {"format/long", "config1:0\n"},
	    {"format/rdpmc", "config1:1\n"},    {"caps/slots", "0x00000008\n"},
	    {"caps/bus_slots", "0x00000020\n"},
	};
	static const char *const th[][2] = {
	    {"format/threshold_count", "config1:2\n"},
	    {"format/threshold_compare", "config1:3-4\n"},
	    {"format/threshold", "config1:5-16\n"},
	};
	char rel[256], buf[96];
	snprintf(rel, sizeof(rel), "sys/bus/event_source/devices/%s/type", name);
	snprintf(buf, sizeof(buf), "%u\n", type);
	fake_write(root, rel, buf);
	snprintf(rel, sizeof(rel), "sys/bus/event_source/devices/%s/cpus", name);
	snprintf(buf, sizeof(buf), "%s\n", cpus);
	fake_write(root, rel, buf);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(rel, sizeof(rel), "sys/bus/event_source/devices/%s/%s", name, files[i][0]);
		fake_write(root, rel, files[i][1]);
	}
	if (!threshold_max)
		return;
	for (size_t i = 0; i < sizeof(th) / sizeof(th[0]); i++) {
		snprintf(rel, sizeof(rel), "sys/bus/event_source/devices/%s/%s", name, th[i][0]);
		fake_write(root, rel, th[i][1]);
	}
	snprintf(rel, sizeof(rel), "sys/bus/event_source/devices/%s/caps/threshold_max", name);
	snprintf(buf, sizeof(buf), "%s\n", threshold_max);
	fake_write(root, rel, buf);
}

void fake_midr(const char *root, unsigned cpu, const char *midr)
{
	char rel[128], buf[64];
	snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/regs/identification/midr_el1",
	         cpu);
	snprintf(buf, sizeof(buf), "%s\n", midr);
	fake_write(root, rel, buf);
}

#define FAKE_MAX_EVSELS 64

void fake_list_init(struct hpm_evlist *l)
{
	memset(l, 0, sizeof(*l));
	/* fixed capacity: the evsel pointers the tests keep never move */
	l->ev = calloc(FAKE_MAX_EVSELS, sizeof(*l->ev));
	if (!l->ev)
		abort();
}

static struct hpm_evsel *add(struct hpm_evlist *l, const char *spec, int group)
{
	if (l->nr == FAKE_MAX_EVSELS)
		abort();
	struct hpm_evsel *e = &l->ev[l->nr++];
	memset(e, 0, sizeof(*e));
	e->name = strdup(spec);
	e->spec = strdup(spec);
	e->group = group;
	e->scale = 1.0;
	e->unit = "";
	if (group >= 0 && (unsigned)group + 1 > l->nr_groups)
		l->nr_groups = (unsigned)group + 1;
	return e;
}

struct hpm_evsel *fake_add_host(struct hpm_evlist *l, const char *spec, int group)
{
	struct hpm_evsel *e = add(l, spec, group);
	e->kind = HPM_EV_HOST;
	return e;
}

struct hpm_evsel *fake_add_kmh(struct hpm_evlist *l, const char *expr, int group)
{
	struct hpm_evsel *e = add(l, expr, group);
	struct hpm_diag err;
	e->kind = HPM_EV_MODEL;
	if (hpm_model_kunminghu.encode(&hpm_model_kunminghu, expr, &e->enc, &err)) {
		fprintf(stderr, "fake: encode(%s): %s\n", expr, err.msg);
		abort();
	}
	return e;
}

struct hpm_evsel *fake_add_fixed(struct hpm_evlist *l, enum kmh_fixed f, const char *name,
                                 int group)
{
	struct hpm_evsel *e = add(l, name, group);
	e->kind = HPM_EV_MODEL_FIXED;
	e->enc.model = &hpm_model_kunminghu;
	e->enc.fixed = (int)f;
	e->enc.constraint = -1;
	return e;
}

void fake_list_free(struct hpm_evlist *l)
{
	for (unsigned i = 0; i < l->nr; i++) {
		free(l->ev[i].name);
		free(l->ev[i].spec);
		free(l->ev[i].counts);
		free(l->ev[i].placement);
	}
	for (unsigned u = 0; u < l->nr_units && l->unit_names; u++)
		free(l->unit_names[u]);
	free(l->unit_names);
	free(l->ev);
	memset(l, 0, sizeof(*l));
}

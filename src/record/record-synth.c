/* record-synth.c: the records perf synthesizes at the start of a
 * recording (its util/synthetic-events.c) for what existed before the
 * session: the kernel's map, and the comm and maps of the processes
 * recorded; see record-int.h. */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "backend/host-pmu.h"
#include "record/record-int.h"
#include "util/str.h"
#include "util/xalloc.h"

/* A record perf synthesizes: the sample_id_all trailer is zeros, which
 * perf reads as "no time, first event", as in its own files. */
static int put_synth(struct hpm_record *r, struct perf_event_header *h, size_t body)
{
	size_t size = sizeof(*h) + body + r->id_hdr_size;
	h->size = (uint16_t)size;
	memset((char *)h + sizeof(*h) + body, 0, r->id_hdr_size);
	return perf_writer_add(r->w, h, size);
}

static size_t align8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/* perf's kernel map: MMAP of [kernel.kallsyms]_text at _text, pid -1. */
static int synth_kernel(struct hpm_record *r)
{
	char path[512], line[512];
	snprintf(path, sizeof(path), "%s/kallsyms", hpm_procfs_root());
	FILE *f = fopen(path, "re");
	if (!f)
		return 0;
	uint64_t text = 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long a;
		char t, name[256];
		if (sscanf(line, "%llx %c %255s", &a, &t, name) == 3 &&
		    strcmp(name, "_text") == 0) {
			text = a;
			break;
		}
	}
	fclose(f);
	if (!text)
		return 0; /* kptr_restrict hides it: perf then has no kernel map either */
	union {
		struct perf_event_header h;
		char buf[256];
	} u;
	memset(&u, 0, sizeof(u));
	static const char name[] = "[kernel.kallsyms]_text";
	struct {
		uint32_t pid, tid;
		uint64_t start, len, pgoff;
	} m = {(uint32_t)-1, 0, text, ~0ULL - text, text};
	memcpy(u.buf + sizeof(u.h), &m, sizeof(m));
	memcpy(u.buf + sizeof(u.h) + sizeof(m), name, sizeof(name));
	u.h.type = PERF_RECORD_MMAP;
	u.h.misc = PERF_RECORD_MISC_KERNEL;
	return put_synth(r, &u.h, sizeof(m) + align8(sizeof(name)));
}

static int synth_comm(struct hpm_record *r, pid_t pid, pid_t tid)
{
	char path[512], comm[64] = "";
	snprintf(path, sizeof(path), "%s/%d/task/%d/comm", hpm_procfs_root(), (int)pid, (int)tid);
	FILE *f = fopen(path, "re");
	if (!f)
		return 0; /* gone meanwhile */
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = '\0';
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	union {
		struct perf_event_header h;
		char buf[256];
	} u;
	memset(&u, 0, sizeof(u));
	uint32_t ids[2] = {(uint32_t)pid, (uint32_t)tid};
	memcpy(u.buf + sizeof(u.h), ids, sizeof(ids));
	size_t len = strlen(comm) + 1;
	memcpy(u.buf + sizeof(u.h) + 8, comm, len);
	u.h.type = PERF_RECORD_COMM;
	return put_synth(r, &u.h, 8 + align8(len));
}

/* MMAP2 of each executable map of pid (perf synthesizes those, from
 * <proc>/PID/maps, with the device and inode but no build id). */
static int synth_maps(struct hpm_record *r, pid_t pid)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%d/maps", hpm_procfs_root(), (int)pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return 0;
	char *line = NULL;
	size_t cap = 0;
	int rc = 0;
	char *buf = xmalloc(PATH_MAX + 256);
	while (!rc && getline(&line, &cap, f) > 0) {
		unsigned long long start, end, pgoff, ino;
		unsigned maj, min;
		char perms[8];
		int name_at = 0;
		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perms, &pgoff,
		           &maj, &min, &ino, &name_at) < 7)
			continue;
		if (strlen(perms) < 4 || (perms[2] != 'x' && !r->mmap_data))
			continue;
		line[name_at + strcspn(line + name_at, "\n")] = '\0';
		const char *name = line + name_at;
		if (!*name)
			name = "//anon";
		size_t nlen = strlen(name) + 1;
		if (nlen > PATH_MAX)
			continue;
		struct perf_event_header *h = (struct perf_event_header *)buf;
		memset(buf, 0, PATH_MAX + 256);
		struct {
			uint32_t pid, tid;
			uint64_t start, len, pgoff;
			uint32_t maj, min;
			uint64_t ino, ino_generation;
			uint32_t prot, flags;
		} m = {(uint32_t)pid,
		       (uint32_t)pid,
		       start,
		       end - start,
		       pgoff,
		       maj,
		       min,
		       ino,
		       0,
		       (uint32_t)((perms[0] == 'r' ? PROT_READ : 0) |
		                  (perms[1] == 'w' ? PROT_WRITE : 0) |
		                  (perms[2] == 'x' ? PROT_EXEC : 0)),
		       (uint32_t)(perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE)};
		memcpy(buf + sizeof(*h), &m, sizeof(m));
		memcpy(buf + sizeof(*h) + sizeof(m), name, nlen);
		h->type = PERF_RECORD_MMAP2;
		h->misc =
		    PERF_RECORD_MISC_USER | (perms[2] == 'x' ? 0 : PERF_RECORD_MISC_MMAP_DATA);
		/* the kernel gives build ids to new maps only: perf reads those
		 * of existing ones from the files, for the DSOs with samples */
		if (name[0] == '/')
			record_proc_add_map(record_proc_get(r, pid, true), start, end - start,
			                    record_dso_of_file(r, name));
		rc = put_synth(r, h, sizeof(m) + align8(nlen));
	}
	free(buf);
	free(line);
	fclose(f);
	return rc;
}

static int synth_process(struct hpm_record *r, pid_t pid)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%d/task", hpm_procfs_root(), (int)pid);
	DIR *d = opendir(path);
	if (!d)
		return 0;
	struct dirent *de;
	int rc = 0;
	while (!rc && (de = readdir(d)))
		if (isdigit((unsigned char)de->d_name[0]))
			rc = synth_comm(r, pid, (pid_t)atoi(de->d_name));
	closedir(d);
	return rc || (r->synth_off & HPM_RECORD_SYNTH_MMAP) ? rc : synth_maps(r, pid);
}

/* perf's cgroupfs_find_mountpoint("perf_event"): the v1 hierarchy with
 * the perf_event controller, else the cgroup2 one; 0, or -1 when none. */
static int cgroup_mountpoint(char *out, size_t len)
{
	char path[512], dev[256], dir[PATH_MAX], type[64], opts[512];
	snprintf(path, sizeof(path), "%s/self/mounts", hpm_procfs_root());
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	bool found = false;
	char v2[PATH_MAX] = "";
	while (!found && fscanf(f, "%255s %4095s %63s %511s %*d %*d", dev, dir, type, opts) == 4) {
		if (strcmp(type, "cgroup") == 0) {
			/* the options name the controllers: a whole word */
			for (char *o = strtok(opts, ","); o && !found; o = strtok(NULL, ","))
				found = strcmp(o, "perf_event") == 0;
			if (found)
				snprintf(out, len, "%s", dir);
		} else if (strcmp(type, "cgroup2") == 0 && !v2[0])
			snprintf(v2, sizeof(v2), "%s", dir);
	}
	fclose(f);
	if (!found && v2[0])
		snprintf(out, len, "%s", v2);
	return found || v2[0] ? 0 : -1;
}

/* perf's perf_event__synthesize_cgroup: the cgroup's id (its file
 * handle, what the kernel puts in PERF_SAMPLE_CGROUP) and its path below
 * the mount point ("/" for the root); a cgroup gone meanwhile is left
 * out. */
static int synth_cgroup(struct hpm_record *r, const char *path, size_t mount_len)
{
	union {
		struct file_handle fh;
		char buf[sizeof(struct file_handle) + sizeof(uint64_t)];
	} handle;
	int mount_id;
	uint64_t id;
	handle.fh.handle_bytes = sizeof(id);
	if (name_to_handle_at(AT_FDCWD, path, &handle.fh, &mount_id, 0) < 0)
		return 0;
	memcpy(&id, handle.fh.f_handle, sizeof(id));
	const char *rel = path[mount_len] ? path + mount_len : "/";
	size_t nlen = strlen(rel) + 1;
	if (nlen > PATH_MAX)
		return 0;
	char *buf = xcalloc(1, PATH_MAX + 64);
	struct perf_event_header *h = (struct perf_event_header *)buf;
	memcpy(buf + sizeof(*h), &id, sizeof(id));
	memcpy(buf + sizeof(*h) + 8, rel, nlen);
	h->type = PERF_RECORD_CGROUP;
	int rc = put_synth(r, h, 8 + align8(nlen));
	free(buf);
	return rc;
}

/* Every cgroup at and below path, parents first (as perf walks them). */
static int synth_cgroup_tree(struct hpm_record *r, char *path, size_t mount_len, unsigned depth)
{
	int rc = synth_cgroup(r, path, mount_len);
	DIR *d = depth < 64 ? opendir(path) : NULL;
	if (!d)
		return rc;
	size_t len = strlen(path);
	struct dirent *de;
	while (!rc && (de = readdir(d))) {
		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		if (len + 1 + strlen(de->d_name) >= PATH_MAX)
			continue;
		snprintf(path + len, PATH_MAX - len, "/%s", de->d_name);
		rc = synth_cgroup_tree(r, path, mount_len, depth + 1);
		path[len] = '\0';
	}
	closedir(d);
	return rc;
}

static int synth_cgroups(struct hpm_record *r)
{
	char path[PATH_MAX];
	if (cgroup_mountpoint(path, sizeof(path)))
		return 0; /* no cgroup file system: the samples' ids stay unnamed */
	return synth_cgroup_tree(r, path, strlen(path), 0);
}

int record_synthesize(struct hpm_record *r)
{
	int rc = synth_kernel(r);
	if (!rc && r->all_cgroups && !(r->synth_off & HPM_RECORD_SYNTH_CGROUP))
		rc = synth_cgroups(r);
	/* --synth=no: perf writes the kernel's map all the same */
	if (rc || (r->synth_off & HPM_RECORD_SYNTH_TASK))
		return rc;
	if (r->system_wide) {
		DIR *d = opendir(hpm_procfs_root());
		if (!d)
			return 0;
		struct dirent *de;
		while (!rc && (de = readdir(d)))
			if (isdigit((unsigned char)de->d_name[0]))
				rc = synth_process(r, (pid_t)atoi(de->d_name));
		closedir(d);
		return rc;
	}
	if (r->tids && r->pid > 0)
		return synth_process(r, r->pid);
	for (unsigned s = 0; r->tids && s < r->nr_slots && !rc; s++) {
		pid_t tgid = hpm_proc_tgid(hpm_procfs_root(), r->tids[s]);
		rc = synth_comm(r, tgid, r->tids[s]);
		bool done = false;
		for (unsigned k = 0; k < s; k++)
			done |= hpm_proc_tgid(hpm_procfs_root(), r->tids[k]) == tgid;
		if (!rc && !done && !(r->synth_off & HPM_RECORD_SYNTH_MMAP))
			rc = synth_maps(r, tgid);
	}
	return rc;
}

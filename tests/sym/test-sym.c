/* test-sym: the symbolizer in a real process, and its bookkeeping.
 *
 * Truth: this program's own function addresses (the compiler's and
 * linker's), dladdr() for libc (the dynamic linker's own lookup), the
 * vDSO's dynamic symbols read here with <elf.h> from the process's own
 * [vdso] mapping (not through libelf), the build id read here from the
 * PT_NOTE segments of /proc/self/exe, and hand-worked addresses for the
 * maps' bookkeeping (each worked out in a comment).
 */
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "sym/sym.h"
#include "tap.h"

int main(void);

/* the functions to find: one global, one static, not inlined */
__attribute__((noinline)) int sym_test_global(int x);
__attribute__((noinline)) int sym_test_global(int x)
{
	return x * 7 + 3;
}

__attribute__((noinline)) static int sym_test_static(int x)
{
	return x * 11 - sym_test_global(x);
}

/* every file-backed map of this process, as MMAP2 records give them */
static void map_self(struct hpm_syms *s)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[1200];

	if (!f)
		return;
	while (fgets(line, sizeof line, f)) {
		unsigned long long lo, hi, off;
		char path[1024] = "";

		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %1023s", &lo, &hi, &off, path) >= 3 &&
		    path[0])
			hpm_syms_mmap(s, getpid(), lo, hi - lo, off, path, NULL, 0, HPM_SYM_USER);
	}
	fclose(f);
}

static void check_self(struct hpm_syms *s)
{
	struct hpm_sym_loc l;
	char exe[1024];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	Dl_info info;

	exe[n > 0 ? n : 0] = '\0';
	hpm_syms_resolve(s, getpid(), (uintptr_t)sym_test_global + 1, HPM_SYM_USER, &l);
#ifdef HAVE_LIBELF
	tap_is_str(l.name, "sym_test_global", "own global function named");
	tap_is_u64(l.sym_offset, 1, "offset in it");
#else
	tap_ok(!l.name && l.why && !strcmp(l.why, "built without libelf"),
	       "without libelf: no name, why says so (%s)", l.why ? l.why : "-");
#endif
	tap_is_str(l.dso, exe, "its DSO is the executable");
	hpm_syms_resolve(s, getpid(), (uintptr_t)sym_test_static + 2, HPM_SYM_USER, &l);
#ifdef HAVE_LIBELF
	tap_is_str(l.name, "sym_test_static", "own static function named");
	tap_is_u64(l.sym_offset, 2, "offset in it");
#endif
	hpm_syms_resolve(s, getpid(), (uintptr_t)main, HPM_SYM_USER, &l);
#ifdef HAVE_LIBELF
	tap_is_str(l.name, "main", "main named");
#endif
	/* a libc function: dladdr says its file and that it starts there */
	if (dladdr((void *)(uintptr_t)strtoul, &info) && info.dli_saddr) {
		char real[4096];

		hpm_syms_resolve(s, getpid(), (uintptr_t)info.dli_saddr + 3, HPM_SYM_USER, &l);
		tap_ok(realpath(info.dli_fname, real) && !strcmp(l.dso, real), "libc's DSO %s",
		       l.dso);
#ifdef HAVE_LIBELF
		tap_ok(l.name && l.sym_offset == 3, "a libc function named: %s+%" PRIu64,
		       l.name ? l.name : "-", l.sym_offset);
#endif
	}
}

/* The vDSO: the dynamic symbol table read here from the mapped image. */
static void check_vdso(struct hpm_syms *s)
{
	const unsigned char *base = (const unsigned char *)getauxval(AT_SYSINFO_EHDR);
	const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)base;
	const ElfW(Shdr) * sh;
	const ElfW(Phdr) * ph;
	uint64_t load = 0, value = 0;
	const char *want = NULL;
	const ElfW(Sym) *syms = NULL;
	const char *strs = NULL;
	size_t nsyms = 0, i;
	struct hpm_sym_loc l;
	bool alias = false;

	if (!base) {
		tap_skip("no vDSO");
		return;
	}
	ph = (const ElfW(Phdr) *)(base + eh->e_phoff);
	for (i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD) {
			load = ph[i].p_vaddr - ph[i].p_offset;
			break;
		}
	sh = (const ElfW(Shdr) *)(base + eh->e_shoff);
	for (i = 0; i < eh->e_shnum; i++)
		if (sh[i].sh_type == SHT_DYNSYM) {
			syms = (const ElfW(Sym) *)(base + sh[i].sh_offset);
			nsyms = sh[i].sh_size / sizeof *syms;
			strs = (const char *)base + sh[sh[i].sh_link].sh_offset;
		}
	for (i = 0; syms && i < nsyms; i++) {
		const char *nm = strs + syms[i].st_name;

		if (!strcmp(nm, "__vdso_clock_gettime") || !strcmp(nm, "__kernel_clock_gettime")) {
			want = nm;
			value = syms[i].st_value;
		}
	}
	if (!want) {
		tap_skip("no clock_gettime in the vDSO");
		return;
	}
	/* the image is mapped from file offset 0: address = base + vaddr - load */
	hpm_syms_resolve(s, getpid(), (uintptr_t)base + value - load + 1, HPM_SYM_USER, &l);
	tap_is_str(l.dso, "[vdso]", "vDSO address in [vdso]");
#ifdef HAVE_LIBELF
	/* any alias at that address is right (clock_gettime is a weak one) */
	for (i = 0; l.name && i < nsyms; i++)
		if (syms[i].st_value == value && !strcmp(strs + syms[i].st_name, l.name))
			alias = true;
	tap_ok(alias && l.sym_offset == 1,
	       "vDSO function named %s+%" PRIu64 " (%s at %#" PRIx64 ")", l.name ? l.name : "-",
	       l.sym_offset, want, value);
#else
	(void)alias;
#endif
}

/* The build id from /proc/self/exe's PT_NOTE segments, read by hand. */
static void check_build_id(void)
{
	FILE *f = fopen("/proc/self/exe", "rb");
	static unsigned char buf[1 << 22];
	size_t n = f ? fread(buf, 1, sizeof buf, f) : 0, i;
	const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)buf;
	uint8_t want[64], got[64];
	size_t want_len = 0, got_len = 0;
	int rc;
	char tmp[] = "/tmp/test-sym-XXXXXX";
	int fd;

	if (f)
		fclose(f);
	for (i = 0; n > sizeof *eh && i < eh->e_phnum; i++) {
		const ElfW(Phdr) *ph = (const ElfW(Phdr) *)(buf + eh->e_phoff) + i;
		size_t off = ph->p_offset;

		if (ph->p_type != PT_NOTE)
			continue;
		while (off + sizeof(ElfW(Nhdr)) <= ph->p_offset + ph->p_filesz) {
			const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)(buf + off);
			size_t name = off + sizeof *nh, desc = name + ((nh->n_namesz + 3) & ~3u);

			if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
			    !memcmp(buf + name, "GNU", 4) && nh->n_descsz <= sizeof want) {
				memcpy(want, buf + desc, nh->n_descsz);
				want_len = nh->n_descsz;
			}
			off = desc + ((nh->n_descsz + 3) & ~3u);
		}
	}
	rc = hpm_sym_file_build_id("/proc/self/exe", got, sizeof got, &got_len);
#ifdef HAVE_LIBELF
	if (!want_len) {
		tap_ok(rc == HPM_SYM_ENOBUILDID, "no build id: %s", hpm_syms_strerror(rc));
	} else {
		tap_ok(rc == 0 && got_len == want_len && !memcmp(got, want, want_len),
		       "build id of /proc/self/exe (%zu bytes)", want_len);
	}
	rc = hpm_sym_file_build_id("/nonexistent/x", got, sizeof got, &got_len);
	tap_ok(rc == -ENOENT, "missing file: %s", hpm_syms_strerror(rc));
	fd = mkstemp(tmp);
	if (fd >= 0) {
		(void)!write(fd, "not an ELF file\n", 16);
		close(fd);
		rc = hpm_sym_file_build_id(tmp, got, sizeof got, &got_len);
		tap_ok(rc == HPM_SYM_ENOTELF, "text file: %s", hpm_syms_strerror(rc));
		unlink(tmp);
	}
	rc = hpm_sym_file_build_id("/tmp", got, sizeof got, &got_len);
	tap_ok(rc == HPM_SYM_ENOTREG, "a directory: %s", hpm_syms_strerror(rc));
#else
	(void)tmp;
	(void)fd;
	(void)want_len;
	tap_ok(rc == HPM_SYM_ENOLIBELF, "build id without libelf: %s", hpm_syms_strerror(rc));
#endif
}

/* The maps' bookkeeping, through a declared table "emu" (no file):
 * functions f1 [0x100, 0x200) and f2 [0x200, 0x300) in the DSO's terms,
 * which for a table are file offsets (addr - start + pgoff). */
static void check_maps(void)
{
	struct hpm_syms *s;
	struct hpm_syms_opts o = {.kallsyms = ""};
	struct hpm_sym_decl d[] = {{"f1", 0x100, 0x200}, {"f2", 0x200, 0x300}};
	struct hpm_sym_loc l;

	hpm_syms_new(&o, &s);
	tap_ok(hpm_syms_add_table(s, "emu", d, 2) == 0, "table added");
	tap_ok(hpm_syms_mmap(s, 100, 0x10000, 0x10000, 0, "emu", NULL, 0, HPM_SYM_USER) == 0,
	       "mmap");
	/* 0x10150 - 0x10000 + 0 = 0x150: in f1 at 0x50 */
	hpm_syms_resolve(s, 100, 0x10150, HPM_SYM_USER, &l);
	tap_ok(l.name && !strcmp(l.name, "f1") && l.sym_offset == 0x50 && l.dso_offset == 0x150 &&
	           !strcmp(l.dso, "emu"),
	       "table: 0x10150 is f1+0x50");
	hpm_syms_resolve(s, 100, 0x10300, HPM_SYM_USER, &l);
	tap_ok(!l.name && l.dso_offset == 0x300 && l.why, "table: 0x10300 past f2: no name (%s)",
	       l.why ? l.why : "-");
	/* a second map over [0x14000, 0x15000) splits the first: the right
	 * part [0x15000, 0x20000) keeps file offset 0x5000 on */
	hpm_syms_mmap(s, 100, 0x14000, 0x1000, 0, "other", NULL, 0, HPM_SYM_USER);
	hpm_syms_resolve(s, 100, 0x14010, HPM_SYM_USER, &l);
	tap_is_str(l.dso, "other", "overlapping map replaces");
	hpm_syms_resolve(s, 100, 0x15010, HPM_SYM_USER, &l);
	tap_ok(!strcmp(l.dso, "emu") && l.dso_offset == 0x5010,
	       "right part keeps its offset (%#" PRIx64 ")", l.dso_offset);
	hpm_syms_resolve(s, 100, 0x13ff0, HPM_SYM_USER, &l);
	tap_ok(!strcmp(l.dso, "emu") && l.dso_offset == 0x3ff0, "left part kept");
	/* a new process starts with its parent's maps; a new thread is a no-op */
	hpm_syms_fork(s, 101, 100);
	hpm_syms_fork(s, 100, 100);
	hpm_syms_resolve(s, 101, 0x10150, HPM_SYM_USER, &l);
	tap_is_str(l.name, "f1", "child inherits the maps");
	hpm_syms_exec(s, 101);
	hpm_syms_resolve(s, 101, 0x10150, HPM_SYM_USER, &l);
	tap_ok(!l.name && !strcmp(l.dso, "[unknown]"), "exec drops the maps");
	hpm_syms_exit(s, 100);
	hpm_syms_resolve(s, 100, 0x10150, HPM_SYM_USER, &l);
	tap_is_str(l.name, "f1", "after EXIT, late samples still resolve");
	hpm_syms_mmap(s, 100, 0x50000, 0x1000, 0, "emu", NULL, 0, HPM_SYM_USER);
	hpm_syms_resolve(s, 100, 0x10150, HPM_SYM_USER, &l);
	tap_ok(!l.name && !strcmp(l.dso, "[unknown]"), "a new process under the pid starts afresh");
	hpm_syms_resolve(s, 999, 0x10150, HPM_SYM_USER, &l);
	tap_ok(!l.name && !strcmp(l.dso, "[unknown]") && l.why, "unknown pid: [unknown]");
	hpm_syms_resolve(s, 100, 0xffffffff81000000ull, HPM_SYM_KERNEL, &l);
	tap_ok(!l.name && !strcmp(l.dso, "[kernel.kallsyms]") && l.why,
	       "no kallsyms wanted: kernel DSO, no name (%s)", l.why ? l.why : "-");
	/* anonymous memory has no file */
	hpm_syms_mmap(s, 100, 0x60000, 0x1000, 0, "//anon", NULL, 0, HPM_SYM_USER);
	hpm_syms_resolve(s, 100, 0x60010, HPM_SYM_USER, &l);
	tap_ok(!l.name && !strcmp(l.dso, "//anon") && l.why, "anonymous map: no name (%s)",
	       l.why ? l.why : "-");
	/* a file that does not exist: DSO and offset, and why */
	hpm_syms_mmap(s, 100, 0x70000, 0x1000, 0x2000, "/nonexistent/lib.so", NULL, 0,
	              HPM_SYM_USER);
	hpm_syms_resolve(s, 100, 0x70010, HPM_SYM_USER, &l);
#ifdef HAVE_LIBELF
	tap_ok(!l.name && l.dso_offset == 0x2010 && l.why && strstr(l.why, "cannot read"),
#else
	tap_ok(!l.name && l.dso_offset == 0x2010 && l.why && !strcmp(l.why, "built without libelf"),
#endif
	       "missing file: offset 0x2010, %s", l.why ? l.why : "-");
	tap_ok(hpm_syms_mmap(s, 100, 0x1000, 0, 0, "x", NULL, 0, HPM_SYM_USER) == -EINVAL,
	       "empty map refused");
	tap_ok(hpm_syms_mmap(s, 100, UINT64_MAX - 5, 0x10, 0, "x", NULL, 0, HPM_SYM_USER) ==
	           -EINVAL,
	       "wrapping map refused");
	/* a new table replaces the old; an earlier answer's name stays valid
	 * (0x50150 in the map at 0x50000 of "emu": offset 0x150, in f1) */
	{
		struct hpm_sym_decl g[] = {{"g1", 0x100, 0x180}};
		struct hpm_sym_loc old;

		hpm_syms_resolve(s, 100, 0x50150, HPM_SYM_USER, &old);
		hpm_syms_add_table(s, "emu", g, 1);
		hpm_syms_resolve(s, 100, 0x50150, HPM_SYM_USER, &l);
		tap_ok(old.name && !strcmp(old.name, "f1") && l.name && !strcmp(l.name, "g1"),
		       "table replaced: g1 now, the earlier f1 still readable");
		hpm_syms_resolve(s, 100, 0x50190, HPM_SYM_USER, &l);
		tap_ok(!l.name, "table replaced: 0x190 past g1");
	}
	hpm_syms_free(s);
}

/* The kernel's build id: a fake kallsyms and a fake notes file (one
 * NT_GNU_BUILD_ID note in this machine's byte order, as /sys/kernel/notes
 * is); ids of 16 bytes with the record's padded to 20 with zeros, as perf
 * pads them. */
static void check_kernel_build_id(void)
{
	char ks[] = "/tmp/test-sym-ks-XXXXXX", notes[] = "/tmp/test-sym-notes-XXXXXX";
	const char *text = "ffffffff81000000 T _stext\nffffffff81000100 T kfunc\n"
	                   "ffffffff81000200 T _etext\n";
	uint32_t hdr[3] = {4, 16, NT_GNU_BUILD_ID};
	uint8_t id[20] = {0}, other[20] = {0};
	int fd1 = mkstemp(ks), fd2 = mkstemp(notes);
	struct hpm_syms_opts o = {.kallsyms = ks, .kernel_notes = notes};
	struct hpm_syms *s;
	struct hpm_sym_loc l;

	for (int i = 0; i < 16; i++) {
		id[i] = (uint8_t)(i + 1);
		other[i] = (uint8_t)(i + 2);
	}
	if (fd1 < 0 || fd2 < 0 || write(fd1, text, strlen(text)) < 0 ||
	    write(fd2, hdr, sizeof hdr) < 0 || write(fd2, "GNU", 4) < 0 || write(fd2, id, 16) < 0) {
		tap_skip("cannot write temporary files");
		return;
	}
	close(fd1);
	close(fd2);
	hpm_syms_new(&o, &s);
	hpm_syms_recorded_build_id(s, "[kernel.kallsyms]", id, 20);
	hpm_syms_resolve(s, -1, 0xffffffff81000110ull, HPM_SYM_KERNEL, &l);
	tap_ok(l.name && !strcmp(l.name, "kfunc") && l.sym_offset == 0x10,
	       "kernel build id as recorded: kfunc+0x10");
	hpm_syms_free(s);
	hpm_syms_new(&o, &s);
	hpm_syms_recorded_build_id(s, "[kernel.kallsyms]", other, 20);
	hpm_syms_resolve(s, -1, 0xffffffff81000110ull, HPM_SYM_KERNEL, &l);
	tap_ok(!l.name && l.why && !strcmp(l.why, "kernel build id differs from the recorded one"),
	       "another kernel recorded: no name (%s)", l.why ? l.why : "-");
	hpm_syms_free(s);
	unlink(ks);
	unlink(notes);
}

/* Maps laid over each other at random, against a model that keeps a
 * page's DSO and file offset: a new map replaces what it overlaps, the
 * heads and tails of the maps it cuts keep their offsets, a forked child
 * keeps the maps it was given. Names of no file ("[anon:dN]") resolve to
 * their name and file offset without reading anything. */
#define MODEL_PAGES 512
#define MODEL_PAGE  0x1000ULL
#define MODEL_BASE  0x400000ULL
struct model_page {
	int dso; /* -1: no map */
	uint64_t off;
};

static uint64_t model_rand(uint64_t *x)
{
	*x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
	return *x >> 33;
}

static bool model_check(struct hpm_syms *s, pid_t pid, const struct model_page *m,
                        const char *const *names, uint64_t *rnd, unsigned *bad)
{
	for (unsigned pg = 0; pg < MODEL_PAGES; pg++) {
		struct hpm_sym_loc l;
		uint64_t in = model_rand(rnd) % MODEL_PAGE;

		hpm_syms_resolve(s, pid, MODEL_BASE + pg * MODEL_PAGE + in, HPM_SYM_USER, &l);
		bool ok = m[pg].dso < 0
		              ? !strcmp(l.dso, "[unknown]")
		              : !strcmp(l.dso, names[m[pg].dso]) && l.file_offset == m[pg].off + in;
		if (!ok && (*bad)++ < 3)
			tap_diag("pid %d page %u: %s %#" PRIx64 ", model %s %#" PRIx64, (int)pid,
			         pg, l.dso, l.file_offset,
			         m[pg].dso < 0 ? "[unknown]" : names[m[pg].dso], m[pg].off + in);
	}
	return !*bad;
}

static void check_maps_model(void)
{
	static const char *const names[] = {"[anon:d0]", "[anon:d1]", "[anon:d2]",
	                                    "[anon:d3]", "[anon:d4]", "[anon:d5]"};
	struct hpm_syms_opts o = {.kallsyms = ""};
	struct model_page m[MODEL_PAGES], child[MODEL_PAGES];
	struct hpm_syms *s;
	uint64_t rnd = 27;
	unsigned bad = 0, bad_child = 0;

	hpm_syms_new(&o, &s);
	for (unsigned pg = 0; pg < MODEL_PAGES; pg++)
		m[pg].dso = -1;
	for (unsigned i = 0; i < 3000 && !bad; i++) {
		unsigned first = (unsigned)(model_rand(&rnd) % MODEL_PAGES);
		unsigned len = 1 + (unsigned)(model_rand(&rnd) % (i % 3 ? 8 : 64));
		int d = (int)(model_rand(&rnd) % 6);
		uint64_t pgoff = model_rand(&rnd) % 64 * MODEL_PAGE;

		if (first + len > MODEL_PAGES)
			len = MODEL_PAGES - first;
		hpm_syms_mmap(s, 200, MODEL_BASE + first * MODEL_PAGE, len * MODEL_PAGE, pgoff,
		              names[d], NULL, 0, HPM_SYM_USER);
		for (unsigned k = 0; k < len; k++)
			m[first + k] = (struct model_page){d, pgoff + k * MODEL_PAGE};
		if (i % 100 == 99)
			model_check(s, 200, m, names, &rnd, &bad);
		if (i == 1500) {
			hpm_syms_fork(s, 201, 200);
			memcpy(child, m, sizeof m);
		}
	}
	tap_ok(model_check(s, 200, m, names, &rnd, &bad),
	       "3000 maps laid over each other at random: every page as the model says");
	tap_ok(model_check(s, 201, child, names, &rnd, &bad_child),
	       "a child forked halfway keeps the maps it was given");
	/* from the top down, as a crafted file gives them: each its own */
	for (unsigned pg = MODEL_PAGES; pg-- > 0;) {
		hpm_syms_mmap(s, 202, MODEL_BASE + pg * MODEL_PAGE, MODEL_PAGE, pg * MODEL_PAGE,
		              names[pg % 6], NULL, 0, HPM_SYM_USER);
		m[pg] = (struct model_page){(int)(pg % 6), pg * MODEL_PAGE};
	}
	bad = 0;
	tap_ok(model_check(s, 202, m, names, &rnd, &bad), "%d maps given from the top down",
	       MODEL_PAGES);
	hpm_syms_free(s);
}

int main(void)
{
	struct hpm_syms *s;
	struct hpm_syms_opts o = {.kallsyms = ""};

	tap_ok(hpm_syms_new(&o, &s) == 0, "new");
	map_self(s);
	check_self(s);
	check_vdso(s);
	hpm_syms_free(s);
	check_build_id();
	check_maps();
	check_maps_model();
	check_kernel_build_id();
	return tap_done();
}

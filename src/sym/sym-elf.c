/* sym-elf.c: reading ELF files with libelf for the symbolizer (sym-int.h).
 *
 * What a DSO gets: its PT_LOAD segments (to turn file offsets into the
 * virtual addresses its symbols use, for ET_EXEC, PIE and shared objects
 * alike), its build id, and its functions: .symtab when the file has one,
 * else that of a separate debug file (/usr/lib/debug/.build-id/, then
 * .gnu_debuglink as gdb looks for it), else .dynsym; plus one name@plt
 * entry per PLT slot, as perf and objdump show them.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sym/sym-int.h"
#include "sym/sym.h"
#include "util/dlib.h"
#include "util/xalloc.h"

/* The preference among symbols at one address, perf's: a sized one, then
 * not weak, then global, then fewer leading underscores, then the longer
 * name; as one number, higher preferred. */
static unsigned sym_rank(const GElf_Sym *sym, const char *name)
{
	int bind = GELF_ST_BIND(sym->st_info);
	size_t u = 0, len = strlen(name);

	while (name[u] == '_' && u < 9)
		u++;
	return (sym->st_size ? SYM_RANK_SIZED : 0) + (bind != STB_WEAK ? 100000u : 0) +
	       (bind == STB_GLOBAL ? 10000u : 0) + (unsigned)(9 - u) * 1000u +
	       (unsigned)(len < 999 ? len : 999);
}

/* libelf is opened here, by the first file read (util/dlib.h): why it
 * could not be, for each DSO's reason */
static char elf_lib_why[256];

static bool elf_lib_init(void)
{
	static bool done;

	if (!done) {
		if (hpm_dl_elf_load(elf_lib_why, sizeof(elf_lib_why)))
			return false;
		elf_version(EV_CURRENT);
		done = true;
	}
	return true;
}

static Elf_Scn *section_named(Elf *e, const char *want, GElf_Shdr *out)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(e, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(e, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, out))
			continue;
		name = elf_strptr(e, shstrndx, out->sh_name);
		if (name && !strcmp(name, want))
			return scn;
	}
	return NULL;
}

static Elf_Scn *section_of_type(Elf *e, Elf64_Word type, GElf_Shdr *out)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(e, scn)))
		if (gelf_getshdr(scn, out) && out->sh_type == type)
			return scn;
	return NULL;
}

/* NT_GNU_BUILD_ID in a block of notes */
static bool note_build_id(Elf_Data *data, uint8_t *id, size_t max, size_t *len)
{
	size_t off = 0, next, name_off, desc_off;
	GElf_Nhdr nh;

	if (!data)
		return false;
	while ((next = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp((const char *)data->d_buf + name_off, "GNU", 4) && nh.n_descsz &&
		    nh.n_descsz <= max) {
			memcpy(id, (const char *)data->d_buf + desc_off, nh.n_descsz);
			*len = nh.n_descsz;
			return true;
		}
		off = next;
	}
	return false;
}

/* the build id from the note sections, else from the PT_NOTE segments
 * (a file whose section headers were removed still has those) */
static bool elf_build_id(Elf *e, uint8_t *id, size_t max, size_t *len)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t i, nph;

	while ((scn = elf_nextscn(e, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_NOTE &&
		    note_build_id(elf_getdata(scn, NULL), id, max, len))
			return true;
	if (elf_getphdrnum(e, &nph))
		return false;
	for (i = 0; i < nph; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_NOTE)
			continue;
		if (note_build_id(
		        elf_getdata_rawchunk(e, (int64_t)ph.p_offset, ph.p_filesz, ELF_T_NHDR), id,
		        max, len))
			return true;
	}
	return false;
}

static void load_segments(struct sym_dso *d, Elf *e)
{
	size_t i, nph;

	if (elf_getphdrnum(e, &nph))
		return;
	d->segs = xcalloc(nph ? nph : 1, sizeof *d->segs);
	for (i = 0; i < nph; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		d->segs[d->nsegs].off = ph.p_offset;
		d->segs[d->nsegs].vaddr = ph.p_vaddr;
		d->segs[d->nsegs].filesz = ph.p_filesz;
		d->nsegs++;
	}
}

/* The function symbols of one symbol table; the number added. The
 * entries are counted in the data libelf read (never sh_size and
 * sh_entsize, which a file can set to anything). */
static size_t load_symtab(struct sym_dso *d, Elf *e, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t i, n, added = 0, nsec = 0, ent = gelf_fsize(e, ELF_T_SYM, 1, EV_CURRENT);

	if (!data || !data->d_buf || !ent)
		return 0;
	elf_getshdrnum(e, &nsec);
	n = data->d_size / ent;
	for (i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Shdr ssh;
		const char *name;
		uint64_t limit;
		int type;

		if (!gelf_getsym(data, (int)i, &sym))
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		if ((type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_NOTYPE) ||
		    sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE || !sym.st_value ||
		    sym.st_shndx >= nsec || !gelf_getshdr(elf_getscn(e, sym.st_shndx), &ssh))
			continue;
		name = elf_strptr(e, sh->sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		/* Labels (untyped symbols in code, like ld.so's _start) name
		 * code too, as perf takes them; not hidden ones, nor Arm and
		 * RISC-V mapping symbols ($x, $d), which mark no function. */
		if (type == STT_NOTYPE && (!(ssh.sh_flags & SHF_EXECINSTR) || name[0] == '$' ||
		                           GELF_ST_VISIBILITY(sym.st_other) == STV_HIDDEN ||
		                           GELF_ST_VISIBILITY(sym.st_other) == STV_INTERNAL))
			continue;
		/* a zero-size symbol stretches no further than its section */
		limit = ssh.sh_addr + ssh.sh_size;
		/* perf demangles as it reads: its choice among aliases, its
		 * filters and its sorting see the demangled name */
		char *dm = d->demangle ? sym_demangle(name, d->demangle == 2) : NULL;
		if (dm)
			name = dm;
		sym_dso_add_fn(d, sym.st_value, sym.st_size, name, limit, sym_rank(&sym, name));
		free(dm);
		added++;
	}
	return added;
}

/* A PLT relocation: the GOT slot its PLT entry jumps through, and the
 * entry's name. */
struct plt_rel {
	uint64_t got;
	char *name;
};

static int plt_rel_cmp(const void *a, const void *b)
{
	const struct plt_rel *x = a, *y = b;

	return x->got < y->got ? -1 : x->got > y->got;
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The GOT slot a PLT entry at addr (bytes b, n of them) jumps through, by
 * decoding its first instructions; false when they are not a PLT jump of
 * a known form (the lazy-binding header, an IBT .plt stub, another
 * architecture), which then gets no name. */
static bool plt_slot_got(int machine, uint64_t addr, const unsigned char *b, size_t n,
                         uint64_t *got)
{
	size_t i = 0;

	switch (machine) {
	case EM_X86_64:
		/* [endbr64] [bnd] jmp *disp32(%rip) */
		if (n >= 4 && !memcmp(b, "\xf3\x0f\x1e\xfa", 4))
			i = 4;
		if (i < n && b[i] == 0xf2)
			i++;
		if (i + 6 > n || b[i] != 0xff || b[i + 1] != 0x25)
			return false;
		*got = addr + i + 6 + (uint64_t)(int64_t)(int32_t)le32(b + i + 2);
		return true;
	case EM_AARCH64: {
		/* [bti c] adrp x16, page; ldr x17, [x16, #off] */
		uint32_t adrp, ldr;
		int64_t imm;

		if (n >= 4 && le32(b) == 0xd503245f)
			i = 4;
		if (i + 8 > n)
			return false;
		adrp = le32(b + i);
		ldr = le32(b + i + 4);
		if ((adrp & 0x9f00001f) != 0x90000010 || (ldr & 0xffc003ff) != 0xf9400211)
			return false;
		imm = (int64_t)(((adrp >> 29) & 3) | ((adrp >> 5) & 0x7ffff) << 2);
		if (imm & (1 << 20))
			imm -= 1 << 21;
		*got = ((addr + i) & ~(uint64_t)0xfff) + (uint64_t)(imm * 4096) +
		       ((ldr >> 10) & 0xfff) * 8;
		return true;
	}
	case EM_RISCV: {
		/* auipc t3, hi; ld (lw) t3, lo(t3) */
		uint32_t auipc, ld;

		if (n < 8)
			return false;
		auipc = le32(b);
		ld = le32(b + 4);
		if ((auipc & 0xfff) != 0xe17 ||
		    ((ld & 0xfffff) != 0xe3e03 && (ld & 0xfffff) != 0xe2e03))
			return false;
		*got = addr + (uint64_t)(int64_t)(int32_t)(auipc & 0xfffff000) +
		       (uint64_t)(int64_t)((int32_t)ld >> 20);
		return true;
	}
	default:
		return false;
	}
}

/* The relocations of section scn (shdr sh) that name a symbol, as plt_rel
 * entries appended to *rels (*nr of them): name@plt after the symbol, or
 * *ABS*+0xADDEND@plt for an IRELATIVE one when irelative. The relocations
 * and symbols are read only from sections of their types (a NOBITS one has
 * no data, whatever its size says) and counted in the data libelf read. */
static void read_plt_rels(const struct sym_dso *d, Elf *e, Elf_Scn *scn, const GElf_Shdr *sh,
                          bool irelative, struct plt_rel **rels, size_t *nr)
{
	bool rela = sh->sh_type == SHT_RELA;
	size_t rel_size = gelf_fsize(e, rela ? ELF_T_RELA : ELF_T_REL, 1, EV_CURRENT);
	Elf_Scn *dyn_scn = elf_getscn(e, sh->sh_link);
	Elf_Data *rdata = elf_getdata(scn, NULL), *sdata;
	GElf_Shdr dynsym;
	size_t n;

	if ((!rela && sh->sh_type != SHT_REL) || !rel_size || !rdata || !rdata->d_buf ||
	    !(n = rdata->d_size / rel_size) || !dyn_scn || !gelf_getshdr(dyn_scn, &dynsym) ||
	    (dynsym.sh_type != SHT_DYNSYM && dynsym.sh_type != SHT_SYMTAB) ||
	    !(sdata = elf_getdata(dyn_scn, NULL)) || !sdata->d_buf)
		return;
	*rels = xreallocarray(*rels, *nr + n, sizeof **rels);
	for (size_t i = 0; i < n; i++) {
		GElf_Rela ra = {0};
		GElf_Rel r;
		GElf_Sym sym;
		const char *name = NULL;

		if (rela) {
			if (!gelf_getrela(rdata, (int)i, &ra))
				continue;
		} else {
			if (!gelf_getrel(rdata, (int)i, &r))
				continue;
			ra.r_offset = r.r_offset;
			ra.r_info = r.r_info;
		}
		if (GELF_R_SYM(ra.r_info)) {
			if (gelf_getsym(sdata, (int)GELF_R_SYM(ra.r_info), &sym))
				name = elf_strptr(e, dynsym.sh_link, sym.st_name);
			if (!name || !*name)
				continue;
			/* perf demangles the symbol, then adds @plt */
			char *dm = d->demangle ? sym_demangle(name, d->demangle == 2) : NULL;
			(*rels)[*nr].name = xasprintf("%s@plt", dm ? dm : name);
			free(dm);
		} else if (rela && irelative) {
			(*rels)[*nr].name =
			    xasprintf("*ABS*+0x%" PRIx64 "@plt", (uint64_t)ra.r_addend);
		} else {
			continue;
		}
		(*rels)[(*nr)++].got = ra.r_offset;
	}
}

/* Names the entries of one PLT section: each entry is matched to its
 * relocation by the GOT slot it jumps through (decoded from its
 * instructions: the relocations are not in the entries' order, as libc's
 * show). An entry no relocation matches is named perf's offset_0xOFF@plt
 * (its file offset) when offset_names, else not at all. Returns the
 * address of the first entry decoded, or the section's end when none is
 * (the lazy-binding header and IBT's .plt stubs are not PLT jumps). */
static uint64_t name_plt_entries(struct sym_dso *d, int machine, Elf_Scn *scn, const GElf_Shdr *sh,
                                 const struct plt_rel *rels, size_t nr, bool offset_names)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	uint64_t ent = sh->sh_entsize ? sh->sh_entsize : 16, first = sh->sh_addr + sh->sh_size;

	if (!data || sh->sh_type != SHT_PROGBITS || !data->d_buf)
		return first;
	for (uint64_t off = 0; off + ent <= data->d_size; off += ent) {
		struct plt_rel key, *hit = NULL;
		char other[48];
		const char *name;

		if (!plt_slot_got(machine, sh->sh_addr + off,
		                  (const unsigned char *)data->d_buf + off, ent, &key.got))
			continue;
		if (sh->sh_addr + off < first)
			first = sh->sh_addr + off;
		if (nr)
			hit = bsearch(&key, rels, nr, sizeof *rels, plt_rel_cmp);
		if (hit) {
			name = hit->name;
		} else if (offset_names) {
			snprintf(other, sizeof other, "offset_%#" PRIx64 "@plt",
			         (uint64_t)sh->sh_offset + off);
			name = other;
		} else {
			continue;
		}
		sym_dso_add_fn(d, sh->sh_addr + off, ent, name, 0, SYM_RANK_SIZED);
	}
	return first;
}

static void free_plt_rels(struct plt_rel *rels, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(rels[i].name);
	free(rels);
}

/* name@plt for each PLT entry, as objdump and the newest perf name them:
 * - .plt and .plt.sec (x86 IBT): after .rela.plt's (.rel.plt's)
 *   relocation, or *ABS*+0xADDEND@plt for an IRELATIVE one; x86-64,
 *   AArch64 and RISC-V;
 * - .plt.got (x86-64: the functions both called and taken the address of):
 *   after .rela.dyn's relocation of the GOT slot, else perf's
 *   offset_0xOFF@plt;
 * - the lazy-binding header at the start of .plt (the whole .plt when the
 *   calls go through .plt.sec): ".plt", as perf 6.3 and later name it (6.1
 *   stretched the zero-size _init over the PLT instead).
 * A bad file loses its PLT names, nothing more. */
static void load_plt(struct sym_dso *d, Elf *e)
{
	GElf_Shdr rel, plt, sec, got;
	GElf_Ehdr eh;
	Elf_Scn *scn, *plt_scn, *sec_scn;
	struct plt_rel *rels = NULL;
	size_t nr = 0;

	if (!gelf_getehdr(e, &eh) || eh.e_ident[EI_DATA] != ELFDATA2LSB)
		return;
	scn = section_named(e, ".rela.plt", &rel);
	if (!scn)
		scn = section_named(e, ".rel.plt", &rel);
	if (scn)
		read_plt_rels(d, e, scn, &rel, true, &rels, &nr);
	if (nr)
		qsort(rels, nr, sizeof *rels, plt_rel_cmp);
	plt_scn = section_named(e, ".plt", &plt);
	sec_scn = section_named(e, ".plt.sec", &sec);
	if (sec_scn)
		name_plt_entries(d, eh.e_machine, sec_scn, &sec, rels, nr, false);
	if (plt_scn && plt.sh_type == SHT_PROGBITS) {
		uint64_t end = plt.sh_addr + plt.sh_size;
		uint64_t first = name_plt_entries(d, eh.e_machine, plt_scn, &plt, rels, nr, false);

		/* the header: what lies before the first entry (none when the
		 * PLT has none, as a non-lazy one has not); all of .plt beside
		 * a .plt.sec; nothing when no entry could be decoded (an
		 * architecture not known here) */
		if (first == end && !sec_scn)
			first = plt.sh_addr;
		if (first > plt.sh_addr)
			sym_dso_add_fn(d, plt.sh_addr, first - plt.sh_addr, ".plt", 0,
			               SYM_RANK_SIZED);
	}
	free_plt_rels(rels, nr);
	rels = NULL;
	nr = 0;
	scn = eh.e_machine == EM_X86_64 ? section_named(e, ".plt.got", &got) : NULL;
	if (scn && got.sh_entsize) {
		GElf_Shdr dyn;
		Elf_Scn *dyn_scn = section_named(e, ".rela.dyn", &dyn);

		if (dyn_scn)
			read_plt_rels(d, e, dyn_scn, &dyn, false, &rels, &nr);
		if (nr)
			qsort(rels, nr, sizeof *rels, plt_rel_cmp);
		name_plt_entries(d, eh.e_machine, scn, &got, rels, nr, true);
		free_plt_rels(rels, nr);
	}
}

static Elf *open_elf(const char *path, int *fd, int *err)
{
	Elf *e;

	struct stat st;

	/* not blocking: a recorded name may be a FIFO now */
	*fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (*fd < 0) {
		*err = -errno;
		return NULL;
	}
	if (fstat(*fd, &st) || !S_ISREG(st.st_mode)) {
		close(*fd);
		*fd = -1;
		*err = HPM_SYM_ENOTREG;
		return NULL;
	}
	e = elf_begin(*fd, ELF_C_READ_MMAP, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF) {
		if (e)
			elf_end(e);
		close(*fd);
		*fd = -1;
		*err = HPM_SYM_ENOTELF;
		return NULL;
	}
	return e;
}

static void close_elf(Elf *e, int fd)
{
	elf_end(e);
	close(fd);
}

/* gdb's .gnu_debuglink checksum: the CRC-32 of zlib (poly 0xEDB88320) */
static uint32_t crc32_file(int fd, bool *ok)
{
	static uint32_t table[256];
	static bool init;
	uint32_t crc = 0xffffffffu;
	unsigned char buf[65536];
	ssize_t got;

	if (!init) {
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t c = i;

			for (int k = 0; k < 8; k++)
				c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
			table[i] = c;
		}
		init = true;
	}
	*ok = true;
	while ((got = read(fd, buf, sizeof buf)) != 0) {
		if (got < 0) {
			if (errno == EINTR)
				continue;
			*ok = false;
			break;
		}
		for (ssize_t i = 0; i < got; i++)
			crc = table[(crc ^ buf[i]) & 0xff] ^ (crc >> 8);
	}
	return ~crc;
}

/* Symbols of a separate debug file when it holds a .symtab; true if any. */
static bool load_debug_symtab(struct sym_dso *d, const char *path, const uint8_t *want_id,
                              size_t want_len, const uint32_t *want_crc)
{
	int fd, err;
	Elf *e = open_elf(path, &fd, &err);
	GElf_Shdr sh;
	Elf_Scn *scn;
	bool got = false;

	if (!e)
		return false;
	if (want_id) {
		uint8_t id[SYM_BUILD_ID_MAX];
		size_t len;

		if (!elf_build_id(e, id, sizeof id, &len) || len != want_len ||
		    memcmp(id, want_id, len))
			goto out;
	}
	if (want_crc) {
		bool ok;
		int fd2 = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

		if (fd2 < 0)
			goto out;
		if (crc32_file(fd2, &ok) != *want_crc || !ok) {
			close(fd2);
			goto out;
		}
		close(fd2);
	}
	scn = section_of_type(e, SHT_SYMTAB, &sh);
	if (scn)
		got = load_symtab(d, e, scn, &sh) > 0;
out:
	close_elf(e, fd);
	return got;
}

static bool load_debug_files(struct sym_dso *d, Elf *e, const char *path, const char *debug_dir)
{
	GElf_Shdr sh;
	Elf_Scn *scn;
	Elf_Data *data;
	char *p, *dir;
	const char *slash;
	bool got = false;

	if (d->build_id_len) {
		char hex[2 * SYM_BUILD_ID_MAX + 1];

		for (size_t i = 0; i < d->build_id_len; i++)
			snprintf(hex + 2 * i, 3, "%02x", d->build_id[i]);
		p = xasprintf("%s/.build-id/%.2s/%s.debug", debug_dir, hex, hex + 2);
		got = load_debug_symtab(d, p, d->build_id, d->build_id_len, NULL);
		free(p);
		if (got)
			return true;
	}
	/* its data as libelf read it: a NOBITS one has none (a NULL
	 * buffer of the size the header claims) */
	scn = section_named(e, ".gnu_debuglink", &sh);
	data = scn && sh.sh_type == SHT_PROGBITS ? elf_getdata(scn, NULL) : NULL;
	if (!data || !data->d_buf || !data->d_size)
		return false;
	{
		const char *name = data->d_buf;
		size_t nlen = strnlen(name, data->d_size), crc_off = (nlen + 4) & ~(size_t)3;
		uint32_t crc;
		unsigned char *c;

		if (!nlen || nlen == data->d_size || crc_off + 4 > data->d_size ||
		    strchr(name, '/'))
			return false;
		/* the CRC is stored in the file's byte order */
		c = (unsigned char *)data->d_buf + crc_off;
		if (elf_getident(e, NULL)[EI_DATA] == ELFDATA2MSB)
			crc = (uint32_t)c[0] << 24 | (uint32_t)c[1] << 16 | (uint32_t)c[2] << 8 |
			      c[3];
		else
			crc = (uint32_t)c[3] << 24 | (uint32_t)c[2] << 16 | (uint32_t)c[1] << 8 |
			      c[0];
		slash = strrchr(path, '/');
		dir = slash ? xstrndup(path, (size_t)(slash - path)) : xstrdup(".");
		/* gdb's order: beside the file, its .debug/, the global dir */
		p = xasprintf("%s/%s", dir, name);
		if (strcmp(p, path))
			got = load_debug_symtab(d, p, NULL, 0, &crc);
		free(p);
		if (!got) {
			p = xasprintf("%s/.debug/%s", dir, name);
			got = load_debug_symtab(d, p, NULL, 0, &crc);
			free(p);
		}
		if (!got) {
			p = xasprintf("%s/%s/%s", debug_dir, dir, name);
			got = load_debug_symtab(d, p, NULL, 0, &crc);
			free(p);
		}
		free(dir);
	}
	return got;
}

static void load_elf(struct sym_dso *d, Elf *e, const char *path, const char *debug_dir)
{
	GElf_Shdr sh;
	Elf_Scn *scn;
	size_t n = 0;

	load_segments(d, e);
	elf_build_id(e, d->build_id, sizeof d->build_id, &d->build_id_len);
	scn = section_of_type(e, SHT_SYMTAB, &sh);
	if (scn)
		n = load_symtab(d, e, scn, &sh);
	if (!n && path && load_debug_files(d, e, path, debug_dir))
		n = 1;
	if (!n) {
		/* .dynsym names the exported functions only: the gaps between
		 * them are other, unnamed code */
		d->stripped = true;
		scn = section_of_type(e, SHT_DYNSYM, &sh);
		if (scn)
			n = load_symtab(d, e, scn, &sh);
	}
	load_plt(d, e);
	if (!d->nfns)
		sym_dso_set_why(d, "stripped: no symbols");
}

void sym_elf_load_file(struct sym_dso *d, const char *path, const char *debug_dir)
{
	int fd, err;
	Elf *e;

	if (!elf_lib_init()) {
		sym_dso_set_why(d, "%s", elf_lib_why);
		return;
	}
	e = open_elf(path, &fd, &err);
	if (!e) {
		sym_dso_set_why(d, "cannot read: %s", hpm_syms_strerror(err));
		return;
	}
	load_elf(d, e, path, debug_dir);
	close_elf(e, fd);
}

/* The vDSO image is the same in every process of a kernel: this process's
 * own, found by the auxiliary vector, sized by its /proc/self/maps line. */
void sym_elf_load_vdso(struct sym_dso *d)
{
	unsigned long base = getauxval(AT_SYSINFO_EHDR);
	uint64_t len = 0;
	FILE *f;
	char line[512];
	void *copy;
	Elf *e;

	if (!elf_lib_init()) {
		sym_dso_set_why(d, "%s", elf_lib_why);
		return;
	}
	if (!base) {
		sym_dso_set_why(d, "no vDSO in this process");
		return;
	}
	f = fopen("/proc/self/maps", "r");
	if (f) {
		while (fgets(line, sizeof line, f)) {
			unsigned long long lo, hi;

			if (sscanf(line, "%llx-%llx", &lo, &hi) == 2 && lo == base) {
				len = hi - lo;
				break;
			}
		}
		fclose(f);
	}
	if (!len) {
		sym_dso_set_why(d, "cannot find the vDSO's size in /proc/self/maps");
		return;
	}
	/* a copy: libelf may write to its image (e.g. byte order fixing) */
	copy = xmalloc(len);
	memcpy(copy, (const void *)base, len);
	e = elf_memory(copy, len);
	if (!e || elf_kind(e) != ELF_K_ELF) {
		sym_dso_set_why(d, "the vDSO image is not ELF");
	} else {
		load_elf(d, e, NULL, NULL);
	}
	if (e)
		elf_end(e);
	free(copy);
}

int sym_elf_file_build_id(const char *path, uint8_t *id, size_t max, size_t *len)
{
	int fd, err;
	Elf *e;
	bool ok;

	if (!elf_lib_init())
		return HPM_SYM_ENOLIBELF;
	e = open_elf(path, &fd, &err);
	if (!e)
		return err;
	ok = elf_build_id(e, id, max, len);
	close_elf(e, fd);
	return ok ? 0 : HPM_SYM_ENOBUILDID;
}

/* emu-elf.c: the ELF image of an emulated workload's declared functions,
 * and its place in perf's build-id cache (see emu-elf.h). */
#include "config.h"

#include "record/emu-elf.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/hash.h"
#include "util/readall.h"
#include "util/str.h"
#include "util/xalloc.h"

/* The sections, in their order in the image */
enum { SEC_NULL, SEC_NOTE, SEC_TEXT, SEC_SYMTAB, SEC_STRTAB, SEC_SHSTRTAB, NR_SEC };

static const char shstrtab[] = "\0.note.gnu.build-id\0.text\0.symtab\0.strtab\0.shstrtab";
/* each section's name: its offset in shstrtab */
static const unsigned sec_name[NR_SEC] = {0, 1, 20, 26, 34, 42};

static size_t align8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

static uint16_t elf_machine(const char *arch)
{
	return arch && strcmp(arch, "arm64") == 0 ? EM_AARCH64 : EM_RISCV;
}

void hpm_emu_elf_build(struct hpm_emu_elf *img, const char *arch,
                       const struct hpm_emu_function *fns, size_t n)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	size_t strsz = 1;
	for (size_t i = 0; i < n; i++) {
		strsz += strlen(fns[i].name) + 1;
		lo = fns[i].start < lo ? fns[i].start : lo;
		hi = fns[i].end > hi ? fns[i].end : hi;
	}
	if (!n)
		lo = hi = 0;
	/* the note: namesz, descsz, type, "GNU\0", the id */
	const size_t note_off = sizeof(Elf64_Ehdr), note_sz = 12 + 4 + HPM_EMU_ELF_ID_SIZE;
	const size_t sym_off = align8(note_off + note_sz), sym_sz = (n + 1) * sizeof(Elf64_Sym);
	const size_t str_off = sym_off + sym_sz;
	const size_t shstr_off = str_off + strsz;
	const size_t sh_off = align8(shstr_off + sizeof(shstrtab));
	const size_t size = sh_off + NR_SEC * sizeof(Elf64_Shdr);
	uint8_t *b = xcalloc(1, size);

	Elf64_Ehdr *eh = (Elf64_Ehdr *)b;
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_DYN;
	eh->e_machine = elf_machine(arch);
	eh->e_version = EV_CURRENT;
	eh->e_shoff = sh_off;
	eh->e_ehsize = sizeof(Elf64_Ehdr);
	eh->e_shentsize = sizeof(Elf64_Shdr);
	eh->e_shnum = NR_SEC;
	eh->e_shstrndx = SEC_SHSTRTAB;

	Elf64_Sym *sym = (Elf64_Sym *)(b + sym_off);
	char *str = (char *)b + str_off;
	size_t at = 1;
	for (size_t i = 0; i < n; i++) {
		Elf64_Sym *s = &sym[i + 1];
		s->st_name = (Elf64_Word)at;
		s->st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC);
		s->st_shndx = SEC_TEXT;
		s->st_value = fns[i].start;
		s->st_size = fns[i].end - fns[i].start;
		size_t l = strlen(fns[i].name) + 1;
		memcpy(str + at, fns[i].name, l);
		at += l;
	}
	memcpy(b + shstr_off, shstrtab, sizeof(shstrtab));

	Elf64_Shdr *sh = (Elf64_Shdr *)(b + sh_off);
	sh[SEC_NOTE] = (Elf64_Shdr){.sh_type = SHT_NOTE,
	                            .sh_flags = SHF_ALLOC,
	                            .sh_offset = note_off,
	                            .sh_size = note_sz,
	                            .sh_addralign = 4};
	/* the functions' addresses, with nothing in the file behind them; the
	 * offset is the address, as the MMAP2's pgoff: perf takes a
	 * symbol's file offset (st_value - sh_addr + sh_offset) to compare
	 * with a sample's DSO offset, and a NOBITS section takes no byte of
	 * the file wherever it says it is */
	sh[SEC_TEXT] = (Elf64_Shdr){.sh_type = SHT_NOBITS,
	                            .sh_flags = SHF_ALLOC | SHF_EXECINSTR,
	                            .sh_addr = lo,
	                            .sh_offset = lo,
	                            .sh_size = hi - lo,
	                            .sh_addralign = 4};
	sh[SEC_SYMTAB] = (Elf64_Shdr){.sh_type = SHT_SYMTAB,
	                              .sh_offset = sym_off,
	                              .sh_size = sym_sz,
	                              .sh_link = SEC_STRTAB,
	                              .sh_info = 1, /* the first global */
	                              .sh_addralign = 8,
	                              .sh_entsize = sizeof(Elf64_Sym)};
	sh[SEC_STRTAB] = (Elf64_Shdr){
	    .sh_type = SHT_STRTAB, .sh_offset = str_off, .sh_size = strsz, .sh_addralign = 1};
	sh[SEC_SHSTRTAB] = (Elf64_Shdr){.sh_type = SHT_STRTAB,
	                                .sh_offset = shstr_off,
	                                .sh_size = sizeof(shstrtab),
	                                .sh_addralign = 1};
	for (unsigned k = 0; k < NR_SEC; k++)
		sh[k].sh_name = sec_name[k];

	/* the build id: a digest of the image with the id zero, so that the
	 * same functions give the same id in every recording (and one cache
	 * entry); three fixed keys of the keyed hash give 24 bytes, 20 kept */
	static const struct hpm_hash_key keys[3] = {{0x656d752d656c6631, 0x6275696c642d6964},
	                                            {0x68706d7374617420, 0x7265636f72642065},
	                                            {0x6d752066756e6374, 0x696f6e7320656c66}};
	uint8_t digest[24];
	for (unsigned k = 0; k < 3; k++) {
		uint64_t h = hpm_hash_bytes(&keys[k], b, size);
		memcpy(digest + 8 * k, &h, 8);
	}
	memcpy(img->id, digest, HPM_EMU_ELF_ID_SIZE);
	uint32_t nh[3] = {4, HPM_EMU_ELF_ID_SIZE, NT_GNU_BUILD_ID};
	memcpy(b + note_off, nh, sizeof(nh));
	memcpy(b + note_off + 12, "GNU", 4);
	memcpy(b + note_off + 16, img->id, HPM_EMU_ELF_ID_SIZE);
	img->buf = b;
	img->size = size;
}

void hpm_emu_elf_free(struct hpm_emu_elf *img)
{
	free(img->buf);
	img->buf = NULL;
	img->size = 0;
}

/* mkdir -p of path's directories up to (not including) its last part. */
static int make_parents(char *path)
{
	for (char *p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		int rc = mkdir(path, 0755);
		int e = errno;
		*p = '/';
		if (rc != 0 && e != EEXIST)
			return -e;
	}
	return 0;
}

/* img into path through a temporary file renamed into place: a reader
 * never sees half an image. 0 or -errno. */
static int write_image(const char *path, const struct hpm_emu_elf *img)
{
	char *tmp = xasprintf("%s.%ld.tmp", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int rc = 0;
	if (fd < 0) {
		rc = -errno;
		free(tmp);
		return rc;
	}
	rc = util_write_all(fd, img->buf, img->size);
	if (close(fd) != 0 && !rc)
		rc = -errno;
	if (!rc && rename(tmp, path) != 0)
		rc = -errno;
	if (rc)
		unlink(tmp);
	free(tmp);
	return rc;
}

int hpm_emu_elf_cache(const char *dir, const char *dso, const struct hpm_emu_elf *img, char *err,
                      size_t errlen)
{
	char hex[2 * HPM_EMU_ELF_ID_SIZE + 1];
	/* one path component under dir, whatever the profile is named */
	if (strchr(dso, '/') || strcmp(dso, "..") == 0 || strcmp(dso, ".") == 0) {
		snprintf(err, errlen, "'%s' is not a DSO name the cache can hold", dso);
		return -EINVAL;
	}
	for (unsigned i = 0; i < HPM_EMU_ELF_ID_SIZE; i++)
		snprintf(hex + 2 * i, 3, "%02x", img->id[i]);
	/* perf's layout (build_id_cache__add): DIR/NAME/ID/elf, and the link
	 * DIR/.build-id/ID[0:2]/ID[2:] -> ../../NAME/ID that its lookup
	 * (dso__build_id_filename) follows */
	char *elf = xasprintf("%s/%s/%s/elf", dir, dso, hex);
	char *link = xasprintf("%s/.build-id/%.2s/%s", dir, hex, hex + 2);
	char *target = xasprintf("../../%s/%s", dso, hex);
	struct stat st;
	int rc = 0;
	const char *what = elf;
	/* an entry of this id holds this very image (the id is its digest) */
	if (stat(elf, &st) != 0 || (size_t)st.st_size != img->size) {
		rc = make_parents(elf);
		if (!rc)
			rc = write_image(elf, img);
	}
	if (!rc && lstat(link, &st) != 0) {
		what = link;
		rc = make_parents(link);
		if (!rc && symlink(target, link) != 0 && errno != EEXIST)
			rc = -errno;
	}
	if (rc)
		snprintf(err, errlen, "cannot write '%s': %s", what, strerror(-rc));
	free(elf);
	free(link);
	free(target);
	return rc;
}

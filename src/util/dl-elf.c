/* dl-elf.c: libelf's functions that hpmstat calls, through dlopen
 * (util/dlib.h): the symbolizer's (sym/sym-elf.c). A function added there
 * is added here too, or the link fails. */
#include <gelf.h>
#include <libelf.h>

#include "util/dlib.h"

/* clang-format off */
#define ELF_FUNCS(X) \
	X(elf_begin) \
	X(elf_end) \
	X(elf_getdata) \
	X(elf_getdata_rawchunk) \
	X(elf_getident) \
	X(elf_getphdrnum) \
	X(elf_getscn) \
	X(elf_getshdrnum) \
	X(elf_getshdrstrndx) \
	X(elf_kind) \
	X(elf_memory) \
	X(elf_nextscn) \
	X(elf_strptr) \
	X(elf_version) \
	X(gelf_fsize) \
	X(gelf_getehdr) \
	X(gelf_getnote) \
	X(gelf_getphdr) \
	X(gelf_getrel) \
	X(gelf_getrela) \
	X(gelf_getshdr) \
	X(gelf_getsym)
/* clang-format on */

enum { ELF_FUNCS(HPM_DL_ENUM) NFUNCS };
static const char *const names[] = {ELF_FUNCS(HPM_DL_NAME)};
static void *fns[NFUNCS];
static struct hpm_dlib lib = {LIBELF_SONAME, LIBELF_PACKAGE, names, fns, NFUNCS, 0, ""};
#define F(f) HPM_DL_FN(lib, fns, f)

int hpm_dl_elf_load(char *err, size_t errlen)
{
	return hpm_dlib_load(&lib, err, errlen);
}

Elf *elf_begin(int fd, Elf_Cmd cmd, Elf *ref)
{
	return F(elf_begin)(fd, cmd, ref);
}
int elf_end(Elf *e)
{
	return F(elf_end)(e);
}
Elf_Data *elf_getdata(Elf_Scn *scn, Elf_Data *data)
{
	return F(elf_getdata)(scn, data);
}
Elf_Data *elf_getdata_rawchunk(Elf *e, int64_t offset, size_t size, Elf_Type type)
{
	return F(elf_getdata_rawchunk)(e, offset, size, type);
}
char *elf_getident(Elf *e, size_t *nbytes)
{
	return F(elf_getident)(e, nbytes);
}
int elf_getphdrnum(Elf *e, size_t *dst)
{
	return F(elf_getphdrnum)(e, dst);
}
Elf_Scn *elf_getscn(Elf *e, size_t index)
{
	return F(elf_getscn)(e, index);
}
int elf_getshdrnum(Elf *e, size_t *dst)
{
	return F(elf_getshdrnum)(e, dst);
}
int elf_getshdrstrndx(Elf *e, size_t *dst)
{
	return F(elf_getshdrstrndx)(e, dst);
}
Elf_Kind elf_kind(Elf *e)
{
	return F(elf_kind)(e);
}
Elf *elf_memory(char *image, size_t size)
{
	return F(elf_memory)(image, size);
}
Elf_Scn *elf_nextscn(Elf *e, Elf_Scn *scn)
{
	return F(elf_nextscn)(e, scn);
}
char *elf_strptr(Elf *e, size_t index, size_t offset)
{
	return F(elf_strptr)(e, index, offset);
}
unsigned int elf_version(unsigned int version)
{
	return F(elf_version)(version);
}
size_t gelf_fsize(Elf *e, Elf_Type type, size_t count, unsigned int version)
{
	return F(gelf_fsize)(e, type, count, version);
}
GElf_Ehdr *gelf_getehdr(Elf *e, GElf_Ehdr *dest)
{
	return F(gelf_getehdr)(e, dest);
}
size_t gelf_getnote(Elf_Data *data, size_t offset, GElf_Nhdr *result, size_t *name_offset,
                    size_t *desc_offset)
{
	return F(gelf_getnote)(data, offset, result, name_offset, desc_offset);
}
GElf_Phdr *gelf_getphdr(Elf *e, int ndx, GElf_Phdr *dst)
{
	return F(gelf_getphdr)(e, ndx, dst);
}
GElf_Rel *gelf_getrel(Elf_Data *data, int ndx, GElf_Rel *dst)
{
	return F(gelf_getrel)(data, ndx, dst);
}
GElf_Rela *gelf_getrela(Elf_Data *data, int ndx, GElf_Rela *dst)
{
	return F(gelf_getrela)(data, ndx, dst);
}
GElf_Shdr *gelf_getshdr(Elf_Scn *scn, GElf_Shdr *dst)
{
	return F(gelf_getshdr)(scn, dst);
}
GElf_Sym *gelf_getsym(Elf_Data *data, int ndx, GElf_Sym *dst)
{
	return F(gelf_getsym)(data, ndx, dst);
}

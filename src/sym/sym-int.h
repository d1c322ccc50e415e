/* sym-int.h: what sym.c and sym-elf.c share inside the symbolizer.
 *
 * Owns: the DSO record (its functions, loadable segments, build id and
 * why it has no names) that the ELF reader fills and sym.c searches, and
 * the ELF reader's entry points (sym-elf.c with libelf; without it, sym.c
 * stands in for them and says "built without libelf").
 */
#ifndef HPM_SYM_SYM_INT_H
#define HPM_SYM_SYM_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SYM_BUILD_ID_MAX 32
/* The top of a symbol's rank: it has a size (perf prefers those). */
#define SYM_RANK_SIZED 0x1000000u

/* One function: [start, end) in the DSO's own (ELF virtual) addresses. */
struct sym_fn {
	uint64_t start, end;
	const char *name;
	/* While loading only: where a zero-size symbol may stretch to (its
	 * section's end) and the preference among symbols at one address. */
	uint64_t limit;
	unsigned rank;
	size_t seq; /* the order read: on a full tie the first one wins */
};

/* A PT_LOAD segment: file offsets [off, off + filesz) hold vaddr on. */
struct sym_seg {
	uint64_t off, vaddr, filesz;
};

struct sym_dso {
	char *name; /* as the map names it */
	bool loaded;
	bool table;    /* declared functions, never a file */
	bool stripped; /* only .dynsym (or nothing): gaps are not named */
	/* perf's demangling of the names read (sym-demangle.c): 0 none,
	 * 1 perf's default (no parameters), 2 with them (perf -v) */
	unsigned char demangle;
	unsigned gen; /* bumped when fns is replaced (invalidates caches) */
	struct sym_fn *fns;
	size_t nfns, capfns;
	char **strs; /* the names' storage */
	size_t nstrs, capstrs;
	struct sym_seg *segs;
	size_t nsegs;
	uint8_t build_id[SYM_BUILD_ID_MAX];
	size_t build_id_len;
	/* the build id recorded for this file (PERF_FEAT_BUILD_ID) */
	uint8_t rec_id[SYM_BUILD_ID_MAX];
	size_t rec_id_len;
	/* Set when the DSO gives no names at all (cannot read, stripped of
	 * every symbol, no libelf): the reason. */
	char *why;
};

/* Adding functions while loading (sym.c): name is copied. */
void sym_dso_add_fn(struct sym_dso *d, uint64_t start, uint64_t size, const char *name,
                    uint64_t limit, unsigned rank);
void sym_dso_set_why(struct sym_dso *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The ELF reader: fills d->fns, d->segs, d->build_id and d->stripped, or
 * d->why. debug_dir: where separate debug files live. */
void sym_elf_load_file(struct sym_dso *d, const char *path, const char *debug_dir);
/* The vDSO of this kernel, read from this process's own [vdso] mapping. */
void sym_elf_load_vdso(struct sym_dso *d);
int sym_elf_file_build_id(const char *path, uint8_t *id, size_t max, size_t *len);

/* perf's name for an ELF symbol's (sym-demangle.c): a malloc'ed demangled
 * name, or NULL to keep name as it is (not mangled, not demangled, or the
 * demangler's library missing: sym_demangle_why). params: perf -v's
 * parameters, qualifiers and clone suffixes. */
char *sym_demangle(const char *name, bool params);
/* Why names stayed mangled that were to be demangled (the library could
 * not be opened), or NULL. */
const char *sym_demangle_why(void);

#endif

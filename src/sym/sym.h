/* sym.h: turning sampled addresses into function names, as perf report
 * does, for hpmstat report --samples (and record's build ids).
 *
 * Owns: the address maps of the recorded processes, built from the
 * stream's MMAP2, COMM (exec), FORK and EXIT records in order; the DSO
 * cache (each ELF file read once with libelf: .symtab, else .dynsym, and
 * PLT entries, C++ names demangled as perf shows them; PIE executables and shared objects placed by
 * their segments' file offsets; the build id of .note.gnu.build-id; separate debug files through
 * .gnu_debuglink and /usr/lib/debug/.build-id/); the vDSO; the kernel's symbols from /proc/kallsyms
 * when readable; and tables of declared functions (the emulator's workload profiles).
 *
 * A name is given only when it is right: a file whose build id differs
 * from the recorded one, a stripped file, or one that cannot be read
 * resolves to no name, with its DSO, the offset in it and the reason.
 * Without libelf (configure --without-libelf) every user address resolves
 * that way; kallsyms and declared tables still name functions.
 *
 * Never prints, never exits: errors are negative codes, hpm_syms_strerror
 * says them.
 */
#ifndef HPM_SYM_SYM_H
#define HPM_SYM_SYM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct hpm_syms;

/* The negative codes besides -errno (hpm_syms_strerror says them). */
enum {
	HPM_SYM_ENOTELF = -10001,    /* not an ELF file */
	HPM_SYM_ENOBUILDID = -10002, /* no .note.gnu.build-id */
	HPM_SYM_ENOLIBELF = -10003,  /* built without libelf */
	HPM_SYM_ENOTREG = -10004,    /* not a regular file (a FIFO, a directory) */
};

struct hpm_syms_opts {
	/* NULL: /proc/kallsyms; "": no kernel symbols. */
	const char *kallsyms;
	/* NULL: /usr/lib/debug (its .build-id/ and the debuglink places). */
	const char *debug_dir;
	/* The running kernel's notes, whose build id must match the one the
	 * file recorded for [kernel.kallsyms] before kallsyms names anything.
	 * NULL: /sys/kernel/notes when kallsyms is /proc/kallsyms, else no
	 * check; "": no check. */
	const char *kernel_notes;
	/* perf report --no-demangle: ELF symbols' names as the file has
	 * them; by default C++ (and legacy Rust) names are demangled as perf
	 * 6.1 shows them, without parameters ("ns::func"), or with them and
	 * their clone suffixes when demangle_params (perf's -v). kallsyms
	 * names are never demangled (perf's --demangle-kernel demangles only
	 * vmlinux and module files, which are not read here). */
	bool no_demangle;
	bool demangle_params;
};

/* Where an address lands: perf's "dso" and "sym" columns. */
enum hpm_sym_space { HPM_SYM_USER, HPM_SYM_KERNEL, HPM_SYM_HV, HPM_SYM_GUEST };

struct hpm_sym_loc {
	/* "/usr/bin/x", "[kernel.kallsyms]", "[vdso]", "[unknown]" when no
	 * map holds the address. Owned by the hpm_syms. */
	const char *dso;
	/* The function, or NULL when it cannot be named (printed [unknown]).
	 * Owned by the hpm_syms. */
	const char *name;
	uint64_t sym_start;  /* the function's start, in dso terms */
	uint64_t sym_offset; /* address - the function's start */
	/* The address in the DSO's own terms (file offset made into the ELF
	 * virtual address perf shows; the address itself for the kernel). */
	uint64_t dso_offset;
	/* perf's map_ip: the offset in the mapped file (address - map start
	 * + pgoff), what perf report shows for an address it cannot name; the
	 * address itself where there is no file map (kernel, unknown) */
	uint64_t file_offset;
	/* perf's symbol_size and dso_size sort keys: the function's size
	 * (its end as perf fixes it up, minus its start; 0 unnamed) and the
	 * size of the map holding the address (the mmap's length; the
	 * kernel's, from its first to past its last symbol, as perf sizes
	 * its kallsyms map; 0 where no map holds it) */
	uint64_t sym_size, map_size;
	/* When name is NULL and a DSO is known: why ("stripped", "build id
	 * differs from the recorded one", "cannot read: ...", ...). */
	const char *why;
};

/* A declared function (the emulator's): [start, end) in its DSO. */
struct hpm_sym_decl {
	const char *name;
	uint64_t start, end;
};

int hpm_syms_new(const struct hpm_syms_opts *opts, struct hpm_syms **out);
void hpm_syms_free(struct hpm_syms *s);

/* The stream's records, fed in order. A map replaces what it overlaps.
 * build_id: the MMAP2 record's (PERF_RECORD_MISC_MMAP_BUILD_ID), or NULL.
 * Maps in HPM_SYM_KERNEL space (pid ignored) are kept apart; kernel
 * addresses are named from kallsyms. Maps of files that are no ELF
 * ("//anon", "[heap]", "[stack]", ...) give their name as DSO, no symbol.
 * -EINVAL for an empty or wrapping map, or no filename. */
int hpm_syms_mmap(struct hpm_syms *s, pid_t pid, uint64_t start, uint64_t len, uint64_t pgoff,
                  const char *filename, const uint8_t *build_id, size_t build_id_len,
                  enum hpm_sym_space space);
/* COMM with PERF_RECORD_MISC_COMM_EXEC: the process's maps are gone. */
int hpm_syms_exec(struct hpm_syms *s, pid_t pid);
/* FORK of a new process (pid != ppid): it starts with its parent's maps. */
int hpm_syms_fork(struct hpm_syms *s, pid_t pid, pid_t ppid);
void hpm_syms_exit(struct hpm_syms *s, pid_t pid);

/* A build id the file recorded for filename (PERF_FEAT_BUILD_ID): the file
 * read now must carry it, else its addresses get no name. Ids padded with
 * zeros to perf's 20 bytes match the shorter id they pad. For
 * "[kernel.kallsyms]" it is checked against the running kernel's notes
 * (hpm_syms_opts.kernel_notes) before kallsyms names anything. */
int hpm_syms_recorded_build_id(struct hpm_syms *s, const char *filename, const uint8_t *id,
                               size_t len);

/* A table of declared functions standing for dso (e.g. the emulator's
 * workload): addresses of maps of dso resolve through it, never through a
 * file. The declared addresses are in the DSO's terms, which for a table
 * are file offsets (address - map start + map pgoff): a map of dso at
 * start 0 with pgoff 0 makes them the sampled addresses themselves. A new
 * table for the same dso replaces the old one (earlier answers' strings
 * stay valid). */
int hpm_syms_add_table(struct hpm_syms *s, const char *dso, const struct hpm_sym_decl *decls,
                       size_t n);

/* Resolves addr of pid in space into *loc (strings live as long as s).
 * The first address in a DSO reads its file (once); the lookups are
 * binary searches. 0, or -EINVAL for a NULL s or loc: an address that
 * cannot be named is not an error (loc->name NULL, loc->why). */
int hpm_syms_resolve(struct hpm_syms *s, pid_t pid, uint64_t addr, enum hpm_sym_space space,
                     struct hpm_sym_loc *loc);

/* The build id of the ELF file at path (.note.gnu.build-id): its length
 * into *len (at most max), or a negative code (no note, not ELF, ...). */
int hpm_sym_file_build_id(const char *path, uint8_t *id, size_t max, size_t *len);

/* Why names that were to be demangled stay mangled (libstdc++, the
 * demangler's library, could not be opened: "libstdc++.so.6 is not
 * installed (Debian package libstdc++6)"), once a name needed it; NULL
 * otherwise. */
const char *hpm_syms_demangle_why(const struct hpm_syms *s);

const char *hpm_syms_strerror(int err);

#endif

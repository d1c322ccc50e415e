/* dlib.h: the optional libraries (libelf, libdw, libbpf, libpfm4, ncurses,
 * libmicrohttpd, libstdc++'s demangler), opened by the command that first needs one.
 *
 * Owns: opening a library by the soname configure found and resolving its
 * functions into a shim's table. The shims (util/dl-*.c) define the
 * library's functions under their own names and call through the table,
 * so callers are written as if the library were linked; a command that
 * never needs a library never maps it (`hpmstat stat` starts without
 * GnuTLS, libbpf or ncurses). Built with --disable-dlopen (a static
 * link), the libraries are linked and the loaders succeed at once.
 *
 * HPMSTAT_DLOPEN_DIR, when set, is the one directory the libraries are
 * opened from instead of the loader's search (tests point it at a
 * directory without a library to see the message for a missing one).
 */
#ifndef HPM_UTIL_DLIB_H
#define HPM_UTIL_DLIB_H

#include <stdbool.h>
#include <stddef.h>

/* One library: what a shim declares, and its state. */
struct hpm_dlib {
	const char *soname;       /* e.g. "libelf.so.1" */
	const char *package;      /* the Debian package of the file, e.g. "libelf1" */
	const char *const *names; /* the functions (and variables) to resolve */
	void **fns;               /* their addresses, names' order */
	size_t n;
	int state;     /* 0 not tried, 1 loaded, -1 failed */
	char why[256]; /* why it failed */
};

/* Loads l once: 0, or -1 with err "SONAME is not installed (Debian
 * package PACKAGE)" when the file is not there, or the loader's reason. */
int hpm_dlib_load(struct hpm_dlib *l, char *err, size_t errlen);
/* For a shim's functions: loads l when no caller did; a caller that calls
 * a function of a library it did not load is a bug, so this aborts when
 * the library is missing. */
void hpm_dlib_need(struct hpm_dlib *l);

/* Holds one descriptor (/dev/null, close-on-exec, never 0-2) that the
 * next load gives to the loader: libm and jansson are loaded on their
 * first call, which may come after the command's counters have taken
 * every descriptor RLIMIT_NOFILE allows (top's per-task counters, stat's
 * many events); without it that load would fail with EMFILE and end the
 * run before its output. The command dispatcher calls it once; linked
 * (--disable-dlopen), nothing is loaded late and it does nothing. */
#ifdef HPM_DLOPEN
void hpm_dlib_reserve_fd(void);
#else
static inline void hpm_dlib_reserve_fd(void)
{
}
#endif

/* For the shims of libm and jansson (util/dl-m.c, util/dl-jansson.c),
 * libraries hpmstat always needs but most runs never call: loads l by its
 * soname (HPMSTAT_DLOPEN_DIR does not apply) on the first call of one of
 * its functions; a library that cannot be loaded ends the program with
 * the loader's own message and status (127), as a missing DT_NEEDED
 * library would have before main. */
void hpm_dlib_need_system(struct hpm_dlib *l);
#define HPM_DL_SYSFN(lib, fns, f)                                                                  \
	(hpm_dlib_need_system(&(lib)), (__typeof__(f) *)(fns)[HPM_DL_I_##f])

/* A shim's table: FUNCS(X) lists the names, X(f) once each. */
#define HPM_DL_ENUM(f) HPM_DL_I_##f,
#define HPM_DL_NAME(f) #f,
/* The library's f, loaded if it was not, of f's own type */
#define HPM_DL_FN(lib, fns, f) (hpm_dlib_need(&(lib)), (__typeof__(f) *)(fns)[HPM_DL_I_##f])

/* A library linked in: always there (the loaders below without dlopen,
 * and in the static front for the libraries it holds: util/dlib-static.c) */
static inline int hpm_dl_linked(char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	return 0;
}

#ifdef HPM_DLOPEN
/* Each loads its library once: 0, or -1 with the reason in err. Callers
 * call it before the library's first function. */
int hpm_dl_elf_load(char *err, size_t errlen);
int hpm_dl_dw_load(char *err, size_t errlen);
int hpm_dl_bpf_load(char *err, size_t errlen);
int hpm_dl_pfm_load(char *err, size_t errlen);
int hpm_dl_curses_load(char *err, size_t errlen);
int hpm_dl_mhd_load(char *err, size_t errlen);
int hpm_dl_cxx_load(char *err, size_t errlen);
/* libstdc++'s __cxa_demangle(mangled, NULL, NULL, status) (util/dl-cxx.c):
 * a malloc'ed name, or NULL with *status (-2: not a mangled name) */
char *hpm_cxa_demangle(const char *mangled, int *status);
#else
#define hpm_dl_elf_load                   hpm_dl_linked
#define hpm_dl_dw_load                    hpm_dl_linked
#define hpm_dl_bpf_load                   hpm_dl_linked
#define hpm_dl_pfm_load                   hpm_dl_linked
#define hpm_dl_curses_load                hpm_dl_linked
#define hpm_dl_mhd_load                   hpm_dl_linked
#define hpm_dl_cxx_load                   hpm_dl_linked
char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);
#define hpm_cxa_demangle(mangled, status) __cxa_demangle(mangled, NULL, NULL, status)
#endif

#endif

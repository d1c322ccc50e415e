/* dlib-static.c: util/dlib.h in the static front (src/hpmstat-front.c),
 * instead of dlib.c: the libraries it links are always there, so their
 * loaders succeed at once; libmicrohttpd, libdw, ncurses and libstdc++
 * (the demangler: libstdc++.a would bring the C++ runtime into a C
 * program for one function) are not linked (serve, report and top run in
 * hpmstat-full), their shims are, and never load;
 * nothing is opened, so nothing needs a descriptor held for the loader. */
#include <stdlib.h>

#include "util/dlib.h"
#include "util/str.h"

int hpm_dl_elf_load(char *err, size_t errlen)
{
	return hpm_dl_linked(err, errlen);
}
int hpm_dl_bpf_load(char *err, size_t errlen)
{
	return hpm_dl_linked(err, errlen);
}
int hpm_dl_pfm_load(char *err, size_t errlen)
{
	return hpm_dl_linked(err, errlen);
}

/* the shims still linked (libmicrohttpd's, libdw's, ncurses',
 * libstdc++'s): never loaded here */
int hpm_dlib_load(struct hpm_dlib *l, char *err, size_t errlen)
{
	if (err)
		str_seterr(err, errlen, "%s is opened by hpmstat-full, not by the static hpmstat",
		           l->soname);
	return -1;
}

void hpm_dlib_need(struct hpm_dlib *l)
{
	(void)l;
	abort();
}

void hpm_dlib_need_system(struct hpm_dlib *l)
{
	(void)l;
	abort();
}

void hpm_dlib_reserve_fd(void)
{
}

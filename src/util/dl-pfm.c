/* dl-pfm.c: libpfm4's functions that the host event names use
 * (backend/host-events.c), through dlopen (util/dlib.h): mapped only when
 * a name is not one of perf's generic ones. */
#include <perfmon/pfmlib_perf_event.h>

#include "util/dlib.h"

/* clang-format off */
#define PFM_FUNCS(X) \
	X(pfm_get_event_attr_info) \
	X(pfm_get_event_info) \
	X(pfm_get_event_next) \
	X(pfm_get_os_event_encoding) \
	X(pfm_get_pmu_info) \
	X(pfm_initialize)
/* clang-format on */

enum { PFM_FUNCS(HPM_DL_ENUM) NFUNCS };
static const char *const names[] = {PFM_FUNCS(HPM_DL_NAME)};
static void *fns[NFUNCS];
static struct hpm_dlib lib = {LIBPFM4_SONAME, LIBPFM4_PACKAGE, names, fns, NFUNCS, 0, ""};
#define F(f) HPM_DL_FN(lib, fns, f)

int hpm_dl_pfm_load(char *err, size_t errlen)
{
	return hpm_dlib_load(&lib, err, errlen);
}

pfm_err_t pfm_get_event_attr_info(int eidx, int aidx, pfm_os_t os, pfm_event_attr_info_t *output)
{
	return F(pfm_get_event_attr_info)(eidx, aidx, os, output);
}
pfm_err_t pfm_get_event_info(int idx, pfm_os_t os, pfm_event_info_t *output)
{
	return F(pfm_get_event_info)(idx, os, output);
}
int pfm_get_event_next(int idx)
{
	return F(pfm_get_event_next)(idx);
}
pfm_err_t pfm_get_os_event_encoding(const char *str, int dfl_plm, pfm_os_t os, void *args)
{
	return F(pfm_get_os_event_encoding)(str, dfl_plm, os, args);
}
pfm_err_t pfm_get_pmu_info(pfm_pmu_t pmu, pfm_pmu_info_t *output)
{
	return F(pfm_get_pmu_info)(pmu, output);
}
pfm_err_t pfm_initialize(void)
{
	return F(pfm_initialize)();
}

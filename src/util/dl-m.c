/* dl-m.c: the libm functions hpmstat calls (rounding in stat's noise and
 * JSON, pow in metric expressions, sqrt in the noise test, log10 in
 * stat's precision), through dlopen (util/dlib.h): a run that calls none
 * (`stat -e task-clock -- true`, `--version`) does not map libm, its
 * IFUNC resolvers and its relocations (issue 30). glibc's libm.a cannot
 * be linked into a dynamic program, so this is the only way to leave it
 * out. ceil, floor and fabs are here too although gcc at -O2 inlines
 * them: clang, and gcc without optimisation, call libm's. */
#include <gnu/lib-names.h>
#include <math.h>

#include "util/dlib.h"

/* clang-format off */
#define LIBM_FUNCS(X) \
	X(ceil) \
	X(fabs) \
	X(floor) \
	X(llround) \
	X(log10) \
	X(lround) \
	X(pow) \
	X(round) \
	X(sqrt)
/* clang-format on */

enum { LIBM_FUNCS(HPM_DL_ENUM) NFUNCS };
static const char *const names[] = {LIBM_FUNCS(HPM_DL_NAME)};
static void *fns[NFUNCS];
static struct hpm_dlib lib = {LIBM_SO, "libc6", names, fns, NFUNCS, 0, ""};
#define F(f) HPM_DL_SYSFN(lib, fns, f)

double ceil(double x)
{
	return F(ceil)(x);
}
double fabs(double x)
{
	return F(fabs)(x);
}
double floor(double x)
{
	return F(floor)(x);
}
long long llround(double x)
{
	return F(llround)(x);
}
double log10(double x)
{
	return F(log10)(x);
}
long lround(double x)
{
	return F(lround)(x);
}
double pow(double x, double y)
{
	return F(pow)(x, y);
}
double round(double x)
{
	return F(round)(x);
}
double sqrt(double x)
{
	return F(sqrt)(x);
}

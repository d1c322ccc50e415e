/* alias.c: Walker's alias table (see emukit/alias.h). */
#include "config.h"

#include <stdlib.h>

#include "emukit/alias.h"
#include "util/xalloc.h"

void hpm_alias_build(const double *w, unsigned n, double total, uint32_t **thr_out,
                     unsigned **alias_out)
{
	uint32_t *thr = xcalloc(n, sizeof(*thr));
	unsigned *alias = xcalloc(n, sizeof(*alias));
	double *q = xcalloc(n, sizeof(*q));
	unsigned *small = xcalloc(n, sizeof(*small)), *large = xcalloc(n, sizeof(*large));
	unsigned ns = 0, nl = 0;
	for (unsigned i = 0; i < n; i++) {
		/* w * n / total, in this order: the tables (and so the streams)
		 * stay bit for bit what they were */
		q[i] = w[i] * n / total;
		alias[i] = i;
		if (q[i] < 1.0)
			small[ns++] = i;
		else
			large[nl++] = i;
	}
	while (ns && nl) {
		unsigned s = small[--ns], l = large[nl - 1];
		alias[s] = l;
		thr[s] = (uint32_t)(q[s] * 4294967296.0);
		q[l] -= 1.0 - q[s];
		if (q[l] < 1.0) {
			nl--;
			small[ns++] = l;
		}
	}
	/* What is left keeps its column entirely (up to rounding). */
	while (nl)
		thr[large[--nl]] = UINT32_MAX;
	while (ns)
		thr[small[--ns]] = UINT32_MAX;
	/* a column that keeps its entry always needs no coin: its alias is
	 * itself, so that a draw of UINT32_MAX takes it too */
	for (unsigned i = 0; i < n; i++)
		if (thr[i] == UINT32_MAX)
			alias[i] = i;
	free(q);
	free(small);
	free(large);
	*thr_out = thr;
	*alias_out = alias;
}

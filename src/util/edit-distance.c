/* edit-distance.c: see edit-distance.h. */
#include "util/edit-distance.h"

#include <ctype.h>
#include <string.h>

#define ED_MAX 64

static unsigned lower(char c)
{
	return (unsigned)tolower((unsigned char)c);
}

unsigned edit_distance(const char *a, const char *b, unsigned max)
{
	/* three rows: the swap rule looks two rows back */
	unsigned rows[3][ED_MAX], *pp = rows[0], *prev = rows[1], *cur = rows[2];
	size_t la = strnlen(a, ED_MAX - 1), lb = strnlen(b, ED_MAX - 1);

	if ((la > lb ? la - lb : lb - la) > max)
		return max + 1;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		unsigned row_min;
		cur[0] = row_min = (unsigned)i;
		for (size_t j = 1; j <= lb; j++) {
			unsigned ca = lower(a[i - 1]), cb = lower(b[j - 1]);
			unsigned best = prev[j] + 1;
			if (cur[j - 1] + 1 < best)
				best = cur[j - 1] + 1;
			if (prev[j - 1] + (ca != cb) < best)
				best = prev[j - 1] + (ca != cb);
			if (i > 1 && j > 1 && ca == lower(b[j - 2]) && lower(a[i - 2]) == cb &&
			    pp[j - 2] + 1 < best)
				best = pp[j - 2] + 1;
			cur[j] = best;
			if (best < row_min)
				row_min = best;
		}
		if (row_min > max)
			return max + 1;
		unsigned *t = pp;
		pp = prev;
		prev = cur;
		cur = t;
	}
	return prev[lb] > max ? max + 1 : prev[lb];
}

/* edit-distance.c: see edit-distance.h. */
#include "util/edit-distance.h"

#include <ctype.h>
#include <string.h>

#define ED_MAX 64

unsigned edit_distance(const char *a, const char *b)
{
	unsigned d[ED_MAX][ED_MAX];
	size_t la = strnlen(a, ED_MAX - 1), lb = strnlen(b, ED_MAX - 1);

	for (size_t i = 0; i <= la; i++)
		d[i][0] = (unsigned)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			unsigned ca = (unsigned)tolower((unsigned char)a[i - 1]);
			unsigned cb = (unsigned)tolower((unsigned char)b[j - 1]);
			unsigned cost = ca != cb;
			unsigned best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + cost < best)
				best = d[i - 1][j - 1] + cost;
			if (i > 1 && j > 1 && ca == (unsigned)tolower((unsigned char)b[j - 2]) &&
			    (unsigned)tolower((unsigned char)a[i - 2]) == cb &&
			    d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	}
	return d[la][lb];
}

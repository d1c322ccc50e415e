/* suggest.h: "did you mean" lists: the candidates closest to a mistyped
 * name, best first. One implementation for event names, host event names
 * and metric names. */
#ifndef HPM_UTIL_SUGGEST_H
#define HPM_UTIL_SUGGEST_H

#include <stdbool.h>
#include <stddef.h>

#define SUGGEST_MAX 16

struct suggest {
	const char *name; /* what the user wrote */
	size_t len;       /* the part of it that is compared */
	unsigned limit;   /* farther candidates are noise */
	bool prefix_hint; /* a candidate that starts with name counts as distance 1 */
	const char **out; /* the caller's array of max entries */
	unsigned dist[SUGGEST_MAX];
	unsigned n, max;
};

void suggest_init(struct suggest *s, const char *name, size_t len, unsigned limit, bool prefix_hint,
                  const char **out, unsigned max);
/* Considers one candidate (kept by pointer; duplicates are ignored). */
void suggest_offer(struct suggest *s, const char *cand);

#endif

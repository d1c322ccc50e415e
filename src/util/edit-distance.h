/* edit-distance.h: string distance for "did you mean" suggestions. */
#ifndef HPM_UTIL_EDIT_DISTANCE_H
#define HPM_UTIL_EDIT_DISTANCE_H

#include <stddef.h>

/* Optimal-string-alignment distance (Levenshtein plus adjacent swaps),
 * case-insensitive, of the first 63 characters of each string. Gives up
 * early and returns max + 1 once the distance must exceed max. */
unsigned edit_distance(const char *a, const char *b, unsigned max);

#endif

/* count-json.h: an exact count in a JSON document (hpmstat-run(5)).
 *
 * Owns: the one representation of a count in run files and report -f
 * json: a JSON integer up to 2^63 - 1 (what a JSON integer of jansson and
 * of most parsers holds exactly), above that a string of its decimal digits
 * ("18446744073709551615"); never a JSON real, which keeps 53 bits.
 */
#ifndef HPM_UTIL_COUNT_JSON_H
#define HPM_UTIL_COUNT_JSON_H

#include <stdbool.h>

#include <jansson.h>

#include "util/count.h"

/* A new reference. */
json_t *count_json(hpm_u128 v);
/* A count as count_json writes it (an integer >= 0, or a string of digits
 * below 2^64) into *out; false for anything else. */
bool count_from_json(const json_t *j, uint64_t *out);

#endif

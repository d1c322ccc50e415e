/* count.h: exact event counts as text.
 *
 * Owns: the decimal form of a count (an unsigned integer of up to 128 bits:
 * a sum of scaled 64-bit counts can exceed 2^64), with or without perf's
 * thousands separators, and the reading of a decimal count back. Counts
 * never go through a double on the way to text, so 2^53 + 1 and 2^64 - 1
 * print with every digit; the printers of stat, the run file and report
 * all use these.
 */
#ifndef HPM_UTIL_COUNT_H
#define HPM_UTIL_COUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef unsigned __int128 hpm_u128;

/* Enough for 2^128 - 1 with separators: 39 digits, 12 commas, NUL. */
#define HPM_COUNT_STR_MAX 56

/* v in decimal into buf (at least HPM_COUNT_STR_MAX bytes), with a ','
 * every three digits when grouped ("18,446,744,073,709,551,615"). */
const char *count_str(hpm_u128 v, bool grouped, char *buf, size_t len);
/* Parse a whole decimal string of digits only (no sign, no space) below
 * 2^64 into *out; false when it is not one. */
bool count_parse_u64(const char *s, uint64_t *out);
/* floor(a * b / c) exactly (a * b < 2^128 always fits); 0 when c is 0. */
hpm_u128 count_muldiv(uint64_t a, uint64_t b, uint64_t c);

#endif

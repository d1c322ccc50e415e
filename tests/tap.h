/* tap.h: a minimal Test Anything Protocol producer for the C unit tests.
 *
 * Owns: the test-point counters. Each ok() is one TAP line, so automake's
 * tap-driver counts every golden vector and property check on its own.
 */
#ifndef HPM_TESTS_TAP_H
#define HPM_TESTS_TAP_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>

void tap_plan(unsigned n);
/* Emits "ok N - desc" or "not ok N - desc"; returns cond. */
bool tap_ok(bool cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void tap_skip(const char *why);
bool tap_is_u64(uint64_t got, uint64_t want, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
bool tap_is_str(const char *got, const char *want, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Prints the plan if none was given; returns the process exit status. */
int tap_done(void);

#endif

/* gen-die.h: the build-time generators' fatal error (kmh-jevents,
 * arm64-jevents, metrics2c): "PROG: FILE: message" on stderr and exit 1,
 * so that make stops on a bad input file with the file named.
 *
 * Owns: gen_vdie, which each generator's die() calls with its own name
 * and the file it is reading.
 */
#ifndef HPM_GEN_GEN_DIE_H
#define HPM_GEN_GEN_DIE_H

#include <stdarg.h>

/* file NULL reads as "" (before any file is open). */
void gen_vdie(const char *prog, const char *file, const char *fmt, va_list ap)
    __attribute__((noreturn, format(printf, 3, 0)));

#endif

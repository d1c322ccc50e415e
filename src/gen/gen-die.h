/* gen-die.h: what the build-time generators (kmh-jevents, arm64-jevents,
 * metrics2c) share: their fatal error, "PROG: FILE: message" on stderr and
 * exit 1, so that make stops on a bad input file with the file named; and
 * the C string literal they write their tables' texts as.
 *
 * Owns: gen_vdie, which each generator's die() calls with its own name
 * and the file it is reading; gen_put_cstr.
 */
#ifndef HPM_GEN_GEN_DIE_H
#define HPM_GEN_GEN_DIE_H

#include <stdarg.h>
#include <stdio.h>

/* file NULL reads as "" (before any file is open). */
void gen_vdie(const char *prog, const char *file, const char *fmt, va_list ap)
    __attribute__((noreturn, format(printf, 3, 0)));

/* s as a C string literal on out, "NULL" for NULL: quotes and backslashes
 * escaped, a newline as \n, other control bytes and every byte from 0x7f
 * (UTF-8) in three-digit octal, which never swallows the next character. */
void gen_put_cstr(FILE *out, const char *s);

#endif

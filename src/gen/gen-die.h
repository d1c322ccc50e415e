/* gen-die.h: what the build-time generators (kmh-jevents, arm64-jevents,
 * metrics2c) share: their fatal error, "PROG: FILE: message" on stderr and
 * exit 1, so that make stops on a bad input file with the file named; and
 * the C string literal they write their tables' texts as; the JSON array
 * each of their input files is.
 *
 * Owns: gen_vdie, which each generator's die() calls with its own name
 * and the file it is reading; gen_put_cstr, gen_put_chars,
 * gen_put_note_cstr and gen_put_row_texts; gen_load_array.
 */
#ifndef HPM_GEN_GEN_DIE_H
#define HPM_GEN_GEN_DIE_H

#include <stdarg.h>
#include <stdio.h>

#include <jansson.h>

/* file NULL reads as "" (before any file is open). */
void gen_vdie(const char *prog, const char *file, const char *fmt, va_list ap)
    __attribute__((noreturn, format(printf, 3, 0)));

/* s as a C string literal on out, "NULL" for NULL: quotes and backslashes
 * escaped, a newline as \n, other control bytes and every byte from 0x7f
 * (UTF-8) in three-digit octal, which never swallows the next character. */
void gen_put_cstr(FILE *out, const char *s);
/* The inside of that literal: s escaped, without the quotes. */
void gen_put_chars(FILE *out, const char *s);
/* s as gen_put_cstr writes it, for a comment: "*" and "/" next to each
 * other in s with a backslash between, so that they neither end the
 * comment nor open another. */
void gen_put_note_cstr(FILE *out, const char *s);
/* The start of a table row whose first two fields are texts: \t{"a", "b" */
void gen_put_row_texts(FILE *out, const char *a, const char *b);

/* The JSON array in path (flags as json_load_file's), or prog's fatal error
 * naming the file: "line N: why" when it is not JSON, "the top level must
 * be an array of WHAT" when it is no array. */
json_t *gen_load_array(const char *prog, const char *path, size_t flags, const char *what);

#endif

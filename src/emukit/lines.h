/* lines.h: output a line at a time, for the library code behind `hpmstat
 * emu` (the machines' profile listings and bench figures), which hands
 * its output to a caller's callback and never prints.
 *
 * Owns: hpm_emu_linef(), printf to such a callback, the percentages of
 * their listings and their JSON (a number or null, the one indented text).
 */
#ifndef HPM_EMUKIT_LINES_H
#define HPM_EMUKIT_LINES_H

#include <stddef.h>

/* Formats fmt (each line of it ending in '\n', as printf's would) and
 * hands each line, without its newline, to out(ctx, line). */
__attribute__((format(printf, 3, 4))) void hpm_emu_linef(void (*out)(void *ctx, const char *line),
                                                         void *ctx, const char *fmt, ...);

/* A share in percent with one decimal, into buf; "n/a" where it is not a
 * number (a formula that divides by zero). */
const char *hpm_emu_pct(double v, char buf[16]);

struct json_t;

/* A share of a listing as JSON: the number, or null where it is not one
 * (as hpm_emu_pct() says "n/a"). */
struct json_t *hpm_emu_json_num(double v);

/* Hands doc, which it frees, as one indented JSON text (keys in their
 * order) to out(ctx, text): 0, or -1 with "cannot format JSON" in err. */
int hpm_emu_json_out(struct json_t *doc, void (*out)(void *ctx, const char *line), void *ctx,
                     char *err, size_t errlen);

#endif

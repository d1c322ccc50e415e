/* lines.h: output a line at a time, for the library code behind `hpmstat
 * emu` (the machines' profile listings and bench figures), which hands
 * its output to a caller's callback and never prints.
 *
 * Owns: hpm_emu_linef(), printf to such a callback, and the percentages
 * of their listings.
 */
#ifndef HPM_EMUKIT_LINES_H
#define HPM_EMUKIT_LINES_H

/* Formats fmt (each line of it ending in '\n', as printf's would) and
 * hands each line, without its newline, to out(ctx, line). */
__attribute__((format(printf, 3, 4))) void hpm_emu_linef(void (*out)(void *ctx, const char *line),
                                                         void *ctx, const char *fmt, ...);

/* A share in percent with one decimal, into buf; "n/a" where it is not a
 * number (a formula that divides by zero). */
const char *hpm_emu_pct(double v, char buf[16]);

#endif

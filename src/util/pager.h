/* pager.h: long output through a pager on a terminal, as perf and git do.
 *
 * Owns: the choice of the pager and its process. pager_start() pipes
 * standard output (and standard error, when that is a terminal too) into
 * the pager, chosen as perf's setup_pager() chooses it:
 *   - none when standard output is not a terminal;
 *   - $HPMSTAT_PAGER (perf: $PERF_PAGER), else $PAGER, else /usr/bin/pager,
 *     else /usr/bin/less, else none;
 *   - none when that is empty or "cat";
 *   - run with "sh -c", so it may carry arguments, and with LESS=FRSX in its
 *     environment unless LESS is set (quit when one screen holds it all,
 *     colours, chopped lines, no screen clearing), as perf sets it.
 * The pager is started only once its input has data (less needs that on
 * some terminals, perf works around it the same way), and waited for when
 * the process exits, or dies of HUP, INT, QUIT, PIPE or TERM, so the
 * shell's prompt comes after the last page.
 *
 * Never prints, never exits.
 */
#ifndef HPM_UTIL_PAGER_H
#define HPM_UTIL_PAGER_H

#include <stdbool.h>

/* Start the pager if one applies; true when one runs. Idempotent. */
bool pager_start(void);
/* A pager was started (perf's pager_in_use). */
bool pager_active(void);
/* Width to lay text out for, as perf's pager_get_columns: $COLUMNS, else
 * the terminal's width minus 2 (standard output's, as seen before the pager
 * took it), else 78. */
unsigned pager_columns(void);

#endif

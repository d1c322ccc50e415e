/* report-input.h: the input of hpmstat report (cmd-report.c).
 *
 * Owns: telling a perf.data of samples from a run file by its magic, the
 * FIFOs and sockets refused as inputs, and standard input as a regular
 * file the report maps (itself, or its stream spooled to a temporary
 * file). The messages are the CLI's (cli_error).
 */
#ifndef HPM_BUILTIN_REPORT_INPUT_H
#define HPM_BUILTIN_REPORT_INPUT_H

#include <stdbool.h>

/* path is a perf.data of samples ("-": standard input, taken as one), not
 * of stat counts (a run). */
bool report_input_is_perf_data(const char *path);
/* path is a FIFO or a socket: one line, true. */
bool report_input_refused(const char *path);
/* Standard input as a regular file from its start: its descriptor, or -1
 * after one line. */
int report_input_stdin(void);

#endif

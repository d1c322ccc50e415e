/* header.h: perf report's header listing of a perf.data (perf report
 * --header-only, --header and -I/--show-info), as Debian 12's perf 6.1
 * prints it, byte for byte.
 *
 * Owns: reading the file header, the attrs and the feature sections the
 * way perf 6.1's perf_session__open reads them (what makes perf refuse the
 * file makes this fail, with perf's reason; a feature section perf cannot
 * read stops the reading of the later ones, which perf then lists empty,
 * and so does this), and printing perf_session__fprintf_info: the
 * "# ========" block with each feature bit perf 6.1 knows (1 TRACING_DATA
 * .. 31 PMU_CAPS) through perf's print function, then "# missing
 * features: ". Feature bits perf 6.1 does not know (hpmstat's own,
 * perf-file.h) are passed over silently, as perf passes over them.
 *
 * perf report --header prints the same block, then the report exactly
 * where it prints "# To display the perf.data header info, please use
 * --header/--header-only options.\n#\n" without --header: nothing comes
 * between the block's last line ("#\n") and the report's first ("#\n",
 * then "# Total Lost Samples: ..."); the two "To display" lines are left
 * out.
 *
 * Not as perf: a pipe-mode file (perf record -o -), a byte-swapped one and
 * one of the pre-PERFILE2 format are refused (perf lists them); the
 * tracing data is checked as far as its magic (perf has libtraceevent
 * parse it whole); a file another user owns is listed (perf wants -f):
 * the caller decides. Where perf 6.1 reads the live machine instead of the
 * file (a file whose CPUID or PMU_MAPPINGS section it could not read: its
 * env then takes the host's cpuid and, on AMD, the host's PMUs), this
 * prints "(null)" and "not available". Where perf prints memory it never
 * wrote (a string of length 0, or without its NUL) or crashes (cut-short
 * cmdline or sibling lists, bpf_prog_info arrays outside their data), this
 * prints what the file holds. A group of events EVENT_DESC names none of
 * is named as pd_attr_name names them.
 *
 * Never exits, never prints anywhere but out.
 */
#ifndef HPM_REPORT_HEADER_H
#define HPM_REPORT_HEADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Prints perf report's header listing of the perf.data at path (perf's
 * perf_header__fprintf_info): the "# ========" block. full: perf's -I
 * (--show-info) details; without it perf's "... info available, use -I
 * to display" lines. A directory (perf record --threads) is read as perf
 * reads one: its "data" file. 0, or -1 with one line in err (nothing
 * printed then, but for a write error on out). */
int rs_header_fprintf(const char *path, bool full, FILE *out, char *err, size_t errlen);

#endif

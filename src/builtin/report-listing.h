/* report-listing.h: perf report's listings of a perf.data (cmd-report.c):
 * the header (--header before the report, --header-only alone, -I's
 * details) and the records (--stats, --tasks, --mmaps).
 *
 * Owns: their option rules, and writing them on standard output or in
 * -o's file; the listings themselves are src/report's (header.c,
 * tasks.c). The messages are the CLI's (cli_error).
 */
#ifndef HPM_BUILTIN_REPORT_LISTING_H
#define HPM_BUILTIN_REPORT_LISTING_H

#include <stdbool.h>
#include <stdio.h>

#include "report/tasks.h"

/* What of report's options the listings take. */
struct report_listing {
	bool header, header_only, show_info; /* --header, --header-only, -I */
	bool list[3];                        /* --stats, --tasks, --mmaps (enum rs_listing) */
	bool text;                           /* the text format (perf's listings are text) */
	const char *output;                  /* -o, NULL or "-": standard output */
	const char *sort, *fields;           /* -s, -F */
	const char *comms, *dsos, *symbols;  /* the filters that name one value above */
};

/* The option's name of a records listing ("--stats"). */
const char *report_listing_name(enum rs_listing what);
/* --header's and --header-only's rules for path: 0, or the exit status
 * after the message. */
int report_check_listing(const char *path, const struct report_listing *o);
/* --header's listing of path on out, before a report (nothing without
 * --header): 0, or -1 after the message. */
int report_header_before(const char *path, const struct report_listing *o, FILE *out);
/* --header-only: the header listing alone; the exit status. */
int report_header_only(const char *path, const struct report_listing *o);
/* --stats, --tasks, --mmaps: the exit status. */
int report_records_listing(const char *path, const struct report_listing *o);

#endif

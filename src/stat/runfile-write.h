/* runfile-write.h: the writer of the run file of `hpmstat stat --record`
 * (hpmstat-run(5)).
 *
 * Owns: the JSON document a report is made from: schema version, tool,
 * back ends, emulator source, command, times, and for every event its spec,
 * encoding, placement, per-unit and per-interval counts with enabled and
 * running times, and the metric values. The reader lives with the report;
 * the schema's name and version, which both check, in util/run-schema.h.
 */
#ifndef HPM_STAT_RUNFILE_WRITE_H
#define HPM_STAT_RUNFILE_WRITE_H

#include <stdio.h>

#include "stat/session.h"
#include "stat/stat.h"

struct record;

/* Starts the document on f (the head: schema, tool, argv, command); every
 * interval is written to f as it is added, and record_write ends it. */
struct record *record_new(const struct hpm_emu_config *emu, int argc, char **argv,
                          const char *command, FILE *f);
void record_add_interval(struct record *r, const struct stat_result *res);
void record_add_run(struct record *r, const struct hpm_session *s, double elapsed_ns);
void record_finish(struct record *r, const struct stat_config *cfg, const struct hpm_session *s,
                   const struct stat_result *res);
/* Writes the rest of the document (after record_finish); 0, or -1 with
 * errno when this or any earlier write failed. */
int record_write(struct record *r);
void record_free(struct record *r);

#endif

/* record.h: the run file of `hpmstat stat --record` (hpmstat-run(5)).
 *
 * Owns: the JSON document a report is made from: schema version, tool,
 * back ends, emulator source, command, times, and for every event its spec,
 * encoding, placement, per-unit and per-interval counts with enabled and
 * running times, and the metric values. The reader lives with the report.
 */
#ifndef HPM_STAT_RECORD_H
#define HPM_STAT_RECORD_H

#include <stdio.h>

#include "stat/session.h"
#include "stat/stat.h"

#define HPM_RUN_SCHEMA         "hpmstat-run"
#define HPM_RUN_SCHEMA_VERSION 1

struct record;

struct record *record_new(const struct hpm_emu_config *emu, int argc, char **argv,
                          const char *command);
void record_add_interval(struct record *r, const struct stat_result *res);
void record_add_run(struct record *r, const struct hpm_session *s, double elapsed_ns);
void record_finish(struct record *r, const struct stat_config *cfg, const struct hpm_session *s,
                   const struct stat_result *res);
/* Writes the document; 0, or -1 with errno. */
int record_write(struct record *r, FILE *f);
void record_free(struct record *r);

#endif

/* run-schema.h: the name and version of the run file's schema.
 *
 * Owns: HPM_RUN_SCHEMA and HPM_RUN_SCHEMA_VERSION (hpmstat-run(5)), one
 * definition for the writer (src/stat/runfile-write.c) and the reader
 * (src/report/runfile.c): the reader refuses a file whose pair differs, so
 * the two must never drift apart. It lives below both layers because the
 * report must not include the stat layer.
 */
#ifndef HPM_UTIL_RUN_SCHEMA_H
#define HPM_UTIL_RUN_SCHEMA_H

#define HPM_RUN_SCHEMA         "hpmstat-run"
#define HPM_RUN_SCHEMA_VERSION 1

#endif

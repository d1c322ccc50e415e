/* writer.h: writing a perf.data file (perf's PERFILE2 format, perf-file.h).
 *
 * Owns: the order of a file as perf 6.1 lays it out (the header, each
 * event's sample ids, the attrs, the data section, the feature section
 * table right after the data, then the feature bodies), the encoding of
 * the feature sections hpmstat writes (strings padded as perf pads them,
 * string lists, NRCPUS, TOTAL_MEM, EVENT_DESC, GROUP_DESC, BUILD_ID,
 * SAMPLE_TIME), the rewrite of the header at the end with the final data
 * size, so that a recording cut short (Ctrl-C) is still a complete file,
 * and perf's pipe format (perf record -o -), where the attrs and the
 * features are records of the stream and nothing is rewritten.
 *
 * A file is written on a seekable stream (the temporary file of
 * util/outfile.h), the pipe format on any stream. Records are appended as
 * the kernel made them (or as the caller synthesized them); the writer
 * does not look into them.
 *
 * Never prints, never exits: errors are negative errno values.
 */
#ifndef HPM_PERFDATA_WRITER_H
#define HPM_PERFDATA_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "perfdata/perf-file.h"

struct perf_writer;

/* One event of the file: its attr as opened, its name (EVENT_DESC, so
 * perf report and perf script name it) and the kernel's ids of its fds
 * (PERF_EVENT_IOC_ID), by which samples find their event. */
struct perf_writer_event {
	struct perf_event_attr attr;
	const char *name;
	const uint64_t *ids;
	unsigned nr_ids;
};

/* Starts a file on f (at its current position, which must be 0 and
 * seekable: -ESPIPE otherwise): writes a provisional header, the ids and
 * the attrs of the nr events, and leaves f at the start of the data
 * section. The events are copied. 0 and *out, or -errno. */
int perf_writer_start(FILE *f, const struct perf_writer_event *ev, unsigned nr,
                      struct perf_writer **out);
/* Starts a stream in perf's pipe format on f (`perf report -i -` reads
 * it): the pipe header, then a HEADER_ATTR record per event. The feature
 * sections become HEADER_FEATURE records (perf_writer_put_features, and
 * perf_writer_finish for those set later); build ids HEADER_BUILD_ID
 * records. Nothing is rewritten. */
int perf_writer_start_pipe(FILE *f, const struct perf_writer_event *ev, unsigned nr,
                           struct perf_writer **out);
/* The one choice both recorders make: the pipe format when pipe, else a
 * file (perf_writer_start). */
int perf_writer_begin(FILE *f, const struct perf_writer_event *ev, unsigned nr, bool pipe,
                      struct perf_writer **out);
/* What a negative return of these means, in one line: -ESPIPE is an
 * output that a file's header cannot be rewritten on. */
const char *perf_writer_strerror(int err);
/* Pipe format: writes the features set so far (perf wants them after the
 * attrs, before the data). A file: nothing (its features follow the data
 * at the end). 0 or -errno. */
int perf_writer_put_features(struct perf_writer *w);

/* Appends size bytes of whole records to the data section. */
int perf_writer_add(struct perf_writer *w, const void *rec, size_t size);
/* Bytes of the data section so far. */
uint64_t perf_writer_data_size(const struct perf_writer *w);

/* Feature sections (written by perf_writer_finish; each setter replaces
 * what an earlier call gave). HOSTNAME, OSRELEASE, VERSION, ARCH, CPUDESC,
 * CPUID: one string. -EINVAL for another feature. */
int perf_writer_set_string(struct perf_writer *w, enum perf_file_feature f, const char *s);
/* CMDLINE: perf writes the path of its executable, then its arguments. */
/* HOSTNAME, OSRELEASE and ARCH from uname(2), VERSION "hpmstat X": the
 * recording host and tool, as perf writes them. */
void perf_writer_set_host(struct perf_writer *w);
void perf_writer_set_cmdline(struct perf_writer *w, const char *exe, int argc, char *const *argv);
void perf_writer_set_nrcpus(struct perf_writer *w, uint32_t available, uint32_t online);
void perf_writer_set_total_mem(struct perf_writer *w, uint64_t kb);
/* SAMPLE_TIME: the times of the first and the last sample (ns). */
void perf_writer_set_sample_time(struct perf_writer *w, uint64_t first, uint64_t last);
/* One BUILD_ID entry: misc is PERF_RECORD_MISC_KERNEL or _USER (the
 * space of the DSO), pid perf's machine pid (-1 for the host kernel's). */
void perf_writer_add_build_id(struct perf_writer *w, int32_t pid, uint16_t misc, const uint8_t *id,
                              unsigned size, const char *filename);

/* One GROUP_DESC entry: a group of nr_members events (leader included)
 * whose leader is the attr at index leader; name NULL is perf's
 * "{anon_group}". perf report shows a group's members side by side. */
void perf_writer_add_group(struct perf_writer *w, const char *name, uint32_t leader,
                           uint32_t nr_members);

/* STAT: the file holds the counts of a `stat record` (perf stat report
 * reads it; perf's checks of samples do not apply). */
void perf_writer_set_stat(struct perf_writer *w);
/* HPM_RUN: the run file (hpmstat-run(5)) of that recording, len bytes. A
 * file's feature only: a pipe's feature records are at most 64 KiB. */
void perf_writer_set_hpm_run(struct perf_writer *w, const char *run, size_t len);

/* Writes the feature sections and rewrites the header with the final
 * sizes (a pipe: the features set since the start); *size (NULL: not
 * wanted) gets the size of the whole file or stream; frees w (also on
 * error). 0 or -errno. The stream is the
 * caller's (outfile_commit puts it in place). */
int perf_writer_finish(struct perf_writer *w, uint64_t *size);
/* Frees w without finishing the file. */
void perf_writer_free(struct perf_writer *w);

#endif

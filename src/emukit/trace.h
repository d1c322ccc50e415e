/* trace.h: the trace reader and writer core the two emulators share.
 *
 * Owns: struct hpm_emu_trace_format (what a machine hands in: its magic
 * line, limits, the callbacks that read its fields and the block each
 * content is laid out in for replay), struct
 * hpm_emu_trace_writer and struct hpm_emu_trace (a whole trace, validated
 * and held in memory), and struct hpm_emu_trace_cursor (where a machine's
 * hart is in the trace it replays over and over).
 *
 * A trace is a text file whose first line that is not blank or a comment
 * (#) is the format's magic, then one run per line:
 *   CYCLES HEAD... [ITEM ...]
 * CYCLES 1..2^64-1 in the format's number syntax; HEAD the machine's fixed
 * fields (parse_head), ITEM its EVENT=VALUE pairs (parse_item), which may
 * come in any order and not twice. What a line says but for CYCLES and the
 * run's tag is its content: equal contents share one stored copy and one
 * index, so that replays key them equally.
 *
 * A trace is validated whole before anything is replayed from it (load
 * returns every run or nothing), read a line at a time with
 * util_read_line() and bounded by the format's limits, so no input makes it
 * grow without bound. It knows no machine: no kmh/ or arm64/ type.
 *
 * Library rules: nothing here prints or exits.
 */
#ifndef HPM_EMUKIT_TRACE_H
#define HPM_EMUKIT_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* What one trace may hold (hpmstat-emu(1) TRACE FORMAT), whatever the
 * machine (a format's limits), so that reading one is bounded in memory (about 500 MiB at
 * worst): a line, runs, distinct contents (lines alike but for CYCLES and
 * the tag) and the items of those. */
#define HPM_EMU_TRACE_MAX_LINE     65536u
#define HPM_EMU_TRACE_MAX_RUNS     (1u << 24)
#define HPM_EMU_TRACE_MAX_DISTINCT (1u << 18)
#define HPM_EMU_TRACE_MAX_EVENTS   (1u << 24)

/* The most bytes a format's head may have. */
#define HPM_EMU_TRACE_HEAD_MAX 32u

struct hpm_emu_trace_format {
	const char *magic;   /* the first line */
	const char *columns; /* the comment line the writer puts after it */
	const char *name;    /* "a trace": "not a trace: expected ..." */
	size_t head_size;    /* 1..HPM_EMU_TRACE_HEAD_MAX */
	size_t item_size;    /* > 0 */
	/* CYCLES: 0 and the number, or -1 */
	int (*parse_number)(const char *s, size_t len, uint64_t *out);
	/* The head's fields from *pos (hpm_emu_trace_token() reads them) into
	 * head, which comes zero-filled (so its padding compares equal), and
	 * the run's tag, a value of the run that is not part of its content. */
	int (*parse_head)(const char **pos, const char *end, void *head, uint8_t *tag, char *err,
	                  size_t errlen);
	int (*parse_item)(const char *tok, size_t len, void *item, char *err, size_t errlen);
	/* Orders items; 0 for two items that name the same event. */
	int (*cmp_item)(const void *a, const void *b);
	/* The error for an item given twice. */
	void (*twice)(const void *item, char *err, size_t errlen);
	/* Items that say nothing (dropped, so equal lines intern equally), or NULL. */
	bool (*item_is_zero)(const void *item);
	/* A block of block_size() bytes per content (NULL: none) that prepare
	 * fills, zero-filled, once the trace is whole: the content laid out as
	 * the machine's runs read it, so that a replay does no work per run (a
	 * function: the size may come from a table known only at link time). */
	size_t (*block_size)(void);
	void (*prepare)(const void *head, const void *items, uint32_t nr, void *block);
};

/* The next blank-separated token of [*pos, end): false at the end. */
bool hpm_emu_trace_token(const char **pos, const char *end, const char **tok, size_t *len);
/* The same for a field that must be there: -1 with "missing WHAT". */
int hpm_emu_trace_field(const char **pos, const char *end, const char **tok, size_t *len,
                        const char *what, char *err, size_t errlen);

/* ----------------------------------------------------------------- writer */

struct hpm_emu_trace_writer;

/* Opens `path` (replaced at close, so no half trace is left where the trace
 * goes) and writes the magic and the columns line; NULL with
 * "cannot write 'PATH': REASON". */
struct hpm_emu_trace_writer *hpm_emu_trace_writer_open(const struct hpm_emu_trace_format *fmt,
                                                       const char *path, char *err, size_t errlen);
/* The stream to write one line to, or NULL once writing failed. */
FILE *hpm_emu_trace_writer_stream(struct hpm_emu_trace_writer *w);
/* After a line: r is the last stdio result (< 0 when it failed). 0, or -1
 * with the error once writing failed. */
int hpm_emu_trace_writer_done(struct hpm_emu_trace_writer *w, int r, char *err, size_t errlen);
/* Closes and commits; -1 with the error if anything failed on the way. */
int hpm_emu_trace_writer_close(struct hpm_emu_trace_writer *w, char *err, size_t errlen);

/* ----------------------------------------------------------------- reader */

struct hpm_emu_trace;

/* Reads and validates a whole trace. NULL on failure with *errline the
 * 1-based line (0 when the error is not on a line) and err the reason. */
struct hpm_emu_trace *hpm_emu_trace_load(const struct hpm_emu_trace_format *fmt, const char *path,
                                         unsigned *errline, char *err, size_t errlen);
/* The same from text in memory. */
struct hpm_emu_trace *hpm_emu_trace_parse(const struct hpm_emu_trace_format *fmt, const char *text,
                                          size_t len, unsigned *errline, char *err, size_t errlen);
/* Whether a machine can replay the trace at path that its loader gave it
 * (loaded false: errline and why are the loader's): 0, or -1 with
 * "PATH:LINE: WHY" (on no line "PATH: WHY") or "PATH: the trace has no
 * cycles to replay" in err. */
int hpm_emu_trace_replayable(const char *path, bool loaded, unsigned errline, const char *why,
                             uint64_t cycles, char *err, size_t errlen);
size_t hpm_emu_trace_nr_runs(const struct hpm_emu_trace *t);
uint64_t hpm_emu_trace_cycles(const struct hpm_emu_trace *t); /* saturating sum */
/* Run i (0-based): its cycles, tag and content index (0-based, in the
 * order of first appearance). */
uint64_t hpm_emu_trace_run(const struct hpm_emu_trace *t, size_t i, uint32_t *content,
                           uint8_t *tag);
/* Content c's head, and its *nr items, sorted by cmp_item; valid while t
 * lives. */
const void *hpm_emu_trace_head(const struct hpm_emu_trace *t, uint32_t c);
const void *hpm_emu_trace_items(const struct hpm_emu_trace *t, uint32_t c, uint32_t *nr);
/* Content c's block (the format's prepare), NULL for a format without. */
const void *hpm_emu_trace_block(const struct hpm_emu_trace *t, uint32_t c);
void hpm_emu_trace_free(struct hpm_emu_trace *t);

/* A hart's place in the trace its machine replays over and over: run
 * `run`, of which `done` cycles are already replayed (all 0: the start). */
struct hpm_emu_trace_cursor {
	size_t run;
	uint64_t done;
};
/* Takes the rest of the cursor's run (of `full` cycles), at most max
 * (>= 1) of it, and returns its cycles; after a run's last cycle the
 * cursor is at the next run, after the last of the nr_runs at the trace's
 * start again (a trace shorter than what is counted is replayed again). */
uint64_t hpm_emu_trace_cursor_take(struct hpm_emu_trace_cursor *c, uint64_t full, uint64_t max,
                                   size_t nr_runs);

#endif

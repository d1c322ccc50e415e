/* trace.c: the trace reader and writer core (see trace.h).
 *
 * Owns: struct hpm_emu_trace_writer and struct hpm_emu_trace. Contents are
 * interned in an open-addressing table while the trace is read (dropped
 * once it is whole); heads are stored at a stride of 8 bytes so that a
 * machine may read them as its own struct.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "emukit/trace.h"
#include "util/line.h"
#include "util/outfile.h"
#include "util/xalloc.h"

/* ----------------------------------------------------------------- tokens */

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

bool hpm_emu_trace_token(const char **pos, const char *end, const char **tok, size_t *len)
{
	const char *p = *pos;
	while (p < end && is_blank(*p))
		p++;
	if (p == end)
		return false;
	*tok = p;
	while (p < end && !is_blank(*p))
		p++;
	*len = (size_t)(p - *tok);
	*pos = p;
	return true;
}

int hpm_emu_trace_field(const char **pos, const char *end, const char **tok, size_t *len,
                        const char *what, char *err, size_t errlen)
{
	if (hpm_emu_trace_token(pos, end, tok, len))
		return 0;
	snprintf(err, errlen, "missing %s", what);
	return -1;
}

/* ----------------------------------------------------------------- writer */

struct hpm_emu_trace_writer {
	struct outfile *out; /* util/outfile.h: in place or renamed at the end */
	FILE *f;
	char *path;
	int err; /* first errno seen while writing, 0 if none */
};

/* The one message for a trace that cannot be written, as for every output
 * path of the tool. */
static void write_error(char *err, size_t errlen, const char *path, int e)
{
	snprintf(err, errlen, "cannot write '%s': %s", path, strerror(e));
}

struct hpm_emu_trace_writer *hpm_emu_trace_writer_open(const struct hpm_emu_trace_format *fmt,
                                                       const char *path, char *err, size_t errlen)
{
	struct outfile *out;
	int r = outfile_open(path, &out);
	if (r) {
		write_error(err, errlen, path, -r);
		return NULL;
	}
	struct hpm_emu_trace_writer *w = xcalloc(1, sizeof(*w));
	w->out = out;
	w->f = outfile_stream(out);
	w->path = xstrdup(path);
	if (fprintf(w->f, "%s\n%s\n", fmt->magic, fmt->columns) < 0)
		w->err = errno ? errno : EIO;
	return w;
}

FILE *hpm_emu_trace_writer_stream(struct hpm_emu_trace_writer *w)
{
	return w->err ? NULL : w->f;
}

int hpm_emu_trace_writer_done(struct hpm_emu_trace_writer *w, int r, char *err, size_t errlen)
{
	if (r < 0 && !w->err)
		w->err = errno ? errno : EIO;
	if (w->err) {
		write_error(err, errlen, w->path, w->err);
		return -1;
	}
	return 0;
}

int hpm_emu_trace_writer_close(struct hpm_emu_trace_writer *w, char *err, size_t errlen)
{
	int ret = 0;

	if (!w)
		return 0;
	if (w->err) {
		/* no half trace where the trace goes */
		outfile_abort(w->out);
	} else {
		int r = outfile_commit(w->out);
		if (r)
			w->err = -r;
	}
	if (w->err) {
		write_error(err, errlen, w->path, w->err);
		ret = -1;
	}
	free(w->path);
	free(w);
	return ret;
}

/* ----------------------------------------------------------------- reader */

/* What a line says but for its cycles and tag. */
struct content {
	uint64_t hash;
	uint32_t off; /* first item in trace->items */
	uint32_t nr;  /* items */
};

struct trun {
	uint64_t cycles;
	uint32_t content;
	uint8_t tag;
};

struct hpm_emu_trace {
	const struct hpm_emu_trace_format *fmt;
	size_t head_stride;
	struct trun *runs;
	size_t nr_runs, cap_runs;
	struct content *contents;
	size_t nr_contents, cap_contents;
	unsigned char *heads;  /* head_stride bytes per content */
	unsigned char *items;  /* fmt->item_size bytes each */
	unsigned char *blocks; /* block_size bytes per content, or NULL */
	size_t block_size;
	size_t nr_items, cap_items;
	uint32_t *tab; /* content index + 1, open addressing */
	size_t tab_size;
	uint64_t cycles; /* saturating sum */
};

/* FNV-style, a 64-bit word at a time (the tail a byte at a time), folded
 * so that the high bits reach the table's index: lines are hashed as they
 * are read, so this is on the reading's hot path. */
static uint64_t hash_bytes(uint64_t h, const unsigned char *p, size_t n)
{
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, p + i, sizeof(w));
		h = (h ^ w) * UINT64_C(0x100000001b3);
		h ^= h >> 29; /* a product's low bits see only the factors' low bits */
	}
	for (; i < n; i++)
		h = (h ^ p[i]) * UINT64_C(0x100000001b3);
	return h;
}

static void tab_rebuild(struct hpm_emu_trace *t, size_t size)
{
	free(t->tab);
	t->tab = xcalloc(size, sizeof(*t->tab));
	t->tab_size = size;
	for (size_t c = 0; c < t->nr_contents; c++) {
		size_t s = t->contents[c].hash & (size - 1);
		while (t->tab[s])
			s = (s + 1) & (size - 1);
		t->tab[s] = (uint32_t)c + 1;
	}
}

/* The content index of (head, the nr items at the end of t->items) in *idx.
 * -1 when a new content would pass the format's limits. */
static int intern(struct hpm_emu_trace *t, const void *head, size_t nr, uint32_t *idx, char *err,
                  size_t errlen)
{
	const struct hpm_emu_trace_format *fmt = t->fmt;
	const unsigned char *items = t->items + t->nr_items * fmt->item_size;
	size_t bytes = nr * fmt->item_size;
	uint64_t h = hash_bytes(UINT64_C(0xcbf29ce484222325), head, fmt->head_size);
	h = hash_bytes(h, items, bytes);
	h ^= h >> 29;

	if (2 * (t->nr_contents + 1) > t->tab_size)
		tab_rebuild(t, t->tab_size ? 2 * t->tab_size : 256);
	size_t s = h & (t->tab_size - 1);
	for (; t->tab[s]; s = (s + 1) & (t->tab_size - 1)) {
		uint32_t o = t->tab[s] - 1;
		const struct content *c = &t->contents[o];
		if (c->hash == h && c->nr == nr &&
		    memcmp(t->heads + o * t->head_stride, head, fmt->head_size) == 0 &&
		    memcmp(t->items + c->off * fmt->item_size, items, bytes) == 0) {
			*idx = o;
			return 0;
		}
	}
	if (t->nr_contents == HPM_EMU_TRACE_MAX_DISTINCT) {
		snprintf(err, errlen, "more than %u distinct lines (the limit of a trace)",
		         HPM_EMU_TRACE_MAX_DISTINCT);
		return -1;
	}
	if (t->nr_items + nr > HPM_EMU_TRACE_MAX_EVENTS) {
		snprintf(err, errlen,
		         "more than %u events in distinct lines (the limit of a trace)",
		         HPM_EMU_TRACE_MAX_EVENTS);
		return -1;
	}
	if (t->nr_contents == t->cap_contents) {
		t->cap_contents = t->cap_contents ? 2 * t->cap_contents : 64;
		t->contents = xreallocarray(t->contents, t->cap_contents, sizeof(*t->contents));
		t->heads = xreallocarray(t->heads, t->cap_contents, t->head_stride);
	}
	*idx = (uint32_t)t->nr_contents++;
	t->contents[*idx] =
	    (struct content){.hash = h, .off = (uint32_t)t->nr_items, .nr = (uint32_t)nr};
	memcpy(t->heads + *idx * t->head_stride, head, fmt->head_size);
	t->nr_items += nr;
	t->tab[s] = *idx + 1;
	return 0;
}

/* The items of a line, from *pos: parsed at the end of t->items (not yet
 * counted in nr_items), sorted, checked for twice, without zeros. */
static int trace_items(struct hpm_emu_trace *t, const char *p, const char *end, size_t *kept,
                       char *err, size_t errlen)
{
	const struct hpm_emu_trace_format *fmt = t->fmt;
	size_t sz = fmt->item_size, nr = 0;
	const char *tok;
	size_t len;

	while (hpm_emu_trace_token(&p, end, &tok, &len)) {
		if (t->nr_items + nr == t->cap_items) {
			t->cap_items = t->cap_items ? 2 * t->cap_items : 1024;
			t->items = xreallocarray(t->items, t->cap_items, sz);
		}
		if (fmt->parse_item(tok, len, t->items + (t->nr_items + nr) * sz, err, errlen) < 0)
			return -1;
		nr++;
	}
	unsigned char *ev = t->items + t->nr_items * sz;
	if (nr > 1)
		qsort(ev, nr, sz, fmt->cmp_item);
	for (size_t i = 1; i < nr; i++)
		if (fmt->cmp_item(ev + i * sz, ev + (i - 1) * sz) == 0) {
			fmt->twice(ev + i * sz, err, errlen);
			return -1;
		}
	*kept = nr;
	if (fmt->item_is_zero) {
		*kept = 0;
		for (size_t i = 0; i < nr; i++)
			if (!fmt->item_is_zero(ev + i * sz))
				memmove(ev + (*kept)++ * sz, ev + i * sz, sz);
	}
	return 0;
}

static int trace_line(struct hpm_emu_trace *t, const char *p, const char *end, char *err,
                      size_t errlen)
{
	const struct hpm_emu_trace_format *fmt = t->fmt;
	uint64_t head[HPM_EMU_TRACE_HEAD_MAX / sizeof(uint64_t)] = {0};
	const char *tok;
	size_t len, nr;
	uint64_t cycles;
	uint8_t tag = 0;

	hpm_emu_trace_token(&p, end, &tok, &len);
	if (fmt->parse_number(tok, len, &cycles) < 0 || cycles == 0) {
		snprintf(err, errlen, "bad cycle count '%.*s' (1..2^64-1)", (int)len, tok);
		return -1;
	}
	if (fmt->parse_head(&p, end, head, &tag, err, errlen) < 0 ||
	    trace_items(t, p, end, &nr, err, errlen) < 0)
		return -1;
	if (t->nr_runs == HPM_EMU_TRACE_MAX_RUNS) {
		snprintf(err, errlen, "more than %u runs (the limit of a trace)",
		         HPM_EMU_TRACE_MAX_RUNS);
		return -1;
	}
	uint32_t content;
	if (intern(t, head, nr, &content, err, errlen) < 0)
		return -1;
	if (t->nr_runs == t->cap_runs) {
		t->cap_runs = t->cap_runs ? 2 * t->cap_runs : 256;
		t->runs = xreallocarray(t->runs, t->cap_runs, sizeof(*t->runs));
	}
	t->runs[t->nr_runs++] = (struct trun){.cycles = cycles, .content = content, .tag = tag};
	t->cycles = t->cycles + cycles < t->cycles ? UINT64_MAX : t->cycles + cycles;
	return 0;
}

/* A trace being read, one line at a time. */
struct reader {
	struct hpm_emu_trace *t;
	unsigned line;
	bool header;
};

static void reader_init(struct reader *r, const struct hpm_emu_trace_format *fmt)
{
	r->t = xcalloc(1, sizeof(*r->t));
	r->line = 0;
	r->header = false;
	r->t->fmt = fmt;
	r->t->head_stride = (fmt->head_size + 7) & ~(size_t)7;
	/* never NULL, so that an empty item list is a plain zero-length range */
	r->t->cap_items = 1024;
	r->t->items = xmalloc(r->t->cap_items * fmt->item_size);
}

/* One line, without its newline. */
static int reader_line(struct reader *r, const char *p, size_t len, char *err, size_t errlen)
{
	const struct hpm_emu_trace_format *fmt = r->t->fmt;
	const char *eol = p + len, *q = p;

	r->line++;
	if (len > HPM_EMU_TRACE_MAX_LINE) {
		snprintf(err, errlen, "line longer than %u bytes", HPM_EMU_TRACE_MAX_LINE);
		return -1;
	}
	while (q < eol && is_blank(*q))
		q++;
	if (q < eol && memchr(q, '\0', (size_t)(eol - q))) {
		snprintf(err, errlen, "NUL byte in the trace");
		return -1;
	}
	if (q == eol || *q == '#')
		return 0; /* blank or comment */
	if (r->header)
		return trace_line(r->t, q, eol, err, errlen);
	const char *e = eol;
	while (e > q && is_blank(e[-1]))
		e--;
	if ((size_t)(e - q) != strlen(fmt->magic) || memcmp(q, fmt->magic, (size_t)(e - q)) != 0) {
		snprintf(err, errlen, "not %s: expected '%s' as the first line", fmt->name,
		         fmt->magic);
		return -1;
	}
	r->header = true;
	return 0;
}

/* Lays every content out in its block, once, so that replays only point
 * into them. */
static void prepare(struct hpm_emu_trace *t)
{
	if (!t->fmt->block_size)
		return;
	t->block_size = t->fmt->block_size();
	t->blocks = xcalloc(t->nr_contents ? t->nr_contents : 1, t->block_size);
	for (uint32_t c = 0; c < t->nr_contents; c++) {
		uint32_t nr;
		const void *items = hpm_emu_trace_items(t, c, &nr);
		t->fmt->prepare(hpm_emu_trace_head(t, c), items, nr, t->blocks + c * t->block_size);
	}
}

/* The whole trace once every line is read, or NULL with the error. */
static struct hpm_emu_trace *reader_finish(struct reader *r, unsigned *errline, char *err,
                                           size_t errlen)
{
	if (!r->header) {
		snprintf(err, errlen, "empty trace: no '%s' line", r->t->fmt->magic);
		*errline = 0;
		hpm_emu_trace_free(r->t);
		return NULL;
	}
	free(r->t->tab);
	r->t->tab = NULL;
	prepare(r->t);
	return r->t;
}

static struct hpm_emu_trace *reader_fail(struct reader *r, unsigned *errline)
{
	*errline = r->line;
	hpm_emu_trace_free(r->t);
	return NULL;
}

struct hpm_emu_trace *hpm_emu_trace_parse(const struct hpm_emu_trace_format *fmt, const char *text,
                                          size_t len, unsigned *errline, char *err, size_t errlen)
{
	struct reader r;
	const char *p = text, *end = text + len;

	*errline = 0;
	reader_init(&r, fmt);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		if (reader_line(&r, p, (size_t)(eol - p), err, errlen) < 0)
			return reader_fail(&r, errline);
		p = nl ? nl + 1 : end;
	}
	return reader_finish(&r, errline, err, errlen);
}

struct hpm_emu_trace *hpm_emu_trace_load(const struct hpm_emu_trace_format *fmt, const char *path,
                                         unsigned *errline, char *err, size_t errlen)
{
	/* Streamed: the text is never held whole, only the bounded line being
	 * read; the runs it yields are bounded by the format's limits. */
	FILE *f = fopen(path, "r");
	struct reader r;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	*errline = 0;
	if (!f) {
		snprintf(err, errlen, "cannot open trace '%s': %s", path, strerror(errno));
		return NULL;
	}
	reader_init(&r, fmt);
	while ((n = util_read_line(f, &line, &cap, HPM_EMU_TRACE_MAX_LINE)) >= 0 ||
	       n == UTIL_LINE_TOO_LONG) {
		if (n == UTIL_LINE_TOO_LONG)
			n = (ssize_t)HPM_EMU_TRACE_MAX_LINE + 1; /* reader_line refuses it */
		if (reader_line(&r, n > (ssize_t)HPM_EMU_TRACE_MAX_LINE ? "" : line, (size_t)n, err,
		                errlen) < 0) {
			free(line);
			fclose(f);
			return reader_fail(&r, errline);
		}
	}
	free(line);
	if (n == UTIL_LINE_ERROR) {
		snprintf(err, errlen, "error reading trace '%s': %s", path, strerror(errno));
		fclose(f);
		hpm_emu_trace_free(r.t);
		return NULL;
	}
	fclose(f);
	return reader_finish(&r, errline, err, errlen);
}

int hpm_emu_trace_replayable(const char *path, bool loaded, unsigned errline, const char *why,
                             uint64_t cycles, char *err, size_t errlen)
{
	if (!loaded && errline)
		snprintf(err, errlen, "%s:%u: %s", path, errline, why);
	else if (!loaded)
		snprintf(err, errlen, "%s: %s", path, why);
	else if (!cycles)
		snprintf(err, errlen, "%s: the trace has no cycles to replay", path);
	return loaded && cycles ? 0 : -1;
}

size_t hpm_emu_trace_nr_runs(const struct hpm_emu_trace *t)
{
	return t->nr_runs;
}

uint64_t hpm_emu_trace_cycles(const struct hpm_emu_trace *t)
{
	return t->cycles;
}

uint64_t hpm_emu_trace_run(const struct hpm_emu_trace *t, size_t i, uint32_t *content, uint8_t *tag)
{
	*content = t->runs[i].content;
	*tag = t->runs[i].tag;
	return t->runs[i].cycles;
}

const void *hpm_emu_trace_head(const struct hpm_emu_trace *t, uint32_t c)
{
	return t->heads + c * t->head_stride;
}

const void *hpm_emu_trace_items(const struct hpm_emu_trace *t, uint32_t c, uint32_t *nr)
{
	*nr = t->contents[c].nr;
	return t->items + (size_t)t->contents[c].off * t->fmt->item_size;
}

const void *hpm_emu_trace_block(const struct hpm_emu_trace *t, uint32_t c)
{
	return t->blocks ? t->blocks + (size_t)c * t->block_size : NULL;
}

void hpm_emu_trace_free(struct hpm_emu_trace *t)
{
	if (!t)
		return;
	free(t->blocks);
	free(t->runs);
	free(t->contents);
	free(t->heads);
	free(t->items);
	free(t->tab);
	free(t);
}

uint64_t hpm_emu_trace_cursor_take(struct hpm_emu_trace_cursor *c, uint64_t full, uint64_t max,
                                   size_t nr_runs)
{
	uint64_t left = full - c->done, take = left < max ? left : max;
	c->done += take;
	if (c->done == full) {
		c->done = 0;
		if (++c->run == nr_runs)
			c->run = 0;
	}
	return take;
}

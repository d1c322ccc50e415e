/* trace.c: the trace source: writing runs as text and replaying them.
 *
 * Owns: the trace format (see EMU_TRACE_MAGIC in emu.h and hpmstat-emu(1)),
 * struct emu_trace_writer and struct emu_trace.
 *
 * A trace is validated completely before anything can be replayed from it:
 * emu_trace_load() either returns every run or nothing, so a malformed line
 * can never leave a partial count behind. It is read a line at a time and
 * what it holds is bounded (EMU_TRACE_MAX_* in emu.h), so no input, not even
 * /dev/zero, makes it grow without bound. Identical lines (same instret and
 * events, whatever the cycles and mode) share one stored copy of their
 * values and one key, so a replay runs on the fast path's cache.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmh/emu/emu.h"
#include "util/line.h"
#include "util/outfile.h"
#include "util/xalloc.h"

/* ----------------------------------------------------------------- writer */

struct emu_trace_writer {
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

struct emu_trace_writer *emu_trace_writer_open(const char *path, char *err, size_t errlen)
{
	struct outfile *out;
	int r = outfile_open(path, &out);
	if (r) {
		write_error(err, errlen, path, -r);
		return NULL;
	}
	struct emu_trace_writer *w = xcalloc(1, sizeof(*w));
	w->out = out;
	w->f = outfile_stream(out);
	w->path = xstrdup(path);
	if (fprintf(w->f, "%s\n# CYCLES MODE INSTRET [BANK:INDEX=VALUE ...]\n", EMU_TRACE_MAGIC) <
	    0)
		w->err = errno ? errno : EIO;
	return w;
}

int emu_trace_write(struct emu_trace_writer *w, const struct emu_run *run, char *err, size_t errlen)
{
	if (!run->cycles)
		return 0;
	if (!w->err && run->mode < EMU_NR_MODES) {
		int r = fprintf(w->f, "%llu %s %u", (unsigned long long)run->cycles,
		                emu_mode_name(run->mode), run->instret & 63u);
		for (int b = 0; b < KMH_NR_BANKS && r >= 0; b++) {
			const uint8_t *v = run->vals[b];
			if (!v)
				continue;
			for (unsigned i = 1; i < kmh_table_v2.banks[b].nr_events && r >= 0; i++)
				if (v[i] & 63u)
					r = fprintf(w->f, " %s:%u=%u", kmh_table_v2.banks[b].name,
					            i, v[i] & 63u);
		}
		if (r >= 0)
			r = putc('\n', w->f);
		if (r < 0)
			w->err = errno ? errno : EIO;
	}
	if (w->err) {
		write_error(err, errlen, w->path, w->err);
		return -1;
	}
	return 0;
}

int emu_trace_writer_close(struct emu_trace_writer *w, char *err, size_t errlen)
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

struct content {
	uint64_t hash;
	uint32_t off; /* first packed event in trace->packed */
	uint32_t nr;  /* packed events */
	uint8_t instret;
};

struct trun {
	uint64_t cycles;
	uint32_t content;
	uint8_t mode;
};

struct emu_trace {
	struct trun *runs;
	size_t nr_runs;
	size_t cap_runs;
	struct content *contents;
	size_t nr_contents;
	size_t cap_contents;
	uint32_t *packed; /* bank << 16 | index << 6 | value, sorted per content */
	size_t nr_packed;
	size_t cap_packed;
	uint32_t *tab; /* content index + 1, open addressing */
	size_t tab_size;
	uint8_t *dense;                  /* per content: every bank's values, concatenated */
	unsigned bank_off[KMH_NR_BANKS]; /* offset of each bank in one dense block */
	unsigned dense_size;
	uint64_t cycles; /* saturating sum */
};

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

static uint64_t content_hash(uint8_t instret, const uint32_t *p, size_t n)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325) ^ instret;
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= UINT64_C(0x100000001b3);
	}
	return h ^ (h >> 29);
}

static void trace_tab_rebuild(struct emu_trace *t, size_t size)
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

/* The content index of (instret, the nr packed events at the end of
 * t->packed) in *idx; a known content gives the packed events back. -1 when
 * a new content would pass the trace's limits (emu.h). */
static int trace_intern(struct emu_trace *t, uint8_t instret, size_t nr, uint32_t *idx, char *err,
                        size_t errlen)
{
	const uint32_t *p = t->packed + t->nr_packed;
	uint64_t h = content_hash(instret, p, nr);

	if (2 * (t->nr_contents + 1) > t->tab_size)
		trace_tab_rebuild(t, t->tab_size ? 2 * t->tab_size : 256);
	size_t s = h & (t->tab_size - 1);
	for (; t->tab[s]; s = (s + 1) & (t->tab_size - 1)) {
		const struct content *c = &t->contents[t->tab[s] - 1];
		if (c->hash == h && c->instret == instret && c->nr == nr &&
		    memcmp(t->packed + c->off, p, nr * sizeof(*p)) == 0) {
			*idx = t->tab[s] - 1;
			return 0;
		}
	}
	if (t->nr_contents == EMU_TRACE_MAX_DISTINCT) {
		snprintf(err, errlen, "more than %u distinct lines (the limit of a trace)",
		         EMU_TRACE_MAX_DISTINCT);
		return -1;
	}
	if (t->nr_packed + nr > EMU_TRACE_MAX_EVENTS) {
		snprintf(err, errlen,
		         "more than %u events in distinct lines (the limit of a trace)",
		         EMU_TRACE_MAX_EVENTS);
		return -1;
	}
	if (t->nr_contents == t->cap_contents) {
		t->cap_contents = t->cap_contents ? 2 * t->cap_contents : 64;
		t->contents = xreallocarray(t->contents, t->cap_contents, sizeof(*t->contents));
	}
	*idx = (uint32_t)t->nr_contents++;
	t->contents[*idx] = (struct content){
	    .hash = h, .off = (uint32_t)t->nr_packed, .nr = (uint32_t)nr, .instret = instret};
	t->nr_packed += nr;
	t->tab[s] = *idx + 1;
	return 0;
}

/* Strict decimal, as the writer writes it. */
static int parse_dec(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;
	if (!len)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		unsigned d = (unsigned)(s[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* Next whitespace-separated token of [*pos, end). */
static bool next_token(const char **pos, const char *end, const char **tok, size_t *len)
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

static int parse_event(const char *tok, size_t len, uint32_t *packed, char *err, size_t errlen)
{
	const char *colon = memchr(tok, ':', len), *eq = memchr(tok, '=', len);
	uint64_t index, value;
	int bank = -1;

	if (!colon || !eq || eq < colon) {
		snprintf(err, errlen, "bad event '%.*s': expected BANK:INDEX=VALUE", (int)len, tok);
		return -1;
	}
	for (int b = 0; b < KMH_NR_BANKS; b++)
		if (strlen(kmh_table_v2.banks[b].name) == (size_t)(colon - tok) &&
		    memcmp(kmh_table_v2.banks[b].name, tok, (size_t)(colon - tok)) == 0)
			bank = b;
	if (bank < 0) {
		snprintf(err, errlen, "unknown bank '%.*s'", (int)(colon - tok), tok);
		return -1;
	}
	if (parse_dec(colon + 1, (size_t)(eq - colon - 1), &index) < 0 || index == 0 ||
	    index >= kmh_table_v2.banks[bank].nr_events) {
		snprintf(err, errlen, "bad event index '%.*s' (the %s table has 1..%u)",
		         (int)(eq - colon - 1), colon + 1, kmh_table_v2.banks[bank].name,
		         kmh_table_v2.banks[bank].nr_events - 1u);
		return -1;
	}
	if (parse_dec(eq + 1, len - (size_t)(eq + 1 - tok), &value) < 0 || value > 63) {
		snprintf(err, errlen, "bad event value '%.*s' (0..63)",
		         (int)(len - (size_t)(eq + 1 - tok)), eq + 1);
		return -1;
	}
	*packed = (uint32_t)bank << 16 | (uint32_t)index << 6 | (uint32_t)value;
	return 0;
}

static int trace_line(struct emu_trace *t, const char *p, const char *end, char *err, size_t errlen)
{
	const char *tok;
	size_t len;
	uint64_t cycles, instret;
	int mode = -1;

	next_token(&p, end, &tok, &len);
	if (parse_dec(tok, len, &cycles) < 0 || cycles == 0) {
		snprintf(err, errlen, "bad cycle count '%.*s' (1..2^64-1)", (int)len, tok);
		return -1;
	}
	if (!next_token(&p, end, &tok, &len)) {
		snprintf(err, errlen, "missing MODE after the cycle count");
		return -1;
	}
	for (unsigned m = 0; m < EMU_NR_MODES; m++)
		if (strlen(emu_mode_name(m)) == len && memcmp(emu_mode_name(m), tok, len) == 0)
			mode = (int)m;
	if (mode < 0) {
		snprintf(err, errlen, "bad mode '%.*s' (M, HS, HU, VS or VU)", (int)len, tok);
		return -1;
	}
	if (!next_token(&p, end, &tok, &len)) {
		snprintf(err, errlen, "missing INSTRET after the mode");
		return -1;
	}
	if (parse_dec(tok, len, &instret) < 0 || instret > 63) {
		snprintf(err, errlen, "bad instret '%.*s' (0..63)", (int)len, tok);
		return -1;
	}
	size_t nr = 0;
	while (next_token(&p, end, &tok, &len)) {
		if (t->nr_packed + nr == t->cap_packed) {
			t->cap_packed = t->cap_packed ? 2 * t->cap_packed : 1024;
			t->packed = xreallocarray(t->packed, t->cap_packed, sizeof(*t->packed));
		}
		if (parse_event(tok, len, &t->packed[t->nr_packed + nr], err, errlen) < 0)
			return -1;
		nr++;
	}
	uint32_t *ev = t->packed + t->nr_packed;
	if (nr > 1)
		qsort(ev, nr, sizeof(*ev), cmp_u32);
	for (size_t i = 1; i < nr; i++)
		if (ev[i] >> 6 == ev[i - 1] >> 6) {
			snprintf(err, errlen, "event %s:%u given twice",
			         kmh_table_v2.banks[ev[i] >> 16].name, (ev[i] >> 6) & 0x3ffu);
			return -1;
		}
	/* drop explicit zeros so equal lines intern equally */
	size_t kept = 0;
	for (size_t i = 0; i < nr; i++)
		if (ev[i] & 63u)
			ev[kept++] = ev[i];

	if (t->nr_runs == EMU_TRACE_MAX_RUNS) {
		snprintf(err, errlen, "more than %u runs (the limit of a trace)",
		         EMU_TRACE_MAX_RUNS);
		return -1;
	}
	uint32_t content;
	if (trace_intern(t, (uint8_t)instret, kept, &content, err, errlen) < 0)
		return -1;
	if (t->nr_runs == t->cap_runs) {
		t->cap_runs = t->cap_runs ? 2 * t->cap_runs : 256;
		t->runs = xreallocarray(t->runs, t->cap_runs, sizeof(*t->runs));
	}
	t->runs[t->nr_runs++] =
	    (struct trun){.cycles = cycles, .content = content, .mode = (uint8_t)mode};
	t->cycles = t->cycles + cycles < t->cycles ? UINT64_MAX : t->cycles + cycles;
	return 0;
}

static void trace_materialize(struct emu_trace *t)
{
	unsigned off = 0;
	for (int b = 0; b < KMH_NR_BANKS; b++) {
		t->bank_off[b] = off;
		off += kmh_table_v2.banks[b].nr_events;
	}
	t->dense_size = off;
	t->dense = xcalloc(t->nr_contents ? t->nr_contents : 1, off);
	for (size_t c = 0; c < t->nr_contents; c++) {
		uint8_t *d = t->dense + c * off;
		const struct content *ct = &t->contents[c];
		for (uint32_t i = 0; i < ct->nr; i++) {
			uint32_t p = t->packed[ct->off + i];
			d[t->bank_off[p >> 16] + ((p >> 6) & 0x3ffu)] = (uint8_t)(p & 63u);
		}
	}
	free(t->tab);
	t->tab = NULL;
}

/* A trace being read, one line at a time. */
struct trace_reader {
	struct emu_trace *t;
	unsigned line;
	bool header;
};

static void reader_init(struct trace_reader *r)
{
	r->t = xcalloc(1, sizeof(*r->t));
	r->line = 0;
	r->header = false;
	/* never NULL, so that an empty event list is a plain zero-length range */
	r->t->cap_packed = 1024;
	r->t->packed = xmalloc(r->t->cap_packed * sizeof(*r->t->packed));
}

/* One line, without its newline. */
static int reader_line(struct trace_reader *r, const char *p, size_t len, char *err, size_t errlen)
{
	const char *eol = p + len, *q = p;

	r->line++;
	if (len > EMU_TRACE_MAX_LINE) {
		snprintf(err, errlen, "line longer than %u bytes", EMU_TRACE_MAX_LINE);
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
	if ((size_t)(e - q) != strlen(EMU_TRACE_MAGIC) ||
	    memcmp(q, EMU_TRACE_MAGIC, (size_t)(e - q)) != 0) {
		snprintf(err, errlen, "not a trace: expected '%s' as the first line",
		         EMU_TRACE_MAGIC);
		return -1;
	}
	r->header = true;
	return 0;
}

/* The whole trace once every line is read, or NULL with the error. */
static struct emu_trace *reader_finish(struct trace_reader *r, unsigned *errline, char *err,
                                       size_t errlen)
{
	if (!r->header) {
		snprintf(err, errlen, "empty trace: no '%s' line", EMU_TRACE_MAGIC);
		*errline = 0;
		emu_trace_free(r->t);
		return NULL;
	}
	trace_materialize(r->t);
	return r->t;
}

static struct emu_trace *reader_fail(struct trace_reader *r, unsigned *errline)
{
	*errline = r->line;
	emu_trace_free(r->t);
	return NULL;
}

struct emu_trace *emu_trace_parse(const char *text, size_t len, unsigned *errline, char *err,
                                  size_t errlen)
{
	struct trace_reader r;
	const char *p = text, *end = text + len;

	*errline = 0;
	reader_init(&r);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		if (reader_line(&r, p, (size_t)(eol - p), err, errlen) < 0)
			return reader_fail(&r, errline);
		p = nl ? nl + 1 : end;
	}
	return reader_finish(&r, errline, err, errlen);
}

struct emu_trace *emu_trace_load(const char *path, unsigned *errline, char *err, size_t errlen)
{
	/* Streamed: the text is never held whole, only the bounded line being
	 * read; the runs it yields are bounded by emu.h's limits. */
	FILE *f = fopen(path, "r");
	struct trace_reader r;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	*errline = 0;
	if (!f) {
		snprintf(err, errlen, "cannot open trace '%s': %s", path, strerror(errno));
		return NULL;
	}
	reader_init(&r);
	while ((n = util_read_line(f, &line, &cap, EMU_TRACE_MAX_LINE)) >= 0 ||
	       n == UTIL_LINE_TOO_LONG) {
		if (n == UTIL_LINE_TOO_LONG)
			n = EMU_TRACE_MAX_LINE + 1; /* reader_line refuses it */
		if (reader_line(&r, n > EMU_TRACE_MAX_LINE ? "" : line, (size_t)n, err, errlen) <
		    0) {
			free(line);
			fclose(f);
			return reader_fail(&r, errline);
		}
	}
	free(line);
	if (n == UTIL_LINE_ERROR) {
		snprintf(err, errlen, "error reading trace '%s': %s", path, strerror(errno));
		fclose(f);
		emu_trace_free(r.t);
		return NULL;
	}
	fclose(f);
	return reader_finish(&r, errline, err, errlen);
}

size_t emu_trace_nr_runs(const struct emu_trace *t)
{
	return t->nr_runs;
}

uint64_t emu_trace_cycles(const struct emu_trace *t)
{
	return t->cycles;
}

void emu_trace_run_at(const struct emu_trace *t, size_t i, struct emu_run *run)
{
	const struct trun *r = &t->runs[i];
	const uint8_t *d = t->dense + (size_t)r->content * t->dense_size;

	memset(run, 0, sizeof(*run));
	run->cycles = r->cycles;
	run->key = r->content + 1;
	run->source = t;
	run->mode = r->mode;
	run->instret = t->contents[r->content].instret;
	for (int b = 0; b < KMH_NR_BANKS; b++)
		run->vals[b] = d + t->bank_off[b];
}

void emu_trace_free(struct emu_trace *t)
{
	if (!t)
		return;
	free(t->runs);
	free(t->contents);
	free(t->packed);
	free(t->tab);
	free(t->dense);
	free(t);
}

/* trace.c: the Arm trace source: writing runs as text and replaying them.
 *
 * Owns: struct arm_src_trace_writer and struct arm_src_trace (see trace.h).
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arm64/emu/stimulus.h"
#include "arm64/emu/trace.h"
#include "util/line.h"
#include "util/outfile.h"
#include "util/xalloc.h"

static const char *const sec_names[ARM_EMU_NR_SEC] = {"ns", "s", "realm", "root"};

/* ----------------------------------------------------------------- writer */

struct arm_src_trace_writer {
	struct outfile *out;
	FILE *f;
	char *path;
	int err; /* first errno seen while writing */
};

static void write_error(char *err, size_t errlen, const char *path, int e)
{
	snprintf(err, errlen, "cannot write '%s': %s", path, strerror(e));
}

struct arm_src_trace_writer *arm_src_trace_writer_open(const char *path, char *err, size_t errlen)
{
	struct outfile *out;
	int r = outfile_open(path, &out);
	if (r) {
		write_error(err, errlen, path, -r);
		return NULL;
	}
	struct arm_src_trace_writer *w = xcalloc(1, sizeof(*w));
	w->out = out;
	w->f = outfile_stream(out);
	w->path = xstrdup(path);
	if (fprintf(w->f, "%s\n# CYCLES EL STATE SM PC CONTEXT VMID [EVENT=VB ...]\n",
	            ARM_SRC_TRACE_MAGIC) < 0)
		w->err = errno ? errno : EIO;
	return w;
}

int arm_src_trace_write(struct arm_src_trace_writer *w, const struct arm_emu_run *run, char *err,
                        size_t errlen)
{
	if (!run->cycles)
		return 0;
	if (run->el >= ARM_EMU_NR_EL || run->sec >= ARM_EMU_NR_SEC) {
		/* a broken producer: refuse rather than write a line that replays differently */
		snprintf(err, errlen, "cannot trace a run with EL %u, security state %u", run->el,
		         run->sec);
		return -1;
	}
	if (!w->err) {
		int r = fprintf(
		    w->f, "%llu %u %s %u 0x%llx 0x%x %u", (unsigned long long)run->cycles,
		    (unsigned)run->el, sec_names[run->sec], run->streaming ? 1u : 0u,
		    (unsigned long long)run->pc, (unsigned)run->context, (unsigned)run->vmid);
		for (unsigned i = 0; i < run->nr_vals && r >= 0; i++)
			if (run->vals[i].vb)
				r = fprintf(w->f, " 0x%04x=%u", run->vals[i].event,
				            run->vals[i].vb);
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

int arm_src_trace_writer_close(struct arm_src_trace_writer *w, char *err, size_t errlen)
{
	int ret = 0;
	if (!w)
		return 0;
	if (w->err) {
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

/* What a line says but for its cycles. */
struct content {
	uint64_t hash;
	uint64_t pc;
	uint32_t context;
	uint32_t off, nr; /* its values in trace->vals */
	uint16_t vmid;
	uint8_t el, sec, sm;
};

struct trun {
	uint64_t cycles;
	uint32_t content;
};

struct arm_src_trace {
	struct trun *runs;
	size_t nr_runs, cap_runs;
	struct content *contents;
	size_t nr_contents, cap_contents;
	struct arm_emu_val *vals;
	size_t nr_vals, cap_vals;
	uint32_t *tab; /* content index + 1, open addressing */
	size_t tab_size;
	uint64_t cycles;
};

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v;
	return h * UINT64_C(0x100000001b3);
}

static uint64_t content_hash(const struct content *c, const struct arm_emu_val *v, size_t n)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325);
	h = mix(h, c->pc);
	h = mix(h, (uint64_t)c->context << 32 | (uint64_t)c->vmid << 16 | c->el << 8 | c->sec << 4 |
	               c->sm);
	for (size_t i = 0; i < n; i++)
		h = mix(h, (uint64_t)v[i].event << 16 | v[i].vb);
	return h ^ (h >> 29);
}

static bool same(const struct content *a, const struct content *b)
{
	return a->pc == b->pc && a->context == b->context && a->vmid == b->vmid && a->el == b->el &&
	       a->sec == b->sec && a->sm == b->sm && a->nr == b->nr;
}

static void tab_rebuild(struct arm_src_trace *t, size_t size)
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

/* Index of content *c whose nr values are at the end of t->vals. */
static int intern(struct arm_src_trace *t, struct content *c, uint32_t *idx, char *err,
                  size_t errlen)
{
	const struct arm_emu_val *v = t->vals + t->nr_vals;
	c->hash = content_hash(c, v, c->nr);
	if (2 * (t->nr_contents + 1) > t->tab_size)
		tab_rebuild(t, t->tab_size ? 2 * t->tab_size : 256);
	size_t s = c->hash & (t->tab_size - 1);
	for (; t->tab[s]; s = (s + 1) & (t->tab_size - 1)) {
		const struct content *o = &t->contents[t->tab[s] - 1];
		if (o->hash == c->hash && same(o, c) &&
		    memcmp(t->vals + o->off, v, c->nr * sizeof(*v)) == 0) {
			*idx = t->tab[s] - 1;
			return 0;
		}
	}
	if (t->nr_contents == ARM_SRC_TRACE_MAX_DISTINCT) {
		snprintf(err, errlen, "more than %u distinct lines (the limit of a trace)",
		         ARM_SRC_TRACE_MAX_DISTINCT);
		return -1;
	}
	if (t->nr_vals + c->nr > ARM_SRC_TRACE_MAX_EVENTS) {
		snprintf(err, errlen,
		         "more than %u events in distinct lines (the limit of a trace)",
		         ARM_SRC_TRACE_MAX_EVENTS);
		return -1;
	}
	if (t->nr_contents == t->cap_contents) {
		t->cap_contents = t->cap_contents ? 2 * t->cap_contents : 64;
		t->contents = xreallocarray(t->contents, t->cap_contents, sizeof(*t->contents));
	}
	*idx = (uint32_t)t->nr_contents++;
	c->off = (uint32_t)t->nr_vals;
	t->contents[*idx] = *c;
	t->nr_vals += c->nr;
	t->tab[s] = *idx + 1;
	return 0;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

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

static int cmp_val(const void *a, const void *b)
{
	const struct arm_emu_val *x = a, *y = b;
	return x->event < y->event ? -1 : x->event > y->event;
}

/* The next field, which must be there. */
static int field(const char **p, const char *end, const char **tok, size_t *len, const char *what,
                 char *err, size_t errlen)
{
	if (next_token(p, end, tok, len))
		return 0;
	snprintf(err, errlen, "missing %s", what);
	return -1;
}

static int trace_line(struct arm_src_trace *t, const char *p, const char *end, char *err,
                      size_t errlen)
{
	const char *tok;
	size_t len;
	uint64_t cycles, v;
	struct content c = {0};

	next_token(&p, end, &tok, &len);
	if (arm_src_parse_u64(tok, len, &cycles) < 0 || cycles == 0) {
		snprintf(err, errlen, "bad cycle count '%.*s' (1..2^64-1)", (int)len, tok);
		return -1;
	}
	if (field(&p, end, &tok, &len, "EL after the cycle count", err, errlen) < 0)
		return -1;
	if (arm_src_parse_u64(tok, len, &v) < 0 || v > 3) {
		snprintf(err, errlen, "bad exception level '%.*s' (0..3)", (int)len, tok);
		return -1;
	}
	c.el = (uint8_t)v;
	if (field(&p, end, &tok, &len, "STATE after the exception level", err, errlen) < 0)
		return -1;
	int sec = -1;
	for (unsigned s = 0; s < ARM_EMU_NR_SEC; s++)
		if (strlen(sec_names[s]) == len && memcmp(sec_names[s], tok, len) == 0)
			sec = (int)s;
	if (sec < 0) {
		snprintf(err, errlen, "bad security state '%.*s' (ns, s, realm or root)", (int)len,
		         tok);
		return -1;
	}
	if (c.el == 3 && (sec == ARM_EMU_SEC_NS || sec == ARM_EMU_SEC_REALM)) {
		snprintf(err, errlen, "EL3 runs in Secure or Root state, not '%s'", sec_names[sec]);
		return -1;
	}
	if (c.el != 3 && sec == ARM_EMU_SEC_ROOT) {
		snprintf(err, errlen, "Root state is EL3's only, not EL%u's", c.el);
		return -1;
	}
	c.sec = (uint8_t)sec;
	if (field(&p, end, &tok, &len, "SM after the security state", err, errlen) < 0)
		return -1;
	if (len != 1 || (tok[0] != '0' && tok[0] != '1')) {
		snprintf(err, errlen, "bad streaming mode '%.*s' (0 or 1)", (int)len, tok);
		return -1;
	}
	c.sm = (uint8_t)(tok[0] - '0');
	if (field(&p, end, &tok, &len, "PC after the streaming mode", err, errlen) < 0)
		return -1;
	if (arm_src_parse_u64(tok, len, &c.pc) < 0) {
		snprintf(err, errlen, "bad PC '%.*s'", (int)len, tok);
		return -1;
	}
	if (field(&p, end, &tok, &len, "CONTEXT after the PC", err, errlen) < 0)
		return -1;
	if (arm_src_parse_u64(tok, len, &v) < 0 || v > UINT32_MAX) {
		snprintf(err, errlen, "bad context ID '%.*s' (32 bits)", (int)len, tok);
		return -1;
	}
	c.context = (uint32_t)v;
	if (field(&p, end, &tok, &len, "VMID after the context ID", err, errlen) < 0)
		return -1;
	if (arm_src_parse_u64(tok, len, &v) < 0 || v > UINT16_MAX) {
		snprintf(err, errlen, "bad VMID '%.*s' (0..65535)", (int)len, tok);
		return -1;
	}
	c.vmid = (uint16_t)v;

	size_t nr = 0;
	while (next_token(&p, end, &tok, &len)) {
		const char *eq = memchr(tok, '=', len);
		uint64_t code, vb;
		if (!eq || eq == tok || eq == tok + len - 1) {
			snprintf(err, errlen, "bad event '%.*s': expected EVENT=VB", (int)len, tok);
			return -1;
		}
		if (arm_src_parse_u64(tok, (size_t)(eq - tok), &code) < 0 || code == 0 ||
		    code > 0xffff || code == ARM_SRC_CPU_CYCLES) {
			snprintf(err, errlen,
			         "bad event number '%.*s' (1..0xffff, not CPU_CYCLES 0x0011)",
			         (int)(eq - tok), tok);
			return -1;
		}
		size_t vlen = len - (size_t)(eq + 1 - tok);
		if (arm_src_parse_u64(eq + 1, vlen, &vb) < 0 || vb == 0 || vb > UINT16_MAX) {
			snprintf(err, errlen, "bad value '%.*s' for event 0x%04x (1..65535)",
			         (int)vlen, eq + 1, (unsigned)code);
			return -1;
		}
		if (t->nr_vals + nr == t->cap_vals) {
			t->cap_vals = t->cap_vals ? 2 * t->cap_vals : 1024;
			t->vals = xreallocarray(t->vals, t->cap_vals, sizeof(*t->vals));
		}
		t->vals[t->nr_vals + nr++] =
		    (struct arm_emu_val){.event = (uint16_t)code, .vb = (uint16_t)vb};
	}
	struct arm_emu_val *ev = t->vals + t->nr_vals;
	if (nr > 1)
		qsort(ev, nr, sizeof(*ev), cmp_val);
	for (size_t i = 1; i < nr; i++)
		if (ev[i].event == ev[i - 1].event) {
			snprintf(err, errlen, "event 0x%04x given twice", ev[i].event);
			return -1;
		}
	c.nr = (uint32_t)nr;
	if (t->nr_runs == ARM_SRC_TRACE_MAX_RUNS) {
		snprintf(err, errlen, "more than %u runs (the limit of a trace)",
		         ARM_SRC_TRACE_MAX_RUNS);
		return -1;
	}
	uint32_t idx;
	if (intern(t, &c, &idx, err, errlen) < 0)
		return -1;
	if (t->nr_runs == t->cap_runs) {
		t->cap_runs = t->cap_runs ? 2 * t->cap_runs : 256;
		t->runs = xreallocarray(t->runs, t->cap_runs, sizeof(*t->runs));
	}
	t->runs[t->nr_runs++] = (struct trun){.cycles = cycles, .content = idx};
	t->cycles = t->cycles + cycles < t->cycles ? UINT64_MAX : t->cycles + cycles;
	return 0;
}

struct reader {
	struct arm_src_trace *t;
	unsigned line;
	bool header;
};

static void reader_init(struct reader *r)
{
	r->t = xcalloc(1, sizeof(*r->t));
	r->line = 0;
	r->header = false;
	r->t->cap_vals = 1024;
	r->t->vals = xmalloc(r->t->cap_vals * sizeof(*r->t->vals));
}

static int reader_line(struct reader *r, const char *p, size_t len, char *err, size_t errlen)
{
	const char *eol = p + len, *q = p;
	r->line++;
	if (len > ARM_SRC_TRACE_MAX_LINE) {
		snprintf(err, errlen, "line longer than %u bytes", ARM_SRC_TRACE_MAX_LINE);
		return -1;
	}
	while (q < eol && is_blank(*q))
		q++;
	if (q < eol && memchr(q, '\0', (size_t)(eol - q))) {
		snprintf(err, errlen, "NUL byte in the trace");
		return -1;
	}
	if (q == eol || *q == '#')
		return 0;
	if (r->header)
		return trace_line(r->t, q, eol, err, errlen);
	const char *e = eol;
	while (e > q && is_blank(e[-1]))
		e--;
	if ((size_t)(e - q) != strlen(ARM_SRC_TRACE_MAGIC) ||
	    memcmp(q, ARM_SRC_TRACE_MAGIC, (size_t)(e - q)) != 0) {
		snprintf(err, errlen, "not an Arm trace: expected '%s' as the first line",
		         ARM_SRC_TRACE_MAGIC);
		return -1;
	}
	r->header = true;
	return 0;
}

static struct arm_src_trace *reader_finish(struct reader *r, unsigned *errline, char *err,
                                           size_t errlen)
{
	if (!r->header) {
		snprintf(err, errlen, "empty trace: no '%s' line", ARM_SRC_TRACE_MAGIC);
		*errline = 0;
		arm_src_trace_free(r->t);
		return NULL;
	}
	free(r->t->tab);
	r->t->tab = NULL;
	return r->t;
}

static struct arm_src_trace *reader_fail(struct reader *r, unsigned *errline)
{
	*errline = r->line;
	arm_src_trace_free(r->t);
	return NULL;
}

struct arm_src_trace *arm_src_trace_parse(const char *text, size_t len, unsigned *errline,
                                          char *err, size_t errlen)
{
	struct reader r;
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

struct arm_src_trace *arm_src_trace_load(const char *path, unsigned *errline, char *err,
                                         size_t errlen)
{
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
	reader_init(&r);
	while ((n = util_read_line(f, &line, &cap, ARM_SRC_TRACE_MAX_LINE)) >= 0 ||
	       n == UTIL_LINE_TOO_LONG) {
		if (n == UTIL_LINE_TOO_LONG)
			n = ARM_SRC_TRACE_MAX_LINE + 1;
		if (reader_line(&r, n > ARM_SRC_TRACE_MAX_LINE ? "" : line, (size_t)n, err,
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
		arm_src_trace_free(r.t);
		return NULL;
	}
	fclose(f);
	return reader_finish(&r, errline, err, errlen);
}

size_t arm_src_trace_nr_runs(const struct arm_src_trace *t)
{
	return t->nr_runs;
}

uint64_t arm_src_trace_cycles(const struct arm_src_trace *t)
{
	return t->cycles;
}

void arm_src_trace_run_at(const struct arm_src_trace *t, size_t i, struct arm_emu_run *run)
{
	const struct trun *r = &t->runs[i];
	const struct content *c = &t->contents[r->content];
	memset(run, 0, sizeof(*run));
	run->cycles = r->cycles;
	run->key = r->content + 1;
	run->source = t;
	run->el = c->el;
	run->sec = c->sec;
	run->streaming = c->sm;
	run->pc = c->pc;
	run->context = c->context;
	run->vmid = c->vmid;
	run->nr_vals = c->nr;
	run->vals = t->vals + c->off;
}

void arm_src_trace_free(struct arm_src_trace *t)
{
	if (!t)
		return;
	free(t->runs);
	free(t->contents);
	free(t->vals);
	free(t->tab);
	free(t);
}

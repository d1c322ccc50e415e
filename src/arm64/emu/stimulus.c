/* stimulus.c: the feed source and the event-name rules of the Arm sources.
 *
 * Owns: struct arm_src_feed (see stimulus.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arm64/emu/stimulus.h"
#include "util/lex.h"
#include "util/xalloc.h"

unsigned arm_src_event_max_vb(uint16_t code, unsigned slots)
{
	switch (code) {
	case ARM_SRC_SW_INCR:
	case ARM_SRC_CPU_CYCLES:
		return 0;
	case ARM_SRC_STALL_FRONTEND:
	case ARM_SRC_STALL_BACKEND:
	case ARM_SRC_STALL:
	case ARM_SRC_STALL_BACKEND_MEM:
		return 1;
	case ARM_SRC_OP_RETIRED:
	case ARM_SRC_OP_SPEC:
	case ARM_SRC_STALL_SLOT_BACKEND:
	case ARM_SRC_STALL_SLOT_FRONTEND:
	case ARM_SRC_STALL_SLOT:
		return slots;
	default:
		return UINT16_MAX;
	}
}

static const struct arm64_event *table_by_code(const struct arm64_event *ev, unsigned n,
                                               uint16_t code)
{
	for (unsigned i = 0; i < n; i++)
		if (ev[i].code == code)
			return &ev[i];
	return NULL;
}

static const struct arm64_event *table_by_name(const struct arm64_event *ev, unsigned n,
                                               const char *s, size_t len)
{
	for (unsigned i = 0; i < n; i++)
		if (strlen(arm64_str(ev[i].name)) == len &&
		    strncasecmp(arm64_str(ev[i].name), s, len) == 0)
			return &ev[i];
	return NULL;
}

const char *arm_src_event_name(const struct arm64_core *core, uint16_t code)
{
	const struct arm64_event *e = NULL;
	if (core)
		e = table_by_code(core->events, core->nr_events, code);
	if (!e)
		e = table_by_code(arm64_std_events, arm64_nr_std_events, code);
	return e ? arm64_str(e->name) : NULL;
}

const char *arm_src_event_label(const struct arm64_core *core, uint16_t code, char *buf, size_t len)
{
	const char *name = arm_src_event_name(core, code);
	if (name)
		return name;
	snprintf(buf, len, "event 0x%04x", code);
	return buf;
}

int arm_src_parse_u64(const char *s, size_t len, uint64_t *out)
{
	return lex_u64(s, len, LEX_NUM_HEX, 0, UINT64_MAX, out, NULL) == LEX_NUM_OK ? 0 : -1;
}

int arm_src_event_parse(const struct arm64_core *core, const char *s, size_t len, uint16_t *code,
                        char *err, size_t errlen)
{
	uint64_t v;
	const struct arm64_event *e = NULL;

	if (len && s[0] >= '0' && s[0] <= '9') {
		if (arm_src_parse_u64(s, len, &v) < 0) {
			snprintf(err, errlen, "bad event number '%.*s'", (int)len, s);
			return -1;
		}
		if (v > 0xffff) {
			snprintf(err, errlen, "event number %.*s is out of range (0..0xffff)",
			         (int)len, s);
			return -1;
		}
	} else {
		if (core)
			e = table_by_name(core->events, core->nr_events, s, len);
		if (!e)
			e = table_by_name(arm64_std_events, arm64_nr_std_events, s, len);
		for (unsigned c = 0; !e && !core && c < arm64_nr_cores; c++)
			e = table_by_name(arm64_cores[c].events, arm64_cores[c].nr_events, s, len);
		if (!e) {
			snprintf(err, errlen, "unknown event '%.*s'", (int)len, s);
			return -1;
		}
		v = e->code;
	}
	if (v == ARM_SRC_CPU_CYCLES) {
		snprintf(err, errlen,
		         "CPU_CYCLES is 1 in every cycle and counted by the machine; a source "
		         "cannot deliver it");
		return -1;
	}
	if (v == ARM_SRC_SW_INCR) {
		snprintf(err, errlen,
		         "SW_INCR counts writes of PMSWINC_EL0; a source cannot deliver it");
		return -1;
	}
	*code = (uint16_t)v;
	return 0;
}

/* ------------------------------------------------------------------ feed */

struct arm_src_feed {
	const struct arm64_core *core;
	unsigned slots;
	struct arm_emu_val *vals; /* sorted by event, no zeros */
	unsigned nr, cap;
};

struct arm_src_feed *arm_src_feed_new(const struct arm64_core *core, unsigned slots)
{
	struct arm_src_feed *f = xcalloc(1, sizeof(*f));
	f->core = core;
	f->slots = slots;
	return f;
}

void arm_src_feed_free(struct arm_src_feed *f)
{
	if (!f)
		return;
	free(f->vals);
	free(f);
}

/* The one message for a VB above what the event can deliver. */
static int vb_check(const struct arm64_core *core, unsigned slots, uint16_t code, uint64_t vb,
                    char *err, size_t errlen)
{
	unsigned max = arm_src_event_max_vb(code, slots);
	if (vb <= max)
		return 0;
	char num[16];
	const char *name = arm_src_event_name(core, code);
	if (!name) {
		snprintf(num, sizeof(num), "0x%04x", code);
		name = num;
	}
	if (max == 1)
		snprintf(err, errlen, "%s=%llu is more than 1 per cycle: it counts cycles", name,
		         (unsigned long long)vb);
	else if (max == slots && max != UINT16_MAX)
		snprintf(err, errlen, "%s=%llu is more than PMMIR_EL1.SLOTS (%u) per cycle", name,
		         (unsigned long long)vb, slots);
	else
		snprintf(err, errlen, "%s=%llu is out of range (0..%u per cycle)", name,
		         (unsigned long long)vb, max);
	return -1;
}

static void insert(struct arm_emu_val **vals, unsigned *nr, unsigned *cap, uint16_t code,
                   uint16_t vb)
{
	unsigned i = 0;
	while (i < *nr && (*vals)[i].event < code)
		i++;
	if (i < *nr && (*vals)[i].event == code) {
		if (vb)
			(*vals)[i].vb = vb;
		else
			memmove(*vals + i, *vals + i + 1, (*nr - i - 1) * sizeof(**vals));
		*nr -= !vb;
		return;
	}
	if (!vb)
		return;
	if (*nr == *cap) {
		*cap = *cap ? 2 * *cap : 16;
		*vals = xreallocarray(*vals, *cap, sizeof(**vals));
	}
	memmove(*vals + i + 1, *vals + i, (*nr - i) * sizeof(**vals));
	(*vals)[i] = (struct arm_emu_val){.event = code, .vb = vb};
	(*nr)++;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static bool next_token(const char **pos, const char **tok, size_t *len)
{
	const char *p = *pos;
	while (*p && is_blank(*p))
		p++;
	if (!*p)
		return false;
	*tok = p;
	while (*p && !is_blank(*p))
		p++;
	*len = (size_t)(p - *tok);
	*pos = p;
	return true;
}

int arm_src_feed_parse(struct arm_src_feed *f, const char *line, uint64_t *cycles, unsigned *col,
                       char *err, size_t errlen)
{
	const char *p = line, *tok;
	size_t len;
	uint64_t n;
	struct arm_emu_val *vals = NULL;
	unsigned nr = 0, cap = 0;

	*col = 1;
	if (!next_token(&p, &tok, &len)) {
		snprintf(err, errlen, "missing CYCLES");
		return -1;
	}
	if (len == 4 && memcmp(tok, "feed", 4) == 0 && !next_token(&p, &tok, &len)) {
		*col = (unsigned)(p - line) + 1;
		snprintf(err, errlen, "missing CYCLES");
		return -1;
	}
	*col = (unsigned)(tok - line) + 1;
	if (arm_src_parse_u64(tok, len, &n) < 0 || n == 0) {
		snprintf(err, errlen, "bad cycle count '%.*s' (1..2^64-1)", (int)len, tok);
		return -1;
	}
	while (next_token(&p, &tok, &len)) {
		const char *eq = memchr(tok, '=', len);
		uint16_t code;
		uint64_t vb;

		*col = (unsigned)(tok - line) + 1;
		if (!eq || eq == tok || eq == tok + len - 1) {
			snprintf(err, errlen, "bad assignment '%.*s': expected EVENT=VB", (int)len,
			         tok);
			goto fail;
		}
		if (arm_src_event_parse(f->core, tok, (size_t)(eq - tok), &code, err, errlen) < 0)
			goto fail;
		size_t vlen = len - (size_t)(eq + 1 - tok);
		if (arm_src_parse_u64(eq + 1, vlen, &vb) < 0) {
			char label[24];
			*col = (unsigned)(eq + 1 - line) + 1;
			snprintf(err, errlen, "bad value '%.*s' for %s (0..%u)", (int)vlen, eq + 1,
			         arm_src_event_label(f->core, code, label, sizeof(label)),
			         arm_src_event_max_vb(code, f->slots));
			goto fail;
		}
		for (unsigned i = 0; i < nr; i++)
			if (vals[i].event == code)
				goto twice;
		if (vb_check(f->core, f->slots, code, vb, err, errlen) < 0)
			goto fail;
		/* a zero is kept while parsing so that a repeat is still seen */
		if (nr == cap) {
			cap = cap ? 2 * cap : 16;
			vals = xreallocarray(vals, cap, sizeof(*vals));
		}
		vals[nr++] = (struct arm_emu_val){.event = code, .vb = (uint16_t)vb};
		continue;
	twice : {
		char label[24];
		snprintf(err, errlen, "%s given twice",
		         arm_src_event_label(f->core, code, label, sizeof(label)));
		goto fail;
	}
	}
	f->nr = 0;
	for (unsigned i = 0; i < nr; i++)
		insert(&f->vals, &f->nr, &f->cap, vals[i].event, vals[i].vb);
	free(vals);
	*cycles = n;
	return 0;
fail:
	free(vals);
	return -1;
}

void arm_src_feed_run(const struct arm_src_feed *f, uint64_t cycles, struct arm_emu_run *run)
{
	run->cycles = cycles;
	run->key = 0;
	run->source = f;
	run->nr_vals = f->nr;
	run->vals = f->vals;
}

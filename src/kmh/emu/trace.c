/* trace.c: the trace source: writing runs as text and replaying them.
 *
 * Owns: the Kunminghu trace format (see EMU_TRACE_MAGIC in emu.h and
 * hpmstat-emu(1)) as emu_trace_format, a struct hpm_emu_trace_format for
 * the shared core (emukit/trace.h, which reads, validates, bounds, interns
 * and holds it), and what a line of it means: how a run is written and how
 * a stored one becomes a struct emu_run. A line's content is its instret
 * and events; its mode is the run's tag, so identical lines whatever the
 * cycles and mode share one key and a replay runs on the fast path's cache.
 * Each content's instret and events are spread into one block of every
 * bank's values (the format's prepare), which a replayed run points into.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emukit/trace.h"
#include "kmh/emu/emu.h"
#include "util/xalloc.h"

/* ----------------------------------------------------------------- format */

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

/* MODE INSTRET: the instret is the content's head, the mode the run's tag. */
static int parse_head(const char **p, const char *end, void *head, uint8_t *tag, char *err,
                      size_t errlen)
{
	const char *tok;
	size_t len;
	uint64_t instret;
	int mode = -1;

	if (hpm_emu_trace_field(p, end, &tok, &len, "MODE after the cycle count", err, errlen) < 0)
		return -1;
	for (unsigned m = 0; m < EMU_NR_MODES; m++)
		if (strlen(emu_mode_name(m)) == len && memcmp(emu_mode_name(m), tok, len) == 0)
			mode = (int)m;
	if (mode < 0) {
		snprintf(err, errlen, "bad mode '%.*s' (M, HS, HU, VS or VU)", (int)len, tok);
		return -1;
	}
	if (hpm_emu_trace_field(p, end, &tok, &len, "INSTRET after the mode", err, errlen) < 0)
		return -1;
	if (parse_dec(tok, len, &instret) < 0 || instret > 63) {
		snprintf(err, errlen, "bad instret '%.*s' (0..63)", (int)len, tok);
		return -1;
	}
	*(uint8_t *)head = (uint8_t)instret;
	*tag = (uint8_t)mode;
	return 0;
}

/* BANK:INDEX=VALUE as bank << 16 | index << 6 | value. */
static int parse_event(const char *tok, size_t len, void *item, char *err, size_t errlen)
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
	*(uint32_t *)item = (uint32_t)bank << 16 | (uint32_t)index << 6 | (uint32_t)value;
	return 0;
}

/* By bank and index: 0 for the same event whatever the values. */
static int cmp_event(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a >> 6, y = *(const uint32_t *)b >> 6;
	return x < y ? -1 : x > y;
}

static void event_twice(const void *item, char *err, size_t errlen)
{
	uint32_t p = *(const uint32_t *)item;
	snprintf(err, errlen, "event %s:%u given twice", kmh_table_v2.banks[p >> 16].name,
	         (p >> 6) & 0x3ffu);
}

static bool event_is_zero(const void *item)
{
	return (*(const uint32_t *)item & 63u) == 0;
}

/* A content's block: its instret, then every bank's values concatenated in
 * bank order, so that a replayed run reads one block. */
static size_t block_size(void)
{
	size_t size = 1;
	for (int b = 0; b < KMH_NR_BANKS; b++)
		size += kmh_table_v2.banks[b].nr_events;
	return size;
}

static void fill_block(const void *head, const void *items, uint32_t nr, void *block)
{
	const uint32_t *packed = items;
	uint8_t *d = block;
	unsigned bank_off[KMH_NR_BANKS], off = 1;

	d[0] = *(const uint8_t *)head;
	for (int b = 0; b < KMH_NR_BANKS; b++) {
		bank_off[b] = off;
		off += kmh_table_v2.banks[b].nr_events;
	}
	for (uint32_t i = 0; i < nr; i++) {
		uint32_t p = packed[i];
		d[bank_off[p >> 16] + ((p >> 6) & 0x3ffu)] = (uint8_t)(p & 63u);
	}
}

const struct hpm_emu_trace_format emu_trace_format = {
    .magic = EMU_TRACE_MAGIC,
    .columns = "# CYCLES MODE INSTRET [BANK:INDEX=VALUE ...]",
    .name = "a trace",
    .head_size = sizeof(uint8_t),
    .item_size = sizeof(uint32_t),
    .parse_number = parse_dec,
    .parse_head = parse_head,
    .parse_item = parse_event,
    .cmp_item = cmp_event,
    .twice = event_twice,
    .item_is_zero = event_is_zero,
    .block_size = block_size,
    .prepare = fill_block,
};

/* ----------------------------------------------------------------- writer */

int emu_trace_write(struct hpm_emu_trace_writer *w, const struct emu_run *run, char *err,
                    size_t errlen)
{
	FILE *f = hpm_emu_trace_writer_stream(w);
	int r = 0;

	if (!run->cycles)
		return 0;
	if (f && run->mode < EMU_NR_MODES) {
		r = fprintf(f, "%llu %s %u", (unsigned long long)run->cycles,
		            emu_mode_name(run->mode), run->instret & 63u);
		for (int b = 0; b < KMH_NR_BANKS && r >= 0; b++) {
			const uint8_t *v = run->vals[b];
			if (!v)
				continue;
			for (unsigned i = 1; i < kmh_table_v2.banks[b].nr_events && r >= 0; i++)
				if (v[i] & 63u)
					r = fprintf(f, " %s:%u=%u", kmh_table_v2.banks[b].name, i,
					            v[i] & 63u);
		}
		if (r >= 0)
			r = putc('\n', f);
	}
	return hpm_emu_trace_writer_done(w, r, err, errlen);
}

/* ----------------------------------------------------------------- reader */

void emu_trace_run_at(const struct hpm_emu_trace *t, size_t i, struct emu_run *run)
{
	uint32_t content;
	uint8_t mode;
	uint64_t cycles = hpm_emu_trace_run(t, i, &content, &mode);
	const uint8_t *d = hpm_emu_trace_block(t, content);

	memset(run, 0, sizeof(*run));
	run->cycles = cycles;
	run->key = content + 1;
	run->source = t;
	run->mode = mode;
	run->instret = *d++;
	for (int b = 0; b < KMH_NR_BANKS; b++) {
		run->vals[b] = d;
		d += kmh_table_v2.banks[b].nr_events;
	}
}

/* stimulus.c: the stimulus source: exact per-cycle values for chosen events,
 * as the script's `feed` command gives them, and the event-name resolution
 * the script and its users share.
 *
 * Owns: struct emu_stimulus and its value arrays.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmh/emu/emu.h"
#include "util/xalloc.h"

struct emu_stimulus {
	uint8_t *vals[KMH_NR_BANKS]; /* kmh_table_v2.banks[b].nr_events each: the signals */
	uint8_t instret;
	const struct kmh_table *table; /* whose names and indices assign() reads */
};

/* How many banks define `name`, and the first such event. */
static unsigned event_find_any(const struct kmh_table *t, const char *name,
                               const struct kmh_event **first)
{
	unsigned n = 0;
	*first = NULL;
	for (int b = 0; b < KMH_NR_BANKS; b++) {
		const struct kmh_event *ev = kmh_event_by_name(t, b, name);
		if (ev) {
			if (!n)
				*first = ev;
			n++;
		}
	}
	return n;
}

static int event_refuse_alias(const struct kmh_table *t, int bank, const char *name, char *err,
                              size_t errlen)
{
	const struct kmh_alias *a = kmh_alias_by_name(t, bank, name);
	if (a) {
		snprintf(err, errlen,
		         "'%s' names %u events of the %s bank (%s.0 .. %s.%u); give one of them",
		         name, a->nr, t->banks[a->bank].name, name, name, a->nr - 1u);
		return -1;
	}
	return 0;
}

/* Resolves an event of table t for stimulus: BANK:NAME (NAME or NAME.K of
 * the table), BANK:INDEX, or a NAME found in exactly one bank. The plain
 * NAME of a repeated name (an alias) is refused: it is several events.
 * noEvent and indices beyond the table are refused. */
static int event_parse(const struct kmh_table *t, const char *s, int *bank, unsigned *index,
                       char *err, size_t errlen)
{
	const char *colon = strchr(s, ':');
	const struct kmh_event *ev;

	if (!colon) {
		unsigned n = event_find_any(t, s, &ev);
		if (n == 1)
			goto found;
		if (n > 1) {
			snprintf(err, errlen, "event '%s' exists in several banks; write BANK:%s",
			         s, s);
			return -1;
		}
		for (int b = 0; b < KMH_NR_BANKS; b++)
			if (event_refuse_alias(t, b, s, err, errlen) < 0)
				return -1;
		snprintf(err, errlen, "unknown event '%s'", s);
		return -1;
	}

	char bname[32];
	size_t blen = (size_t)(colon - s);
	if (blen == 0 || blen >= sizeof(bname)) {
		snprintf(err, errlen, "bad event '%s': expected BANK:EVENT", s);
		return -1;
	}
	memcpy(bname, s, blen);
	bname[blen] = '\0';
	const struct kmh_bank_desc *bd = kmh_bank_by_name(t, bname);
	if (!bd) {
		snprintf(err, errlen,
		         "unknown bank '%s' (banks: frontend, backend, memblock, cache)", bname);
		return -1;
	}
	int b = (int)(bd - t->banks);
	const char *rest = colon + 1;
	uint64_t v;
	if (*rest >= '0' && *rest <= '9') {
		if (emu_parse_u64(rest, &v) < 0) {
			snprintf(err, errlen, "bad event index '%s'", rest);
			return -1;
		}
		if (v == 0) {
			snprintf(err, errlen, "%s:0 is noEvent, which always delivers 0", bname);
			return -1;
		}
		if (v >= bd->nr_events) {
			snprintf(err, errlen, "event index %s is outside the %s table (1..%u)",
			         rest, bname, bd->nr_events - 1u);
			return -1;
		}
		*bank = b;
		*index = (unsigned)v;
		return 0;
	}
	if (!(ev = kmh_event_by_name(t, b, rest))) {
		if (event_refuse_alias(t, b, rest, err, errlen) < 0)
			return -1;
		snprintf(err, errlen, "unknown event '%s' in the %s bank", rest, bname);
		return -1;
	}
found:
	if (ev->index == 0) {
		snprintf(err, errlen, "noEvent always delivers 0");
		return -1;
	}
	*bank = ev->bank;
	*index = ev->index;
	return 0;
}

struct emu_stimulus *emu_stimulus_new(void)
{
	struct emu_stimulus *s = xcalloc(1, sizeof(*s));
	for (int b = 0; b < KMH_NR_BANKS; b++)
		s->vals[b] = xcalloc(kmh_table_v2.banks[b].nr_events, 1);
	s->table = &kmh_table_v2;
	return s;
}

void emu_stimulus_set_table(struct emu_stimulus *s, const struct kmh_table *t)
{
	s->table = t;
}

void emu_stimulus_free(struct emu_stimulus *s)
{
	if (!s)
		return;
	for (int b = 0; b < KMH_NR_BANKS; b++)
		free(s->vals[b]);
	free(s);
}

void emu_stimulus_clear(struct emu_stimulus *s)
{
	for (int b = 0; b < KMH_NR_BANKS; b++)
		memset(s->vals[b], 0, kmh_table_v2.banks[b].nr_events);
	s->instret = 0;
}

int emu_stimulus_set(struct emu_stimulus *s, int bank, unsigned index, unsigned value, char *err,
                     size_t errlen)
{
	if (bank < 0 || bank >= KMH_NR_BANKS) {
		snprintf(err, errlen, "no bank %d", bank);
		return -1;
	}
	if (index >= kmh_table_v2.banks[bank].nr_events) {
		snprintf(err, errlen, "event index %u is outside the %s table", index,
		         kmh_table_v2.banks[bank].name);
		return -1;
	}
	if (value > 63) {
		snprintf(err, errlen, "event value %u is out of range (0..63: events are 6 bits)",
		         value);
		return -1;
	}
	if (index == 0 && value != 0) {
		snprintf(err, errlen, "noEvent always delivers 0");
		return -1;
	}
	s->vals[bank][index] = (uint8_t)value;
	return 0;
}

int emu_stimulus_assign(struct emu_stimulus *s, const char *text, char *err, size_t errlen)
{
	const char *eq = strrchr(text, '=');
	uint64_t v;

	if (!eq || eq == text || !eq[1]) {
		snprintf(err, errlen, "bad assignment '%s': expected EVENT=VALUE", text);
		return -1;
	}
	if (emu_parse_u64(eq + 1, &v) < 0) {
		snprintf(err, errlen, "bad value '%s'", eq + 1);
		return -1;
	}
	size_t len = (size_t)(eq - text);
	char *name = xstrndup(text, len);
	int ret;
	if (strcmp(name, "instret") == 0) {
		if (v > 63) {
			snprintf(err, errlen, "instret %s is out of range (0..63 per cycle)",
			         eq + 1);
			ret = -1;
		} else {
			s->instret = (uint8_t)v;
			ret = 0;
		}
	} else if (v > 63) {
		snprintf(err, errlen, "event value %s is out of range (0..63: events are 6 bits)",
		         eq + 1);
		ret = -1;
	} else {
		int bank;
		unsigned index;
		const struct kmh_table *t = s->table;
		ret = event_parse(t, name, &bank, &index, err, errlen);
		unsigned sig = ret == 0 ? emu_signal_index(t, bank, index) : 0;
		if (ret == 0 && !sig) {
			/* no source has its signal: feeding it would count nothing */
			const struct kmh_event *ev = kmh_event_by_index(t, bank, index);
			snprintf(err, errlen,
			         "%s:%s of %s has no signal in the emulator: kunminghu-v2, whose "
			         "signals it emulates, has no event of that name",
			         t->banks[bank].name, ev ? kmh_str(t, ev->name) : "?", t->name);
			ret = -1;
		}
		if (ret == 0)
			ret = emu_stimulus_set(s, bank, sig, (unsigned)v, err, errlen);
	}
	free(name);
	return ret;
}

void emu_stimulus_run(const struct emu_stimulus *s, uint64_t cycles, enum emu_mode mode,
                      struct emu_run *run)
{
	memset(run, 0, sizeof(*run));
	run->cycles = cycles;
	run->key = 0;
	run->source = s;
	run->mode = (uint8_t)mode;
	run->instret = s->instret;
	for (int b = 0; b < KMH_NR_BANKS; b++)
		run->vals[b] = s->vals[b];
}

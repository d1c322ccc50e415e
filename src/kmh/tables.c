/* tables.c: look-ups in the generated event tables, suggestions, error text.
 *
 * Owns: every search over a struct kmh_table's banks, so the rest of the library never walks
 * the tables itself.
 */
#include <regex.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "kmh/kmh.h"
#include "util/suggest.h"

const struct kmh_bank_desc *kmh_bank_by_name(const struct kmh_table *t, const char *name)
{
	for (unsigned b = 0; b < KMH_NR_BANKS; b++)
		if (strcasecmp(t->banks[b].name, name) == 0)
			return &t->banks[b];
	return NULL;
}

int kmh_bank_of_counter(const struct kmh_table *t, unsigned counter)
{
	for (int b = 0; b < KMH_NR_BANKS; b++)
		if (counter >= t->banks[b].first_counter && counter <= t->banks[b].last_counter)
			return b;
	return KMH_BANK_NONE;
}

const struct kmh_event *kmh_event_by_index(const struct kmh_table *t, int bank, unsigned index)
{
	if (bank < 0 || bank >= KMH_NR_BANKS || index >= t->banks[bank].nr_events)
		return NULL;
	return &t->banks[bank].events[index];
}

const struct kmh_event *kmh_event_by_name(const struct kmh_table *t, int bank, const char *name)
{
	for (int b = 0; b < KMH_NR_BANKS; b++) {
		if (bank != KMH_BANK_NONE && b != bank)
			continue;
		const struct kmh_bank_desc *d = &t->banks[b];
		for (unsigned i = 0; i < d->nr_events; i++)
			if (strcmp(kmh_str(t, d->events[i].name), name) == 0)
				return &d->events[i];
	}
	const struct kmh_name_alias *na = kmh_name_alias_by_name(t, bank, name);
	if (na)
		return kmh_event_by_name(t, bank, kmh_str(t, na->alias_of));
	return NULL;
}

const struct kmh_name_alias *kmh_name_alias_by_name(const struct kmh_table *t, int bank,
                                                    const char *name)
{
	for (int b = 0; b < KMH_NR_BANKS; b++) {
		if (bank != KMH_BANK_NONE && b != bank)
			continue;
		const struct kmh_bank_desc *d = &t->banks[b];
		for (unsigned i = 0; i < d->nr_names; i++)
			if (strcmp(kmh_str(t, d->names[i].name), name) == 0)
				return &d->names[i];
	}
	return NULL;
}

const char *kmh_rtl_note(const struct kmh_table *t, const struct kmh_event *ev, char *buf,
                         size_t len)
{
	switch (ev->rtl) {
	case KMH_RTL_ZERO:
		snprintf(buf, len, "%s:%u %s always reads 0 on XiangShan's RTL",
		         t->banks[ev->bank].name, ev->index, kmh_str(t, ev->name));
		return buf;
	case KMH_RTL_UNDEFINED:
		snprintf(buf, len,
		         "%s:%u %s is undefined on XiangShan's RTL: the CSR copies only the "
		         "bank's first %u entries",
		         t->banks[ev->bank].name, ev->index, kmh_str(t, ev->name), ev->index);
		return buf;
	case KMH_RTL_SAME:
		snprintf(buf, len, "%s:%u %s counts the same signal as %s:%u %s on XiangShan's RTL",
		         t->banks[ev->bank].name, ev->index, kmh_str(t, ev->name),
		         t->banks[ev->bank].name, ev->same_as,
		         kmh_str(t, t->banks[ev->bank].events[ev->same_as].name));
		return buf;
	case KMH_RTL_INVERSE:
		snprintf(buf, len,
		         "%s:%u %s counts the inverse of its name on XiangShan's RTL: cycles in "
		         "which the queue can accept",
		         t->banks[ev->bank].name, ev->index, kmh_str(t, ev->name));
		return buf;
	default:
		return NULL;
	}
}

unsigned kmh_event_wire(const struct kmh_table *t, int bank, unsigned index)
{
	const struct kmh_event *ev = kmh_event_by_index(t, bank, index);
	if (!ev)
		return 0;
	switch (ev->rtl) {
	case KMH_RTL_SAME:
		return ev->same_as;
	case KMH_RTL_ZERO:
	case KMH_RTL_UNDEFINED:
		return 0;
	default:
		return index;
	}
}

const struct kmh_alias *kmh_alias_by_name(const struct kmh_table *t, int bank, const char *name)
{
	for (int b = 0; b < KMH_NR_BANKS; b++) {
		if (bank != KMH_BANK_NONE && b != bank)
			continue;
		const struct kmh_bank_desc *d = &t->banks[b];
		for (unsigned i = 0; i < d->nr_aliases; i++)
			if (strcmp(kmh_str(t, d->aliases[i].name), name) == 0)
				return &d->aliases[i];
	}
	return NULL;
}

bool kmh_has_name(const struct kmh_table *t, const char *name)
{
	return kmh_event_by_name(t, KMH_BANK_NONE, name) ||
	       kmh_alias_by_name(t, KMH_BANK_NONE, name);
}

const struct kmh_table *kmh_other_table_with(const struct kmh_table *t, const char *name)
{
	static const struct kmh_table *const tables[] = {&kmh_table_v2, &kmh_table_v3};
	for (unsigned i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		if (tables[i] != t && kmh_has_name(tables[i], name))
			return tables[i];
	return NULL;
}

const struct kmh_mapfile_row *kmh_mapfile_match(const struct kmh_table *t, const char *cpuid)
{
	for (unsigned i = 0; i < t->nr_mapfile; i++) {
		char anchored[256];
		regex_t re;
		snprintf(anchored, sizeof(anchored), "^(%s)$", t->mapfile[i].cpuid);
		if (regcomp(&re, anchored, REG_EXTENDED | REG_NOSUB | REG_ICASE) != 0)
			continue;
		int rc = regexec(&re, cpuid, 0, NULL, 0);
		regfree(&re);
		if (rc == 0)
			return &t->mapfile[i];
	}
	return NULL;
}

unsigned kmh_suggest(const struct kmh_table *t, const char *name, int bank, const char **out,
                     unsigned max)
{
	struct suggest sg;
	size_t len = strlen(name);
	/* a suggestion further away than about a third of the name is noise */
	suggest_init(&sg, name, len, (unsigned)(len / 3 + 1), true, out, max);
	for (int b = 0; b < KMH_NR_BANKS; b++) {
		if (bank != KMH_BANK_NONE && b != bank)
			continue;
		const struct kmh_bank_desc *d = &t->banks[b];
		for (unsigned i = 0; i < d->nr_events; i++)
			suggest_offer(&sg, kmh_str(t, d->events[i].name));
		for (unsigned i = 0; i < d->nr_aliases; i++)
			suggest_offer(&sg, kmh_str(t, d->aliases[i].name));
		for (unsigned i = 0; i < d->nr_names; i++)
			suggest_offer(&sg, kmh_str(t, d->names[i].name));
	}
	return sg.n;
}

const char *kmh_strerror(int code)
{
	switch (code) {
	case KMH_OK:
		return "success";
	case KMH_ESYNTAX:
		return "syntax error";
	case KMH_EUNKNOWN:
		return "unknown event";
	case KMH_EBANK:
		return "unknown bank";
	case KMH_ERANGE:
		return "value out of range";
	case KMH_EMIXBANK:
		return "events from two banks in one counter";
	case KMH_ETOOMANY:
		return "more than four events in one counter";
	case KMH_ESHAPE:
		return "expression does not fit the (E0 op0 E1) op2 (E2 op1 E3) tree";
	case KMH_EMODIFIER:
		return "bad modifier";
	case KMH_EEMPTY:
		return "empty expression";
	case KMH_ENUMBER:
		return "not a number";
	case KMH_EAMBIGUOUS:
		return "ambiguous event name";
	case KMH_ETERM:
		return "bad perf-style term";
	default:
		return "unknown error";
	}
}

/* events.h: the Arm PMUv3 event tables, as generated from events/arm64.
 *
 * Owns: struct arm64_event (one event: name, 16-bit event number, the file
 * it came from, descriptions) and struct arm64_core (one core of
 * events/arm64/mapfile.csv: its name, MIDR, and the events it implements),
 * and the generated tables (events-gen.c, made at build time by
 * src/arm64/gen/jevents.c from Linux perf's pmu-events JSON, as perf's
 * jevents.py makes its own): the architectural and common
 * micro-architectural events every Arm core may implement, and each core's
 * list, in which an "ArchStdEvent" row takes the standard event's fields.
 * Nothing parses JSON at run time. An event's texts are offsets into one
 * string pool, arm64_event_strings, read through arm64_str: a table of
 * pointers would be relocated by the loader at every start, a table of
 * offsets is read-only data the loader leaves alone.
 */
#ifndef HPM_ARM64_EVENTS_H
#define HPM_ARM64_EVENTS_H

#include <stdint.h>

/* The texts of every event of the tables below, each ended by its NUL. */
extern const char arm64_event_strings[];

/* The text at offset off of arm64_event_strings: a struct arm64_event's
 * name, topic, brief or description. */
static inline const char *arm64_str(uint32_t off)
{
	return arm64_event_strings + off;
}

struct arm64_event {
	uint32_t name;        /* arm64_str: "CPU_CYCLES", as the Arm ARM spells it */
	uint16_t code;        /* PMEVTYPER<n>_EL0.evtCount */
	uint32_t topic;       /* arm64_str: the JSON file it came from: "pipeline", ... */
	uint32_t brief;       /* arm64_str: BriefDescription */
	uint32_t description; /* arm64_str: PublicDescription, else the brief one */
};

struct arm64_core {
	const char *name; /* "neoverse-n1": the last part of its mapfile directory */
	const char *dir;  /* "arm/neoverse-n1", under events/arm64 */
	uint64_t midr;    /* mapfile's Family-model: MIDR_EL1 with Variant and Revision 0 */
	const struct arm64_event *events;
	unsigned nr_events;
};

/* The standard events (the .json files at the top of events/arm64), in
 * event-number order. */
extern const struct arm64_event arm64_std_events[];
extern const unsigned arm64_nr_std_events;
/* The cores of mapfile.csv, in its order; each core's events in
 * event-number order. */
extern const struct arm64_core arm64_cores[];
extern const unsigned arm64_nr_cores;

#endif

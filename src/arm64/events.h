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
 * Nothing parses JSON at run time.
 */
#ifndef HPM_ARM64_EVENTS_H
#define HPM_ARM64_EVENTS_H

#include <stdint.h>

struct arm64_event {
	const char *name;        /* "CPU_CYCLES", as the Arm ARM spells it */
	uint16_t code;           /* PMEVTYPER<n>_EL0.evtCount */
	const char *topic;       /* the JSON file it came from: "pipeline", "cache", ... */
	const char *brief;       /* BriefDescription */
	const char *description; /* PublicDescription, else the brief one */
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

/* kmh.h: the Kunminghu event library: event tables, expression encoder and
 * mhpmevent decoder.
 *
 * Owns: the public types and functions that turn event names and expressions
 * into raw mhpmevent values and back. The tables themselves (one struct
 * kmh_table for each XiangShan version) are generated at build time from
 * events/riscv/openxiangshan/<version>/<bank>.json by src/kmh/gen/jevents.c;
 * every operation takes the table it works on as its first argument, as
 * libpfm4's take their PMU. The library never prints and never exits: every fallible
 * call returns 0 or a negative KMH_E* code, with details in struct hpm_diag.
 */
#ifndef HPM_KMH_KMH_H
#define HPM_KMH_KMH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kmh/mhpmevent.h"
#include "util/diag.h"

/* ------------------------------------------------------------------ banks */

enum kmh_bank {
	KMH_BANK_FRONTEND,
	KMH_BANK_BACKEND,
	KMH_BANK_MEMBLOCK,
	KMH_BANK_CACHE,
	KMH_NR_BANKS,
	KMH_BANK_NONE = -1, /* not known (raw values, bank-neutral noEvent) */
};

#define KMH_FIRST_COUNTER 3  /* mhpmcounter3 */
#define KMH_LAST_COUNTER  31 /* mhpmcounter31 */
#define KMH_NR_COUNTERS   29

/* What XiangShan's RTL does with an event where its name or the design
 * document misleads (../shared/xiangshan/README.md; the JSON's RtlCounts). */
enum kmh_rtl_counts {
	KMH_RTL_COUNTS,    /* counts what its description says */
	KMH_RTL_ZERO,      /* wired to 0, or its condition never holds: always reads 0 */
	KMH_RTL_UNDEFINED, /* an EVENTn value past what the CSR copies: undefined */
	KMH_RTL_SAME,      /* the same signal as event same_as of its bank */
	KMH_RTL_INVERSE,   /* the complement of what its name says (IssueQueue*_full:
	                    * cycles the queue can accept) */
};

/* The texts of a table's events, aliases and names are offsets into its
 * string pool (struct kmh_table's strings), read through kmh_str: a table
 * of pointers would be relocated by the loader at every start, a table of
 * offsets is read-only data the loader leaves alone. */
#define KMH_NO_TEXT 0 /* an absent text (alias_of): kmh_str gives "" */

struct kmh_event {
	uint32_t name;        /* kmh_str: NAME, or NAME.K for the K-th of a repeated name */
	uint32_t brief;       /* kmh_str: BriefDescription */
	uint32_t description; /* kmh_str: PublicDescription */
	uint16_t index;       /* EVENTn value, local to the bank */
	uint8_t bank;         /* enum kmh_bank */
	uint8_t rtl;          /* enum kmh_rtl_counts */
	uint16_t same_as;     /* KMH_RTL_SAME: the index it duplicates */
};

/* A plain NAME that repeats in a bank: the ADD of all its instances. */
struct kmh_alias {
	uint32_t name; /* kmh_str, as the three texts below */
	uint32_t brief;
	uint32_t description;
	uint64_t code; /* EventCode in the JSON: the encoded ADD */
	uint8_t bank;
	uint8_t nr;                   /* 2..4 instances */
	uint16_t index[KMH_NR_SLOTS]; /* ascending */
	uint32_t alias_of;            /* another name of that alias, or KMH_NO_TEXT */
	bool deprecated;              /* the design document's old name */
};

/* Another name of one event (the JSON's AliasOf): the design document's
 * old name (deprecated, as perf's Deprecated key), or an honest name where
 * the RTL's misleads. Encoding it gives the event itself. */
struct kmh_name_alias {
	uint32_t name; /* kmh_str, as the three texts below */
	uint32_t brief;
	uint32_t description;
	uint32_t alias_of; /* the event's own name */
	uint16_t index;
	bool deprecated;
};

struct kmh_bank_desc {
	const char *name;       /* "frontend", "backend", "memblock", "cache" */
	unsigned first_counter; /* mhpmcounterN range that sees this bank */
	unsigned last_counter;
	unsigned nr_events;             /* indices 0..nr_events-1, dense */
	const struct kmh_event *events; /* indexed by event index */
	unsigned nr_aliases;
	const struct kmh_alias *aliases;
	unsigned nr_names;
	const struct kmh_name_alias *names;
};

/* perf's mapfile.csv rows (events/riscv/mapfile.csv) that name a table. */
struct kmh_mapfile_row {
	const char *cpuid; /* MVENDORID-MARCHID-MIMPID, a POSIX extended regex */
	const char *version;
	const char *path; /* openxiangshan/kunminghu */
	const char *type; /* core */
};

/* One version of Kunminghu's events, as XiangShan's RTL numbers them at one
 * commit: its four banks, and the mapfile rows that choose it on detection
 * (none for a table chosen only by name). */
struct kmh_table {
	const char *name;   /* "kunminghu-v2": the events/riscv/openxiangshan folder's */
	const char *commit; /* the XiangShan commit the indices were read at */
	struct kmh_bank_desc banks[KMH_NR_BANKS];
	const struct kmh_mapfile_row *mapfile;
	unsigned nr_mapfile;
	const char *strings; /* the texts of the banks' rows, each ended by its NUL */
};

/* The text at offset off of t's strings: a struct kmh_event's,
 * kmh_alias's or kmh_name_alias's name, brief, description or alias_of
 * ("" for KMH_NO_TEXT, the pool's first text). */
static inline const char *kmh_str(const struct kmh_table *t, uint32_t off)
{
	return t->strings + off;
}

/* Generated tables (events-gen.c, events-v3-gen.c). */
extern const struct kmh_table kmh_table_v2; /* kunminghu-v2, 0f639b5a */
extern const struct kmh_table kmh_table_v3; /* kunminghu-v3, afe3818 */

const struct kmh_bank_desc *kmh_bank_by_name(const struct kmh_table *t, const char *name);
/* Bank that counter N (3..31) sees, or KMH_BANK_NONE. */
int kmh_bank_of_counter(const struct kmh_table *t, unsigned counter);
/* Event by bank and index, or NULL when out of range. */
const struct kmh_event *kmh_event_by_index(const struct kmh_table *t, int bank, unsigned index);
/* Exact lookup of NAME (or NAME.K), or of another name of it (struct
 * kmh_name_alias), in one bank, or in every bank when bank is KMH_BANK_NONE.
 * Returns the first match; noEvent matches bank 0. */
const struct kmh_event *kmh_event_by_name(const struct kmh_table *t, int bank, const char *name);
/* The name alias NAME, or NULL: for messages that say which name was used. */
const struct kmh_name_alias *kmh_name_alias_by_name(const struct kmh_table *t, int bank,
                                                    const char *name);
/* The EVENTn index whose signal the RTL routes to EVENTn = index of bank:
 * same_as for KMH_RTL_SAME, 0 (noEvent: delivers 0) for KMH_RTL_ZERO and
 * KMH_RTL_UNDEFINED, index itself otherwise. For an emulator of the RTL. */
unsigned kmh_event_wire(const struct kmh_table *t, int bank, unsigned index);
/* One sentence on what the RTL counts for ev where it is not what the name
 * says (KMH_RTL_ZERO, _UNDEFINED, _SAME, _INVERSE), or NULL when it counts
 * as named. */
const char *kmh_rtl_note(const struct kmh_table *t, const struct kmh_event *ev, char *buf,
                         size_t len);
const struct kmh_alias *kmh_alias_by_name(const struct kmh_table *t, int bank, const char *name);
/* Whether NAME is any row of t (event, NAME.K, ADD alias or other name). */
bool kmh_has_name(const struct kmh_table *t, const char *name);
/* A table other than t that has NAME, or NULL: for "'BpWrong' is a
 * kunminghu-v2 event" when t lacks it. */
const struct kmh_table *kmh_other_table_with(const struct kmh_table *t, const char *name);

/* The row of t's mapfile whose regex matches all of `cpuid` ("0x0-0x19-0x0",
 * as perf builds it from /proc/cpuinfo's mvendorid, marchid and mimpid), or
 * NULL. */
const struct kmh_mapfile_row *kmh_mapfile_match(const struct kmh_table *t, const char *cpuid);

/* ------------------------------------------------------------------ errors */

enum kmh_errcode {
	KMH_OK = 0,
	KMH_ESYNTAX = -1,     /* malformed expression */
	KMH_EUNKNOWN = -2,    /* unknown event name */
	KMH_EBANK = -3,       /* unknown bank name */
	KMH_ERANGE = -4,      /* index or value out of range */
	KMH_EMIXBANK = -5,    /* events from two banks in one expression */
	KMH_ETOOMANY = -6,    /* more than four events */
	KMH_ESHAPE = -7,      /* the (E0 op0 E1) op2 (E2 op1 E3) tree cannot express it */
	KMH_EMODIFIER = -8,   /* unknown, repeated or contradictory modifier */
	KMH_EEMPTY = -9,      /* empty expression */
	KMH_ENUMBER = -10,    /* not a number */
	KMH_EAMBIGUOUS = -11, /* name exists in several banks */
	KMH_ETERM = -12,      /* bad perf-style term */
};

/* Errors are a struct hpm_diag (util/diag.h): code an enum kmh_errcode,
 * column the place in the input (0: none), msg a full sentence without the
 * input, e.g. "unknown event 'x'". */

/* Generic text for a code, as libpfm4's pfm_strerror. */
const char *kmh_strerror(int code);

/* ------------------------------------------------------------- modifiers */

/* Privilege modes as counted by one mhpmevent. */
enum kmh_mode_bit {
	KMH_MODE_U = 1 << 0,
	KMH_MODE_S = 1 << 1, /* HS */
	KMH_MODE_VU = 1 << 2,
	KMH_MODE_VS = 1 << 3,
	KMH_MODE_M = 1 << 4,
	KMH_MODES_ALL = 0x1f,
	KMH_MODES_DEFAULT = KMH_MODE_U | KMH_MODE_S | KMH_MODE_VU | KMH_MODE_VS,
};

/* Parse perf-style modifier letters (u k m H G) into a set of counted modes.
 * An empty string gives KMH_MODES_DEFAULT. */
int kmh_modifiers_parse(const char *mods, unsigned *modes, struct hpm_diag *err);
/* INH bits (bits 62:58) that leave exactly `modes` counted. */
uint64_t kmh_modes_to_inh(unsigned modes);
unsigned kmh_inh_to_modes(uint64_t mhpmevent);
/* Shortest modifier string that selects `modes` ("" for the default), or
 * NULL when no letters select exactly that set. */
const char *kmh_modes_to_modifiers(unsigned modes, char buf[8]);
/* "U,S,VU,VS" style list; "none" when empty. */
const char *kmh_modes_str(unsigned modes, char buf[24]);

/* ------------------------------------------------------------- encoding */

enum kmh_leaf_kind {
	KMH_LEAF_EVENT, /* one row of a table */
	KMH_LEAF_INDEX, /* BANK:INDEX or a raw index without table knowledge */
};

/* The result of encoding one expression. */
struct kmh_encoding {
	uint64_t value;      /* full mhpmevent value, INH bits included */
	int bank;            /* enum kmh_bank, or KMH_BANK_NONE */
	unsigned modes;      /* counted modes */
	bool modes_given;    /* the expression carried modifiers */
	bool raw;            /* rHEX or perf-style term: fields given by the user */
	unsigned nr_events;  /* used slots */
	char canonical[320]; /* re-encodable expression that gives `value` */
};

/* Encode an event expression (SPEC §1): NAME, BANK:NAME, BANK:INDEX, up to
 * four of those with + | & ^ and parentheses, optional :MODS; or a perf-style
 * term kunminghu/event0=..,op0=../MODS; or rHEX. */
int kmh_encode(const struct kmh_table *t, const char *expr, struct kmh_encoding *enc,
               struct hpm_diag *err);

/* ------------------------------------------------------------- decoding */

struct kmh_decoded {
	uint64_t value;
	bool of;
	unsigned modes;                /* counted modes, from the INH bits */
	unsigned event[KMH_NR_SLOTS];  /* EVENT0..3 */
	unsigned op[KMH_NR_OPS];       /* OP_TYPE0..2 raw values */
	bool op_reserved[KMH_NR_OPS];  /* value outside OR/AND/XOR/ADD */
	unsigned op_hw[KMH_NR_OPS];    /* the op the counter executes for op[]
	                                * (kmh_op_hardware): op[] itself unless
	                                * reserved; expr is written with these */
	unsigned reserved_bits;        /* bits 57:55 */
	const struct kmh_table *table; /* the table names come from */
	int bank;                      /* bank used to name events, or KMH_BANK_NONE */
	const struct kmh_event
	    *ev[KMH_NR_SLOTS]; /* names when the bank is known and the index exists */
	bool index_out_of_range[KMH_NR_SLOTS];
	char expr[320]; /* expression form; names when known */
	bool exact;     /* encoding expr gives back exactly this value */
};

/* Decode any 64-bit value. bank may be KMH_BANK_NONE; when it is, no names
 * are given. Never fails. */
void kmh_decode(const struct kmh_table *t, uint64_t value, int bank, struct kmh_decoded *out);
const char *kmh_op_name(unsigned op);   /* "or", "and", "xor", "add", or NULL if reserved */
const char *kmh_op_symbol(unsigned op); /* "|", "&", "^", "+", or NULL */

/* ----------------------------------------------------------- suggestions */

/* Up to `max` event names closest to `name` (edit distance), written to out.
 * Returns how many. */
unsigned kmh_suggest(const struct kmh_table *t, const char *name, int bank, const char **out,
                     unsigned max);

#endif

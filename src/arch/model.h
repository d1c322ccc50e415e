/* model.h: the PMU-model interface: everything that differs between PMUs.
 *
 * Owns: struct hpm_pmu_model (one PMU model as data plus operations, the way
 * libpfm4's pfmlib_pmu_t is one PMU), struct hpm_event_code (one event as
 * its model encodes it: opaque to every layer above, which only hands it
 * back to the model's operations), what a model is told of the host
 * kernel's perf driver (its format terms and caps by name) and the
 * perf_event_attr fields it fills for one of its events (struct
 * hpm_model_perf_pmu, struct hpm_model_perf_attr, hpm_model_perf_put), and
 * what works on any model: lookups in its fixed counters and generic
 * names, and the validator run over every model's data.
 *
 * Each model lives in a folder of its own (Kunminghu: src/kmh) that
 * implements this interface, and is listed once in the registry
 * (registry/models.h); nothing above the registry names a model. Like the rest
 * of the libraries, a model never prints and never exits: a fallible
 * operation returns 0 or a negative HPM_MODEL_E* code with a one-line
 * message.
 */
#ifndef HPM_ARCH_MODEL_H
#define HPM_ARCH_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/diag.h"

#define HPM_MODEL_TEXT_MAX 320

/* What a model's operation returns besides 0. */
enum hpm_model_errcode {
	HPM_MODEL_EUNKNOWN = -1, /* the text names no event of this model: the
	                          * caller may try another namespace */
	HPM_MODEL_EINVAL = -2,   /* it is this model's syntax, but wrong (the
	                          * message says why) */
	HPM_MODEL_ENOTSUP = -3,  /* the model has no such operation */
	HPM_MODEL_ESYNTAX = -4,  /* not the model's syntax at all: like EUNKNOWN,
	                          * another namespace may take the text */
};

/* "unknown event", "invalid event", ... as libpfm4's pfm_strerror. */
const char *hpm_model_strerror(int code);

/* What went wrong, for the one error line the CLI prints, is a struct
 * hpm_diag (util/diag.h): code an enum hpm_model_errcode, column the place
 * in the text (0: none), msg a sentence without the text itself. */

struct json_t;       /* jansson's, for the JSON form of a decoded value */
struct metric_table; /* metric/metric.h's: the model's metrics as data */

struct hpm_pmu_model;

/* One event as its model encoded it. Only the model reads value,
 * constraint and modes; the layers above copy it, compare it and give it
 * back to the model. */
struct hpm_event_code {
	const struct hpm_pmu_model *model;
	uint64_t value;                     /* the event-select register (Kunminghu: mhpmevent) */
	int constraint;                     /* which counters may take it, the model's numbering
	                                     * (Kunminghu: the bank); -1 any or unknown */
	int fixed;                          /* >= 0: index of model->fixed[] (a fixed counter),
	                                     * value and constraint unused; -1 otherwise */
	unsigned modes;                     /* privilege modes it counts, the model's bits */
	bool modes_given;                   /* the text carried modifiers */
	bool raw;                           /* given as register fields, not by name */
	unsigned nr_events;                 /* events combined in the one counter */
	char canonical[HPM_MODEL_TEXT_MAX]; /* text that encodes back to value */
};

/* A counter outside the programmable ones (RISC-V mcycle and minstret). */
struct hpm_model_fixed {
	const char *name;        /* "mcycle" */
	const char *description; /* for hpmstat list */
	const char *where;       /* for hpmstat list: "csr:0xb00" */
	unsigned counter;        /* its counter number (mcycle 0, minstret 2) */
	const char *generic;     /* perf's generic event it is ("cycles"), or NULL */
	/* The model's own event it counts when a metric names that event, or
	 * NULL: Arm's CPU_CYCLES, which Linux's arm_pmuv3 driver puts on the
	 * cycle counter PMCCNTR_EL0, so Topdown keeps the six event counters
	 * for the other events. */
	const char *event;
};

/* perf's generic names as the model's emulator counts them. */
struct hpm_model_generic {
	const char *generic; /* "branches" */
	const char *event;   /* the model's expression ("BpInstr"), or NULL */
	int fixed;           /* when event is NULL: index of model->fixed[] */
};

/* One row of the model's event tables, for listing and validation. */
struct hpm_model_event {
	const char *name;
	const char *topic; /* Kunminghu: the bank */
	const char *brief;
	const char *description;
	uint64_t code;        /* what name encodes to */
	int constraint;       /* its class (Kunminghu: bank), -1 none */
	char where[48];       /* for hpmstat list: "frontend:5", "memblock:1+10+19" */
	char encoding[32];    /* perf's EventCode of the row: "0x5" */
	const char *alias_of; /* another name of this event or alias, or NULL */
	bool deprecated;      /* a name kept from an older table (perf's Deprecated) */
	bool undefined;       /* listed, but the hardware cannot count it: encode
	                       * refuses it (Kunminghu's cache 68) */
	char note[200];       /* what the hardware counts where the name misleads
	                       * (always 0, another event's signal), or "" */
};

/* One register value decoded (see decode below). */
struct hpm_model_decoded {
	uint64_t value;
	char expr[HPM_MODEL_TEXT_MAX];
	bool exact;
	bool problem; /* the PMU cannot take the value as it is (Arm: a field the core has
	               * not got, a reserved combination, RES0 bits; each a problem= word in
	               * fields): decode prints it and exits 1 */
	char fields[1024];
};

/* How the model names its counters and their classes, for the CLI's
 * --bank/--counter and its messages ("bank", "mhpmcounter", 3..31). */
struct hpm_model_counters {
	const char *class_word;     /* "bank" */
	const char *counter_prefix; /* "mhpmcounter" */
	unsigned first, last;       /* programmable counter numbers */
};

/* One format term of the driver's PMU (sysfs format/NAME: "config1:5-16"):
 * where a term's value goes in the perf_event_attr. */
struct hpm_model_perf_format {
	unsigned field;   /* 0 config, 1 config1, 2 config2 */
	uint64_t mask;    /* the bits of that field the term covers */
	unsigned lo, hi;  /* its lowest and highest bit */
	const char *text; /* as read: "config1:5-16" */
};

/* What the host kernel's perf driver for the model's PMU offers, as the
 * perf back end found it in sysfs and procfs: what a model needs to build
 * a perf_event_attr that this kernel takes as meant. The strings belong to
 * the caller and live for the call. */
struct hpm_model_perf_pmu {
	uint32_t type;               /* the PMU's perf type */
	uint64_t event_mask;         /* the config bits format/event covers */
	const char *event_format;    /* format/event as read: "config:0-47" */
	bool has_counter_mask;       /* a format term takes the counters an event may use */
	unsigned counter_mask_field; /* the attr field of that term: 0 config, 1 config1,
	                              * 2 config2 */
	unsigned counter_mask_lo;    /* its lowest bit: counter n is bit lo + n */
	uint64_t counter_mask_bits;  /* the bits of that field the term covers */
	unsigned kernel_version;     /* major * 1000 + minor; 0 when not known */
	const char *kernel_release;  /* "6.6.0-riscv64"; "" when not known */
	int mode_filtering;          /* 1/0: whether the core can filter counting by
	                              * privilege mode (RISC-V: Sscofpmf in cpuinfo's isa
	                              * line; without it the driver takes no exclude_*
	                              * flag); -1 when not known */
	const char *pmu_name;        /* the PMU's sysfs name ("cpu"); "" when not known */
	/* The driver's format/TERM by name: whether it has one, and where it
	 * goes. NULL, or false for every term, when not known. */
	bool (*format)(const struct hpm_model_perf_pmu *pmu, const char *term,
	               struct hpm_model_perf_format *out);
	/* The driver's caps/NAME as a number (sysfs writes "0x00000008" or
	 * "8"): whether the file exists and reads as one. NULL when not known. */
	bool (*cap)(const struct hpm_model_perf_pmu *pmu, const char *name, uint64_t *value);
	const void *ctx; /* the back end's, for format and cap */
};

/* The perf_event_attr fields a model fills for one of its events. */
struct hpm_model_perf_attr {
	uint32_t type;
	uint64_t config, config1, config2;
	bool exclude_user, exclude_kernel, exclude_hv, exclude_host, exclude_guest;
	bool pinned;                  /* the counter-mask term holds the counters it may use */
	bool unpinned;                /* it may use some counters only, and the driver
	                               * cannot be told which: the firmware places it */
	const char *unpinned_warning; /* when unpinned: why that may count the wrong
	                               * event, for a one-time warning (static text) */
	unsigned extra_modes;         /* modes (the model's bits) counted beyond those
	                               * asked, which the driver cannot exclude */
	bool absent; /* refused, but an optional event: a row says so, the run goes on */
};

/* Puts value into the bits of format f of *a (lowest bit first, as perf
 * spreads a term's value over its bits): false, and *a unchanged, when
 * value does not fit. */
bool hpm_model_perf_put(struct hpm_model_perf_attr *a, const struct hpm_model_perf_format *f,
                        uint64_t value);
/* value spread over the bits of mask, lowest first, into *out (|=); false
 * when value has more bits than mask. */
bool hpm_model_perf_deposit(uint64_t value, uint64_t mask, uint64_t *out);

struct hpm_pmu_model {
	const char *name;        /* "kunminghu": run files, --pmu, PMU/TERMS/ */
	const char *display;     /* "Kunminghu (kunminghu-v2)": headings */
	const char *description; /* "XiangShan Kunminghu (RISC-V)" */
	const char *arch;        /* "riscv", "arm64" */
	/* The model's own data, for operations that several models share (the
	 * Arm cores: one set of operations over each core's tables). Every
	 * operation takes the model as its first argument, as libpfm4's take
	 * their pmu, whether it reads the tables or not. */
	const void *data;

	/* ------------------------------------------------ detection */
	/* Whether `cpuid` (perf's: "0x0-0x19-0x0" from mvendorid, marchid
	 * and mimpid; MIDR on Arm) is a core of this model. */
	bool (*match_cpuid)(const struct hpm_pmu_model *m, const char *cpuid);

	/* ------------------------------------------------ events */
	/* Encodes `text` (a name, an expression, raw fields; with or without
	 * modifiers). The fixed counters are the caller's (fixed[]). */
	int (*encode)(const struct hpm_pmu_model *m, const char *text, struct hpm_event_code *out,
	              struct hpm_diag *err);
	/* Up to max names of this model closest to name; how many. */
	unsigned (*suggest)(const struct hpm_pmu_model *m, const char *name, const char **out,
	                    unsigned max);
	/* The event rows, in listing order (i < nr_events()). */
	unsigned (*nr_events)(const struct hpm_pmu_model *m);
	void (*event_at)(const struct hpm_pmu_model *m, unsigned i, struct hpm_model_event *out);
	/* Adds the model's own keys of row i to hpmstat list --json's object,
	 * in two places of its key order: after "kind" (Kunminghu: bank,
	 * index, counters) and after the descriptions (alias_of, indices). */
	void (*event_json)(const struct hpm_pmu_model *m, unsigned i, struct json_t *obj,
	                   bool after_description);

	/* One line on what the hardware counts for c where a name in it
	 * misleads (an event wired to 0, to another event's signal, an index
	 * the hardware cannot reach), for the note a run prints when it
	 * programs c; NULL when c counts what it says. *warning: the count is
	 * undefined, not only other than the name says. NULL: no such facts. */
	const char *(*event_note)(const struct hpm_pmu_model *m, const struct hpm_event_code *c,
	                          char *buf, size_t len, bool *warning);

	/* The event-select register value for people: `expr` encodes back to
	 * value when `exact`; `fields` is one line of KEY=VALUE words (hpmstat
	 * decode's text). constraint may be -1 (then no names are given). */
	void (*decode)(const struct hpm_pmu_model *m, uint64_t value, int constraint,
	               struct hpm_model_decoded *out);
	/* The same as a new JSON object (hpmstat decode --json). */
	struct json_t *(*decode_json)(const struct hpm_pmu_model *m, uint64_t value,
	                              int constraint);

	/* ------------------------------------------------ privilege modes */
	/* perf's modifier letters into the model's mode bits. */
	int (*parse_modifiers)(const struct hpm_pmu_model *m, const char *mods, unsigned *modes,
	                       struct hpm_diag *err);
	/* "U,S,VU,VS"-style words for a set of modes. */
	const char *(*modes_str)(const struct hpm_pmu_model *m, unsigned modes, char *buf,
	                         size_t len);
	/* --all-user / --all-kernel: the modes of c (or modes_default when it
	 * gave none) kept at the user (true) or kernel level only, whatever
	 * the other states (host, guest) were; the register value re-encoded
	 * for a programmable event. */
	void (*restrict_level)(const struct hpm_pmu_model *m, struct hpm_event_code *c, bool user);
	unsigned modes_default; /* what an event without modifiers counts */
	unsigned modes_all;     /* every mode a counter can count in */

	/* ------------------------------------------------ counters */
	const struct hpm_model_fixed *fixed;
	unsigned nr_fixed;
	struct hpm_model_counters counters;
	unsigned nr_constraints; /* classes 0..nr-1 */
	/* The name of a constraint class ("backend"), NULL when none. */
	const char *(*constraint_name)(const struct hpm_pmu_model *m, int constraint);
	/* The counters class c may use (first..last). */
	void (*constraint_counters)(const struct hpm_pmu_model *m, int constraint, unsigned *first,
	                            unsigned *last);
	/* The class that counter n sees, -1 when n is no programmable counter. */
	int (*constraint_of_counter)(const struct hpm_pmu_model *m, unsigned n);
	/* Optional: the index in fixed[] of a fixed counter that counts c as
	 * well as a counter of its class does, or -1 (Arm: CPU_CYCLES with no
	 * field PMCCFILTR_EL0 lacks goes on PMCCNTR_EL0, as Linux's arm_pmuv3
	 * puts it there while it is free; core/sched.h's rule 0). NULL: none. */
	int (*fixed_alt)(const struct hpm_pmu_model *m, const struct hpm_event_code *c);
	/* Whether a and b can be counted in one counter as their hardware sum,
	 * and that sum (Kunminghu: the ADD of two events of one bank). */
	bool (*merge)(const struct hpm_pmu_model *m, const struct hpm_event_code *a,
	              const struct hpm_event_code *b, struct hpm_event_code *sum);

	/* perf stat's -d, -dd, -ddd asked of this model's events: three
	 * comma-separated event lists (hpmstat-stat(1) lists them) */
	const char *detailed[3];

	/* ------------------------------------------------ kernel driver */
	/* The perf_event_attr that counts c through the host kernel's driver
	 * pmu describes (its mapping of modes to exclude_* flags, the counter
	 * mask, what the driver cannot take). optional: a refusal because this
	 * kernel cannot take c sets out->absent. Returns 0, or HPM_MODEL_EINVAL
	 * with a message that goes after the event's quoted text ("counts
	 * M-mode, ..."). NULL: the model's events are not counted by perf. */
	int (*perf_attr)(const struct hpm_pmu_model *m, const struct hpm_event_code *c,
	                 bool optional, const struct hpm_model_perf_pmu *pmu,
	                 struct hpm_model_perf_attr *out, struct hpm_diag *err);
	/* Which of the kernel's drivers (by version) perf_attr programs for
	 * pmu, in words, for notes. */
	const char *(*perf_driver)(const struct hpm_pmu_model *m,
	                           const struct hpm_model_perf_pmu *pmu);

	/* ------------------------------------------------ emulator */
	const struct hpm_model_generic *generic;
	unsigned nr_generic;

	/* ------------------------------------------------ metrics */
	/* Its metrics and Topdown tree (generated from the model's metrics
	 * JSON by src/gen/metrics2c.c), NULL when it has none. */
	const struct metric_table *metrics;
};

/* The model's fixed counter called name (the base of a spec, before ':'),
 * its index, or -1. */
int hpm_model_fixed_by_name(const struct hpm_pmu_model *m, const char *name, size_t len);
/* The model's fixed counter numbered `counter` (mcycle: 0), its index, or -1. */
int hpm_model_fixed_by_counter(const struct hpm_pmu_model *m, unsigned counter);
/* The model's fixed counter that is perf's generic event name ("cycles"),
 * its index, or -1. */
int hpm_model_fixed_by_generic(const struct hpm_pmu_model *m, const char *name);
/* Whether c is a fixed counter that is perf's generic event `generic`
 * ("cycles", "instructions"): what the layers above need to know of a
 * fixed counter, whatever its index in its model's fixed[]. */
bool hpm_model_fixed_is(const struct hpm_event_code *c, const char *generic);
/* The model's fixed counter that counts its event `name` for metrics
 * (struct hpm_model_fixed's event; case ignored, as event names are), its
 * index, or -1. */
int hpm_model_fixed_by_event(const struct hpm_pmu_model *m, const char *name);
/* The model's mapping of perf's generic name (len bytes of name), or NULL. */
const struct hpm_model_generic *hpm_model_generic(const struct hpm_pmu_model *m, const char *name,
                                                  size_t len);

/* What the model's emulator counts for perf's generic name (the model's
 * event expression or fixed counter name: "BpInstr", "mcycle"), or NULL. */
const char *hpm_model_generic_name(const struct hpm_pmu_model *m, const char *generic);
/* The names of the model's fixed counters joined by sep ("mcycle,minstret",
 * "mcycle and minstret") into buf; buf. */
const char *hpm_model_fixed_list(const struct hpm_pmu_model *m, const char *sep, char *buf,
                                 size_t len);

/* Checks a model's data and operations against each other: every listed
 * event encodes to its code and back to its name's row, names are unique,
 * fixed and generic entries point at real rows. Returns how many problems
 * were found, the first in err. Run over every model by the tests. */
unsigned hpm_model_validate(const struct hpm_pmu_model *m, char *err, size_t errlen);

#endif

/* arm64.h: the Arm PMUv3 event library: expressions into PMEVTYPER<n>_EL0
 * values and back.
 *
 * Owns: the error codes and struct hpm_diag of the Arm library, the
 * caller's event-name callbacks (struct arm64_names: the event tables are
 * not this library's), the expression encoder (expr.c, grammar there and
 * in hpmstat-events(7), "Arm PMUv3") and the decoder that gives any value
 * a canonical expression and says whether it encodes back exactly. The
 * library never prints and never exits: a fallible call returns 0 or a
 * negative ARM64_E* code, with a one-line message and the 0-based column
 * of the offending term in struct hpm_diag.
 */
#ifndef HPM_ARM64_ARM64_H
#define HPM_ARM64_ARM64_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arm64/pmevtyper.h"
#include "util/diag.h"

enum arm64_errcode {
	ARM64_OK = 0,
	ARM64_ESYNTAX = -1,   /* malformed expression */
	ARM64_EUNKNOWN = -2,  /* unknown event name (the caller may suggest names) */
	ARM64_ERANGE = -3,    /* a number too large for its field */
	ARM64_ERESERVED = -4, /* a combination the Arm ARM reserves */
	ARM64_ETERM = -5,     /* unknown, repeated or contradictory term */
	ARM64_EFEATURE = -6,  /* needs a feature the core does not have */
	ARM64_EEMPTY = -7,    /* empty expression */
};

/* Errors are a struct hpm_diag (util/diag.h): code an enum arm64_errcode,
 * column that of the offending term (0: none), msg one sentence (quotes of
 * the input are sanitized). */

/* "unknown event", "reserved combination", ... */
const char *arm64_strerror(int code);

/* The caller's event table. Both callbacks may be NULL (numbers only). */
struct arm64_names {
	/* Whether `name` (as written: compare without regard to case, as
	 * perf's arm64 event names are) is an event; its number in *number. */
	bool (*lookup)(void *data, const char *name, uint16_t *number);
	/* The name of event `number`, or NULL; what decode writes. */
	const char *(*name_of)(void *data, uint16_t number);
	void *data;
};

struct arm64_encoding {
	uint64_t value;           /* the PMEVTYPER<n>_EL0 value */
	struct arm64_pmevtyper t; /* its fields */
	bool modes_given;         /* the expression carried perf letters */
	bool raw;                 /* the event was given as a number */
	char canonical[320];      /* the canonical spelling of value */
};

/* Encodes `expr` for a core described by ctx (NULL: ARM64_CTX_ANY). */
int arm64_encode(const char *expr, const struct arm64_ctx *ctx, const struct arm64_names *names,
                 struct arm64_encoding *enc, struct hpm_diag *err);

struct arm64_decoded {
	uint64_t value;
	struct arm64_pmevtyper t;
	const char *name;   /* the event's name from names->name_of, or NULL */
	char expr[320];     /* canonical expression */
	bool exact;         /* encoding expr under ctx gives back exactly value */
	unsigned nr_issues; /* reserved combinations, RES0 bits, missing features */
	struct arm64_issue issues[ARM64_MAX_ISSUES];
	uint64_t implemented; /* the bits the core implements (arm64_pmevtyper_implemented):
	                       * a field outside them is RES0 there */
	char rule[240];       /* the counting rule in words: what the core counts, the
	                       * value without the bits it does not implement */
};

/* Decodes any 64-bit value (ctx NULL: ARM64_CTX_ANY). Never fails. */
void arm64_decode(uint64_t value, const struct arm64_ctx *ctx, const struct arm64_names *names,
                  struct arm64_decoded *out);

#endif

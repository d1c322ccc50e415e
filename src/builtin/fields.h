/* fields.h: what encode and decode share: one rendering of a decoded
 * event-select value, whatever the PMU model.
 *
 * Owns: the line "0xVALUE  EXPRESSION  FIELDS", the one-line JSON object,
 * the one error line of an item, and the choice of the model the two
 * commands speak (the first registered one until --pmu exists).
 */
#ifndef HPM_BUILTIN_FIELDS_H
#define HPM_BUILTIN_FIELDS_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "arch/model.h"

/* The model encode and decode use. */
const struct hpm_pmu_model *fields_model(void);
/* The class of m's counters called name (--bank), or -1 after the one
 * error line that lists the classes there are. */
int fields_class_by_name(const struct hpm_pmu_model *m, const char *name);
/* "0x%016llx  TEXT  FIELDS\n": TEXT is the input's canonical spelling (encode)
 * or the decoded expression (decode). */
void fields_print_text(FILE *out, uint64_t value, const char *text,
                       const struct hpm_model_decoded *d);
/* Prints one JSON object on one line; returns 0 or -1 when it cannot. */
int fields_print_json_line(FILE *out, json_t *obj);
/* "hpmstat CMD: 'INPUT': column N: message", the one error line of an item. */
void fields_report_error(const char *input, const struct hpm_model_error *err);

#endif

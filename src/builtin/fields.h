/* fields.h: what encode and decode share: one rendering of a decoded
 * event-select value, whatever the PMU model.
 *
 * Owns: the line "0xVALUE  EXPRESSION  FIELDS", the one-line JSON object,
 * the one error line of an item, and the choice of the model the two
 * commands speak (the first registered one, or --pmu MODEL; --arch arm64
 * alone: the first Arm model, the architectural view).
 */
#ifndef HPM_BUILTIN_FIELDS_H
#define HPM_BUILTIN_FIELDS_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "arch/model.h"

/* The model encode and decode use without --pmu or --arch. */
const struct hpm_pmu_model *fields_model(void);
/* The model called name (--pmu), or NULL after the one error line that
 * lists the known ones. */
const struct hpm_pmu_model *fields_model_by_name(const char *name);
/* The architecture's own model where it has one (arm64: every standard
 * event and field of the newest PMUv3), else its first model (--arch:
 * "riscv", "arm64"); NULL after the one error line that lists the known
 * architectures. */
const struct hpm_pmu_model *fields_model_by_arch(const char *arch);
/* The model of --pmu and --arch (each may be NULL; both: the model must be
 * of that arch), or NULL after the one error line. */
const struct hpm_pmu_model *fields_model_for(const char *pmu, const char *arch);
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
void fields_report_error(const char *input, const struct hpm_diag *err);

#endif

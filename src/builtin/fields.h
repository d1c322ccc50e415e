/* fields.h: one rendering of a decoded mhpmevent, shared by encode and decode.
 *
 * Owns: the one-line text breakdown and the JSON object of a kmh_decoded, so
 * both commands describe a value the same way.
 */
#ifndef HPM_BUILTIN_FIELDS_H
#define HPM_BUILTIN_FIELDS_H

#include <stdio.h>

#include <jansson.h>

#include "kmh/kmh.h"

/* "bank=.. counters=.. E0=.. ... modes=.." without the leading value. */
void fields_print_text(FILE *out, const struct kmh_decoded *d);
/* The fields as a new JSON object (value, bank, counters, events, ops,
 * modes, INH bits, OF, reserved, expression). */
json_t *fields_to_json(const struct kmh_decoded *d);
/* Prints one JSON object on one line; returns 0 or -1 when it cannot. */
int fields_print_json_line(FILE *out, json_t *obj);
/* "hpmstat CMD: 'INPUT': column N: message", the one error line of an item. */
void fields_report_error(const char *input, const struct kmh_error *err);

#endif

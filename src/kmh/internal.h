/* internal.h: what the files of src/kmh share and nobody else may use. */
#ifndef HPM_KMH_INTERNAL_H
#define HPM_KMH_INTERNAL_H

#include <stdbool.h>

#include "kmh/kmh.h"

/* kmh_decode without the exactness check (which itself encodes). */
void kmh_decode_fields(const struct kmh_table *t, uint64_t value, int bank, struct kmh_decoded *d);
/* kmh_encode; with want_canonical false it leaves enc->canonical empty and
 * so never recurses through the decoder. */
int kmh_encode_impl(const struct kmh_table *t, const char *expr, struct kmh_encoding *enc,
                    struct hpm_diag *err, bool want_canonical);

/* describe.c: the decoded value as hpmstat decode's one line of KEY=VALUE
 * words, and as a new JSON object (the model's decode operations). */
struct json_t;
void kmh_describe_fields(const struct kmh_decoded *d, char *buf, size_t len);
struct json_t *kmh_describe_json(const struct kmh_decoded *d);

/* metrics-gen.c: Kunminghu's metric table, generated from metrics.json. */
struct metric_table;
extern const struct metric_table kmh_metrics;
/* metrics-v3-gen.c: kunminghu-v3's, from its metrics.json with v3's indices. */
extern const struct metric_table kmh_v3_metrics;

#endif

/* fuzz-expr.c: fuzz target for the expression encoder and the decoder.
 *
 * Properties checked on every input, beyond "does not crash": an error has a
 * one-line message and a position inside the input; a successful encoding
 * writes only legal OP_TYPE values from an expression, and its canonical
 * form encodes back to the same value.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kmh/kmh.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char buf[512];
	struct kmh_encoding enc, again;
	struct hpm_diag err;

	if (size >= sizeof(buf))
		size = sizeof(buf) - 1;
	memcpy(buf, data, size);
	buf[size] = '\0';

	if (kmh_encode(&kmh_table_v2, buf, &enc, &err) != 0) {
		if (!err.msg[0] || strchr(err.msg, '\n') ||
		    hpm_diag_offset(&err) > (int)strlen(buf))
			abort();
	} else {
		if (!enc.raw)
			for (unsigned o = 0; o < KMH_NR_OPS; o++)
				if (!kmh_op_is_valid(kmh_mhpmevent_op(enc.value, o)))
					abort();
		if (kmh_encode(&kmh_table_v2, enc.canonical, &again, &err) != 0 ||
		    again.value != enc.value)
			abort();
	}
	/* any 8 bytes are a value to decode under every bank */
	if (size >= 8) {
		uint64_t v;
		struct kmh_decoded d;
		memcpy(&v, data, 8);
		for (int b = KMH_BANK_NONE; b < KMH_NR_BANKS; b++) {
			kmh_decode(&kmh_table_v2, v, b, &d);
			if (d.exact && (kmh_encode(&kmh_table_v2, d.expr, &again, &err) != 0 ||
			                again.value != v))
				abort();
		}
	}
	return 0;
}

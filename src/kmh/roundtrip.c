/* roundtrip.c: a decoded value with the answer to "does its expression
 * encode back to it?".
 *
 * Owns: kmh_decode. The check needs the encoder, and the encoder renders its
 * canonical text with kmh_decode_fields (decode.c); living apart from both
 * keeps decode.c below encode.c with no call running back.
 */
#include "kmh/internal.h"
#include "kmh/kmh.h"

void kmh_decode(const struct kmh_table *t, uint64_t value, int bank, struct kmh_decoded *d)
{
	struct kmh_encoding enc;
	struct hpm_diag err;
	kmh_decode_fields(t, value, bank, d);
	/* Not every value has an exact spelling (OF, bits 57:55, reserved ops,
	 * mode sets no letters select, a noEvent the encoder would drop): the
	 * flag is whether this spelling really gives the value back. */
	d->exact = kmh_encode_impl(t, d->expr, &enc, &err, false) == 0 && enc.value == value;
}

/* describe.c: a Kunminghu mhpmevent value for people, as one line of
 * KEY=VALUE words and as JSON: the decode operations of Kunminghu's PMU
 * model (kmh/model.c), which hpmstat encode and decode print. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "kmh/internal.h"

static const char *const inh_names[] = {"VUINH", "VSINH", "UINH", "SINH", "MINH"}; /* 58..62 */

static void inh_list(uint64_t v, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = '\0';
	for (int bit = 62; bit >= 58; bit--)
		if (v & (UINT64_C(1) << bit))
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "," : "",
			                      inh_names[bit - 58]);
	if (!n)
		snprintf(buf, len, "none");
}

static void slot_text(const struct kmh_decoded *d, unsigned s, char *buf, size_t len)
{
	if (d->ev[s])
		snprintf(buf, len, "%u:%s", d->event[s], kmh_str(d->table, d->ev[s]->name));
	else if (d->bank >= 0)
		snprintf(buf, len, "%u:<out of range for %s>", d->event[s],
		         d->table->banks[d->bank].name);
	else
		snprintf(buf, len, "%u", d->event[s]);
}

/* Appends to buf (a line that would not fit is cut, never overrun). */
struct line {
	char *buf;
	size_t len, n;
};

static void put(struct line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct line *l, const char *fmt, ...)
{
	if (l->n >= l->len)
		return;
	va_list ap;
	va_start(ap, fmt);
	int w = vsnprintf(l->buf + l->n, l->len - l->n, fmt, ap);
	va_end(ap);
	if (w > 0)
		l->n += (size_t)w;
}

void kmh_describe_fields(const struct kmh_decoded *d, char *buf, size_t len)
{
	char modes[24], inh[48], mods[8], slot[96];
	struct line l = {buf, len, 0};
	const char *m = kmh_modes_to_modifiers(d->modes, mods);
	buf[0] = '\0';
	if (d->bank >= 0)
		put(&l, "bank=%s counters=%u-%u ", d->table->banks[d->bank].name,
		    d->table->banks[d->bank].first_counter, d->table->banks[d->bank].last_counter);
	for (unsigned s = 0; s < KMH_NR_SLOTS; s++) {
		slot_text(d, s, slot, sizeof(slot));
		put(&l, "E%u=%s ", s, slot);
	}
	for (unsigned o = 0; o < KMH_NR_OPS; o++) {
		if (d->op_reserved[o]) /* and what the counter's op mux makes of it */
			put(&l, "op%u=reserved(0x%x):%s ", o, d->op[o], kmh_op_name(d->op_hw[o]));
		else
			put(&l, "op%u=%s ", o, kmh_op_name(d->op[o]));
	}
	inh_list(d->value, inh, sizeof(inh));
	put(&l, "inh=%s modes=%s", inh, kmh_modes_str(d->modes, modes));
	if (m && *m)
		put(&l, " modifiers=:%s", m);
	if (d->of)
		put(&l, " OF=1");
	if (d->reserved_bits)
		put(&l, " reserved[57:55]=0x%x", d->reserved_bits);
	if (!d->exact)
		put(&l, " inexact"); /* the expression does not give this value back */
}

json_t *kmh_describe_json(const struct kmh_decoded *d)
{
	char hex[24], modes_buf[8];
	json_t *obj = json_object();
	snprintf(hex, sizeof(hex), "0x%016llx", (unsigned long long)d->value);
	json_object_set_new(obj, "value", json_string(hex));
	json_object_set_new(obj, "expression", json_string(d->expr));
	json_object_set_new(obj, "exact", json_boolean(d->exact));
	if (d->bank >= 0) {
		const struct kmh_bank_desc *b = &d->table->banks[d->bank];
		json_t *ctr = json_array();
		for (unsigned c = b->first_counter; c <= b->last_counter; c++)
			json_array_append_new(ctr, json_integer(c));
		json_object_set_new(obj, "bank", json_string(b->name));
		json_object_set_new(obj, "counters", ctr);
	} else {
		json_object_set_new(obj, "bank", json_null());
	}
	json_t *events = json_array();
	for (unsigned s = 0; s < KMH_NR_SLOTS; s++) {
		json_t *e = json_pack("{s:i, s:i}", "slot", (int)s, "index", (int)d->event[s]);
		if (d->ev[s])
			json_object_set_new(e, "name",
			                    json_string(kmh_str(d->table, d->ev[s]->name)));
		else if (d->bank >= 0)
			json_object_set_new(e, "out_of_range", json_true());
		json_array_append_new(events, e);
	}
	json_object_set_new(obj, "events", events);
	json_t *ops = json_array();
	for (unsigned o = 0; o < KMH_NR_OPS; o++) {
		const char *n = kmh_op_name(d->op[o]);
		json_array_append_new(
		    ops, json_pack("{s:i, s:i, s:s, s:b, s:s}", "field", (int)o, "value",
		                   (int)d->op[o], "name", n ? n : "reserved", "reserved",
		                   d->op_reserved[o], "hardware", kmh_op_name(d->op_hw[o])));
	}
	json_object_set_new(obj, "ops", ops);
	json_t *inh = json_object();
	for (int bit = 62; bit >= 58; bit--)
		json_object_set_new(inh, inh_names[bit - 58],
		                    json_boolean(d->value & (UINT64_C(1) << bit)));
	json_object_set_new(obj, "inh", inh);
	json_t *modes = json_array();
	static const struct {
		unsigned bit;
		const char *name;
	} mode_names[] = {{KMH_MODE_U, "U"},
	                  {KMH_MODE_S, "S"},
	                  {KMH_MODE_VU, "VU"},
	                  {KMH_MODE_VS, "VS"},
	                  {KMH_MODE_M, "M"}};
	for (unsigned i = 0; i < 5; i++)
		if (d->modes & mode_names[i].bit)
			json_array_append_new(modes, json_string(mode_names[i].name));
	json_object_set_new(obj, "modes", modes);
	const char *m = kmh_modes_to_modifiers(d->modes, modes_buf);
	json_object_set_new(obj, "modifiers", m ? json_string(m) : json_null());
	json_object_set_new(obj, "of", json_boolean(d->of));
	json_object_set_new(obj, "reserved_bits", json_integer(d->reserved_bits));
	return obj;
}

/* fields.c: see fields.h. */
#include <stdlib.h>
#include <string.h>

#include "builtin/builtin.h"
#include "builtin/fields.h"
#include "util/str.h"

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
		snprintf(buf, len, "%u:%s", d->event[s], d->ev[s]->name);
	else if (d->bank >= 0)
		snprintf(buf, len, "%u:<out of range for %s>", d->event[s],
		         kmh_banks[d->bank].name);
	else
		snprintf(buf, len, "%u", d->event[s]);
}

void fields_print_text(FILE *out, const struct kmh_decoded *d)
{
	char modes[24], inh[48], mods[8], slot[96];
	const char *m = kmh_modes_to_modifiers(d->modes, mods);

	if (d->bank >= 0)
		fprintf(out, "bank=%s counters=%u-%u ", kmh_banks[d->bank].name,
		        kmh_banks[d->bank].first_counter, kmh_banks[d->bank].last_counter);
	for (unsigned s = 0; s < KMH_NR_SLOTS; s++) {
		slot_text(d, s, slot, sizeof(slot));
		fprintf(out, "E%u=%s ", s, slot);
	}
	for (unsigned o = 0; o < KMH_NR_OPS; o++) {
		if (d->op_reserved[o])
			fprintf(out, "op%u=reserved(0x%x) ", o, d->op[o]);
		else
			fprintf(out, "op%u=%s ", o, kmh_op_name(d->op[o]));
	}
	inh_list(d->value, inh, sizeof(inh));
	fprintf(out, "inh=%s modes=%s", inh, kmh_modes_str(d->modes, modes));
	if (m && *m)
		fprintf(out, " modifiers=:%s", m);
	if (d->of)
		fputs(" OF=1", out);
	if (d->reserved_bits)
		fprintf(out, " reserved[57:55]=0x%x", d->reserved_bits);
	if (!d->exact)
		fputs(" inexact", out); /* the expression does not give this value back */
	fputc('\n', out);
}

json_t *fields_to_json(const struct kmh_decoded *d)
{
	char hex[24], modes_buf[8];
	json_t *obj = json_object();
	snprintf(hex, sizeof(hex), "0x%016llx", (unsigned long long)d->value);
	json_object_set_new(obj, "value", json_string(hex));
	json_object_set_new(obj, "expression", json_string(d->expr));
	json_object_set_new(obj, "exact", json_boolean(d->exact));
	if (d->bank >= 0) {
		const struct kmh_bank_desc *b = &kmh_banks[d->bank];
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
			json_object_set_new(e, "name", json_string(d->ev[s]->name));
		else if (d->bank >= 0)
			json_object_set_new(e, "out_of_range", json_true());
		json_array_append_new(events, e);
	}
	json_object_set_new(obj, "events", events);
	json_t *ops = json_array();
	for (unsigned o = 0; o < KMH_NR_OPS; o++) {
		const char *n = kmh_op_name(d->op[o]);
		json_array_append_new(
		    ops, json_pack("{s:i, s:i, s:s, s:b}", "field", (int)o, "value", (int)d->op[o],
		                   "name", n ? n : "reserved", "reserved", d->op_reserved[o]));
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

int fields_print_json_line(FILE *out, json_t *obj)
{
	char *s = json_dumps(obj, JSON_COMPACT | JSON_PRESERVE_ORDER);
	if (!s)
		return -1;
	fputs(s, out);
	fputc('\n', out);
	free(s);
	return 0;
}

void fields_report_error(const char *input, const struct kmh_error *err)
{
	char quoted[256];
	str_escape(input, quoted, sizeof(quoted));
	if (err->pos >= 0)
		cli_error("'%s': column %d: %s", quoted, err->pos + 1, err->msg);
	else
		cli_error("'%s': %s", quoted, err->msg);
}

/* decode.c: any 64-bit value back into mhpmevent fields and an expression.
 *
 * Owns: the rendering of an mhpmevent as the expression grammar of SPEC §1,
 * which is also the encoder's canonical form, so decode(encode(x)) encodes
 * back to the same value. Whether a spelling is exact (kmh_decode) needs the
 * encoder and lives in roundtrip.c.
 */
#include <stdio.h>
#include <string.h>

#include "kmh/internal.h"
#include "kmh/kmh.h"

static const char *const op_names[32] = {
    [KMH_OP_OR] = "or",
    [KMH_OP_AND] = "and",
    [KMH_OP_XOR] = "xor",
    [KMH_OP_ADD] = "add",
};
static const char *const op_symbols[32] = {
    [KMH_OP_OR] = "|",
    [KMH_OP_AND] = "&",
    [KMH_OP_XOR] = "^",
    [KMH_OP_ADD] = "+",
};

const char *kmh_op_name(unsigned op)
{
	return op < 32 ? op_names[op] : NULL;
}

const char *kmh_op_symbol(unsigned op)
{
	return op < 32 ? op_symbols[op] : NULL;
}

/* x op 0 == x for these; AND is the one op that a zero operand annihilates */
static bool op_keeps_zero_identity(unsigned op)
{
	return op == KMH_OP_OR || op == KMH_OP_XOR || op == KMH_OP_ADD;
}

struct side {
	char text[140];
	unsigned nr; /* events rendered */
	unsigned op; /* joining op when nr == 2 */
};

static void slot_name(const struct kmh_decoded *d, unsigned slot, char *buf, size_t len)
{
	unsigned idx = d->event[slot];
	if (idx == 0)
		snprintf(buf, len, "noEvent");
	else if (d->ev[slot])
		snprintf(buf, len, "%s", kmh_str(d->table, d->ev[slot]->name));
	else
		snprintf(buf, len, "%s:%u", d->table->banks[d->bank].name, idx);
}

/* One side (E0 op0 E1 or E2 op1 E3), with unused zero slots left out where
 * the op makes them neutral. */
static void render_side(const struct kmh_decoded *d, unsigned a, unsigned b, unsigned op,
                        struct side *s)
{
	char na[64], nb[64];
	slot_name(d, a, na, sizeof(na));
	slot_name(d, b, nb, sizeof(nb));
	s->op = op;
	if (d->event[a] == 0 && d->event[b] == 0) {
		s->nr = 0; /* constant 0 whatever the op */
		s->text[0] = '\0';
	} else if (d->event[b] == 0 && op_keeps_zero_identity(op)) {
		s->nr = 1;
		snprintf(s->text, sizeof(s->text), "%s", na);
	} else if (d->event[a] == 0 && op_keeps_zero_identity(op)) {
		s->nr = 1;
		snprintf(s->text, sizeof(s->text), "%s", nb);
	} else {
		s->nr = 2;
		snprintf(s->text, sizeof(s->text), "%s %s %s", na, kmh_op_symbol(op), nb);
	}
}

/* The perf-style term form, for values whose events have no names. */
static void render_term(const struct kmh_decoded *d, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "kunminghu/");
	for (unsigned i = 0; i < KMH_NR_SLOTS; i++)
		if (d->event[i])
			n += (size_t)snprintf(buf + n, len - n, "event%u=0x%x,", i, d->event[i]);
	for (unsigned i = 0; i < KMH_NR_OPS; i++)
		if (d->op_hw[i])
			n += (size_t)snprintf(buf + n, len - n, "op%u=%s,", i,
			                      kmh_op_name(d->op_hw[i]));
	if (buf[n - 1] == ',')
		n--;
	snprintf(buf + n, len - n, "/");
}

static bool alias_matches(const struct kmh_decoded *d, const struct kmh_alias **out)
{
	if (d->bank < 0)
		return false;
	uint64_t sel = d->value & KMH_SELECT_MASK;
	const struct kmh_bank_desc *b = &d->table->banks[d->bank];
	for (unsigned i = 0; i < b->nr_aliases; i++)
		if (b->aliases[i].code == sel) {
			*out = &b->aliases[i];
			return true;
		}
	return false;
}

static void render_expr(struct kmh_decoded *d)
{
	char mods[8], body[300];
	const char *m = kmh_modes_to_modifiers(d->modes, mods);
	const struct kmh_alias *alias;
	bool compound = false;

	bool unnamed = d->bank < 0;
	for (unsigned i = 0; i < KMH_NR_SLOTS; i++)
		if (d->event[i] && !d->ev[i] && d->bank < 0)
			unnamed = true;
	if (unnamed && (d->event[0] | d->event[1] | d->event[2] | d->event[3])) {
		render_term(d, body, sizeof(body));
	} else if (alias_matches(d, &alias)) {
		snprintf(body, sizeof(body), "%s", kmh_str(d->table, alias->name));
	} else {
		struct side l, r;
		/* a reserved OP_TYPE is written as the op the counter executes */
		unsigned op2 = d->op_hw[2];
		render_side(d, 0, 1, d->op_hw[0], &l);
		render_side(d, 2, 3, d->op_hw[1], &r);
		if (r.nr == 0 && op_keeps_zero_identity(op2)) {
			snprintf(body, sizeof(body), "%s", l.nr ? l.text : "noEvent");
			compound = l.nr == 2;
		} else if (l.nr == 0 && op_keeps_zero_identity(op2)) {
			snprintf(body, sizeof(body), "%s", r.text);
			compound = r.nr == 2;
		} else {
			/* Both sides matter: parenthesize a side whose op differs from op2. */
			const char *lt = l.nr ? l.text : "noEvent";
			const char *rt = r.nr ? r.text : "noEvent";
			bool lp = l.nr == 2 && l.op != op2, rp = r.nr == 2 && r.op != op2;
			snprintf(body, sizeof(body), "%s%s%s %s %s%s%s", lp ? "(" : "", lt,
			         lp ? ")" : "", kmh_op_symbol(op2), rp ? "(" : "", rt,
			         rp ? ")" : "");
			compound = true;
		}
	}
	if (!m)
		snprintf(d->expr, sizeof(d->expr), "%s", body);
	else if (!*m)
		snprintf(d->expr, sizeof(d->expr), "%s", body);
	else if (compound)
		snprintf(d->expr, sizeof(d->expr), "(%s):%s", body, m);
	else
		snprintf(d->expr, sizeof(d->expr), "%s:%s", body, m);
}

void kmh_decode_fields(const struct kmh_table *t, uint64_t value, int bank, struct kmh_decoded *d)
{
	memset(d, 0, sizeof(*d));
	d->table = t;
	d->value = value;
	d->bank = bank >= 0 && bank < KMH_NR_BANKS ? bank : KMH_BANK_NONE;
	d->of = (value & KMH_OF) != 0;
	d->modes = kmh_inh_to_modes(value);
	d->reserved_bits = (unsigned)((value & KMH_RESERVED_MASK) >> 55);
	for (unsigned i = 0; i < KMH_NR_SLOTS; i++) {
		d->event[i] = kmh_mhpmevent_event(value, i);
		if (d->bank >= 0) {
			d->ev[i] = kmh_event_by_index(t, d->bank, d->event[i]);
			d->index_out_of_range[i] = d->ev[i] == NULL;
		}
	}
	for (unsigned i = 0; i < KMH_NR_OPS; i++) {
		d->op[i] = kmh_mhpmevent_op(value, i);
		d->op_reserved[i] = !kmh_op_is_valid(d->op[i]);
		d->op_hw[i] = kmh_op_hardware(d->op[i]);
	}
	render_expr(d);
}

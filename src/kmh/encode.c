/* encode.c: event expressions into mhpmevent values (SPEC §1).
 *
 * Owns: the expression grammar, its parser, and the mapping of a parsed
 * expression onto the hardware tree (E0 op0 E1) op2 (E2 op1 E3).
 *
 * All four ops are associative and commutative (ADD modulo 64 too), so the
 * parser flattens chains of one op and the mapper may reorder operands: the
 * top op's operands are packed into two sides of at most two events each.
 * Unused slots are 0 (noEvent) joined by OR, which leaves a value unchanged;
 * AND is never put next to an unused slot.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "kmh/internal.h"
#include "kmh/kmh.h"
#include "util/str.h"

#define MAX_NODES 64 /* parse tree nodes; far beyond 4 events, bounds hostile input */
#define MAX_DEPTH 32 /* parenthesis nesting */

struct node {
	bool leaf;
	unsigned op; /* op nodes: enum kmh_op */
	unsigned nkids;
	unsigned kids[MAX_NODES];
	int pos;          /* offset of the token that made it */
	int bank;         /* leaves: bank or KMH_BANK_NONE (noEvent) */
	unsigned index;   /* leaves */
	const char *name; /* leaves: table name, for messages */
};

struct parser {
	const struct kmh_table *t; /* the table names are looked up in */
	const char *src;
	const char *p;
	struct node nodes[MAX_NODES];
	unsigned nnodes;
	unsigned depth;
	const char *mods; /* first modifier string seen, into src */
	size_t mods_len;
	int mods_pos;
	unsigned modes;  /* what the first modifier string selects */
	bool alias_used; /* an alias expanded into several leaves */
	struct hpm_diag *err;
};

static int pos_of(const struct parser *ps)
{
	return (int)(ps->p - ps->src);
}

static void skip_space(struct parser *ps)
{
	while (isspace((unsigned char)*ps->p))
		ps->p++;
}

static int new_node(struct parser *ps, unsigned *id)
{
	if (ps->nnodes == MAX_NODES)
		return hpm_diag_fail(
		    ps->err, KMH_ETOOMANY, pos_of(ps),
		    "expression is far too long: an mhpmevent combines at most 4 events");
	*id = ps->nnodes++;
	memset(&ps->nodes[*id], 0, sizeof(ps->nodes[*id]));
	ps->nodes[*id].pos = pos_of(ps);
	return 0;
}

static bool is_ident_start(int c)
{
	return isalpha(c) || c == '_';
}

static bool is_ident_char(int c)
{
	return isalnum(c) || c == '_' || c == '.';
}

/* Copies an identifier (or number) token into buf; returns its length. */
static size_t read_word(struct parser *ps, char *buf, size_t len)
{
	size_t n = 0;
	while (is_ident_char((unsigned char)*ps->p)) {
		if (n + 1 < len)
			buf[n] = *ps->p;
		n++;
		ps->p++;
	}
	buf[n < len ? n : len - 1] = '\0';
	return n;
}

static int unknown_event(struct parser *ps, int pos, int bank, const char *name)
{
	/* the other version's name: say so rather than suggest look-alikes */
	const struct kmh_table *other =
	    kmh_has_name(ps->t, name) ? NULL : kmh_other_table_with(ps->t, name);
	if (other)
		return hpm_diag_fail(ps->err, KMH_EUNKNOWN, pos,
		                     "'%s' is a %s event; %s has no such event", name, other->name,
		                     ps->t->name);
	const char *sugg[3];
	unsigned n = kmh_suggest(ps->t, name, bank, sugg, 3);
	char hint[200] = "";
	if (n) {
		size_t off = (size_t)snprintf(hint, sizeof(hint), " (did you mean ");
		for (unsigned i = 0; i < n; i++)
			off += (size_t)snprintf(hint + off, sizeof(hint) - off, "%s%s",
			                        i ? ", " : "", sugg[i]);
		snprintf(hint + off, sizeof(hint) - off, "?)");
	} else {
		snprintf(hint, sizeof(hint), " (see 'hpmstat list')");
	}
	if (bank >= 0)
		return hpm_diag_fail(ps->err, KMH_EUNKNOWN, pos, "unknown event '%s' in bank %s%s",
		                     name, ps->t->banks[bank].name, hint);
	return hpm_diag_fail(ps->err, KMH_EUNKNOWN, pos, "unknown event '%s'%s", name, hint);
}

/* An index the RTL's CSR cannot reach selects nothing defined: refused. */
static int refuse_undefined(struct parser *ps, int pos, const struct kmh_event *ev)
{
	char note[200];
	if (ev->rtl != KMH_RTL_UNDEFINED)
		return 0;
	return hpm_diag_fail(ps->err, KMH_ERANGE, pos, "%s, so its count would be undefined",
	                     kmh_rtl_note(ps->t, ev, note, sizeof(note)));
}

/* A new leaf at *id: event index of bank (KMH_BANK_NONE: noEvent), its
 * table name for messages. */
static int new_leaf(struct parser *ps, int pos, int bank, unsigned index, const char *name,
                    unsigned *id)
{
	int rc = new_node(ps, id);
	if (rc)
		return rc;
	ps->nodes[*id] =
	    (struct node){.leaf = true, .pos = pos, .bank = bank, .index = index, .name = name};
	return 0;
}

/* A leaf, or the ADD subtree an alias stands for. */
static int make_ref(struct parser *ps, int pos, int bank, const char *name, unsigned *id)
{
	const struct kmh_event *ev = NULL;
	const struct kmh_alias *al = NULL;
	int rc;

	if (strcmp(name, "noEvent") == 0)
		return new_leaf(ps, pos, KMH_BANK_NONE, 0, "noEvent", id);
	ev = kmh_event_by_name(ps->t, bank, name);
	if (!ev)
		al = kmh_alias_by_name(ps->t, bank, name);
	if (!ev && !al)
		return unknown_event(ps, pos, bank, name);
	if (ev) {
		if ((rc = refuse_undefined(ps, pos, ev)))
			return rc;
		return new_leaf(ps, pos, ev->bank, ev->index, kmh_str(ps->t, ev->name), id);
	}
	if ((rc = new_node(ps, id)))
		return rc;
	ps->alias_used = true;
	ps->nodes[*id].op = KMH_OP_ADD;
	ps->nodes[*id].pos = pos;
	ps->nodes[*id].name = kmh_str(ps->t, al->name);
	for (unsigned i = 0; i < al->nr; i++) {
		unsigned kid;
		if ((rc =
		         new_leaf(ps, pos, al->bank, al->index[i], kmh_str(ps->t, al->name), &kid)))
			return rc;
		ps->nodes[*id].kids[ps->nodes[*id].nkids++] = kid;
	}
	return 0;
}

static int parse_modifiers(struct parser *ps)
{
	int pos = pos_of(ps);
	const char *start = ps->p;
	char mods[16];
	unsigned modes;
	struct hpm_diag merr = {0};
	int rc;

	while (isalpha((unsigned char)*ps->p))
		ps->p++;
	size_t len = (size_t)(ps->p - start);
	if (len == 0)
		return hpm_diag_fail(ps->err, KMH_ESYNTAX, pos,
		                     "expected modifier letters after ':'");
	if (len >= sizeof(mods))
		return hpm_diag_fail(ps->err, KMH_EMODIFIER, pos, "too many modifier letters");
	memcpy(mods, start, len);
	mods[len] = '\0';
	if ((rc = kmh_modifiers_parse(mods, &modes, &merr)))
		return hpm_diag_fail(ps->err, rc, merr.column ? pos + hpm_diag_offset(&merr) : pos,
		                     "%s", merr.msg);
	/* One counter has one filter: every modifier written must select it. */
	if (ps->mods && modes != ps->modes)
		return hpm_diag_fail(
		    ps->err, KMH_EMODIFIER, pos,
		    "modifiers ':%s' contradict ':%.*s' given earlier: one counter has "
		    "one privilege filter",
		    mods, (int)ps->mods_len, ps->mods);
	if (!ps->mods) {
		ps->mods = start;
		ps->mods_len = len;
		ps->mods_pos = pos;
		ps->modes = modes;
	}
	return 0;
}

static int parse_or(struct parser *ps, unsigned *id);

static int parse_primary(struct parser *ps, unsigned *id)
{
	char word[96], word2[96];
	int rc, pos;

	skip_space(ps);
	pos = pos_of(ps);
	if (*ps->p == '(') {
		if (++ps->depth > MAX_DEPTH)
			return hpm_diag_fail(ps->err, KMH_ESYNTAX, pos,
			                     "parentheses nested too deeply");
		ps->p++;
		if ((rc = parse_or(ps, id)))
			return rc;
		skip_space(ps);
		if (*ps->p != ')')
			return hpm_diag_fail(
			    ps->err, KMH_ESYNTAX, pos_of(ps),
			    *ps->p ? "expected ')' to close the '(' at column %d"
			           : "unbalanced parentheses: the '(' at column %d is "
			             "never closed",
			    pos + 1);
		ps->p++;
		ps->depth--;
		return 0;
	}
	if (!is_ident_start((unsigned char)*ps->p)) {
		if (*ps->p == '\0')
			return hpm_diag_fail(ps->err, KMH_ESYNTAX, pos,
			                     "expected an event at the end");
		if (*ps->p == ')')
			return hpm_diag_fail(ps->err, KMH_ESYNTAX, pos,
			                     "unbalanced parentheses: ')' without a matching '('");
		return hpm_diag_fail(ps->err, KMH_ESYNTAX, pos, "expected an event, found '%c'",
		                     *ps->p);
	}
	if (read_word(ps, word, sizeof(word)) >= sizeof(word))
		return hpm_diag_fail(ps->err, KMH_EUNKNOWN, pos, "event name too long");

	const struct kmh_bank_desc *bank = NULL;
	if (*ps->p == ':' && (bank = kmh_bank_by_name(ps->t, word)) != NULL) {
		ps->p++;
		int pos2 = pos_of(ps);
		if (isdigit((unsigned char)*ps->p)) {
			uint64_t idx;
			read_word(ps, word2, sizeof(word2));
			if (str_parse_u64(word2, &idx, NULL, 0) != STR_PARSE_OK ||
			    word2[0] == 'r' || strchr(word2, '_'))
				return hpm_diag_fail(ps->err, KMH_ENUMBER, pos2,
				                     "'%s' is not an event index", word2);
			if (idx >= bank->nr_events)
				return hpm_diag_fail(
				    ps->err, KMH_ERANGE, pos2,
				    "index %s out of range: bank %s has events 0-%u", word2,
				    bank->name, bank->nr_events - 1);
			const struct kmh_event *ev =
			    &bank->events[idx]; /* dense tables: index == position */
			if ((rc = refuse_undefined(ps, pos, ev)))
				return rc;
			if ((rc = new_leaf(ps, pos, idx ? ev->bank : KMH_BANK_NONE, (unsigned)idx,
			                   kmh_str(ps->t, ev->name), id)))
				return rc;
		} else if (is_ident_start((unsigned char)*ps->p)) {
			read_word(ps, word2, sizeof(word2));
			if ((rc = make_ref(ps, pos, (int)(bank - ps->t->banks), word2, id)))
				return rc;
		} else {
			return hpm_diag_fail(ps->err, KMH_ESYNTAX, pos2,
			                     "expected an event name or index after '%s:'",
			                     bank->name);
		}
	} else {
		/* An unknown word before ':NAME' is most likely a misspelt bank. */
		if (*ps->p == ':' && !kmh_event_by_name(ps->t, KMH_BANK_NONE, word) &&
		    !kmh_alias_by_name(ps->t, KMH_BANK_NONE, word) &&
		    strcmp(word, "noEvent") != 0) {
			const char *q = ps->p + 1;
			bool looks_like_ref = isdigit((unsigned char)*q);
			if (!looks_like_ref && is_ident_start((unsigned char)*q)) {
				size_t n = 0;
				while (is_ident_char((unsigned char)q[n]))
					n++;
				/* modifiers are short letter runs; names are longer or have _ */
				looks_like_ref = n > 5 || memchr(q, '_', n) != NULL;
			}
			if (looks_like_ref)
				return hpm_diag_fail(ps->err, KMH_EBANK, pos,
				                     "unknown bank '%s' (banks: frontend, backend, "
				                     "memblock, cache)",
				                     word);
		}
		if ((rc = make_ref(ps, pos, KMH_BANK_NONE, word, id)))
			return rc;
	}
	return 0;
}

static int parse_unary(struct parser *ps, unsigned *id)
{
	int rc = parse_primary(ps, id);
	if (rc)
		return rc;
	skip_space(ps);
	if (*ps->p == ':') {
		ps->p++;
		return parse_modifiers(ps);
	}
	return 0;
}

/* Binary levels, loosest first: | then ^ then & then + (C precedence). */
static const struct {
	char sym;
	unsigned op;
} levels[] = {{'|', KMH_OP_OR}, {'^', KMH_OP_XOR}, {'&', KMH_OP_AND}, {'+', KMH_OP_ADD}};

static int parse_level(struct parser *ps, unsigned lvl, unsigned *id)
{
	int rc;
	if (lvl == sizeof(levels) / sizeof(levels[0]))
		return parse_unary(ps, id);
	if ((rc = parse_level(ps, lvl + 1, id)))
		return rc;
	skip_space(ps);
	if (*ps->p != levels[lvl].sym)
		return 0;
	unsigned opn;
	if ((rc = new_node(ps, &opn)))
		return rc;
	ps->nodes[opn].op = levels[lvl].op;
	ps->nodes[opn].kids[ps->nodes[opn].nkids++] = *id;
	while (skip_space(ps), *ps->p == levels[lvl].sym) {
		int oppos = pos_of(ps);
		unsigned kid;
		ps->p++;
		skip_space(ps);
		if (*ps->p == '\0')
			return hpm_diag_fail(ps->err, KMH_ESYNTAX, oppos,
			                     "expected an event after '%c'", levels[lvl].sym);
		if ((rc = parse_level(ps, lvl + 1, &kid)))
			return rc;
		if (ps->nodes[opn].nkids == MAX_NODES)
			return hpm_diag_fail(ps->err, KMH_ETOOMANY, oppos, "too many operands");
		ps->nodes[opn].kids[ps->nodes[opn].nkids++] = kid;
	}
	*id = opn;
	return 0;
}

static int parse_or(struct parser *ps, unsigned *id)
{
	return parse_level(ps, 0, id);
}

/* Merge children that use their parent's op into the parent, recursively. */
static void flatten(struct parser *ps, unsigned id)
{
	struct node *n = &ps->nodes[id];
	if (n->leaf)
		return;
	unsigned kids[MAX_NODES], nk = 0;
	for (unsigned i = 0; i < n->nkids; i++) {
		unsigned k = n->kids[i];
		flatten(ps, k);
		const struct node *c = &ps->nodes[k];
		if (!c->leaf && c->op == n->op) {
			for (unsigned j = 0; j < c->nkids && nk < MAX_NODES; j++)
				kids[nk++] = c->kids[j];
		} else if (nk < MAX_NODES) {
			kids[nk++] = k;
		}
	}
	memcpy(n->kids, kids, nk * sizeof(kids[0]));
	n->nkids = nk;
}

static bool is_no_event(const struct node *n)
{
	return n->leaf && n->index == 0;
}

/* noEvent delivers 0, the identity of OR, XOR and ADD: drop it there so it
 * takes no slot and the value is the one the shorter expression gives.
 * Under AND it annihilates, which is the user's stated intent: keep it. */
static void prune_no_event(struct parser *ps, unsigned id)
{
	struct node *n = &ps->nodes[id];
	if (n->leaf)
		return;
	unsigned nk = 0;
	for (unsigned i = 0; i < n->nkids; i++) {
		prune_no_event(ps, n->kids[i]);
		if (n->op != KMH_OP_AND && is_no_event(&ps->nodes[n->kids[i]]))
			continue;
		n->kids[nk++] = n->kids[i];
	}
	if (nk <= 1) /* one operand left (or none: noEvent + noEvent) */
		*n = ps->nodes[n->kids[0]];
	else
		n->nkids = nk;
}

static void collect_leaves(const struct parser *ps, unsigned id, unsigned *out, unsigned *n)
{
	const struct node *nd = &ps->nodes[id];
	if (nd->leaf) {
		if (*n < MAX_NODES)
			out[*n] = id;
		(*n)++;
		return;
	}
	for (unsigned i = 0; i < nd->nkids; i++)
		collect_leaves(ps, nd->kids[i], out, n);
}

struct side_map {
	unsigned nleaves;
	unsigned leaf[2];
	unsigned op;
};

static const char *op_sym(unsigned op)
{
	return kmh_op_symbol(op);
}

/* Pack the flattened tree into at most two sides under one top op. */
static int map_tree(struct parser *ps, unsigned root, uint64_t *sel)
{
	const struct node *r = &ps->nodes[root];
	struct side_map side[2];
	unsigned nsides = 0, leaf_side = 2, top = KMH_OP_OR;

	memset(side, 0, sizeof(side));
	if (r->leaf) {
		side[0] = (struct side_map){.nleaves = 1, .leaf = {root, 0}, .op = KMH_OP_OR};
		nsides = 1;
	} else {
		top = r->op;
		for (unsigned i = 0; i < r->nkids; i++) {
			const struct node *c = &ps->nodes[r->kids[i]];
			if (c->leaf) {
				if (leaf_side < 2 && side[leaf_side].nleaves < 2) {
					side[leaf_side].leaf[side[leaf_side].nleaves++] =
					    r->kids[i];
					continue;
				}
				if (nsides == 2)
					goto too_wide;
				leaf_side = nsides++;
				side[leaf_side] = (struct side_map){
				    .nleaves = 1, .leaf = {r->kids[i], 0}, .op = top};
				continue;
			}
			/* An operand that is itself a combination: it must be two events. */
			for (unsigned j = 0; j < c->nkids; j++)
				if (!ps->nodes[c->kids[j]].leaf)
					return hpm_diag_fail(
					    ps->err, KMH_ESHAPE, c->pos,
					    "nested too deeply: the hardware combines at "
					    "most two levels, (E0 op0 E1) op2 (E2 op1 E3)");
			if (c->nkids > 2 && c->name && c->op == KMH_OP_ADD)
				return hpm_diag_fail(
				    ps->err, KMH_ESHAPE, c->pos,
				    "'%s' is the ADD of its %u instances, which do not fit "
				    "one side of (E0 op0 E1) op2 (E2 op1 E3) under '%s'",
				    c->name, c->nkids, op_sym(top));
			if (c->nkids > 2)
				return hpm_diag_fail(
				    ps->err, KMH_ESHAPE, c->pos,
				    "the %u events joined by '%s' under '%s' do not fit one "
				    "side of (E0 op0 E1) op2 (E2 op1 E3), which holds two",
				    c->nkids, op_sym(c->op), op_sym(top));
			if (nsides == 2)
				goto too_wide;
			side[nsides++] = (struct side_map){
			    .nleaves = 2, .leaf = {c->kids[0], c->kids[1]}, .op = c->op};
		}
	}
	/* A side with one event joins the unused slot with OR, the identity. */
	for (unsigned s = 0; s < 2; s++)
		if (side[s].nleaves < 2)
			side[s].op = KMH_OP_OR;
	uint64_t v = 0;
	for (unsigned s = 0; s < 2; s++)
		for (unsigned k = 0; k < side[s].nleaves; k++)
			v = kmh_mhpmevent_set_event(v, 2 * s + k, ps->nodes[side[s].leaf[k]].index);
	v = kmh_mhpmevent_set_op(v, 0, side[0].op);
	v = kmh_mhpmevent_set_op(v, 1, side[1].op);
	/* With one side, op2 joins an empty side: OR keeps the value; with two it is
	 * the top op. */
	v = kmh_mhpmevent_set_op(v, 2, nsides == 2 ? top : KMH_OP_OR);
	*sel = v;
	return 0;

too_wide:
	return hpm_diag_fail(ps->err, KMH_ESHAPE, r->pos,
	                     "the operands of '%s' cannot be split into two sides of at most two "
	                     "events each, as (E0 op0 E1) op2 (E2 op1 E3) needs",
	                     op_sym(top));
}

static int check_leaves(struct parser *ps, unsigned root, int *bank)
{
	unsigned leaves[MAX_NODES], n = 0;
	collect_leaves(ps, root, leaves, &n);
	if (n > KMH_NR_SLOTS)
		return hpm_diag_fail(
		    ps->err, KMH_ETOOMANY, -1,
		    "%u events in one expression: an mhpmevent combines at most 4%s", n,
		    ps->alias_used ? " (an alias counts as all its instances)" : "");
	const struct node *first = NULL;
	*bank = KMH_BANK_NONE;
	for (unsigned i = 0; i < n && i < MAX_NODES; i++) {
		const struct node *l = &ps->nodes[leaves[i]];
		if (l->bank == KMH_BANK_NONE)
			continue;
		if (!first) {
			first = l;
			*bank = l->bank;
		} else if (l->bank != first->bank) {
			return hpm_diag_fail(
			    ps->err, KMH_EMIXBANK, l->pos,
			    "'%s' is a %s event but '%s' is a %s event: one counter sees "
			    "one bank",
			    first->name, ps->t->banks[first->bank].name, l->name,
			    ps->t->banks[l->bank].name);
		}
	}
	return 0;
}

/* ------------------------------------------------------------ raw forms */

static int encode_raw(struct parser *ps, struct kmh_encoding *enc)
{
	const char *p = ps->src + 1; /* past 'r' */
	uint64_t v = 0;
	unsigned digits = 0;
	for (; isxdigit((unsigned char)*p); p++) {
		if (digits == 0 && *p == '0')
			continue; /* leading zeros are not width */
		if (++digits > 16)
			return hpm_diag_fail(ps->err, KMH_ERANGE, 0,
			                     "raw value '%.*s' is wider than 64 bits",
			                     (int)strcspn(ps->src, ":"), ps->src);
		unsigned c = (unsigned char)tolower((unsigned char)*p);
		v = (v << 4) | (isdigit((int)c) ? c - '0' : c - 'a' + 10);
	}
	enc->value = v;
	enc->raw = true;
	enc->modes = kmh_inh_to_modes(v);
	if (*p == ':') {
		ps->p = p + 1;
		int rc = parse_modifiers(ps);
		if (rc)
			return rc;
		if (*ps->p)
			return hpm_diag_fail(ps->err, KMH_ESYNTAX, pos_of(ps),
			                     "unexpected '%c' after modifiers", *ps->p);
	}
	return 0;
}

static bool looks_raw(const char *s)
{
	if (s[0] != 'r' || !isxdigit((unsigned char)s[1]))
		return false;
	const char *p = s + 1;
	while (isxdigit((unsigned char)*p))
		p++;
	return *p == '\0' || *p == ':';
}

static int parse_op_value(struct parser *ps, const char *val, int pos, unsigned *op)
{
	static const char *const names[] = {"or", "and", "xor", "add"};
	static const unsigned vals[] = {KMH_OP_OR, KMH_OP_AND, KMH_OP_XOR, KMH_OP_ADD};
	for (unsigned i = 0; i < 4; i++)
		if (strcmp(val, names[i]) == 0) {
			*op = vals[i];
			return 0;
		}
	uint64_t n;
	if (str_parse_u64(val, &n, NULL, 0) != STR_PARSE_OK)
		return hpm_diag_fail(ps->err, KMH_ETERM, pos,
		                     "'%s' is not an op (or, and, xor, add)", val);
	if (n > KMH_OP_MASK || !kmh_op_is_valid((unsigned)n))
		return hpm_diag_fail(
		    ps->err, KMH_ERANGE, pos,
		    "op value %s is reserved: OP_TYPE is or (0), and (1), xor (2) or add "
		    "(4)",
		    val);
	*op = (unsigned)n;
	return 0;
}

/* Copies the input up to one of stop's characters or its end into buf
 * (cut to fit), leaving ps->p there. */
static void scan_until(struct parser *ps, const char *stop, char *buf, size_t size)
{
	size_t n = 0;
	while (*ps->p && !strchr(stop, *ps->p)) {
		if (n + 1 < size)
			buf[n++] = *ps->p;
		ps->p++;
	}
	buf[n] = '\0';
}

/* kunminghu/event0=0x7,event1=0x8,op0=add[,bank=NAME]/[:]MODS */
static int encode_term(struct parser *ps, const char *slash, struct kmh_encoding *enc)
{
	unsigned ev[KMH_NR_SLOTS] = {0}, op[KMH_NR_OPS] = {0}, seen = 0;
	int bank = KMH_BANK_NONE, evpos[KMH_NR_SLOTS] = {0};
	size_t pmulen = (size_t)(slash - ps->src);
	int rc;

	if (!((pmulen == 9 && strncmp(ps->src, "kunminghu", 9) == 0) ||
	      (pmulen == strlen(ps->t->name) && strncmp(ps->src, ps->t->name, pmulen) == 0) ||
	      (pmulen == 3 && strncmp(ps->src, "cpu", 3) == 0)))
		return hpm_diag_fail(ps->err, KMH_ETERM, 0,
		                     "unknown PMU '%.*s' (this is 'kunminghu')", (int)pmulen,
		                     ps->src);
	ps->p = slash + 1;
	while (*ps->p != '/') {
		char key[32], val[64];
		int kpos = pos_of(ps);
		scan_until(ps, "=,/", key, sizeof(key));
		if (*ps->p == '\0')
			return hpm_diag_fail(ps->err, KMH_ESYNTAX, pos_of(ps),
			                     "missing the closing '/'");
		if (*ps->p != '=')
			return hpm_diag_fail(ps->err, KMH_ETERM, kpos,
			                     "term '%s' needs a value (%s=VALUE)", key, key);
		ps->p++;
		int vpos = pos_of(ps);
		scan_until(ps, ",/", val, sizeof(val));
		if (*ps->p == '\0')
			return hpm_diag_fail(ps->err, KMH_ESYNTAX, pos_of(ps),
			                     "missing the closing '/'");
		unsigned bit;
		if (strncmp(key, "event", 5) == 0 && key[5] >= '0' && key[5] <= '3' && !key[6]) {
			unsigned slot = (unsigned)(key[5] - '0');
			uint64_t n;
			bit = 1u << slot;
			if (str_parse_u64(val, &n, NULL, 0) != STR_PARSE_OK)
				return hpm_diag_fail(ps->err, KMH_ENUMBER, vpos,
				                     "'%s' is not a number", val);
			if (n > KMH_EVENT_MASK)
				return hpm_diag_fail(ps->err, KMH_ERANGE, vpos,
				                     "%s=%s does not fit the 10-bit EVENT field",
				                     key, val);
			ev[slot] = (unsigned)n;
			evpos[slot] = vpos;
		} else if (strncmp(key, "op", 2) == 0 && key[2] >= '0' && key[2] <= '2' &&
		           !key[3]) {
			unsigned n = (unsigned)(key[2] - '0');
			bit = 1u << (4 + n);
			if ((rc = parse_op_value(ps, val, vpos, &op[n])))
				return rc;
		} else if (strcmp(key, "bank") == 0) {
			const struct kmh_bank_desc *b = kmh_bank_by_name(ps->t, val);
			bit = 1u << 7;
			if (!b)
				return hpm_diag_fail(ps->err, KMH_EBANK, vpos,
				                     "unknown bank '%s' (banks: frontend, backend, "
				                     "memblock, cache)",
				                     val);
			bank = (int)(b - ps->t->banks);
		} else {
			return hpm_diag_fail(
			    ps->err, KMH_ETERM, kpos,
			    "unknown term '%s' (terms: event0-event3, op0-op2, bank)", key);
		}
		if (seen & bit)
			return hpm_diag_fail(ps->err, KMH_ETERM, kpos, "term '%s' given twice",
			                     key);
		seen |= bit;
		if (*ps->p == ',')
			ps->p++;
	}
	ps->p++; /* closing '/' */
	if (*ps->p == ':')
		ps->p++;
	skip_space(ps);
	if (*ps->p) {
		if ((rc = parse_modifiers(ps)))
			return rc;
		skip_space(ps);
		if (*ps->p)
			return hpm_diag_fail(ps->err, KMH_ESYNTAX, pos_of(ps),
			                     "unexpected '%c' after modifiers", *ps->p);
	}
	if (!(seen & 0xf))
		return hpm_diag_fail(ps->err, KMH_ETERM, -1, "no event0..event3 term given");
	if (bank >= 0)
		for (unsigned s = 0; s < KMH_NR_SLOTS; s++) {
			if (ev[s] >= ps->t->banks[bank].nr_events)
				return hpm_diag_fail(
				    ps->err, KMH_ERANGE, evpos[s],
				    "event%u=%u out of range: bank %s has events 0-%u", s, ev[s],
				    ps->t->banks[bank].name, ps->t->banks[bank].nr_events - 1);
			if ((rc =
			         refuse_undefined(ps, evpos[s], &ps->t->banks[bank].events[ev[s]])))
				return rc;
		}
	uint64_t v = 0;
	for (unsigned s = 0; s < KMH_NR_SLOTS; s++)
		v = kmh_mhpmevent_set_event(v, s, ev[s]);
	for (unsigned n = 0; n < KMH_NR_OPS; n++)
		v = kmh_mhpmevent_set_op(v, n, op[n]);
	enc->value = v;
	enc->bank = bank;
	enc->raw = true;
	for (unsigned s = 0; s < KMH_NR_SLOTS; s++)
		enc->nr_events += ev[s] != 0;
	return 0;
}

/* ------------------------------------------------------------ entry */

int kmh_encode(const struct kmh_table *t, const char *expr, struct kmh_encoding *enc,
               struct hpm_diag *err)
{
	return kmh_encode_impl(t, expr, enc, err, true);
}

int kmh_encode_impl(const struct kmh_table *t, const char *expr, struct kmh_encoding *enc,
                    struct hpm_diag *err, bool want_canonical)
{
	struct parser ps = {.t = t, .src = expr, .p = expr, .err = err};
	int rc;

	memset(enc, 0, sizeof(*enc));
	memset(err, 0, sizeof(*err));
	enc->bank = KMH_BANK_NONE;
	skip_space(&ps);
	if (*ps.p == '\0')
		return hpm_diag_fail(ps.err, KMH_EEMPTY, 0, "empty event expression");

	const char *slash = strchr(expr, '/');
	if (slash) {
		ps.src = ps.p;
		if ((rc = encode_term(&ps, slash, enc)))
			return rc;
	} else if (looks_raw(ps.p)) {
		ps.src = ps.p;
		if ((rc = encode_raw(&ps, enc)))
			return rc;
		/* A raw value keeps its own INH bits unless modifiers were given. */
		if (!ps.mods)
			goto done;
	} else {
		unsigned root;
		if ((rc = parse_or(&ps, &root)))
			return rc;
		skip_space(&ps);
		if (*ps.p)
			return hpm_diag_fail(ps.err, KMH_ESYNTAX, pos_of(&ps),
			                     *ps.p == ')' ? "unbalanced parentheses: ')' without a "
			                                    "matching '('"
			                                  : "unexpected '%c'",
			                     *ps.p);
		flatten(&ps, root);
		prune_no_event(&ps, root);
		flatten(&ps, root);
		if ((rc = check_leaves(&ps, root, &enc->bank)))
			return rc;
		if ((rc = map_tree(&ps, root, &enc->value)))
			return rc;
		for (unsigned s = 0; s < KMH_NR_SLOTS; s++)
			enc->nr_events += kmh_mhpmevent_event(enc->value, s) != 0;
	}

	enc->modes = ps.mods ? ps.modes : KMH_MODES_DEFAULT;
	enc->modes_given = ps.mods != NULL;
	enc->value = (enc->value & ~KMH_INH_MASK) | kmh_modes_to_inh(enc->modes);
done:
	if (want_canonical) {
		struct kmh_decoded d;
		struct kmh_encoding check;
		struct hpm_diag cerr;
		kmh_decode_fields(t, enc->value, enc->bank, &d);
		if (kmh_encode_impl(t, d.expr, &check, &cerr, false) == 0 &&
		    check.value == enc->value)
			snprintf(enc->canonical, sizeof(enc->canonical), "%s", d.expr);
		else
			snprintf(enc->canonical, sizeof(enc->canonical), "r%" PRIx64, enc->value);
	}
	return 0;
}

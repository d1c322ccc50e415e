/* test-encode.c: golden vectors for kmh_encode, bad input, and a semantic
 * check of random expressions against an independent evaluator.
 *
 * Golden values are computed by hand from the bit layout of SPEC §1
 * (EVENTn at 10n, OP_TYPEn at 40+5n, OR 0 AND 1 XOR 2 ADD 4, MINH bit 62 ...)
 * and carry the line they are written on, as libpfm4's validate tests do.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmh/kmh.h"
#include "tap.h"

#define MINH (UINT64_C(1) << 62)

static const struct golden {
	const char *expr;
	uint64_t value;
	int line;
} golden[] = {
    /* single events: backend rob_commitInstr = 53 = 0x35, frontend ifu_miss = 3 */
    {"rob_commitInstr", MINH | 0x35, __LINE__},
    {"backend:rob_commitInstr", MINH | 0x35, __LINE__},
    {"backend:53", MINH | 0x35, __LINE__},
    {"backend:0x35", MINH | 0x35, __LINE__},
    {"ifu_miss", MINH | 3, __LINE__},
    {"frontend:3", MINH | 3, __LINE__},
    {"  ((ifu_req))  ", MINH | 2, __LINE__},
    {"noEvent", MINH, __LINE__},
    {"Slice0_l2_cache_hit", MINH | 5, __LINE__},
    {"cache:Slice3_l2_cache_miss_rd", MINH | 67, __LINE__}, /* the last the CSR reaches */
    /* the design document's and the honest names of an event */
    {"icache_miss_cnt", MINH | 23, __LINE__},
    {"frontend:icache_miss_bubble", MINH | 23, __LINE__},
    {"IssueQueueLdu_ready.1", MINH | 89, __LINE__},
    {"memblock:MEMSTALL_ANY_LOAD", MINH | 44, __LINE__},
    {"memblock:load_s0_in_fire.1", MINH | 10, __LINE__},
    /* two events: E1 at bit 10, OP_TYPE0 at bit 40 */
    {"INST_SPEC + RECOVERY_BUBBLE", UINT64_C(0x4000040000002007), __LINE__},
    {"INST_SPEC+RECOVERY_BUBBLE", UINT64_C(0x4000040000002007), __LINE__},
    {"ifu_req | ifu_miss", UINT64_C(0x4000000000000c02), __LINE__},
    {"ifu_req & ifu_miss", UINT64_C(0x4000010000000c02), __LINE__},
    {"ifu_req ^ ifu_miss", UINT64_C(0x4000020000000c02), __LINE__},
    /* three: the lone third event joins noEvent with OR, op2 carries the op */
    {"ifu_req & ifu_miss & itlb_miss", UINT64_C(0x4004010003900c02), __LINE__},
    {"ifu_req | ifu_miss | itlb_miss", UINT64_C(0x4000000003900c02), __LINE__},
    {"ifu_req + ifu_miss + itlb_miss", UINT64_C(0x4010040003900c02), __LINE__},
    /* four */
    {"ifu_req + ifu_miss + itlb_access + itlb_miss", UINT64_C(0x4010840e43800c02), __LINE__},
    {"(ifu_req | ifu_miss) & (itlb_access ^ itlb_miss)", UINT64_C(0x4004400e43800c02), __LINE__},
    {"(ifu_req & ifu_miss) + itlb_access + itlb_miss", UINT64_C(0x4010810e43800c02), __LINE__},
    /* a leaf and a pair: the leaf takes the first side */
    {"ifu_req + (ifu_miss & itlb_miss)", UINT64_C(0x4010200e40300002), __LINE__},
    /* precedence as in C: + over & over ^ over | */
    {"ifu_req | ifu_miss & itlb_miss", UINT64_C(0x4000200e40300002), __LINE__},
    {"ifu_req + ifu_miss & itlb_miss", UINT64_C(0x4004040003900c02), __LINE__},
    {"ifu_req ^ ifu_miss | itlb_miss", UINT64_C(0x4000020003900c02), __LINE__},
    /* aliases: the ADD of all instances, memblock load_s0_in_fire = 1, 10, 19 */
    {"load_s0_in_fire", UINT64_C(0x4010040001302801), __LINE__},
    {"memblock:load_s0_in_fire", UINT64_C(0x4010040001302801), __LINE__},
    /* backend std_freelist_1_4_valid = 23, 27, 31, 35, all ADD */
    {"std_freelist_1_4_valid", UINT64_C(0x40108408c1f06c17), __LINE__},
    /* modifiers, SPEC §1 table: MINH 62 SINH 61 UINH 60 VSINH 59 VUINH 58 */
    {"rob_commitInstr:uk", MINH | 0x35, __LINE__},
    {"rob_commitInstr:u", UINT64_C(0x6800000000000035), __LINE__},
    {"rob_commitInstr:k", UINT64_C(0x5400000000000035), __LINE__},
    {"rob_commitInstr:G", UINT64_C(0x7000000000000035), __LINE__},
    {"rob_commitInstr:H", UINT64_C(0x4c00000000000035), __LINE__},
    {"rob_commitInstr:uG", UINT64_C(0x7800000000000035), __LINE__},
    {"rob_commitInstr:kH", UINT64_C(0x5c00000000000035), __LINE__},
    {"rob_commitInstr:m", UINT64_C(0x3c00000000000035), __LINE__},
    {"rob_commitInstr:Gu", UINT64_C(0x7800000000000035), __LINE__},
    {"rob_commitInstr:um", UINT64_C(0x2800000000000035), __LINE__},
    {"rob_commitInstr:HG", MINH | 0x35, __LINE__},
    {"(ifu_req & ifu_miss):k", UINT64_C(0x5400010000000c02), __LINE__},
    {"ifu_req:u & ifu_miss:u", UINT64_C(0x6800010000000c02), __LINE__},
    {"ifu_req & ifu_miss:u", UINT64_C(0x6800010000000c02), __LINE__},
    /* modifiers agree when they select the same modes, whatever the spelling */
    {"ifu_req:uk & ifu_miss:ku", UINT64_C(0x4000010000000c02), __LINE__},
    {"ifu_req:uGH & ifu_miss:u", UINT64_C(0x6800010000000c02), __LINE__},
    /* noEvent is dropped where it is the identity, kept under AND */
    {"ifu_req + noEvent", UINT64_C(0x4000000000000002), __LINE__},
    {"noEvent | ifu_req ^ noEvent", UINT64_C(0x4000000000000002), __LINE__},
    {"ifu_req & noEvent", UINT64_C(0x4000010000000002), __LINE__},
    {"ifu_req + ifu_miss + itlb_access + itlb_miss + noEvent", UINT64_C(0x4010840e43800c02),
     __LINE__},
    {"noEvent + noEvent", MINH, __LINE__},
    {"frontend:0 | ifu_req", MINH | 2, __LINE__},
    /* perf-style terms and raw values */
    {"kunminghu/event0=0x7,event1=0x8,op0=add/", UINT64_C(0x4000040000002007), __LINE__},
    {"kunminghu/event0=1/ ", MINH | 1, __LINE__},
    {"kunminghu/event0=7,event1=8,op0=4/u", UINT64_C(0x6800040000002007), __LINE__},
    {"kunminghu/bank=backend,event0=0x35/:k", UINT64_C(0x5400000000000035), __LINE__},
    {"kunminghu/event2=1,op2=xor/", UINT64_C(0x4008000000100000), __LINE__},
    {"r1234", UINT64_C(0x1234), __LINE__},
    {"rffffffffffffffff", UINT64_MAX, __LINE__},
    {"r0000000000000000001", UINT64_C(1), __LINE__},
    {"r4000000000000035:u", UINT64_C(0x6800000000000035), __LINE__},
    {"r8000000000000035:m", UINT64_C(0xbc00000000000035), __LINE__},
};

/* kunminghu-v3 (XiangShan afe3818), hand-worked from
 * tests/data/kunminghu-v3-afe3818-events.tsv: its renumbered events */
static const struct golden golden_v3[] = {
    /* backend 51 = 0x33 (v2: 53) */
    {"rob_commitInstr", MINH | 0x33, __LINE__},
    {"backend:51", MINH | 0x33, __LINE__},
    {"kunminghu-v3/event0=51,bank=backend/", MINH | 0x33, __LINE__},
    /* backend 63 BR_MIS_PRED, 65 EXEC_STALL_CYCLE, 69 MEMSTALL_L3MISS */
    {"BR_MIS_PRED", MINH | 0x3f, __LINE__},
    {"EXEC_STALL_CYCLE", MINH | 0x41, __LINE__},
    {"MEMSTALL_L3MISS", MINH | 0x45, __LINE__},
    /* memblock 41 (v2: 44), frontend 22 */
    {"MEMSTALL_ANY_LOAD", MINH | 0x29, __LINE__},
    {"Fetch_Latency_Bound", MINH | 0x16, __LINE__},
    /* INST_SPEC 7 + RECOVERY_BUBBLE 8: EVENT1 = 8 << 10, OP_TYPE0 = ADD (4 << 40) */
    {"INST_SPEC + RECOVERY_BUBBLE", MINH | (UINT64_C(4) << 40) | (8 << 10) | 7, __LINE__},
    /* load_s0_in_fire: memblock 1, 9, 17; the ADD alias puts 17 in EVENT2 with
     * OP_TYPE2 = ADD (4 << 50) and leaves EVENT3 = 0 joined by OR */
    {"load_s0_in_fire.1", MINH | 9, __LINE__},
    {"load_s0_in_fire",
     MINH | (UINT64_C(4) << 50) | (UINT64_C(4) << 40) | (17 << 20) | (9 << 10) | 1, __LINE__},
};

static const struct bad {
	const char *expr;
	int code;
	const char *needle; /* must appear in the message */
	int line;
} bad[] = {
    {"ifu_mis", KMH_EUNKNOWN, "ifu_miss", __LINE__},
    {"rob_commitinstr", KMH_EUNKNOWN, "rob_commitInstr", __LINE__},
    {"frontend:rob_commitInstr", KMH_EUNKNOWN, "frontend", __LINE__},
    {"fronted:ifu_miss", KMH_EBANK, "fronted", __LINE__},
    {"frontend:58", KMH_ERANGE, "0-57", __LINE__},
    {"cache:69", KMH_ERANGE, "0-68", __LINE__},
    /* shared/xiangshan: the L2 exports 69 entries, the CSR copies 68 */
    {"Slice3_l2_cache_inv", KMH_ERANGE, "undefined", __LINE__},
    {"cache:68", KMH_ERANGE, "undefined", __LINE__},
    {"Slice0_l2_cache_inv + Slice3_l2_cache_inv", KMH_ERANGE, "undefined", __LINE__},
    {"kunminghu/bank=cache,event1=68/", KMH_ERANGE, "undefined", __LINE__},
    {"frontend:0x", KMH_ENUMBER, "0x", __LINE__},
    {"backend:5_3", KMH_ENUMBER, "5_3", __LINE__},
    {"load_s0_in_fire | load_to_load_forward.0", KMH_ESHAPE, "'load_s0_in_fire' is the ADD",
     __LINE__},
    {"frontend:", KMH_ESYNTAX, "after", __LINE__},
    {"ifu_miss + rob_commitInstr", KMH_EMIXBANK, "backend", __LINE__},
    {"frontend:2 | backend:2", KMH_EMIXBANK, "one bank", __LINE__},
    {"ifu_req + ifu_miss + itlb_access + itlb_miss + BpInstr", KMH_ETOOMANY, "at most 4", __LINE__},
    {"load_s0_in_fire + load_s1_in_fire", KMH_ETOOMANY, "alias", __LINE__},
    {"(ifu_req | ifu_miss | itlb_miss) & itlb_access", KMH_ESHAPE, "two", __LINE__},
    {"((ifu_req & ifu_miss) | itlb_miss) + itlb_access", KMH_ESHAPE, "nested", __LINE__},
    {"(ifu_req", KMH_ESYNTAX, "never closed", __LINE__},
    {"ifu_req)", KMH_ESYNTAX, "unbalanced", __LINE__},
    {"(ifu_req & (ifu_miss)", KMH_ESYNTAX, "never closed", __LINE__},
    {"", KMH_EEMPTY, "empty", __LINE__},
    {"   ", KMH_EEMPTY, "empty", __LINE__},
    {"ifu_req +", KMH_ESYNTAX, "after '+'", __LINE__},
    {"ifu_req ++ ifu_miss", KMH_ESYNTAX, "expected an event", __LINE__},
    {"& ifu_req", KMH_ESYNTAX, "expected an event", __LINE__},
    {"ifu_req ifu_miss", KMH_ESYNTAX, "unexpected", __LINE__},
    {"ifu_req:x", KMH_EMODIFIER, "unknown modifier 'x'", __LINE__},
    {"ifu_req:p", KMH_EMODIFIER, "unknown modifier 'p'", __LINE__},
    {"ifu_req:uu", KMH_EMODIFIER, "twice", __LINE__},
    {"ifu_req:mG", KMH_EMODIFIER, "contradictory", __LINE__},
    {"ifu_req:u & ifu_miss:k", KMH_EMODIFIER, "contradict", __LINE__},
    {"ifu_req:", KMH_ESYNTAX, "modifier", __LINE__},
    {"r12345678901234567", KMH_ERANGE, "64 bits", __LINE__},
    {"r1:q", KMH_EMODIFIER, "unknown modifier", __LINE__},
    {"kunminghu/event0=0x7,op0=nand/", KMH_ETERM, "nand", __LINE__},
    {"kunminghu/event0=0x7,op0=3/", KMH_ERANGE, "reserved", __LINE__},
    {"kunminghu/event0=2000/", KMH_ERANGE, "10-bit", __LINE__},
    {"kunminghu/event0=zz/", KMH_ENUMBER, "zz", __LINE__},
    {"kunminghu/foo=1/", KMH_ETERM, "unknown term 'foo'", __LINE__},
    {"kunminghu/event0=1,event0=2/", KMH_ETERM, "twice", __LINE__},
    {"kunminghu/event0=1", KMH_ESYNTAX, "closing", __LINE__},
    {"kunminghu/op0=add/", KMH_ETERM, "no event", __LINE__},
    {"kunminghu/bank=frontend,event0=58/", KMH_ERANGE, "0-57", __LINE__},
    {"kunminghu/bank=nope,event0=1/", KMH_EBANK, "nope", __LINE__},
    {"intel/event=1/", KMH_ETERM, "unknown PMU", __LINE__},
    {"ifu_req # x", KMH_ESYNTAX, "'#'", __LINE__},
};

static const struct bad bad_v3[] = {
    /* v2's names v3 lacks, and the reverse: say which table has it */
    {"BpWrong", KMH_EUNKNOWN, "'BpWrong' is a kunminghu-v2 event; kunminghu-v3 has no such event",
     __LINE__},
    {"BpInstr + BR_MIS_PRED", KMH_EUNKNOWN, "'BpInstr' is a kunminghu-v2 event", __LINE__},
    {"rob_commitInst", KMH_EUNKNOWN, "did you mean rob_commitInstr", __LINE__},
    {"backend:70", KMH_ERANGE, "0-69", __LINE__},
    {"frontend:26", KMH_ERANGE, "0-25", __LINE__},
    {"kunminghu-v2/event0=51,bank=backend/", KMH_ETERM, "unknown PMU 'kunminghu-v2'", __LINE__},
};

static void test_golden(const struct kmh_table *t, const struct golden *vectors, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct golden *g = &vectors[i];
		struct kmh_encoding enc;
		struct hpm_diag err;
		int rc = kmh_encode(t, g->expr, &enc, &err);
		if (!tap_ok(rc == 0, "line %d: '%s' encodes", g->line, g->expr)) {
			tap_diag("error %d: %s", rc, err.msg);
			continue;
		}
		tap_is_u64(enc.value, g->value, "line %d: '%s' = 0x%016" PRIx64, g->line, g->expr,
		           g->value);
		/* The canonical form must encode to the same value. */
		struct kmh_encoding again;
		rc = kmh_encode(t, enc.canonical, &again, &err);
		tap_ok(rc == 0 && again.value == enc.value, "line %d: canonical '%s' round-trips",
		       g->line, enc.canonical);
	}
}

static void test_bad_in(const struct kmh_table *t, const struct bad *cases, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct bad *b = &cases[i];
		struct kmh_encoding enc;
		struct hpm_diag err;
		int rc = kmh_encode(t, b->expr, &enc, &err);
		if (!tap_ok(rc == b->code, "%s line %d: '%s' fails with %s", t->name, b->line,
		            b->expr, kmh_strerror(b->code)))
			tap_diag("got %d (%s): %s", rc, kmh_strerror(rc), err.msg);
		tap_ok(rc != 0 && strstr(err.msg, b->needle) != NULL && !strchr(err.msg, '\n'),
		       "%s line %d: message names the problem ('%s' in \"%s\")", t->name, b->line,
		       b->needle, err.msg);
	}
}

static void test_bad(void)
{
	/* nesting deeper than any real expression must be refused, not recursed on */
	static char deep[200];
	memset(deep, '(', 60);
	strcpy(deep + 60, "ifu_req");
	memset(deep + 67, ')', 60);
	deep[127] = '\0';

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const struct bad *b = &bad[i];
		struct kmh_encoding enc;
		struct hpm_diag err;
		int rc = kmh_encode(&kmh_table_v2, b->expr, &enc, &err);
		if (!tap_ok(rc == b->code, "line %d: '%s' fails with %s", b->line, b->expr,
		            kmh_strerror(b->code)))
			tap_diag("got %d (%s): %s", rc, kmh_strerror(rc), err.msg);
		tap_ok(rc != 0 && strstr(err.msg, b->needle) != NULL && !strchr(err.msg, '\n'),
		       "line %d: message names the problem ('%s' in \"%s\")", b->line, b->needle,
		       err.msg);
	}
	struct kmh_encoding enc;
	struct hpm_diag err;
	tap_ok(kmh_encode(&kmh_table_v2, deep, &enc, &err) == KMH_ESYNTAX,
	       "deep nesting is refused: %s", err.msg);
	/* syntax errors point at the offending character */
	kmh_encode(&kmh_table_v2, "ifu_req + ", &enc, &err);
	tap_ok(hpm_diag_offset(&err) == 8, "position of a dangling '+' is its column (got %d)",
	       hpm_diag_offset(&err));
	kmh_encode(&kmh_table_v2, "ifu_req & (ifu_miss | itlb_miss", &enc, &err);
	tap_ok(hpm_diag_offset(&err) == (int)strlen("ifu_req & (ifu_miss | itlb_miss"),
	       "position of a missing ')' is the end (got %d)", hpm_diag_offset(&err));
}

/* ------------------------------------------------ semantic random check */

/* An expression tree written by this test, evaluated by this test. */
struct texpr {
	int op;         /* -1 leaf, else enum kmh_op */
	unsigned index; /* leaf */
	struct texpr *l, *r;
};

static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static uint64_t rng(void)
{
	/* splitmix64: a fixed seed keeps failures reproducible */
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

static unsigned eval(const struct texpr *e, const unsigned *vals)
{
	if (e->op < 0)
		return vals[e->index];
	unsigned a = eval(e->l, vals), b = eval(e->r, vals);
	switch (e->op) {
	case KMH_OP_OR:
		return a | b;
	case KMH_OP_AND:
		return a & b;
	case KMH_OP_XOR:
		return a ^ b;
	default:
		return (a + b) % 64;
	}
}

static const char *sym(int op)
{
	return op == KMH_OP_OR ? "|" : op == KMH_OP_AND ? "&" : op == KMH_OP_XOR ? "^" : "+";
}

static void render(const struct texpr *e, int bank, char *buf, size_t len, size_t *n)
{
	if (e->op < 0) {
		/* alternate between names and BANK:INDEX forms */
		if (rng() & 1)
			*n += (size_t)snprintf(
			    buf + *n, len - *n, "%s",
			    kmh_str(&kmh_table_v2, kmh_table_v2.banks[bank].events[e->index].name));
		else
			*n += (size_t)snprintf(buf + *n, len - *n, "%s:%u",
			                       kmh_table_v2.banks[bank].name, e->index);
		return;
	}
	*n += (size_t)snprintf(buf + *n, len - *n, "(");
	render(e->l, bank, buf, len, n);
	*n += (size_t)snprintf(buf + *n, len - *n, " %s ", sym(e->op));
	render(e->r, bank, buf, len, n);
	*n += (size_t)snprintf(buf + *n, len - *n, ")");
}

static int rand_op(void)
{
	static const int ops[] = {KMH_OP_OR, KMH_OP_AND, KMH_OP_XOR, KMH_OP_ADD};
	return ops[rng() % 4];
}

static struct texpr *leaf(struct texpr *pool, unsigned *np, int bank)
{
	struct texpr *e = &pool[(*np)++];
	unsigned index;
	do /* not an index the RTL cannot reach: encoding refuses it */
		index = (unsigned)(1 + rng() % (kmh_table_v2.banks[bank].nr_events - 1));
	while (kmh_table_v2.banks[bank].events[index].rtl == KMH_RTL_UNDEFINED);
	*e = (struct texpr){.op = -1, .index = index};
	return e;
}

static struct texpr *node(struct texpr *pool, unsigned *np, int op, struct texpr *l,
                          struct texpr *r)
{
	struct texpr *e = &pool[(*np)++];
	*e = (struct texpr){.op = op, .l = l, .r = r};
	return e;
}

/* Random trees that fit (E0 op0 E1) op2 (E2 op1 E3): a leaf, a pair, or a
 * top op over two sides that are each a leaf or a pair; plus chains of one
 * op over three or four leaves, which fit after re-association. */
static struct texpr *gen(struct texpr *pool, unsigned *np, int bank)
{
	int op = rand_op();
	struct texpr *a, *b, *c, *d;
	switch (rng() % 6) {
	case 0:
		return leaf(pool, np, bank);
	case 1:
		a = leaf(pool, np, bank);
		b = leaf(pool, np, bank);
		return node(pool, np, op, a, b);
	case 2: /* side pair + leaf, either order */
		a = leaf(pool, np, bank);
		b = leaf(pool, np, bank);
		c = node(pool, np, rand_op(), a, b);
		d = leaf(pool, np, bank);
		return rng() & 1 ? node(pool, np, op, c, d) : node(pool, np, op, d, c);
	case 3: /* two pairs */
		a = leaf(pool, np, bank);
		b = leaf(pool, np, bank);
		c = leaf(pool, np, bank);
		d = leaf(pool, np, bank);
		a = node(pool, np, rand_op(), a, b);
		c = node(pool, np, rand_op(), c, d);
		return node(pool, np, op, a, c);
	case 4: /* chain of three of one op, any association */
		a = leaf(pool, np, bank);
		b = leaf(pool, np, bank);
		c = leaf(pool, np, bank);
		if (rng() & 1)
			return node(pool, np, op, node(pool, np, op, a, b), c);
		return node(pool, np, op, a, node(pool, np, op, b, c));
	default: /* chain of four of one op, any association */
		a = leaf(pool, np, bank);
		b = leaf(pool, np, bank);
		c = leaf(pool, np, bank);
		d = leaf(pool, np, bank);
		switch (rng() % 3) {
		case 0:
			return node(pool, np, op, node(pool, np, op, node(pool, np, op, a, b), c),
			            d);
		case 1:
			return node(pool, np, op, a,
			            node(pool, np, op, b, node(pool, np, op, c, d)));
		default:
			return node(pool, np, op, node(pool, np, op, a, b),
			            node(pool, np, op, c, d));
		}
	}
}

static void test_semantic(void)
{
	const unsigned rounds = 600, cycles = 200;
	unsigned failures = 0, checked = 0;
	for (unsigned r = 0; r < rounds; r++) {
		struct texpr pool[16];
		unsigned np = 0;
		int bank = (int)(rng() % KMH_NR_BANKS);
		struct texpr *e = gen(pool, &np, bank);
		char buf[512];
		size_t n = 0;
		render(e, bank, buf, sizeof(buf), &n);

		struct kmh_encoding enc;
		struct hpm_diag err;
		if (kmh_encode(&kmh_table_v2, buf, &enc, &err) != 0) {
			failures++;
			tap_diag("'%s' failed to encode: %s", buf, err.msg);
			continue;
		}
		unsigned vals[1024];
		for (unsigned c = 0; c < cycles; c++) {
			for (unsigned i = 0; i < kmh_table_v2.banks[bank].nr_events; i++)
				vals[i] = (unsigned)(rng() % 64);
			vals[0] = 0; /* noEvent */
			/* sometimes make the values sparse so AND/XOR see zeros too */
			if (c % 3 == 0)
				for (unsigned i = 0; i < kmh_table_v2.banks[bank].nr_events; i++)
					vals[i] &= (unsigned)(rng() % 2 ? 63 : 0);
			unsigned slot[4];
			for (unsigned s = 0; s < 4; s++)
				slot[s] = vals[kmh_mhpmevent_event(enc.value, s)];
			unsigned hw = kmh_mhpmevent_combine(enc.value, slot);
			unsigned want = eval(e, vals);
			checked++;
			if (hw != want) {
				failures++;
				tap_diag("'%s' -> 0x%016" PRIx64 ": hardware %u, expression %u",
				         buf, enc.value, hw, want);
				break;
			}
		}
		/* no op other than OR/AND/XOR/ADD is ever written */
		for (unsigned o = 0; o < 3; o++)
			if (!kmh_op_is_valid(kmh_mhpmevent_op(enc.value, o)))
				failures++;
	}
	tap_ok(failures == 0,
	       "%u random expressions, %u cycles: encoding evaluates as the "
	       "expression (%u failures)",
	       rounds, checked, failures);
}

int main(void)
{
	test_golden(&kmh_table_v2, golden, sizeof(golden) / sizeof(golden[0]));
	test_bad();
	test_golden(&kmh_table_v3, golden_v3, sizeof(golden_v3) / sizeof(golden_v3[0]));
	test_bad_in(&kmh_table_v3, bad_v3, sizeof(bad_v3) / sizeof(bad_v3[0]));
	/* the reverse: a v3-only name on v2 */
	static const struct bad bad_v2_only_v3[] = {
	    {"dispatch_stall_cycle_iq", KMH_EUNKNOWN,
	     "'dispatch_stall_cycle_iq' is a kunminghu-v3 event; kunminghu-v2 has no such event",
	     __LINE__},
	};
	test_bad_in(&kmh_table_v2, bad_v2_only_v3, 1);
	test_semantic();
	return tap_done();
}

/* mhpmevent.h: the bit layout of a Kunminghu mhpmevent register (SPEC §1).
 *
 * Owns: field positions, widths and OP_TYPE values, and inline accessors.
 * Everything that reads or writes mhpmevent bits (encoder, decoder,
 * emulator, perf back end) goes through these, so the layout lives here once.
 */
#ifndef HPM_KMH_MHPMEVENT_H
#define HPM_KMH_MHPMEVENT_H

#include <stdbool.h>
#include <stdint.h>

#define KMH_EVENT_BITS     10 /* width of one EVENTn field */
#define KMH_EVENT_MASK     0x3ffu
#define KMH_OP_BITS        5 /* width of one OP_TYPEn field */
#define KMH_OP_MASK        0x1fu
#define KMH_NR_SLOTS       4                        /* EVENT0..EVENT3 */
#define KMH_NR_OPS         3                        /* OP_TYPE0..OP_TYPE2 */
#define KMH_EVENT_SHIFT(n) (KMH_EVENT_BITS * (n))   /* EVENTn at bits 10n+9:10n */
#define KMH_OP_SHIFT(n)    (40 + KMH_OP_BITS * (n)) /* OP_TYPEn at bits 5n+44:5n+40 */

#define KMH_BIT_OF        63 /* Sscofpmf overflow flag */
#define KMH_BIT_MINH      62
#define KMH_BIT_SINH      61
#define KMH_BIT_UINH      60
#define KMH_BIT_VSINH     59
#define KMH_BIT_VUINH     58
#define KMH_RESERVED_MASK (UINT64_C(7) << 55) /* bits 57:55, read/write, ignored */
#define KMH_INH_MASK      (UINT64_C(0x1f) << 58)
#define KMH_OF            (UINT64_C(1) << KMH_BIT_OF)
#define KMH_MINH          (UINT64_C(1) << KMH_BIT_MINH)
#define KMH_SINH          (UINT64_C(1) << KMH_BIT_SINH)
#define KMH_UINH          (UINT64_C(1) << KMH_BIT_UINH)
#define KMH_VSINH         (UINT64_C(1) << KMH_BIT_VSINH)
#define KMH_VUINH         (UINT64_C(1) << KMH_BIT_VUINH)
#define KMH_SELECT_MASK   ((UINT64_C(1) << 55) - 1) /* EVENT0-3 and OP_TYPE0-2 */

/* OP_TYPE values; every other 5-bit value is reserved. */
enum kmh_op {
	KMH_OP_OR = 0x0,
	KMH_OP_AND = 0x1,
	KMH_OP_XOR = 0x2,
	KMH_OP_ADD = 0x4,
};

static inline unsigned kmh_mhpmevent_event(uint64_t v, unsigned slot)
{
	return (unsigned)(v >> KMH_EVENT_SHIFT(slot)) & KMH_EVENT_MASK;
}

static inline unsigned kmh_mhpmevent_op(uint64_t v, unsigned n)
{
	return (unsigned)(v >> KMH_OP_SHIFT(n)) & KMH_OP_MASK;
}

static inline uint64_t kmh_mhpmevent_set_event(uint64_t v, unsigned slot, unsigned index)
{
	v &= ~((uint64_t)KMH_EVENT_MASK << KMH_EVENT_SHIFT(slot));
	return v | ((uint64_t)(index & KMH_EVENT_MASK) << KMH_EVENT_SHIFT(slot));
}

static inline uint64_t kmh_mhpmevent_set_op(uint64_t v, unsigned n, unsigned op)
{
	v &= ~((uint64_t)KMH_OP_MASK << KMH_OP_SHIFT(n));
	return v | ((uint64_t)(op & KMH_OP_MASK) << KMH_OP_SHIFT(n));
}

static inline bool kmh_op_is_valid(unsigned op)
{
	return op == KMH_OP_OR || op == KMH_OP_AND || op == KMH_OP_XOR || op == KMH_OP_ADD;
}

/* The op XiangShan's counter executes for any 5-bit OP_TYPE, reserved
 * values included: its mux tests bit 0 (AND), then bit 1 (XOR), then bit 2
 * (ADD), else OR; bits 4:3 are ignored (../shared/xiangshan/README.md). For
 * the four defined values this is the value itself. */
static inline unsigned kmh_op_hardware(unsigned op)
{
	if (op & 1u)
		return KMH_OP_AND;
	if (op & 2u)
		return KMH_OP_XOR;
	if (op & 4u)
		return KMH_OP_ADD;
	return KMH_OP_OR;
}

/* Combine two 6-bit per-cycle increments as the hardware does: bitwise for
 * OR/AND/XOR, modulo 64 for ADD. A reserved op is treated as OR by callers
 * that must model hardware; here it yields 0 so misuse is visible in tests. */
static inline unsigned kmh_op_apply(unsigned op, unsigned a, unsigned b)
{
	switch (op) {
	case KMH_OP_OR:
		return (a | b) & 63u;
	case KMH_OP_AND:
		return a & b & 63u;
	case KMH_OP_XOR:
		return (a ^ b) & 63u;
	case KMH_OP_ADD:
		return (a + b) & 63u;
	default:
		return 0;
	}
}

/* RESULT2 = (E0 op0 E1) op2 (E2 op1 E3) for one cycle's slot values. */
static inline unsigned kmh_mhpmevent_combine(uint64_t v, const unsigned e[KMH_NR_SLOTS])
{
	unsigned r0 = kmh_op_apply(kmh_mhpmevent_op(v, 0), e[0], e[1]);
	unsigned r1 = kmh_op_apply(kmh_mhpmevent_op(v, 1), e[2], e[3]);
	return kmh_op_apply(kmh_mhpmevent_op(v, 2), r0, r1);
}

#endif

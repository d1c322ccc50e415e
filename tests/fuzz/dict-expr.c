/* dict-expr.c: tokens of the event grammar for the fuzz driver's mutator. */
#include <stddef.h>

extern const char *const fuzz_dictionary[];
const char *const fuzz_dictionary[] = {
	"(", ")", "+", "|", "&", "^", ":", ":u", ":k", ":m", ":H", ":G", ":uG", " ",
	"ifu_req", "ifu_miss", "rob_commitInstr", "load_s0_in_fire", "load_s0_in_fire.2",
	"std_freelist_1_4_valid", "noEvent", "frontend:", "backend:", "memblock:", "cache:",
	"0x", "57", "58", "1023", "r", "rffffffffffffffff", "kunminghu/", "cpu/", "/", ",",
	"event0=", "event3=", "op0=", "op2=", "add", "xor", "bank=", "=",
	NULL,
};

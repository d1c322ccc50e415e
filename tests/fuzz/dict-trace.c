/* dict-trace.c: tokens of the trace format (hpmstat-emu(1), TRACE FORMAT)
 * for the fuzz driver's mutator. */
#include <stddef.h>

extern const char *const fuzz_dictionary[];
const char *const fuzz_dictionary[] = {
    "hpmstat-emu-trace 1\n",
    "\n",
    " ",
    "\t",
    "#",
    " M ",
    " HS ",
    " HU ",
    " VS ",
    " VU ",
    "frontend:",
    "backend:",
    "memblock:",
    "cache:",
    "=",
    "=63",
    "=64",
    "0",
    "1",
    "63",
    "1000000000000000000",
    "18446744073709551615",
    "18446744073709551616",
    NULL,
};

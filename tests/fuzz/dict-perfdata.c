/* dict-perfdata.c: tokens of perf.data for the fuzz driver's mutator: the
 * magic and strings of the feature sections (binary fields without a NUL
 * byte cannot be tokens here; the corpus carries them). */
#include <stddef.h>

extern const char *const fuzz_dictionary[];
const char *const fuzz_dictionary[] = {
    "PERFILE2",
    "cpu-clock",
    "cycles",
    "[kernel.kallsyms]",
    "[vdso]",
    "/bin/true",
    "prog",
    "\xff\xff\xff\xff\xff\xff\xff\xff",
    "\x80\xff\xff\xff\xff\xff\xff\xff",
    NULL,
};

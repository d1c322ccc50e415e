/* dict-weights.c: JSON tokens and the run names of the weights target for
 * the fuzz driver's mutator. */
#include <stddef.h>

extern const char *const fuzz_dictionary[];
const char *const fuzz_dictionary[] = {
    "{",     "}",     "[",       "]",    ":",    ",",           "\"",  "\"a\"",
    "\"b\"", "\"c\"", "\"a\": ", "0",    "1",    "-1",          "0.5", "1e300",
    "1e309", "-0",    "1e-320",  "true", "null", "\"\\u0000\"", " ",   NULL,
};

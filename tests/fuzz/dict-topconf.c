/* dict-topconf.c: keys and values of top.conf (hpmstat-top(1)) for the
 * fuzz driver's mutator. */
#include <stddef.h>

extern const char *const fuzz_dictionary[];
const char *const fuzz_dictionary[] = {
    "\n",       " = ",         "=",
    "#",        "\t",          "\r",
    "delay",    "level",       "processes",
    "events",   "metrics",     "sort",
    "reverse",  "sticky",      "color",
    "backend",  "emu-profile", "emu-harts",
    "emu-seed", "emu-freq",    "auto",
    "perf",     "emu",         "yes",
    "no",       "true",        "false",
    "on",       "off",         "0x",
    "0.1",      "3600",        "1e308",
    "nan",      "inf",         "18446744073709551616",
    "phased",   "balanced",    "ifu_req,ifu_miss",
    "ipc",      NULL,
};

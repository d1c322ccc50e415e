/* dict-perfdata-deep.c: whole operations of fuzz-perfdata-deep.c's program
 * (opcode and operands, without NUL bytes: a 16-bit operand below 256 is
 * written as itself plus 8,001, the depth's modulus) for the fuzz
 * driver's mutator. */
#include <stddef.h>

extern const char *const fuzz_dictionary[];
const char *const fuzz_dictionary[] = {
    /* COMM pid 0x0102, tid +1, 15 bytes of name with control characters */
    "\x08\x01\x01\x01\x0f\x1b[31mred\x07\tname\x7f",
    /* MMAP2 pid 0x0102: [kernel.kallsyms] in slot 0x81 (kernel), [vdso] in slot 1 */
    "\x01\x01\x01\x81\x01\x01",
    "\x01\x01\x01\x01\x02\x02",
    /* MMAP2 in slot 2 with a name from the input */
    "\x01\x01\x01\x02\x7f\x0clibdeep.so.1\x01",
    /* FORK, EXIT */
    "\x02\x02\x01\x01\x01",
    "\x03\x02\x01",
    /* SAMPLE: event 1, pid 0x0102, slot 1, period 0x0102; 40 zero frames,
     * 64 frames of one function recursing, 8,000 frames walking the slots
     * behind a kernel marker, 200 frames from the input */
    "\x04\x01\x01\x01\x01\x10\x10\x01\x01\x69\x1f\x08",
    "\x04\x01\x01\x01\x01\x10\x10\x01\x01\x81\x1f\x01",
    "\x04\x01\x01\x01\x01\x10\x10\x01\x01\x40\x1f\x16",
    "\x04\x01\x01\x01\x01\x10\x10\x01\x01\x09\x20\x03",
    /* THREADS: 1,100 and 4,095 threads named t0, t1, ... */
    "\x05\x4c\x04\x01\x01\x01\x01t",
    "\x05\xff\x0f\x02\x01\x01\x01w",
    /* REPEAT 255 times */
    "\x06\xff",
    /* LOST, LOST_SAMPLES, FINISHED_ROUND */
    "\x07\x03\x10\x01",
    "\x07\x01\x10\x01",
    "\x07\x02",
    NULL,
};

/* gen-pool.h: the string pool the build-time generators write their
 * tables' texts into, so that the tables hold offsets instead of pointers:
 * a table of pointers is relocated by the loader at every start (each page
 * of it written, one copy-on-write fault a page), a table of offsets is
 * plain read-only data (perf's jevents.py does the same with its
 * big_c_string).
 *
 * Owns: struct gen_pool (each distinct text once, in the order first
 * added), gen_pool_add (a text's offset) and gen_pool_put (the pool as one
 * C array of chars) or gen_pool_put_literal (its initialiser).
 */
#ifndef HPM_GEN_GEN_POOL_H
#define HPM_GEN_GEN_POOL_H

#include <stdint.h>
#include <stdio.h>

struct gen_pool {
	char *buf; /* the texts, each followed by its NUL */
	size_t len, cap;
	uint32_t *slot; /* hash of the texts: offset + 1, 0 for an empty slot */
	size_t nr, nr_slots;
};

/* The offset of s in pool, which adds it when it is not there yet; prog's
 * fatal error (gen_vdie) when the pool outgrows 32-bit offsets or memory.
 * The first text added has offset 0. */
uint32_t gen_pool_add(struct gen_pool *pool, const char *prog, const char *s);
/* The pool as `[static ]const char VAR[] = "...\0" ...;`, one text a line. */
void gen_pool_put(FILE *out, const struct gen_pool *pool, const char *var, int is_static);
/* Only the string literal of that array, its lines tab-indented: pool->len
 * characters, each text's NUL written out. */
void gen_pool_put_literal(FILE *out, const struct gen_pool *pool);
void gen_pool_free(struct gen_pool *pool);

#endif

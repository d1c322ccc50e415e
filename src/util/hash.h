/* hash.h: hashing that a file being read cannot flood, and the one map of
 * 64-bit keys the readers use.
 *
 * Owns: the keyed hash (SipHash-1-3, the keyed function Python and Rust
 * hash their tables with) whose key comes from the kernel's random source
 * (getrandom) and never from input, so that no crafted perf.data can pick
 * keys that all land in one slot; and struct hpm_u64map, open addressing
 * over that hash.
 *
 * Never prints, never exits (allocation failure aborts as xalloc does).
 */
#ifndef HPM_UTIL_HASH_H
#define HPM_UTIL_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A hash key: draw one per table with hpm_hash_key_new. */
struct hpm_hash_key {
	uint64_t k0, k1;
};

/* A key from getrandom (else /dev/urandom, else the clock, the pid and
 * the address space's layout: never anything a file says). */
void hpm_hash_key_new(struct hpm_hash_key *k);
uint64_t hpm_hash_bytes(const struct hpm_hash_key *k, const void *p, size_t n);
uint64_t hpm_hash_u64(const struct hpm_hash_key *k, uint64_t x);

/* uint64_t -> uint64_t. All zero is an empty map (its key is drawn at the
 * first insert). Lookups and inserts are O(1) expected whatever the keys;
 * the table stays at most half full. Pointers to values stay valid until
 * the next insert or delete. */
struct hpm_u64map {
	struct hpm_u64map_slot *slot;
	size_t cap, n; /* cap: 0 or a power of two */
	struct hpm_hash_key key;
};

/* The value of key, or NULL. */
uint64_t *hpm_u64map_find(const struct hpm_u64map *m, uint64_t key);
/* The value of key, inserted as 0 when absent (*added says which). */
uint64_t *hpm_u64map_get(struct hpm_u64map *m, uint64_t key, bool *added);
/* Removes key; false when it was absent. */
bool hpm_u64map_del(struct hpm_u64map *m, uint64_t key);
void hpm_u64map_free(struct hpm_u64map *m);

#endif

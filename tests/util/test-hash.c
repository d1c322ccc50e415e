/* test-hash.c: src/util/hash.c. The keyed hash against SipHash-1-3's
 * published outputs (Linux's lib/test_siphash.c: on 64-bit hosts its
 * hsiphash is SipHash-1-3, and its test vectors are the low 32 bits for
 * the key 00..0f and the messages 00, 00 01, ...); the map with keys that
 * all collide under a fixed multiplicative hash (the ids of issue 27),
 * through growth, deletion and reinsertion, against a plain array. */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "util/hash.h"

static const uint32_t sip13_low32[16] = {0x050fc4dcU, 0x7d57ca93U, 0x4dc7d44dU, 0xe7ddf7fbU,
                                         0x88d38328U, 0x49533b67U, 0xc59f22a7U, 0x9bb11140U,
                                         0x8d299a8eU, 0x6c063de4U, 0x92ff097fU, 0xf94dc352U,
                                         0x57b4d9a2U, 0x1229ffa7U, 0xc0f95d34U, 0x2a519956U};

#define N 100000

int main(void)
{
	struct hpm_hash_key k = {0x0706050403020100ULL, 0x0f0e0d0c0b0a0908ULL};
	uint8_t msg[16];
	bool all = true;

	for (unsigned i = 0; i < 16; i++) {
		msg[i] = (uint8_t)i;
		uint32_t got = (uint32_t)hpm_hash_bytes(&k, msg, i);
		if (got != sip13_low32[i]) {
			all = false;
			tap_diag("length %u: 0x%08x, SipHash-1-3 0x%08x", i, got, sip13_low32[i]);
		}
	}
	tap_ok(all, "SipHash-1-3 of 0..15 bytes matches the kernel's test vectors");
	uint64_t x = 0x0706050403020100ULL;
	tap_is_u64(hpm_hash_u64(&k, x), hpm_hash_bytes(&k, &x, 8), "a u64 hashes as its 8 bytes");

	struct hpm_hash_key a, b;
	hpm_hash_key_new(&a);
	hpm_hash_key_new(&b);
	tap_ok(memcmp(&a, &b, sizeof a) != 0, "two drawn keys differ");

	/* (id * 0x9e3779b97f4a7c15) mod 2^64 == j: every id in one slot of
	 * the old fixed hash, whatever the table's size */
	uint64_t inv = 0x9e3779b97f4a7c15ULL;
	for (int i = 0; i < 5; i++) /* Newton: the inverse mod 2^64 */
		inv *= 2 - 0x9e3779b97f4a7c15ULL * inv;
	tap_is_u64(inv * 0x9e3779b97f4a7c15ULL, 1, "the golden ratio's inverse mod 2^64");
	uint64_t *ids = malloc(N * sizeof *ids);
	struct hpm_u64map m = {0};
	tap_ok(hpm_u64map_find(&m, 1) == NULL && !hpm_u64map_del(&m, 1),
	       "an all-zero map is empty");
	bool added_all = true;
	for (uint64_t j = 0; j < N; j++) {
		bool added;
		ids[j] = (j + 1) * inv;
		*hpm_u64map_get(&m, ids[j], &added) = j;
		added_all &= added;
	}
	tap_ok(added_all && m.n == N, "%d colliding ids inserted (n %zu)", N, m.n);
	tap_ok(m.cap >= 2 * N && (m.cap & (m.cap - 1)) == 0,
	       "grown to a power of two at most half full (cap %zu)", m.cap);
	bool found = true;
	for (uint64_t j = 0; j < N; j++) {
		uint64_t *v = hpm_u64map_find(&m, ids[j]);
		found &= v && *v == j;
	}
	tap_ok(found, "every id finds its value after growth");
	bool again;
	uint64_t *v = hpm_u64map_get(&m, ids[7], &again);
	tap_ok(!again && *v == 7 && m.n == N, "get of a present key does not add it");
	tap_ok(hpm_u64map_find(&m, 0) == NULL && hpm_u64map_find(&m, inv * (N + 1)) == NULL,
	       "absent keys are not found");

	/* delete every third: the rest stay reachable, the deleted are gone */
	bool del = true;
	for (uint64_t j = 0; j < N; j += 3)
		del &= hpm_u64map_del(&m, ids[j]);
	tap_ok(del && m.n == N - (N + 2) / 3, "every third deleted (n %zu)", m.n);
	tap_ok(!hpm_u64map_del(&m, ids[0]), "a deleted key cannot be deleted twice");
	bool rest = true;
	for (uint64_t j = 0; j < N; j++) {
		uint64_t *w = hpm_u64map_find(&m, ids[j]);
		rest &= j % 3 ? (w && *w == j) : w == NULL;
	}
	tap_ok(rest, "after deletion: the kept ids keep their values, the deleted are absent");
	for (uint64_t j = 0; j < N; j += 3)
		*hpm_u64map_get(&m, ids[j], NULL) = j + N;
	bool back = m.n == N;
	for (uint64_t j = 0; j < N; j++) {
		uint64_t *w = hpm_u64map_find(&m, ids[j]);
		back &= w && *w == (j % 3 ? j : j + N);
	}
	tap_ok(back, "reinserted ids take their new values, the others keep theirs");
	hpm_u64map_free(&m);
	tap_ok(m.n == 0 && m.cap == 0 && hpm_u64map_find(&m, ids[1]) == NULL,
	       "a freed map is empty");
	free(ids);
	return tap_done();
}

/* hash.c: see hash.h. */
#include "util/hash.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "util/xalloc.h"

struct hpm_u64map_slot {
	uint64_t key, val;
	bool used;
};

void hpm_hash_key_new(struct hpm_hash_key *k)
{
	uint64_t b[2];
	ssize_t got = getrandom(b, sizeof b, GRND_NONBLOCK);

	if (got != (ssize_t)sizeof b) {
		int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);

		got = fd >= 0 ? read(fd, b, sizeof b) : -1;
		if (fd >= 0)
			close(fd);
	}
	if (got != (ssize_t)sizeof b) {
		/* no random source: still nothing a file can know in advance */
		struct timespec ts;
		static uint64_t counter;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		b[0] = (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ULL ^ (uint64_t)ts.tv_sec ^
		       (uint64_t)(uintptr_t)&counter;
		b[1] = (uint64_t)getpid() << 32 ^ (uint64_t)(uintptr_t)k ^ ++counter;
	}
	k->k0 = b[0];
	k->k1 = b[1];
}

/* ---------------------------------------------------------- SipHash-1-3 */

#define ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))

#define SIPROUND                                                                                   \
	do {                                                                                       \
		v0 += v1;                                                                          \
		v1 = ROTL(v1, 13);                                                                 \
		v1 ^= v0;                                                                          \
		v0 = ROTL(v0, 32);                                                                 \
		v2 += v3;                                                                          \
		v3 = ROTL(v3, 16);                                                                 \
		v3 ^= v2;                                                                          \
		v0 += v3;                                                                          \
		v3 = ROTL(v3, 21);                                                                 \
		v3 ^= v0;                                                                          \
		v2 += v1;                                                                          \
		v1 = ROTL(v1, 17);                                                                 \
		v1 ^= v2;                                                                          \
		v2 = ROTL(v2, 32);                                                                 \
	} while (0)

uint64_t hpm_hash_bytes(const struct hpm_hash_key *k, const void *p, size_t n)
{
	const uint8_t *in = p;
	uint64_t v0 = 0x736f6d6570736575ULL ^ k->k0, v1 = 0x646f72616e646f6dULL ^ k->k1,
	         v2 = 0x6c7967656e657261ULL ^ k->k0, v3 = 0x7465646279746573ULL ^ k->k1;
	uint64_t b = (uint64_t)n << 56, m;
	size_t i, left = n & 7;

	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(&m, in + i, 8); /* little-endian hosts only, as the tree */
		v3 ^= m;
		SIPROUND;
		v0 ^= m;
	}
	for (size_t j = 0; j < left; j++)
		b |= (uint64_t)in[i + j] << (8 * j);
	v3 ^= b;
	SIPROUND;
	v0 ^= b;
	v2 ^= 0xff;
	SIPROUND;
	SIPROUND;
	SIPROUND;
	return v0 ^ v1 ^ v2 ^ v3;
}

uint64_t hpm_hash_u64(const struct hpm_hash_key *k, uint64_t x)
{
	return hpm_hash_bytes(k, &x, sizeof x);
}

/* -------------------------------------------------------------- the map */

static size_t slot_of(const struct hpm_u64map *m, uint64_t key)
{
	return (size_t)hpm_hash_u64(&m->key, key) & (m->cap - 1);
}

uint64_t *hpm_u64map_find(const struct hpm_u64map *m, uint64_t key)
{
	if (!m->n)
		return NULL;
	for (size_t i = slot_of(m, key); m->slot[i].used; i = (i + 1) & (m->cap - 1))
		if (m->slot[i].key == key)
			return &m->slot[i].val;
	return NULL;
}

static void grow(struct hpm_u64map *m)
{
	struct hpm_u64map_slot *old = m->slot;
	size_t oldcap = m->cap;

	if (!oldcap)
		hpm_hash_key_new(&m->key);
	m->cap = oldcap ? 2 * oldcap : 64;
	m->slot = xcalloc(m->cap, sizeof *m->slot);
	for (size_t j = 0; j < oldcap; j++) {
		if (!old[j].used)
			continue;
		size_t i = slot_of(m, old[j].key);

		while (m->slot[i].used)
			i = (i + 1) & (m->cap - 1);
		m->slot[i] = old[j];
	}
	free(old);
}

uint64_t *hpm_u64map_get(struct hpm_u64map *m, uint64_t key, bool *added)
{
	size_t i;

	if (2 * (m->n + 1) > m->cap)
		grow(m);
	for (i = slot_of(m, key); m->slot[i].used; i = (i + 1) & (m->cap - 1))
		if (m->slot[i].key == key) {
			if (added)
				*added = false;
			return &m->slot[i].val;
		}
	m->slot[i].used = true;
	m->slot[i].key = key;
	m->slot[i].val = 0;
	m->n++;
	if (added)
		*added = true;
	return &m->slot[i].val;
}

bool hpm_u64map_del(struct hpm_u64map *m, uint64_t key)
{
	size_t mask = m->cap - 1, i, j;

	if (!m->n)
		return false;
	for (i = slot_of(m, key); m->slot[i].key != key; i = (i + 1) & mask)
		if (!m->slot[i].used)
			return false;
	if (!m->slot[i].used)
		return false;
	/* backward shift: a later key of the run moves into the hole when
	 * its home slot is not in (hole, its place], so every key stays
	 * reachable from its home without tombstones */
	for (j = (i + 1) & mask; m->slot[j].used; j = (j + 1) & mask) {
		size_t home = slot_of(m, m->slot[j].key);

		if (((j - home) & mask) >= ((j - i) & mask)) {
			m->slot[i] = m->slot[j];
			i = j;
		}
	}
	m->slot[i].used = false;
	m->n--;
	return true;
}

void hpm_u64map_free(struct hpm_u64map *m)
{
	free(m->slot);
	memset(m, 0, sizeof *m);
}

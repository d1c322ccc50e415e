/* rng.h: the random numbers of both emulators' streams (workload profiles,
 * task slices, the bench's synthetic stream).
 *
 * Owns: the generator (xoshiro256**, Blackman and Vigna: fast, and good in
 * every bit), splitmix64 (to spread one 64-bit seed over a state, and as a
 * small generator of its own), and the ways a draw becomes a number in a
 * range. Each machine picks the range it has always used, so that a seed
 * gives the same stream it always gave (tests compare exact counts): the
 * exact one (Lemire's multiply-and-reject) where a mean must be exact, the
 * multiply-shift one (bias below span / 2^32) elsewhere. Everything is
 * inline: the streams draw every few dozen emulated cycles.
 */
#ifndef HPM_EMUKIT_RNG_H
#define HPM_EMUKIT_RNG_H

#include <stdint.h>

struct hpm_rng {
	uint64_t s[4]; /* xoshiro256** state */
};

/* splitmix64: the next output of the sequence whose state is *x. */
static inline uint64_t hpm_splitmix64(uint64_t *x)
{
	uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* Seeds g with the next four splitmix64 outputs of *x (*x moves on, so
 * that several generators can be seeded from one sequence). */
static inline void hpm_rng_seed(struct hpm_rng *g, uint64_t *x)
{
	for (unsigned i = 0; i < 4; i++)
		g->s[i] = hpm_splitmix64(x);
}

static inline uint64_t hpm_rotl64(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* xoshiro256**: the next 64 bits of g. */
static inline uint64_t hpm_rng_next(struct hpm_rng *g)
{
	uint64_t *s = g->s;
	uint64_t result = hpm_rotl64(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = hpm_rotl64(s[3], 45);
	return result;
}

/* The high 32 bits of draw r scaled to 0..span-1 (span <= 2^32): one
 * multiply, a bias below span / 2^32. */
static inline uint64_t hpm_rng_scale(uint64_t r, uint64_t span)
{
	return ((r >> 32) * span) >> 32;
}

/* Uniform in 0..span-1 (1 <= span < 2^32), exactly: Lemire's
 * multiply-and-reject on the high 32 bits of g's draws. *r (unless NULL)
 * gets the draw that was taken, whose low 32 bits are still unused. */
static inline uint32_t hpm_rng_below(struct hpm_rng *g, uint32_t span, uint64_t *r)
{
	uint64_t x = hpm_rng_next(g);
	uint64_t m = (x >> 32) * span;
	if ((uint32_t)m < span) {
		uint32_t reject = (0u - span) % span;
		while ((uint32_t)m < reject) {
			x = hpm_rng_next(g);
			m = (x >> 32) * span;
		}
	}
	if (r)
		*r = x;
	return (uint32_t)(m >> 32);
}

#endif

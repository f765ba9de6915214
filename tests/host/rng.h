/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host programs' random numbers: xorshift64*, fast and repeatable from
 * its seed, so that a failing run can be told by the seed it printed.
 */
#ifndef _TPSTAT_HOST_RNG_H
#define _TPSTAT_HOST_RNG_H

#include <stdint.h>

/* The next number of the sequence in *@state, which must not be 0. */
static inline uint64_t rng_next(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 0x2545f4914f6cdd1dULL;
}

#endif /* _TPSTAT_HOST_RNG_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Wide keys: up to 32 bytes (a command name, an interface name, a pid and
 * a CPU together), compared whole, never squeezed into a smaller hash.
 */
#ifndef _TPSTAT_KEY_H
#define _TPSTAT_KEY_H

#include <linux/hash.h>
#include <linux/string.h>
#include <linux/types.h>
#include <tpstat/compat.h>

#define TPSTAT_KEY_WORDS	4
#define TPSTAT_KEY_BYTES	(TPSTAT_KEY_WORDS * sizeof(u64))

/**
 * struct tpstat_key - a key of up to %TPSTAT_KEY_BYTES bytes
 * @w: its bytes as words; unused bytes are zero
 */
struct tpstat_key {
	u64 w[TPSTAT_KEY_WORDS];
};

/* A u64 key, as every primitive takes it. */
static inline struct tpstat_key tpstat_key_u64(u64 value)
{
	return (struct tpstat_key){ .w = { value } };
}

/* Two u64s, such as (pid, cpu). */
static inline struct tpstat_key tpstat_key_pair(u64 a, u64 b)
{
	return (struct tpstat_key){ .w = { a, b } };
}

/**
 * tpstat_key_string() - a key of a string, such as a task's comm
 * @s: the string; only up to its NUL or @max bytes, the rest of the key
 *     is zero, so two strings are one key exactly when they are equal
 * @max: at most %TPSTAT_KEY_BYTES
 *
 * Return: the key.
 */
static inline struct tpstat_key tpstat_key_string(const char *s, size_t max)
{
	struct tpstat_key key = {};
	char *bytes = (char *)key.w;
	size_t i;

	for (i = 0; i < min_t(size_t, max, TPSTAT_KEY_BYTES) && s[i]; i++)
		bytes[i] = s[i];
	return key;
}

/**
 * tpstat_key_comm() - a key of a task's command, in two loads
 * @comm: a task's comm, TASK_COMM_LEN (16) bytes
 *
 * The kernel pads a comm with zeros after its NUL whenever it sets one, so
 * this is the key tpstat_key_string(comm, 16) makes, without its loop over
 * the bytes: what a probe on the scheduler wants, on every context switch.
 *
 * Return: the key.
 */
static inline struct tpstat_key tpstat_key_comm(const char *comm)
{
	return (struct tpstat_key){ .w = {
		get_unaligned((const u64 *)comm),
		get_unaligned((const u64 *)(comm + 8)) } };
}

static inline bool tpstat_key_equal(const struct tpstat_key *a,
				    const struct tpstat_key *b)
{
	return !((a->w[0] ^ b->w[0]) | (a->w[1] ^ b->w[1]) |
		 (a->w[2] ^ b->w[2]) | (a->w[3] ^ b->w[3]));
}

static inline u64 tpstat_key_mix(u64 h, u64 word, unsigned int i)
{
	return word ? (h ^ word) * GOLDEN_RATIO_64 + i : h;
}

/*
 * Every byte of the key moves the hash; a u64 key hashes as hash_64().
 * Unrolled, so that a key whose upper words are known to be zero costs
 * no more than a u64.
 */
static inline u32 tpstat_key_hash(const struct tpstat_key *key,
				  unsigned int bits)
{
	u64 h = key->w[0];

	h = tpstat_key_mix(h, key->w[1], 1);
	h = tpstat_key_mix(h, key->w[2], 2);
	h = tpstat_key_mix(h, key->w[3], 3);
	return hash_64(h, bits);
}

#endif /* _TPSTAT_KEY_H */

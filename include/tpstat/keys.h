/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Key registries: a dense id and a label for each key a probe sees, so that
 * per-key data can live in arrays (one histogram per IRQ handler, say) and
 * keys can be named after what they stood for is gone.
 */
#ifndef _TPSTAT_KEYS_H
#define _TPSTAT_KEYS_H

#include <linux/atomic.h>
#include <linux/compiler_attributes.h>
#include <linux/minmax.h>
#include <linux/types.h>

/* Marks an unused entry, so it cannot be used as a key. */
#define TPSTAT_KEYS_NO_KEY	U64_MAX

/* Bytes of a label, with its NUL; longer labels are cut. */
#define TPSTAT_KEYS_LABEL_MAX	64

/* Keys a registry may be created with; keeps a typo from eating memory. */
#define TPSTAT_KEYS_MAX		65536

struct tpstat_keys_entry {
	u64 key;
	char label[TPSTAT_KEYS_LABEL_MAX];
};

/**
 * struct tpstat_keys - a fixed-capacity registry shared by all CPUs
 * @entries: @capacity entries, in the order their ids were handed out
 * @index: @mask + 1 hash slots, twice @capacity so that a lookup always
 *         ends at a free slot; each is 0 when free, else an id + 1
 * @capacity: keys the registry may hold
 * @mask: hash slots - 1
 * @bits: log2 of hash slots
 * @used: ids handed out
 *
 * An entry is written whole before its id is published in @index, and
 * never changes after, so a reader needs no lock: what it finds is complete.
 */
struct tpstat_keys {
	struct tpstat_keys_entry *entries;
	u32 *index;
	unsigned int capacity;
	unsigned int mask;
	unsigned int bits;
	atomic_t used;
};

/**
 * tpstat_keys_init() - preallocate a registry
 * @k: the registry
 * @capacity: keys it may hold, 1 to %TPSTAT_KEYS_MAX
 *
 * Return: 0, -EINVAL for a capacity out of range, or -ENOMEM.
 */
int tpstat_keys_init(struct tpstat_keys *k, unsigned int capacity);
void tpstat_keys_destroy(struct tpstat_keys *k);

/* Only while no probe can add keys: the core detaches them first. */
void tpstat_keys_reset(struct tpstat_keys *k);

/**
 * tpstat_keys_id() - the id of @key, registering it at first sight
 * @k: the registry
 * @key: anything but %TPSTAT_KEYS_NO_KEY
 * @fmt: printf format of the label, used only when @key is new
 *
 * Safe in any context but NMI (a label may need kallsyms, as %ps does), on
 * any CPU at once. Two CPUs that meet a new key together both get the id
 * that was published first; the other id is lost to the capacity.
 *
 * Return: an id below the registry's capacity, or -ENOSPC if @key is new
 * and the registry is full.
 */
__printf(3, 4)
int tpstat_keys_id(struct tpstat_keys *k, u64 key, const char *fmt, ...);

/**
 * tpstat_keys_nr() - how many ids were handed out
 * @k: the registry
 *
 * Return: a bound for the ids to pass to tpstat_keys_label().
 */
static inline unsigned int tpstat_keys_nr(const struct tpstat_keys *k)
{
	return min_t(unsigned int, atomic_read(&k->used), k->capacity);
}

/**
 * tpstat_keys_label() - the key and label of an id
 * @k: the registry
 * @id: an id below tpstat_keys_nr()
 * @key: set to the id's key
 *
 * Return: the label, or NULL if @id is not (or not yet) in use.
 */
const char *tpstat_keys_label(const struct tpstat_keys *k, unsigned int id,
			      u64 *key);

/* Return: bytes the registry holds, for reporting memory use. */
size_t tpstat_keys_bytes(const struct tpstat_keys *k);

#endif /* _TPSTAT_KEYS_H */

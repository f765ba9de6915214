// SPDX-License-Identifier: GPL-2.0
/*
 * Key registries: ids handed out in order, found through an open-addressing
 * hash index with linear probing. An id is published with one cmpxchg once
 * its entry is written, so lookups take no lock and always see whole entries.
 */
#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "internal.h"

void tpstat_keys_reset(struct tpstat_keys *k)
{
	unsigned int i;

	for (i = 0; i < k->capacity; i++) {
		k->entries[i].key = TPSTAT_KEYS_NO_KEY;
		k->entries[i].label[0] = '\0';
	}
	memset(k->index, 0, (k->mask + 1) * sizeof(*k->index));
	atomic_set(&k->used, 0);
}
EXPORT_SYMBOL_GPL(tpstat_keys_reset);

static void tpstat_keys_free(struct tpstat_keys *k)
{
	kvfree(k->index);
	kvfree(k->entries);
	k->index = NULL;
	k->entries = NULL;
}

/* The memory file counts a registry as a table: keyed data. */
void tpstat_keys_destroy(struct tpstat_keys *k)
{
	if (k->entries)
		tpstat_memory_account(TPSTAT_MEM_TABLES, -tpstat_keys_bytes(k));
	tpstat_keys_free(k);
}
EXPORT_SYMBOL_GPL(tpstat_keys_destroy);

int tpstat_keys_init(struct tpstat_keys *k, unsigned int capacity)
{
	if (!capacity || capacity > TPSTAT_KEYS_MAX)
		return -EINVAL;
	k->capacity = capacity;
	k->mask = roundup_pow_of_two(2 * capacity) - 1;
	k->bits = ilog2(k->mask + 1);
	k->entries = kvcalloc(capacity, sizeof(*k->entries), GFP_KERNEL);
	k->index = kvcalloc(k->mask + 1, sizeof(*k->index), GFP_KERNEL);
	if (!k->entries || !k->index) {
		tpstat_keys_free(k);
		return -ENOMEM;
	}
	tpstat_keys_reset(k);
	tpstat_memory_account(TPSTAT_MEM_TABLES, tpstat_keys_bytes(k));
	return 0;
}
EXPORT_SYMBOL_GPL(tpstat_keys_init);

/* What hash slot @i holds: 0, or an id + 1 whose entry is complete. */
static u32 tpstat_keys_slot(const struct tpstat_keys *k, unsigned int i)
{
	/* Pairs with the cmpxchg() that published the id after its entry. */
	return smp_load_acquire(&k->index[i]);
}

/* The id @key is published under, or -ENOENT. */
static int tpstat_keys_find(const struct tpstat_keys *k, u64 key)
{
	unsigned int i = hash_64(key, k->bits);
	unsigned int n;

	for (n = 0; n <= k->mask; n++, i = (i + 1) & k->mask) {
		u32 slot = tpstat_keys_slot(k, i);

		if (!slot)
			return -ENOENT;
		if (READ_ONCE(k->entries[slot - 1].key) == key)
			return slot - 1;
	}
	return -ENOENT;
}

/* Publishes @id for @key, or finds the id another CPU published it under. */
static int tpstat_keys_publish(struct tpstat_keys *k, u64 key, int id)
{
	unsigned int i = hash_64(key, k->bits);
	unsigned int n;

	for (n = 0; n <= k->mask; n++, i = (i + 1) & k->mask) {
		u32 slot = tpstat_keys_slot(k, i);

		/* A successful cmpxchg() orders the entry before the id. */
		if (!slot) {
			if (!cmpxchg(&k->index[i], 0, id + 1))
				return id;
			slot = tpstat_keys_slot(k, i);
		}
		if (READ_ONCE(k->entries[slot - 1].key) == key)
			return slot - 1;
	}
	return -ENOSPC;	/* cannot happen: twice as many slots as ids */
}

int tpstat_keys_id(struct tpstat_keys *k, u64 key, const char *fmt, ...)
{
	struct tpstat_keys_entry *entry;
	va_list args;
	int id, published;

	id = tpstat_keys_find(k, key);
	if (id >= 0)
		return id;
	id = atomic_fetch_add_unless(&k->used, 1, k->capacity);
	if ((unsigned int)id >= k->capacity)
		return -ENOSPC;

	entry = &k->entries[id];
	va_start(args, fmt);
	vsnprintf(entry->label, sizeof(entry->label), fmt, args);
	va_end(args);
	WRITE_ONCE(entry->key, key);

	published = tpstat_keys_publish(k, key, id);
	if (published != id)
		WRITE_ONCE(entry->key, TPSTAT_KEYS_NO_KEY);
	return published;
}
EXPORT_SYMBOL_GPL(tpstat_keys_id);

const char *tpstat_keys_label(const struct tpstat_keys *k, unsigned int id,
			      u64 *key)
{
	u64 seen;

	if (id >= k->capacity)
		return NULL;
	seen = READ_ONCE(k->entries[id].key);
	/* Lost to another CPU, or not published yet. */
	if (seen == TPSTAT_KEYS_NO_KEY || tpstat_keys_find(k, seen) != id)
		return NULL;
	*key = seen;
	return k->entries[id].label;
}
EXPORT_SYMBOL_GPL(tpstat_keys_label);

size_t tpstat_keys_bytes(const struct tpstat_keys *k)
{
	return (size_t)k->capacity * sizeof(*k->entries) +
	       (size_t)(k->mask + 1) * sizeof(*k->index);
}
EXPORT_SYMBOL_GPL(tpstat_keys_bytes);

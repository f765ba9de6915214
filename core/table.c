// SPDX-License-Identifier: GPL-2.0
/*
 * Keyed tables: one open-addressing hash table per CPU, preallocated, with
 * linear probing. Only the owning CPU inserts, so a slot is claimed with a
 * local cmpxchg that a probe nesting on the same CPU cannot tear.
 */
#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sort.h>

#include "internal.h"

static unsigned int tpstat_table_slots(const struct tpstat_table *t)
{
	return t->mask + 1;
}

static struct tpstat_table_slot *tpstat_table_area(const struct tpstat_table *t,
						   int cpu)
{
	return t->slots + (size_t)cpu * tpstat_table_slots(t);
}

void tpstat_table_reset(struct tpstat_table *t)
{
	size_t i, n = (size_t)nr_cpu_ids * tpstat_table_slots(t);
	int cpu;

	for (i = 0; i < n; i++) {
		t->slots[i].key = TPSTAT_TABLE_NO_KEY;
		local64_set(&t->slots[i].count, 0);
		local64_set(&t->slots[i].sum, 0);
		local64_set(&t->slots[i].max, 0);
	}
	for_each_possible_cpu(cpu) {
		unsigned int *used = per_cpu_ptr(t->used, cpu);

		*used = 0;
	}
	tpstat_counter_reset(&t->dropped);
}
EXPORT_SYMBOL_GPL(tpstat_table_reset);

int tpstat_table_init(struct tpstat_table *t, unsigned int capacity)
{
	int err = -ENOMEM;

	if (!capacity || capacity > TPSTAT_TABLE_MAX_KEYS)
		return -EINVAL;
	t->capacity = capacity;
	t->mask = roundup_pow_of_two(2 * capacity) - 1;
	t->bits = ilog2(t->mask + 1);
	t->slots = kvcalloc((size_t)nr_cpu_ids * tpstat_table_slots(t),
			    sizeof(*t->slots), GFP_KERNEL);
	if (!t->slots)
		return err;
	t->used = alloc_percpu(unsigned int);
	if (!t->used)
		goto free_slots;
	err = tpstat_counter_init(&t->dropped);
	if (err)
		goto free_used;
	tpstat_table_reset(t);
	tpstat_memory_account(TPSTAT_MEM_TABLES, tpstat_table_bytes(t));
	return 0;

free_used:
	free_percpu(t->used);
free_slots:
	kvfree(t->slots);
	return err;
}
EXPORT_SYMBOL_GPL(tpstat_table_init);

void tpstat_table_destroy(struct tpstat_table *t)
{
	if (t->slots)
		tpstat_memory_account(TPSTAT_MEM_TABLES, -tpstat_table_bytes(t));
	tpstat_counter_destroy(&t->dropped);
	free_percpu(t->used);
	kvfree(t->slots);
	t->slots = NULL;
}
EXPORT_SYMBOL_GPL(tpstat_table_destroy);

/* Finds @key on this CPU, or claims a free slot for it while there is room. */
static struct tpstat_table_slot *tpstat_table_claim(struct tpstat_table *t,
						    u64 key)
{
	struct tpstat_table_slot *area = tpstat_table_area(t, smp_processor_id());
	unsigned int i = hash_64(key, t->bits);
	unsigned int n;

	for (n = 0; n <= t->mask; n++, i = (i + 1) & t->mask) {
		u64 seen = READ_ONCE(area[i].key);

		if (seen == key)
			return &area[i];
		if (seen != TPSTAT_TABLE_NO_KEY)
			continue;
		if (this_cpu_read(*t->used) >= t->capacity)
			return NULL;
		seen = cmpxchg_local(&area[i].key, TPSTAT_TABLE_NO_KEY, key);
		if (seen == TPSTAT_TABLE_NO_KEY) {
			this_cpu_inc(*t->used);
			return &area[i];
		}
		/* A probe that interrupted us took the slot, maybe for @key. */
		if (seen == key)
			return &area[i];
	}
	return NULL;
}

bool tpstat_table_add_slow(struct tpstat_table *t, u64 key, u64 value)
{
	struct tpstat_table_slot *slot = tpstat_table_claim(t, key);

	if (!slot) {
		tpstat_counter_inc(&t->dropped);
		return false;
	}
	tpstat_table_slot_add(slot, value);
	return true;
}
EXPORT_SYMBOL_GPL(tpstat_table_add_slow);

static int tpstat_row_cmp_key(const void *a, const void *b)
{
	const struct tpstat_table_row *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
}

static int tpstat_row_cmp_count(const void *a, const void *b)
{
	const struct tpstat_table_row *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return tpstat_row_cmp_key(a, b);
}

struct tpstat_table_row *tpstat_table_rows(const struct tpstat_table *t,
					   unsigned int *nr)
{
	struct tpstat_table_row *rows;
	unsigned int i, n = 0, merged = 0;
	size_t room = 0;
	int cpu;

	*nr = 0;
	for_each_possible_cpu(cpu)
		room += min(READ_ONCE(*per_cpu_ptr(t->used, cpu)), t->capacity);
	if (!room)
		return NULL;
	rows = kvcalloc(room, sizeof(*rows), GFP_KERNEL);
	if (!rows)
		return NULL;

	/* Keys claimed after the count above are left for the next read. */
	for_each_possible_cpu(cpu) {
		const struct tpstat_table_slot *area = tpstat_table_area(t, cpu);

		for (i = 0; i <= t->mask && n < room; i++) {
			u64 key = READ_ONCE(area[i].key);

			if (key == TPSTAT_TABLE_NO_KEY)
				continue;
			rows[n].key = key;
			rows[n].count = local64_read(&area[i].count);
			rows[n].sum = local64_read(&area[i].sum);
			rows[n].max = local64_read(&area[i].max);
			n++;
		}
	}

	sort(rows, n, sizeof(*rows), tpstat_row_cmp_key, NULL);
	for (i = 0; i < n; i++) {
		if (merged && rows[merged - 1].key == rows[i].key) {
			rows[merged - 1].count += rows[i].count;
			rows[merged - 1].sum += rows[i].sum;
			rows[merged - 1].max = max(rows[merged - 1].max, rows[i].max);
		} else {
			rows[merged++] = rows[i];
		}
	}
	sort(rows, merged, sizeof(*rows), tpstat_row_cmp_count, NULL);
	*nr = merged;
	return rows;
}
EXPORT_SYMBOL_GPL(tpstat_table_rows);

u64 tpstat_table_cpu_count(const struct tpstat_table *t, int cpu, u64 key)
{
	const struct tpstat_table_slot *area = tpstat_table_area(t, cpu);
	unsigned int i = hash_64(key, t->bits);
	unsigned int n;

	for (n = 0; n <= t->mask; n++, i = (i + 1) & t->mask) {
		u64 seen = READ_ONCE(area[i].key);

		if (seen == key)
			return local64_read(&area[i].count);
		if (seen == TPSTAT_TABLE_NO_KEY)
			return 0;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(tpstat_table_cpu_count);

/* The slots and the per-CPU key counts; the dropped counter is a counter. */
size_t tpstat_table_bytes(const struct tpstat_table *t)
{
	return (size_t)nr_cpu_ids * tpstat_table_slots(t) * sizeof(*t->slots) +
	       num_possible_cpus() * sizeof(unsigned int);
}
EXPORT_SYMBOL_GPL(tpstat_table_bytes);

// SPDX-License-Identifier: GPL-2.0
/*
 * Keyed tables: one open-addressing hash table per CPU, preallocated, with
 * linear probing. Only the owning CPU adds keys, and it does so with
 * interrupts off, so a claim is never interleaved with another on its CPU;
 * NMIs, which could interleave, never add keys.
 */
#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>

#include "internal.h"

static struct tpstat_table *to_table(struct tpstat_data *d)
{
	return container_of(d, struct tpstat_table, data);
}

static size_t tpstat_table_slot_bytes(const struct tpstat_table *t)
{
	return sizeof(struct tpstat_table_slot) + t->key_words * sizeof(u64);
}

static size_t tpstat_table_nr_slots(const struct tpstat_table *t)
{
	return (size_t)nr_cpu_ids << t->bits;
}

/* Slot @i of a generation, counting every CPU's slots, then the others. */
static struct tpstat_table_slot *tpstat_table_slot(const struct tpstat_table *t,
						   struct tpstat_table_slot *slots,
						   size_t i)
{
	return (void *)slots + i * tpstat_table_slot_bytes(t);
}

static struct tpstat_table_slot *tpstat_table_area_slot(const struct tpstat_table *t,
							struct tpstat_table_slot *slots,
							int cpu, unsigned int i)
{
	return tpstat_table_slot(t, slots, ((size_t)cpu << t->bits) + i);
}

/* The "other" row of each CPU follows the slots, the key counts follow that. */
static struct tpstat_table_slot *tpstat_table_other(const struct tpstat_table *t,
						    struct tpstat_table_slot *slots,
						    int cpu)
{
	return tpstat_table_slot(t, slots, tpstat_table_nr_slots(t) + cpu);
}

static unsigned int *tpstat_table_used(const struct tpstat_table *t,
				       struct tpstat_table_slot *slots, int cpu)
{
	unsigned int *used = (void *)tpstat_table_other(t, slots, nr_cpu_ids);

	return used + cpu;
}

/* What a generation asks tpstat_kvmalloc() for. */
static size_t tpstat_table_size(const struct tpstat_table *t)
{
	return (tpstat_table_nr_slots(t) + nr_cpu_ids) *
	       tpstat_table_slot_bytes(t) + nr_cpu_ids * sizeof(unsigned int);
}

static size_t tpstat_table_bytes(const struct tpstat_data *d)
{
	const struct tpstat_table *t = container_of(d, struct tpstat_table, data);

	return tpstat_kv_bytes(t->live, tpstat_table_size(t));
}

/* A key that does not hash to slot @i, to mark it free. */
static u64 tpstat_table_free_key(const struct tpstat_table *t, unsigned int i)
{
	u64 key = 0;

	while (hash_64(key, t->bits) == i)
		key++;
	return key;
}

static void tpstat_table_clear(struct tpstat_data *d, unsigned int gen)
{
	struct tpstat_table *t = to_table(d);
	struct tpstat_table_slot *slots = t->gen[gen];
	size_t i, n = tpstat_table_nr_slots(t);

	memset(slots, 0, tpstat_table_size(t));
	for (i = 0; i < n; i++) {
		tpstat_table_slot(t, slots, i)->key[0] =
			tpstat_table_free_key(t, i & t->mask);
		if (!(i & 0xfff))
			cond_resched();
	}
}

static int tpstat_table_check(const struct tpstat_data *d, const char *set)
{
	const struct tpstat_table *t = container_of(d, struct tpstat_table, data);

	if (!t->capacity || t->capacity > TPSTAT_TABLE_MAX_KEYS) {
		pr_err("tpstat: %s: a table holds 1 to %d keys per CPU, not %u\n",
		       set, TPSTAT_TABLE_MAX_KEYS, t->capacity);
		return -EINVAL;
	}
	if (t->key_bytes > TPSTAT_KEY_BYTES) {
		pr_err("tpstat: %s: a table key has at most %zu bytes\n", set,
		       TPSTAT_KEY_BYTES);
		return -EINVAL;
	}
	return 0;
}

static int tpstat_table_alloc(struct tpstat_data *d, unsigned int gen)
{
	struct tpstat_table *t = to_table(d);

	t->key_words = t->key_bytes ? DIV_ROUND_UP(t->key_bytes, sizeof(u64)) : 1;
	t->mask = roundup_pow_of_two(2 * t->capacity) - 1;
	t->bits = ilog2(t->mask + 1);
	t->gen[gen] = tpstat_kvmalloc(1, tpstat_table_size(t), GFP_KERNEL);
	return t->gen[gen] ? 0 : -ENOMEM;
}

static void tpstat_table_free(struct tpstat_data *d, unsigned int gen)
{
	struct tpstat_table *t = to_table(d);

	kvfree(t->gen[gen]);
	t->gen[gen] = NULL;
}

static void tpstat_table_publish(struct tpstat_data *d, unsigned int gen)
{
	struct tpstat_table *t = to_table(d);

	tpstat_data_publish(t->live, t->gen[gen]);
}

const struct tpstat_data_ops tpstat_table_ops = {
	.kind = TPSTAT_MEM_TABLES,
	.alloc = tpstat_table_alloc,
	.free = tpstat_table_free,
	.clear = tpstat_table_clear,
	.publish = tpstat_table_publish,
	.bytes = tpstat_table_bytes,
	.check = tpstat_table_check,
};
EXPORT_SYMBOL_GPL(tpstat_table_ops);

static bool tpstat_table_key_is(const struct tpstat_table *t,
				const struct tpstat_table_slot *slot,
				const struct tpstat_key *key)
{
	unsigned int w;

	for (w = 0; w < t->key_words; w++)
		if (READ_ONCE(slot->key[w]) != key->w[w])
			return false;
	return true;
}

/*
 * Finds @key on this CPU, or claims a free slot for it while there is room.
 * The key is written before the count leaves zero, which marks the slot in
 * use; a reader on another CPU reads the count, then the key.
 */
static struct tpstat_table_slot *tpstat_table_claim(const struct tpstat_table *t,
						    struct tpstat_table_slot *slots,
						    const struct tpstat_key *key)
{
	int cpu = smp_processor_id();
	unsigned int *used = tpstat_table_used(t, slots, cpu);
	unsigned int i = tpstat_key_hash(key, t->bits);
	unsigned int n, w;

	for (n = 0; n <= t->mask; n++, i = (i + 1) & t->mask) {
		struct tpstat_table_slot *slot;

		slot = tpstat_table_area_slot(t, slots, cpu, i);
		if (local64_read(&slot->count)) {
			if (tpstat_table_key_is(t, slot, key))
				return slot;
			continue;
		}
		if (in_nmi() || *used >= t->capacity)
			return NULL;
		(*used)++;
		for (w = 0; w < t->key_words; w++)
			WRITE_ONCE(slot->key[w], key->w[w]);
		/* The key before the count: pairs with tpstat_table_read_slot(). */
		smp_wmb();
		return slot;
	}
	return NULL;
}

static bool tpstat_table_add_here(const struct tpstat_table *t,
				  struct tpstat_table_slot *slots,
				  const struct tpstat_key *key, u64 value)
{
	struct tpstat_table_slot *slot;
	unsigned long flags;
	bool fits;

	local_irq_save(flags);
	slot = tpstat_table_claim(t, slots, key);
	fits = slot;
	if (!fits)
		slot = tpstat_table_other(t, slots, smp_processor_id());
	__tpstat_table_slot_add(slot, value);
	local_irq_restore(flags);
	return fits;
}

bool __tpstat_table_add_slow(const struct tpstat_table *t,
			     struct tpstat_table_slot *slots, u64 key, u64 value)
{
	struct tpstat_key wide = tpstat_key_u64(key);

	/* The inline part assumed a u64 table's slots. */
	if (WARN_ON_ONCE(t->key_words != 1))
		return false;
	return tpstat_table_add_here(t, slots, &wide, value);
}
EXPORT_SYMBOL_GPL(__tpstat_table_add_slow);

/*
 * The slot this CPU holds @key in, or NULL: a lookup only, safe without
 * interrupts off, since a nested claim only ever fills a free slot.
 */
static struct tpstat_table_slot *tpstat_table_lookup(const struct tpstat_table *t,
						     struct tpstat_table_slot *slots,
						     const struct tpstat_key *key)
{
	int cpu = smp_processor_id();
	unsigned int i = tpstat_key_hash(key, t->bits);
	unsigned int n;

	for (n = 0; n <= t->mask; n++, i = (i + 1) & t->mask) {
		struct tpstat_table_slot *slot;

		slot = tpstat_table_area_slot(t, slots, cpu, i);
		if (!local64_read(&slot->count))
			return NULL;
		if (tpstat_table_key_is(t, slot, key))
			return slot;
	}
	return NULL;
}

bool tpstat_table_add_key(struct tpstat_table *t, const struct tpstat_key *key,
			  u64 value)
{
	struct tpstat_table_slot *slots, *slot;
	bool counted = true;

	preempt_disable_notrace();
	slots = READ_ONCE(t->live);
	slot = tpstat_table_lookup(t, slots, key);
	if (likely(slot))
		__tpstat_table_slot_add(slot, value);
	else
		counted = tpstat_table_add_here(t, slots, key, value);
	preempt_enable_notrace();
	return counted;
}
EXPORT_SYMBOL_GPL(tpstat_table_add_key);

/* Reads a slot in use into @row; false if it is free. */
static bool tpstat_table_read_slot(const struct tpstat_table *t,
				   const struct tpstat_table_slot *slot,
				   struct tpstat_table_row *row)
{
	unsigned int w;

	row->count = local64_read(&slot->count);
	if (!row->count)
		return false;
	/* Pairs with the smp_wmb() after the claim wrote the key. */
	smp_rmb();
	memset(&row->key, 0, sizeof(row->key));
	for (w = 0; w < t->key_words; w++)
		row->key.w[w] = READ_ONCE(slot->key[w]);
	row->sum = local64_read(&slot->sum);
	row->max = local64_read(&slot->max);
	return true;
}

static int tpstat_row_cmp_key(const void *a, const void *b)
{
	const struct tpstat_table_row *x = a, *y = b;

	return memcmp(&x->key, &y->key, sizeof(x->key));
}

static int tpstat_row_cmp_count(const void *a, const void *b)
{
	const struct tpstat_table_row *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return tpstat_row_cmp_key(a, b);
}

static void tpstat_row_merge(struct tpstat_table_row *into,
			     const struct tpstat_table_row *row)
{
	into->count += row->count;
	into->sum += row->sum;
	into->max = max(into->max, row->max);
}

/* Slots in use over all CPUs. */
static size_t tpstat_table_in_use(const struct tpstat_table *t,
				  struct tpstat_table_slot *slots)
{
	size_t i, n = 0;

	for (i = 0; i < tpstat_table_nr_slots(t); i++) {
		if (local64_read(&tpstat_table_slot(t, slots, i)->count))
			n++;
		if (!(i & 0xfff))
			cond_resched();
	}
	return n;
}

struct tpstat_table_row *tpstat_table_rows(const struct tpstat_table *t,
					   unsigned int *nr,
					   struct tpstat_table_row *other)
{
	struct tpstat_table_slot *slots = READ_ONCE(t->live);
	struct tpstat_table_row *rows, row;
	size_t i, n, room, merged = 0;
	int cpu;

	*nr = 0;
	memset(other, 0, sizeof(*other));
	for_each_possible_cpu(cpu)
		if (tpstat_table_read_slot(t, tpstat_table_other(t, slots, cpu),
					   &row))
			tpstat_row_merge(other, &row);

again:
	room = tpstat_table_in_use(t, slots);
	/* An empty table is an array of no rows, not a failure. */
	rows = kvcalloc(room + 1, sizeof(*rows), GFP_KERNEL);
	if (!rows)
		return NULL;
	for (i = 0, n = 0; i < tpstat_table_nr_slots(t); i++) {
		if (!(i & 0xfff))
			cond_resched();
		if (!tpstat_table_read_slot(t, tpstat_table_slot(t, slots, i),
					    &rows[n]))
			continue;
		/*
		 * One claimed since they were counted: filling the rows up
		 * would leave some earlier one out. Counted anew; slots only
		 * fill, so at most once for each.
		 */
		if (++n > room) {
			kvfree(rows);
			goto again;
		}
	}

	sort(rows, n, sizeof(*rows), tpstat_row_cmp_key, NULL);
	for (i = 0; i < n; i++) {
		if (merged && !tpstat_row_cmp_key(&rows[merged - 1], &rows[i]))
			tpstat_row_merge(&rows[merged - 1], &rows[i]);
		else
			rows[merged++] = rows[i];
	}
	cond_resched();
	sort(rows, merged, sizeof(*rows), tpstat_row_cmp_count, NULL);
	*nr = merged;
	return rows;
}
EXPORT_SYMBOL_GPL(tpstat_table_rows);

u64 tpstat_table_cpu_count(const struct tpstat_table *t, int cpu,
			   const struct tpstat_key *key)
{
	struct tpstat_table_slot *slots = READ_ONCE(t->live);
	unsigned int i = tpstat_key_hash(key, t->bits);
	struct tpstat_table_row row;
	unsigned int n;

	for (n = 0; n <= t->mask; n++, i = (i + 1) & t->mask) {
		if (!tpstat_table_read_slot(t, tpstat_table_area_slot(t, slots, cpu, i),
					    &row))
			return 0;
		if (!memcmp(&row.key, key, sizeof(*key)))
			return row.count;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(tpstat_table_cpu_count);

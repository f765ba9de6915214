/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Keyed tables: count, sum and max per key (an IRQ number, a function, a call
 * site), preallocated at load, one open-addressing hash table per CPU.
 */
#ifndef _TPSTAT_TABLE_H
#define _TPSTAT_TABLE_H

#include <asm/local64.h>
#include <linux/compiler.h>
#include <linux/hash.h>
#include <linux/preempt.h>
#include <linux/smp.h>
#include <linux/types.h>
#include <tpstat/counter.h>

/* Marks a free slot, so it cannot be used as a key. */
#define TPSTAT_TABLE_NO_KEY	U64_MAX

/* Keys per CPU a table may be created with; keeps a typo from eating memory. */
#define TPSTAT_TABLE_MAX_KEYS	65536

struct tpstat_table_slot {
	u64 key;
	local64_t count;
	local64_t sum;
	local64_t max;
};

/**
 * struct tpstat_table - a fixed-capacity per-CPU keyed table
 * @slots: nr_cpu_ids areas of @mask + 1 slots each, twice @capacity so that
 *         a lookup always ends at a free slot
 * @capacity: keys each CPU may hold; events for more keys are dropped
 * @mask: slots per CPU - 1
 * @bits: log2 of slots per CPU
 * @used: keys held on each CPU
 * @dropped: events that found their CPU's table full
 */
struct tpstat_table {
	struct tpstat_table_slot *slots;
	unsigned int capacity;
	unsigned int mask;
	unsigned int bits;
	unsigned int __percpu *used;
	struct tpstat_counter dropped;
};

/**
 * struct tpstat_table_row - one key folded over all CPUs
 * @key: the key
 * @count: events
 * @sum: sum of their values
 * @max: largest value
 */
struct tpstat_table_row {
	u64 key;
	u64 count;
	u64 sum;
	u64 max;
};

/**
 * tpstat_table_init() - preallocate a table
 * @t: the table
 * @capacity: keys per CPU, 1 to %TPSTAT_TABLE_MAX_KEYS
 *
 * Return: 0, -EINVAL for a capacity out of range, or -ENOMEM.
 */
int tpstat_table_init(struct tpstat_table *t, unsigned int capacity);
void tpstat_table_destroy(struct tpstat_table *t);

/* Only while no probe can write the table: the core detaches them first. */
void tpstat_table_reset(struct tpstat_table *t);

/* Raise @l to @value; a nested update on this CPU makes the cmpxchg retry. */
static inline void tpstat_local64_raise(local64_t *l, u64 value)
{
	u64 old = local64_read(l);

	while (unlikely(value > old)) {
		u64 seen = local64_cmpxchg(l, old, value);

		if (seen == old)
			break;
		old = seen;
	}
}

static inline void tpstat_table_slot_add(struct tpstat_table_slot *slot,
					 u64 value)
{
	local64_inc(&slot->count);
	local64_add(value, &slot->sum);
	tpstat_local64_raise(&slot->max, value);
}

/* tpstat_table_add() when @key is not in its home slot; preemption is off. */
bool tpstat_table_add_slow(struct tpstat_table *t, u64 key, u64 value);

/**
 * tpstat_table_add() - count one event for @key on this CPU
 * @t: the table
 * @key: anything but %TPSTAT_TABLE_NO_KEY
 * @value: added to the key's sum and compared with its max
 *
 * Safe in any context, including a probe that interrupts another probe
 * updating the same table on the same CPU. Inline for the common case, a
 * key already held in the slot its hash names; the rest is out of line.
 *
 * Return: false if the key was new and this CPU's table was full.
 */
static inline bool tpstat_table_add(struct tpstat_table *t, u64 key,
				    u64 value)
{
	struct tpstat_table_slot *home;
	bool counted = true;

	/* Faultable tracepoints (syscalls, 6.13+) call probes preemptible. */
	preempt_disable_notrace();
	home = &t->slots[((size_t)smp_processor_id() << t->bits) +
			 hash_64(key, t->bits)];
	if (likely(READ_ONCE(home->key) == key))
		tpstat_table_slot_add(home, value);
	else
		counted = tpstat_table_add_slow(t, key, value);
	preempt_enable_notrace();
	return counted;
}

/**
 * tpstat_table_rows() - fold all CPUs into rows sorted by count, highest first
 * @t: the table
 * @nr: set to the number of rows
 *
 * Return: the rows, to be released with kvfree(), or NULL with *@nr == 0
 * when the table is empty or memory is short (-ENOMEM is the only failure).
 */
struct tpstat_table_row *tpstat_table_rows(const struct tpstat_table *t,
					   unsigned int *nr);

/**
 * tpstat_table_cpu_count() - events one CPU counted for @key
 * @t: the table
 * @cpu: the CPU
 * @key: the key
 *
 * Return: the count, 0 if @cpu has not seen @key.
 */
u64 tpstat_table_cpu_count(const struct tpstat_table *t, int cpu, u64 key);

/* Return: bytes of slots the table holds, for the memory file. */
size_t tpstat_table_bytes(const struct tpstat_table *t);

#endif /* _TPSTAT_TABLE_H */

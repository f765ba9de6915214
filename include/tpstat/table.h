/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Keyed tables: count, sum and max per u64 key (an IRQ number, a function, a
 * call site, a pid), preallocated, one open-addressing hash table per CPU,
 * and an "other" row for the events of keys that did not fit.
 */
#ifndef _TPSTAT_TABLE_H
#define _TPSTAT_TABLE_H

#include <asm/local64.h>
#include <linux/compiler.h>
#include <linux/hash.h>
#include <linux/preempt.h>
#include <linux/smp.h>
#include <linux/types.h>
#include <tpstat/data.h>
#include <tpstat/key.h>

/* Keys per CPU a table may be created with; keeps a typo from eating memory. */
#define TPSTAT_TABLE_MAX_KEYS	65536

/*
 * A slot is in use once its count is not zero. The key follows the counts:
 * one word in a u64 table, up to four in a wide one. A free slot of a u64
 * table holds a key that does not hash to the slot, so the inline lookup
 * of a key in its home slot needs no other test: any u64 is a valid key.
 */
struct tpstat_table_slot {
	local64_t count;
	local64_t sum;
	local64_t max;
	u64 key[];
};

/* The words of a u64 table's slot: its counts, then its key. */
#define TPSTAT_TABLE_U64_SLOT_WORDS	4

/**
 * struct tpstat_table - a fixed-capacity per-CPU keyed table
 * @live: the generation probes update: per CPU, @mask + 1 slots; after
 *        them, an "other" row per CPU and the keys each CPU holds
 * @capacity: keys each CPU may hold; events of further keys go to "other"
 * @key_bytes: 0 for u64 keys, else the bytes of a wide key (at most
 *             %TPSTAT_KEY_BYTES), compared whole
 * @gen: private: the live generation, and during a reset the next
 * @mask: private: slots per CPU - 1 (twice @capacity, rounded up)
 * @bits: private: log2 of slots per CPU
 * @key_words: private: words of a key
 * @data: private: what the core handles
 *
 * Declare it with TPSTAT_TABLE(capacity), or TPSTAT_WIDE_TABLE(capacity,
 * bytes) for keys made with <tpstat/key.h>, and list it in the set's
 * data; a module parameter may change @capacity before the set is
 * registered.
 */
struct tpstat_table {
	struct tpstat_table_slot *live;
	unsigned int capacity;
	unsigned int key_bytes;
	/* private: */
	struct tpstat_table_slot *gen[TPSTAT_GENERATIONS];
	unsigned int mask;
	unsigned int bits;
	unsigned int key_words;
	struct tpstat_data data;
};

extern const struct tpstat_data_ops tpstat_table_ops;

#define TPSTAT_TABLE(cap)	{ .capacity = (cap), .data.ops = &tpstat_table_ops }
#define TPSTAT_WIDE_TABLE(cap, bytes)					\
	{ .capacity = (cap), .key_bytes = (bytes), .data.ops = &tpstat_table_ops }

/**
 * struct tpstat_table_row - one key folded over all CPUs
 * @key: the key; a u64 key is @key.w[0]
 * @count: events
 * @sum: sum of their values
 * @max: largest value
 */
struct tpstat_table_row {
	struct tpstat_key key;
	u64 count;
	u64 sum;
	u64 max;
};

/* Raise @l to @value; a nested update on this CPU makes the cmpxchg retry. */
static inline void __tpstat_local64_raise(local64_t *l, u64 value)
{
	u64 old = local64_read(l);

	while (unlikely(value > old)) {
		u64 seen = local64_cmpxchg(l, old, value);

		if (seen == old)
			break;
		old = seen;
	}
}

static inline void __tpstat_table_slot_add(struct tpstat_table_slot *slot,
					   u64 value)
{
	local64_add(value, &slot->sum);
	__tpstat_local64_raise(&slot->max, value);
	local64_inc(&slot->count);
}

/* tpstat_table_add() when @key is not in its home slot; preemption is off. */
bool __tpstat_table_add_slow(const struct tpstat_table *t,
			     struct tpstat_table_slot *slots, u64 key, u64 value);

/**
 * tpstat_table_add_key() - count one event for a wide key on this CPU
 * @t: a table declared with TPSTAT_WIDE_TABLE()
 * @key: the key; its bytes past the table's key_bytes must be zero
 * @value: added to the key's sum and compared with its max
 *
 * As tpstat_table_add(), all of it out of line.
 *
 * Return: false if the event went to "other" (the key did not fit).
 */
bool tpstat_table_add_key(struct tpstat_table *t, const struct tpstat_key *key,
			  u64 value);

/**
 * tpstat_table_add() - count one event for @key on this CPU
 * @t: a table of u64 keys
 * @key: any u64
 * @value: added to the key's sum and compared with its max
 *
 * Safe in any context, including a probe that interrupts another probe
 * updating the same table on the same CPU. Inline for the common case, a
 * key already held in the slot its hash names; the rest is out of line. A
 * new key is never added from NMI: its event goes to "other".
 *
 * Return: false if the event went to "other" (the key did not fit).
 */
static inline bool tpstat_table_add(struct tpstat_table *t, u64 key,
				    u64 value)
{
	struct tpstat_table_slot *slots = READ_ONCE(t->live);
	struct tpstat_table_slot *home;
	bool counted = true;

	/* Faultable tracepoints (syscalls, 6.13+) call probes preemptible. */
	preempt_disable_notrace();
	home = (void *)slots + (((((size_t)smp_processor_id() << t->bits) +
				  hash_64(key, t->bits)) *
				 TPSTAT_TABLE_U64_SLOT_WORDS) << 3);
	if (likely(READ_ONCE(home->key[0]) == key))
		__tpstat_table_slot_add(home, value);
	else
		counted = __tpstat_table_add_slow(t, slots, key, value);
	preempt_enable_notrace();
	return counted;
}

/**
 * tpstat_table_rows() - fold all CPUs into rows sorted by count, highest first
 * @t: the table
 * @nr: set to the number of rows
 * @other: set to the "other" row (key 0): events of keys that did not fit
 *
 * Return: the rows, to be released with kvfree(), or NULL with *@nr == 0
 * when memory is short (-ENOMEM is the only failure).
 */
struct tpstat_table_row *tpstat_table_rows(const struct tpstat_table *t,
					   unsigned int *nr,
					   struct tpstat_table_row *other);

/**
 * tpstat_table_cpu_count() - events one CPU counted for @key
 * @t: the table
 * @cpu: the CPU
 * @key: the key
 *
 * Return: the count, 0 if @cpu has not seen @key.
 */
u64 tpstat_table_cpu_count(const struct tpstat_table *t, int cpu,
			   const struct tpstat_key *key);

#endif /* _TPSTAT_TABLE_H */

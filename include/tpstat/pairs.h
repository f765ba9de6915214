/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pairing maps: a start saved by one event (a wakeup, an allocation, a
 * queued packet) and taken by the event that ends it, on any CPU. Keyed by
 * a u64 (a pid, a pointer), preallocated, shared by all CPUs.
 */
#ifndef _TPSTAT_PAIRS_H
#define _TPSTAT_PAIRS_H

#include <linux/atomic.h>
#include <linux/percpu.h>
#include <linux/types.h>
#include <tpstat/counter.h>
#include <tpstat/data.h>

/* Starts a map may hold; keeps a typo from eating memory. */
#define TPSTAT_PAIRS_MAX	4194304

/* What a pairing map counts, each per CPU, reset with its set. */
enum tpstat_pairs_stat {
	TPSTAT_PAIRS_STARTED,	/* starts saved */
	TPSTAT_PAIRS_REPLACED,	/* starts that replaced one of the same key */
	TPSTAT_PAIRS_PAIRED,	/* ends that found their start */
	/* ends with no start, or one saved before the probes were attached */
	TPSTAT_PAIRS_UNPAIRED,
	/* starts not saved: in NMI, or full with nothing to evict */
	TPSTAT_PAIRS_DROPPED,
	/*
	 * starts evicted from a full map for new ones: saved before the probes
	 * were last attached, else the oldest (older than max_age, if set)
	 */
	TPSTAT_PAIRS_EXPIRED,
	TPSTAT_PAIRS_STATS
};

/**
 * struct tpstat_pair - what a start saved
 * @ts: when, in the clock the probe chose
 * @a: the probe's own payload
 * @b: more of it
 */
struct tpstat_pair {
	u64 ts;
	u64 a;
	u64 b;
};

struct tpstat_pairs_slot;

/**
 * struct tpstat_pairs - a pairing map
 * @capacity: starts it may hold at once
 * @max_age: when the map is full, only a start older than this, in the
 *           probe's clock, may be evicted for a new one, as one whose end
 *           will never come (a task that exits while queued); 0: the
 *           oldest start is, whatever its age (an end missed where no
 *           tracepoint fires must not fill the map for good)
 * @stats: private: its counts, one counter per enum tpstat_pairs_stat
 * @slots: private: the map, which outlives every generation
 * @mask: private: slots - 1
 * @bits: private: log2 of slots
 * @used: private: starts held
 * @data: private: what the core handles
 *
 * Declare it with TPSTAT_PAIRS(capacity, max_age) and list it in the set's
 * data. A reset zeroes the counts, not the starts: an end after a reset
 * still finds the start from before it. A start saved before the set's
 * probes were last attached is never paired: what came in between is
 * unknown; a full map evicts such starts before any other. A full map
 * evicts only within the new key's window, the slots its lookup visits,
 * and counts each eviction as expired.
 */
struct tpstat_pairs {
	unsigned int capacity;
	u64 max_age;
	/* private: */
	struct tpstat_counter stats;
	struct tpstat_pairs_slot *slots;
	unsigned int mask;
	unsigned int bits;
	atomic_t used;
	struct tpstat_data data;
};

extern const struct tpstat_data_ops tpstat_pairs_ops;

#define TPSTAT_PAIRS(cap, age)						\
	{ .capacity = (cap), .max_age = (age),				\
	  .stats = TPSTAT_COUNTERS(TPSTAT_PAIRS_STATS),			\
	  .data.ops = &tpstat_pairs_ops }

/**
 * tpstat_pairs_start() - save the start of @key, replacing any
 * @p: the map
 * @key: any u64
 * @start: what to save; its @ts also ages it
 *
 * Any context; in NMI nothing is saved (counted as dropped). A full map
 * evicts a start for it (see struct tpstat_pairs), or drops it.
 *
 * Return: false if the start was dropped.
 */
bool tpstat_pairs_start(struct tpstat_pairs *p, u64 key,
			const struct tpstat_pair *start);

/**
 * tpstat_pairs_end() - take the start of @key out of the map
 * @p: the map
 * @key: the key a start was saved under
 * @start: where the start goes
 *
 * Any context; in NMI nothing is taken (counted as unpaired).
 *
 * Return: true if there was a start to pair with.
 */
bool tpstat_pairs_end(struct tpstat_pairs *p, u64 key, struct tpstat_pair *start);

/**
 * tpstat_pairs_forget() - drop the start of @key, if any, uncounted
 * @p: the map
 * @key: the key
 *
 * For an object that goes away without its end (a task that exits).
 */
void tpstat_pairs_forget(struct tpstat_pairs *p, u64 key);

typedef void (*tpstat_pairs_visit_t)(void *arg, u64 key,
				     const struct tpstat_pair *start);

/**
 * tpstat_pairs_for_each() - visit every start the map holds
 * @p: the map
 * @visit: called with @arg, each start's key and a copy of the start
 * @arg: for @visit
 *
 * For a reader, which may sleep: it runs while probes go on, so a start
 * saved or taken meanwhile may or may not be seen; each one seen is whole.
 * Starts saved before the set's probes were last attached, which no end
 * will pair with, are left out.
 *
 * Return: the number of starts visited.
 */
unsigned int tpstat_pairs_for_each(struct tpstat_pairs *p,
				   tpstat_pairs_visit_t visit, void *arg);

/**
 * tpstat_pairs_stat() - one of the map's counts, summed over all CPUs
 * @p: the map
 * @stat: which
 *
 * Return: the count since the set's last reset.
 */
u64 tpstat_pairs_stat(const struct tpstat_pairs *p, enum tpstat_pairs_stat stat);

/**
 * tpstat_pairs_held() - starts in the map now
 * @p: the map
 *
 * Return: the number.
 */
static inline unsigned int tpstat_pairs_held(const struct tpstat_pairs *p)
{
	return atomic_read(&p->used);
}

/**
 * tpstat_pairs_print_stats() - "<prefix>.started N" and the other counts
 * @m: the file
 * @p: the map
 * @prefix: the name in front of each key
 */
void tpstat_pairs_print_stats(struct seq_file *m, const struct tpstat_pairs *p,
			      const char *prefix);

#endif /* _TPSTAT_PAIRS_H */

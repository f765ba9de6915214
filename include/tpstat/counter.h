/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-CPU event counters: one this_cpu_add() in the probe, summed on read.
 */
#ifndef _TPSTAT_COUNTER_H
#define _TPSTAT_COUNTER_H

#include <linux/atomic.h>
#include <linux/percpu.h>
#include <linux/types.h>
#include <tpstat/data.h>

/**
 * struct tpstat_counter - @nr u64 counters per CPU, folded when read
 * @pcpu: the live generation: this CPU's @nr counters
 * @nr: how many counters (one, or one per vector, state, ...); 0 means 1
 * @gen: private: the live generation, and during a reset the next
 * @data: private: what the core handles
 *
 * Declare it with TPSTAT_COUNTER() or TPSTAT_COUNTERS(n) and list it in the
 * set's data. this_cpu_add() is one instruction on x86-64, so an increment
 * cannot be torn by a probe that nests on the same CPU (softirq, hardirq or
 * NMI).
 */
struct tpstat_counter {
	u64 __percpu *pcpu;
	unsigned int nr;
	/* private: */
	u64 __percpu *gen[TPSTAT_GENERATIONS];
	struct tpstat_data data;
};

extern const struct tpstat_data_ops tpstat_counter_ops;

#define TPSTAT_COUNTERS(n)	{ .nr = (n), .data.ops = &tpstat_counter_ops }
#define TPSTAT_COUNTER()	TPSTAT_COUNTERS(1)

/**
 * tpstat_counter_sum_at() - counter @i summed over all CPUs
 * @c: the counters
 * @i: which, below @c->nr
 *
 * Return: the sum; increments racing with the read may or may not be in it.
 */
u64 tpstat_counter_sum_at(const struct tpstat_counter *c, unsigned int i);

static inline u64 tpstat_counter_sum(const struct tpstat_counter *c)
{
	return tpstat_counter_sum_at(c, 0);
}

/**
 * tpstat_counter_cpu_at() - one CPU's share of counter @i
 * @c: the counters
 * @cpu: the CPU
 * @i: which, below @c->nr
 *
 * Return: what @cpu has counted since the last reset.
 */
static inline u64 tpstat_counter_cpu_at(const struct tpstat_counter *c,
					int cpu, unsigned int i)
{
	return READ_ONCE(per_cpu_ptr(READ_ONCE(c->pcpu), cpu)[i]);
}

static inline u64 tpstat_counter_cpu(const struct tpstat_counter *c, int cpu)
{
	return tpstat_counter_cpu_at(c, cpu, 0);
}

/**
 * tpstat_counter_add_at() - count @n events in counter @i; any context
 * @c: the counters
 * @i: which, below @c->nr
 * @n: how many
 */
static inline void tpstat_counter_add_at(struct tpstat_counter *c,
					 unsigned int i, u64 n)
{
	this_cpu_add(READ_ONCE(c->pcpu)[i], n);
}

static inline void tpstat_counter_add(struct tpstat_counter *c, u64 n)
{
	this_cpu_add(*READ_ONCE(c->pcpu), n);
}

static inline void tpstat_counter_inc(struct tpstat_counter *c)
{
	this_cpu_inc(*READ_ONCE(c->pcpu));
}

static inline void tpstat_counter_inc_at(struct tpstat_counter *c,
					 unsigned int i)
{
	this_cpu_inc(READ_ONCE(c->pcpu)[i]);
}

/**
 * struct tpstat_shared_counter - @nr u64 counters shared by all CPUs
 * @live: the live generation
 * @nr: how many counters; a module may set it before registering its set
 * @gen: private: the live generation, and during a reset the next
 * @data: private: what the core handles
 *
 * For counts any CPU adds to any counter (a migration from one CPU to
 * another) where per-CPU copies would cost too much memory, and events
 * rare enough that an atomic add costs little. Declare it with
 * TPSTAT_SHARED_COUNTERS(n) and list it in the set's data.
 */
struct tpstat_shared_counter {
	atomic64_t *live;
	unsigned int nr;
	/* private: */
	atomic64_t *gen[TPSTAT_GENERATIONS];
	struct tpstat_data data;
};

extern const struct tpstat_data_ops tpstat_shared_counter_ops;

/* Counters a shared array may have; keeps a typo from eating memory. */
#define TPSTAT_SHARED_COUNTERS_MAX	1048576U

#define TPSTAT_SHARED_COUNTERS(n)					\
	{ .nr = (n), .data.ops = &tpstat_shared_counter_ops }

/* Count one event in counter @i, below @c->nr; any context. */
static inline void tpstat_shared_counter_inc_at(struct tpstat_shared_counter *c,
						unsigned int i)
{
	atomic64_inc(READ_ONCE(c->live) + i);
}

static inline u64 tpstat_shared_counter_read_at(const struct tpstat_shared_counter *c,
						unsigned int i)
{
	return atomic64_read(READ_ONCE(c->live) + i);
}

#endif /* _TPSTAT_COUNTER_H */

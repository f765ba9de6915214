/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-CPU event counters: one this_cpu_add() in the probe, summed on read.
 */
#ifndef _TPSTAT_COUNTER_H
#define _TPSTAT_COUNTER_H

#include <linux/percpu.h>
#include <linux/types.h>

/**
 * struct tpstat_counter - a u64 per CPU, folded when read
 * @pcpu: this CPU's share
 *
 * this_cpu_add() is one instruction on x86-64, so an increment cannot be
 * torn by a probe that nests on the same CPU (softirq, hardirq or NMI).
 */
struct tpstat_counter {
	u64 __percpu *pcpu;
};

int tpstat_counter_init(struct tpstat_counter *c);
void tpstat_counter_destroy(struct tpstat_counter *c);
void tpstat_counter_reset(struct tpstat_counter *c);

/**
 * tpstat_counter_sum() - total over all possible CPUs
 * @c: the counter
 *
 * Return: the sum; increments racing with the read may or may not be in it.
 */
u64 tpstat_counter_sum(const struct tpstat_counter *c);

/**
 * tpstat_counter_cpu() - one CPU's share
 * @c: the counter
 * @cpu: the CPU
 *
 * Return: what @cpu has counted since the last reset.
 */
static inline u64 tpstat_counter_cpu(const struct tpstat_counter *c, int cpu)
{
	return READ_ONCE(*per_cpu_ptr(c->pcpu, cpu));
}

/**
 * tpstat_counter_add() - count @n events on this CPU; safe in any context
 * @c: the counter
 * @n: how many
 */
static inline void tpstat_counter_add(struct tpstat_counter *c, u64 n)
{
	this_cpu_add(*c->pcpu, n);
}

static inline void tpstat_counter_inc(struct tpstat_counter *c)
{
	this_cpu_inc(*c->pcpu);
}

#endif /* _TPSTAT_COUNTER_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-CPU log2 histograms with count, sum, min and max.
 */
#ifndef _TPSTAT_HIST_H
#define _TPSTAT_HIST_H

#include <linux/bitops.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/types.h>

/* Bucket 0 holds the value 0, bucket i > 0 holds [2^(i-1), 2^i - 1]. */
#define TPSTAT_HIST_BUCKETS	65

struct tpstat_hist_cpu {
	u64 buckets[TPSTAT_HIST_BUCKETS];
	u64 sum;
	u64 min;
	u64 max;
};

/**
 * struct tpstat_hist - a log2 histogram, one copy per CPU
 * @pcpu: this CPU's copy
 * @unit: what the values count, printed as the column title ("nsecs")
 */
struct tpstat_hist {
	struct tpstat_hist_cpu __percpu *pcpu;
	const char *unit;
};

/**
 * struct tpstat_hist_summary - a histogram folded over all CPUs
 * @buckets: events per bucket
 * @count: events in all buckets
 * @sum: sum of the values
 * @min: smallest value (0 when @count is 0)
 * @max: largest value
 */
struct tpstat_hist_summary {
	u64 buckets[TPSTAT_HIST_BUCKETS];
	u64 count;
	u64 sum;
	u64 min;
	u64 max;
};

int tpstat_hist_init(struct tpstat_hist *h, const char *unit);
void tpstat_hist_destroy(struct tpstat_hist *h);
void tpstat_hist_reset(struct tpstat_hist *h);

/**
 * tpstat_hist_fold() - sum all CPUs' copies
 * @h: the histogram
 * @s: where the totals go
 */
void tpstat_hist_fold(const struct tpstat_hist *h, struct tpstat_hist_summary *s);

/**
 * tpstat_hist_cpu_count() - events one CPU recorded
 * @h: the histogram
 * @cpu: the CPU
 *
 * Return: the sum of @cpu's buckets.
 */
u64 tpstat_hist_cpu_count(const struct tpstat_hist *h, int cpu);

/**
 * tpstat_hist_percentile() - estimate a percentile from the buckets
 * @s: a folded histogram
 * @pct: the percentile, 1 to 100
 *
 * Return: a value interpolated inside the bucket the percentile falls in,
 * so the error is at most the bucket's width.
 */
u64 tpstat_hist_percentile(const struct tpstat_hist_summary *s, unsigned int pct);

/**
 * tpstat_hist_print() - print a summary line and a BCC-style distribution
 * @m: the file
 * @h: the histogram
 *
 * Return: 0 or -ENOMEM.
 */
int tpstat_hist_print(struct seq_file *m, const struct tpstat_hist *h);

/**
 * tpstat_hist_print_stats() - print "<prefix>.count N" and friends
 * @m: the file
 * @h: the histogram
 * @prefix: the name in front of each key
 *
 * Return: 0 or -ENOMEM.
 */
int tpstat_hist_print_stats(struct seq_file *m, const struct tpstat_hist *h,
			    const char *prefix);

/* Lower @slot to @value; a nested update on this CPU makes the cmpxchg retry. */
static inline void tpstat_hist_lower(u64 __percpu *slot, u64 value)
{
	u64 old = this_cpu_read(*slot);

	while (unlikely(value < old)) {
		u64 seen = this_cpu_cmpxchg(*slot, old, value);

		if (seen == old)
			break;
		old = seen;
	}
}

static inline void tpstat_hist_raise(u64 __percpu *slot, u64 value)
{
	u64 old = this_cpu_read(*slot);

	while (unlikely(value > old)) {
		u64 seen = this_cpu_cmpxchg(*slot, old, value);

		if (seen == old)
			break;
		old = seen;
	}
}

/**
 * tpstat_hist_add() - record one value on this CPU; safe in any context
 * @h: the histogram
 * @value: the value
 */
static inline void tpstat_hist_add(struct tpstat_hist *h, u64 value)
{
	/* Read once: each per-CPU operation would make the compiler reload it. */
	struct tpstat_hist_cpu __percpu *pcpu = h->pcpu;

	this_cpu_inc(pcpu->buckets[(unsigned int)fls64(value)]);
	this_cpu_add(pcpu->sum, value);
	tpstat_hist_lower(&pcpu->min, value);
	tpstat_hist_raise(&pcpu->max, value);
}

#endif /* _TPSTAT_HIST_H */

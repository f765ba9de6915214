/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-CPU log2 histograms with count, sum, min and max.
 */
#ifndef _TPSTAT_HIST_H
#define _TPSTAT_HIST_H

#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/math64.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/types.h>
#include <tpstat/data.h>

/* Bucket 0 holds the value 0, bucket i > 0 holds [2^(i-1), 2^i - 1]. */
#define TPSTAT_HIST_BUCKETS	65

/*
 * Values below 2^32 (4.3 s in nanoseconds, 4 GiB in bytes) are recorded
 * per CPU, in buckets 0 to 32; larger ones, rare in what probes measure,
 * in atomics shared by all CPUs. That halves the per-CPU memory of a
 * histogram and costs the common case nothing: a large value always
 * exceeds the per-CPU maximum, whose check every value passes anyway.
 */
#define TPSTAT_HIST_CPU_BUCKETS	33
#define TPSTAT_HIST_CPU_LIMIT	(1ULL << (TPSTAT_HIST_CPU_BUCKETS - 1))

struct tpstat_hist_cpu {
	u64 buckets[TPSTAT_HIST_CPU_BUCKETS];
	u64 sum;
	u64 min;
	u64 max;	/* always below TPSTAT_HIST_CPU_LIMIT */
};

/*
 * A log2 histogram in atomics shared by all CPUs: a histogram's large
 * values, and keyed data's per-key histograms.
 */
struct tpstat_atomic_hist {
	atomic64_t buckets[TPSTAT_HIST_BUCKETS];
	atomic64_t sum;
	atomic64_t min;
	atomic64_t max;
};

/* As __tpstat_hist_cpu_record(): a reader seeing the bucket sees the rest. */
static __always_inline void
tpstat_atomic_hist_add(struct tpstat_atomic_hist *a, u64 value)
{
	s64 old = atomic64_read(&a->min);

	while ((u64)old > value && !atomic64_try_cmpxchg(&a->min, &old, value))
		;
	old = atomic64_read(&a->max);
	while ((u64)old < value && !atomic64_try_cmpxchg(&a->max, &old, value))
		;
	atomic64_add(value, &a->sum);
	/* Pairs with the smp_rmb() of tpstat_atomic_hist_merge(). */
	smp_wmb();
	atomic64_inc(&a->buckets[fls64(value)]);
}

/**
 * struct tpstat_hist - @nr log2 histograms, one copy of each per CPU
 * @pcpu: the live generation: this CPU's @nr histograms, of values below
 *        %TPSTAT_HIST_CPU_LIMIT
 * @large: the live generation: the @nr histograms' larger values
 * @unit: what the values count, printed as the column title ("nsecs")
 * @nr: how many histograms (one, or one per vector, ...); 0 means 1
 * @gen: private: the live generation, and during a reset the next
 * @gen_large: private: the same, of @large
 * @data: private: what the core handles
 *
 * Declare it with TPSTAT_HIST(unit) or TPSTAT_HISTS(unit, n) and list it
 * in the set's data.
 */
struct tpstat_hist {
	struct tpstat_hist_cpu __percpu *pcpu;
	struct tpstat_atomic_hist *large;
	const char *unit;
	unsigned int nr;
	/* private: */
	struct tpstat_hist_cpu __percpu *gen[TPSTAT_GENERATIONS];
	struct tpstat_atomic_hist *gen_large[TPSTAT_GENERATIONS];
	struct tpstat_data data;
};

extern const struct tpstat_data_ops tpstat_hist_ops;

#define TPSTAT_HISTS(u, n)	{ .unit = (u), .nr = (n), .data.ops = &tpstat_hist_ops }
#define TPSTAT_HIST(u)		TPSTAT_HISTS(u, 1)

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

/**
 * tpstat_hist_fold_at() - sum all CPUs' copies of histogram @i
 * @h: the histograms
 * @i: which, below @h->nr
 * @s: where the totals go; min and max always lie within the buckets seen
 */
void tpstat_hist_fold_at(const struct tpstat_hist *h, unsigned int i,
			 struct tpstat_hist_summary *s);

/**
 * tpstat_hist_fold_cpu_at() - what one CPU recorded in histogram @i
 * @h: the histograms
 * @i: which, below @h->nr
 * @cpu: the CPU
 * @s: where the summary goes
 *
 * Values of %TPSTAT_HIST_CPU_LIMIT and more are kept for all CPUs
 * together: they are in tpstat_hist_fold_at()'s summary, not in this one.
 */
void tpstat_hist_fold_cpu_at(const struct tpstat_hist *h, unsigned int i,
			     int cpu, struct tpstat_hist_summary *s);

static inline void tpstat_hist_fold(const struct tpstat_hist *h,
				    struct tpstat_hist_summary *s)
{
	tpstat_hist_fold_at(h, 0, s);
}

/* The mean of a folded histogram, 0 if it is empty. */
static inline u64 tpstat_hist_avg(const struct tpstat_hist_summary *s)
{
	return s->count ? div64_u64(s->sum, s->count) : 0;
}

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
 * tpstat_hist_summary_print() - a summary line and a BCC-style distribution
 * @m: the file
 * @s: a folded histogram
 * @unit: the values' column title
 */
void tpstat_hist_summary_print(struct seq_file *m,
			       const struct tpstat_hist_summary *s,
			       const char *unit);

/**
 * tpstat_hist_summary_stats() - "<prefix>.count N" and friends
 * @m: the file
 * @s: a folded histogram
 * @prefix: the name in front of each key
 */
void tpstat_hist_summary_stats(struct seq_file *m,
			       const struct tpstat_hist_summary *s,
			       const char *prefix);

/**
 * tpstat_hist_print_at() - fold histogram @i and print it
 * @m: the file
 * @h: the histograms
 * @i: which, below @h->nr
 *
 * Return: 0 or -ENOMEM.
 */
int tpstat_hist_print_at(struct seq_file *m, const struct tpstat_hist *h,
			 unsigned int i);

static inline int tpstat_hist_print(struct seq_file *m,
				    const struct tpstat_hist *h)
{
	return tpstat_hist_print_at(m, h, 0);
}

/**
 * tpstat_hist_print_stats_at() - fold histogram @i, print its stats lines
 * @m: the file
 * @h: the histograms
 * @i: which, below @h->nr
 * @prefix: the name in front of each key
 *
 * Return: 0 or -ENOMEM.
 */
int tpstat_hist_print_stats_at(struct seq_file *m, const struct tpstat_hist *h,
			       unsigned int i, const char *prefix);

static inline int tpstat_hist_print_stats(struct seq_file *m,
					  const struct tpstat_hist *h,
					  const char *prefix)
{
	return tpstat_hist_print_stats_at(m, h, 0, prefix);
}

struct tpstat_set;

/* A file's show that prints the struct tpstat_hist its @priv points to. */
int tpstat_hist_show(struct seq_file *m, struct tpstat_set *set);

/*
 * Min, max and sum are written before the bucket, and a reader folds the
 * buckets first: whoever sees an event's bucket sees its min and max.
 */
static __always_inline void
__tpstat_hist_cpu_record(struct tpstat_hist_cpu __percpu *pcpu, u64 value)
{
	this_cpu_add(pcpu->sum, value);
	/* Pairs with the smp_rmb() of tpstat_hist_fold_at(). */
	smp_wmb();
	this_cpu_inc(pcpu->buckets[(unsigned int)fls64(value)]);
}

/* A value that moves this CPU's min or max, or is too large for it. */
void __tpstat_hist_add_slow(struct tpstat_hist *h, unsigned int i,
			    struct tpstat_hist_cpu __percpu *pcpu, u64 value);

static __always_inline void
__tpstat_hist_add(struct tpstat_hist *h, unsigned int i, u64 value)
{
	struct tpstat_hist_cpu __percpu *pcpu = READ_ONCE(h->pcpu) + i;

	if (unlikely(value > this_cpu_read(pcpu->max) ||
		     value < this_cpu_read(pcpu->min)))
		__tpstat_hist_add_slow(h, i, pcpu, value);
	else
		__tpstat_hist_cpu_record(pcpu, value);
}

/**
 * tpstat_hist_add_at() - record one value in histogram @i; any context
 * @h: the histograms
 * @i: which, below @h->nr
 * @value: the value
 */
static inline void tpstat_hist_add_at(struct tpstat_hist *h, unsigned int i,
				      u64 value)
{
	__tpstat_hist_add(h, i, value);
}

/**
 * tpstat_hist_add() - record one value on this CPU; safe in any context
 * @h: the histogram
 * @value: the value
 */
static inline void tpstat_hist_add(struct tpstat_hist *h, u64 value)
{
	__tpstat_hist_add(h, 0, value);
}

#endif /* _TPSTAT_HIST_H */

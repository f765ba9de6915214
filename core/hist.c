// SPDX-License-Identifier: GPL-2.0
/*
 * Log2 histograms: folding, percentiles and printing. Recording is inline in
 * <tpstat/hist.h>.
 */
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "internal.h"

#define TPSTAT_HIST_BAR	40

static u64 tpstat_bucket_low(unsigned int i)
{
	return i ? 1ULL << (i - 1) : 0;
}

static u64 tpstat_bucket_high(unsigned int i)
{
	return i == TPSTAT_HIST_BUCKETS - 1 ? U64_MAX : (1ULL << i) - 1;
}

/* An empty histogram's min is above any value. */
static void tpstat_hist_init_cpu(void *elem)
{
	struct tpstat_hist_cpu *hc = elem;

	hc->min = U64_MAX;
}

TPSTAT_PERCPU_OPS(tpstat_hist, struct tpstat_hist_cpu, TPSTAT_MEM_HISTOGRAMS,
		  tpstat_hist_init_cpu);

/*
 * Keeps min and max within the buckets that hold events: a probe still
 * between its updates on another CPU, or a nested one, must never make a
 * reader print a min above the lowest bucket or a max below the highest.
 */
void __tpstat_hist_settle(struct tpstat_hist_summary *s)
{
	unsigned int i, first = TPSTAT_HIST_BUCKETS, last = 0;

	for (i = 0; i < TPSTAT_HIST_BUCKETS; i++) {
		if (!s->buckets[i])
			continue;
		first = min(first, i);
		last = i;
	}
	if (!s->count) {
		s->min = 0;
		s->max = 0;
		s->sum = 0;
		return;
	}
	s->min = clamp(s->min, tpstat_bucket_low(first), tpstat_bucket_high(first));
	s->max = clamp(s->max, tpstat_bucket_low(last), tpstat_bucket_high(last));
}

void tpstat_hist_fold_at(const struct tpstat_hist *h, unsigned int i,
			 struct tpstat_hist_summary *s)
{
	struct tpstat_hist_cpu __percpu *pcpu = READ_ONCE(h->pcpu) + i;
	unsigned int b;
	int cpu;

	memset(s, 0, sizeof(*s));
	s->min = U64_MAX;
	for_each_possible_cpu(cpu) {
		const struct tpstat_hist_cpu *hc = per_cpu_ptr(pcpu, cpu);

		for (b = 0; b < TPSTAT_HIST_BUCKETS; b++) {
			u64 n = READ_ONCE(hc->buckets[b]);

			s->buckets[b] += n;
			s->count += n;
		}
		/* Pairs with the smp_wmb() in __tpstat_hist_cpu_add(). */
		smp_rmb();
		s->sum += READ_ONCE(hc->sum);
		s->min = min(s->min, READ_ONCE(hc->min));
		s->max = max(s->max, READ_ONCE(hc->max));
	}
	__tpstat_hist_settle(s);
}
EXPORT_SYMBOL_GPL(tpstat_hist_fold_at);

u64 tpstat_hist_cpu_count_at(const struct tpstat_hist *h, int cpu,
			     unsigned int i)
{
	const struct tpstat_hist_cpu *hc = per_cpu_ptr(READ_ONCE(h->pcpu) + i,
						       cpu);
	unsigned int b;
	u64 count = 0;

	for (b = 0; b < TPSTAT_HIST_BUCKETS; b++)
		count += READ_ONCE(hc->buckets[b]);
	return count;
}
EXPORT_SYMBOL_GPL(tpstat_hist_cpu_count_at);

u64 tpstat_hist_percentile(const struct tpstat_hist_summary *s, unsigned int pct)
{
	u64 target, below = 0;
	unsigned int i;

	if (!s->count)
		return 0;
	target = max_t(u64, 1, div_u64(s->count * min(pct, 100U) + 99, 100));
	for (i = 0; i < TPSTAT_HIST_BUCKETS; i++) {
		u64 n = s->buckets[i], low, width, value;

		if (below + n < target) {
			below += n;
			continue;
		}
		low = tpstat_bucket_low(i);
		width = tpstat_bucket_high(i) - low;
		value = low + mul_u64_u64_div_u64(width, target - below, n);
		/* The true value cannot lie outside what was seen. */
		return clamp(value, s->min, s->max);
	}
	return s->max;
}
EXPORT_SYMBOL_GPL(tpstat_hist_percentile);

static void tpstat_hist_print_summary(struct seq_file *m,
				      const struct tpstat_hist_summary *s)
{
	seq_printf(m, "count %llu avg %llu min %llu max %llu p50 %llu p90 %llu p99 %llu\n",
		   s->count, s->count ? div64_u64(s->sum, s->count) : 0,
		   s->min, s->max, tpstat_hist_percentile(s, 50),
		   tpstat_hist_percentile(s, 90), tpstat_hist_percentile(s, 99));
}

void tpstat_hist_summary_print(struct seq_file *m,
			       const struct tpstat_hist_summary *s,
			       const char *unit)
{
	unsigned int i, first = TPSTAT_HIST_BUCKETS, last = 0;
	u64 peak = 0;

	tpstat_hist_print_summary(m, s);
	for (i = 0; i < TPSTAT_HIST_BUCKETS; i++) {
		if (!s->buckets[i])
			continue;
		first = min(first, i);
		last = i;
		peak = max(peak, s->buckets[i]);
	}
	if (peak)
		seq_printf(m, "%24s : %-9s distribution\n", unit, "count");
	for (i = first; peak && i <= last; i++) {
		unsigned int stars = div64_u64(s->buckets[i] * TPSTAT_HIST_BAR, peak);

		seq_printf(m, "%10llu -> %-10llu : %-9llu |%-*.*s|\n",
			   tpstat_bucket_low(i), tpstat_bucket_high(i),
			   s->buckets[i], TPSTAT_HIST_BAR, stars,
			   "****************************************");
	}
}
EXPORT_SYMBOL_GPL(tpstat_hist_summary_print);

void tpstat_hist_summary_stats(struct seq_file *m,
			       const struct tpstat_hist_summary *s,
			       const char *prefix)
{
	unsigned int i;

	seq_printf(m, "%s.count %llu\n%s.sum %llu\n%s.min %llu\n%s.max %llu\n",
		   prefix, s->count, prefix, s->sum, prefix, s->min, prefix,
		   s->max);
	seq_printf(m, "%s.p50 %llu\n%s.p90 %llu\n%s.p99 %llu\n", prefix,
		   tpstat_hist_percentile(s, 50), prefix,
		   tpstat_hist_percentile(s, 90), prefix,
		   tpstat_hist_percentile(s, 99));
	for (i = 0; i < TPSTAT_HIST_BUCKETS; i++)
		if (s->buckets[i])
			seq_printf(m, "%s.bucket_%llu_%llu %llu\n", prefix,
				   tpstat_bucket_low(i), tpstat_bucket_high(i),
				   s->buckets[i]);
}
EXPORT_SYMBOL_GPL(tpstat_hist_summary_stats);

/* 560 bytes: too much for the stack of a seq_file show. */
int tpstat_hist_print_at(struct seq_file *m, const struct tpstat_hist *h,
			 unsigned int i)
{
	struct tpstat_hist_summary *s = kmalloc(sizeof(*s), GFP_KERNEL);

	if (!s)
		return -ENOMEM;
	tpstat_hist_fold_at(h, i, s);
	tpstat_hist_summary_print(m, s, h->unit);
	kfree(s);
	return 0;
}
EXPORT_SYMBOL_GPL(tpstat_hist_print_at);

int tpstat_hist_print_stats_at(struct seq_file *m, const struct tpstat_hist *h,
			       unsigned int i, const char *prefix)
{
	struct tpstat_hist_summary *s = kmalloc(sizeof(*s), GFP_KERNEL);

	if (!s)
		return -ENOMEM;
	tpstat_hist_fold_at(h, i, s);
	tpstat_hist_summary_stats(m, s, prefix);
	kfree(s);
	return 0;
}
EXPORT_SYMBOL_GPL(tpstat_hist_print_stats_at);

int tpstat_hist_show(struct seq_file *m, struct tpstat_set *set)
{
	return tpstat_hist_print(m, tpstat_file_priv(m));
}
EXPORT_SYMBOL_GPL(tpstat_hist_show);

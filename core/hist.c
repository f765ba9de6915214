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

static s64 tpstat_hist_bytes(void)
{
	return sizeof(struct tpstat_hist_cpu) * num_possible_cpus();
}

void tpstat_hist_reset(struct tpstat_hist *h)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct tpstat_hist_cpu *hc = per_cpu_ptr(h->pcpu, cpu);

		memset(hc, 0, sizeof(*hc));
		hc->min = U64_MAX;
	}
}
EXPORT_SYMBOL_GPL(tpstat_hist_reset);

int tpstat_hist_init(struct tpstat_hist *h, const char *unit)
{
	h->unit = unit;
	h->pcpu = alloc_percpu(struct tpstat_hist_cpu);
	if (!h->pcpu)
		return -ENOMEM;
	tpstat_memory_account(TPSTAT_MEM_HISTOGRAMS, tpstat_hist_bytes());
	tpstat_hist_reset(h);
	return 0;
}
EXPORT_SYMBOL_GPL(tpstat_hist_init);

void tpstat_hist_destroy(struct tpstat_hist *h)
{
	if (h->pcpu)
		tpstat_memory_account(TPSTAT_MEM_HISTOGRAMS, -tpstat_hist_bytes());
	free_percpu(h->pcpu);
	h->pcpu = NULL;
}
EXPORT_SYMBOL_GPL(tpstat_hist_destroy);

void tpstat_hist_fold(const struct tpstat_hist *h, struct tpstat_hist_summary *s)
{
	unsigned int i;
	int cpu;

	memset(s, 0, sizeof(*s));
	s->min = U64_MAX;
	for_each_possible_cpu(cpu) {
		const struct tpstat_hist_cpu *hc = per_cpu_ptr(h->pcpu, cpu);

		for (i = 0; i < TPSTAT_HIST_BUCKETS; i++) {
			u64 n = READ_ONCE(hc->buckets[i]);

			s->buckets[i] += n;
			s->count += n;
		}
		s->sum += READ_ONCE(hc->sum);
		s->min = min(s->min, READ_ONCE(hc->min));
		s->max = max(s->max, READ_ONCE(hc->max));
	}
	if (!s->count)
		s->min = 0;
}
EXPORT_SYMBOL_GPL(tpstat_hist_fold);

u64 tpstat_hist_cpu_count(const struct tpstat_hist *h, int cpu)
{
	const struct tpstat_hist_cpu *hc = per_cpu_ptr(h->pcpu, cpu);
	unsigned int i;
	u64 count = 0;

	for (i = 0; i < TPSTAT_HIST_BUCKETS; i++)
		count += READ_ONCE(hc->buckets[i]);
	return count;
}
EXPORT_SYMBOL_GPL(tpstat_hist_cpu_count);

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

int tpstat_hist_print(struct seq_file *m, const struct tpstat_hist *h)
{
	struct tpstat_hist_summary *s;
	unsigned int i, first = TPSTAT_HIST_BUCKETS, last = 0;
	u64 peak = 0;

	/* 560 bytes: too much for the stack of a seq_file show. */
	s = kmalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	tpstat_hist_fold(h, s);
	tpstat_hist_print_summary(m, s);
	for (i = 0; i < TPSTAT_HIST_BUCKETS; i++) {
		if (!s->buckets[i])
			continue;
		first = min(first, i);
		last = i;
		peak = max(peak, s->buckets[i]);
	}
	if (peak)
		seq_printf(m, "%24s : %-9s distribution\n", h->unit, "count");
	for (i = first; peak && i <= last; i++) {
		unsigned int stars = div64_u64(s->buckets[i] * TPSTAT_HIST_BAR, peak);

		seq_printf(m, "%10llu -> %-10llu : %-9llu |%-*.*s|\n",
			   tpstat_bucket_low(i), tpstat_bucket_high(i),
			   s->buckets[i], TPSTAT_HIST_BAR, stars,
			   "****************************************");
	}
	kfree(s);
	return 0;
}
EXPORT_SYMBOL_GPL(tpstat_hist_print);

int tpstat_hist_print_stats(struct seq_file *m, const struct tpstat_hist *h,
			    const char *prefix)
{
	struct tpstat_hist_summary *s;
	unsigned int i;

	s = kmalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	tpstat_hist_fold(h, s);
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
	kfree(s);
	return 0;
}
EXPORT_SYMBOL_GPL(tpstat_hist_print_stats);

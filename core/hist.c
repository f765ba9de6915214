// SPDX-License-Identifier: GPL-2.0
/*
 * Log2 histograms: folding, percentiles and printing. Recording is inline in
 * <tpstat/hist.h>.
 */
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/sizes.h>
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

/*
 * The values a histogram metric's export tells apart when its declaration
 * names none (include/tpstat/metric.h): what its unit's probes measure.
 */
static const struct {
	u64 low, high;
} tpstat_hist_unit_ranges[] = {
	[TPSTAT_METRIC_NONE] = { 0, U16_MAX },
	[TPSTAT_METRIC_NS] = { 256, U32_MAX },
	[TPSTAT_METRIC_BYTES] = { 8, SZ_16M - 1 },
	[TPSTAT_METRIC_BP] = { 0, 10000 },
};

void tpstat_hist_metric_range(const struct tpstat_metric *mt, u64 *low,
			      u64 *high)
{
	u64 lo = mt->low, hi = mt->high;

	if (!hi) {
		lo = tpstat_hist_unit_ranges[mt->unit].low;
		hi = tpstat_hist_unit_ranges[mt->unit].high;
	}
	*low = tpstat_bucket_low(fls64(lo));
	*high = tpstat_bucket_high(fls64(hi));
}

enum tpstat_metric_unit tpstat_hist_metric_unit(const struct tpstat_hist *h)
{
	if (!strcmp(h->unit, "nsecs"))
		return TPSTAT_METRIC_NS;
	if (!strcmp(h->unit, "bytes"))
		return TPSTAT_METRIC_BYTES;
	return TPSTAT_METRIC_NONE;
}

/*
 * Rare: the first values after a reset, a new extreme, or a value too large
 * for the per-CPU buckets, which is recorded whole in the shared ones. The
 * per-CPU max stays below TPSTAT_HIST_CPU_LIMIT, so every large value comes
 * here. A nested update on this CPU makes a cmpxchg retry.
 */
void __tpstat_hist_add_slow(struct tpstat_hist *h, unsigned int i,
			    struct tpstat_hist_cpu __percpu *pcpu, u64 value)
{
	u64 old;

	if (value >= TPSTAT_HIST_CPU_LIMIT) {
		tpstat_atomic_hist_add(READ_ONCE(h->large) + i, value);
		return;
	}
	old = this_cpu_read(pcpu->min);
	while (value < old) {
		u64 seen = this_cpu_cmpxchg(pcpu->min, old, value);

		if (seen == old)
			break;
		old = seen;
	}
	old = this_cpu_read(pcpu->max);
	while (value > old) {
		u64 seen = this_cpu_cmpxchg(pcpu->max, old, value);

		if (seen == old)
			break;
		old = seen;
	}
	__tpstat_hist_cpu_record(pcpu, value);
}
EXPORT_SYMBOL_GPL(__tpstat_hist_add_slow);

void tpstat_atomic_hist_clear(struct tpstat_atomic_hist *a)
{
	memset(a, 0, sizeof(*a));
	atomic64_set(&a->min, U64_MAX);
}

void tpstat_atomic_hist_merge(const struct tpstat_atomic_hist *a,
			      struct tpstat_hist_summary *s)
{
	unsigned int b;

	for (b = 0; b < TPSTAT_HIST_BUCKETS; b++) {
		u64 n = atomic64_read(&a->buckets[b]);

		s->buckets[b] += n;
		s->count += n;
	}
	/* Pairs with the smp_wmb() in tpstat_atomic_hist_add(). */
	smp_rmb();
	s->sum += atomic64_read(&a->sum);
	s->min = min_t(u64, s->min, atomic64_read(&a->min));
	s->max = max_t(u64, s->max, atomic64_read(&a->max));
}

void tpstat_hist_summary_init(struct tpstat_hist_summary *s)
{
	memset(s, 0, sizeof(*s));
	s->min = U64_MAX;
}

/*
 * Keeps min and max within the buckets that hold events: a probe still
 * between its updates on another CPU, or a nested one, must never make a
 * reader print a min above the lowest bucket or a max below the highest.
 */
void tpstat_hist_settle(struct tpstat_hist_summary *s)
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

/* Storage: @nr per-CPU parts and @nr shared ones in each generation. */
static struct tpstat_hist *to_hist(const struct tpstat_data *d)
{
	return container_of(d, struct tpstat_hist, data);
}

static unsigned int tpstat_hist_nr(const struct tpstat_data *d)
{
	return to_hist(d)->nr ?: 1;
}

static int tpstat_hist_alloc(struct tpstat_data *d, unsigned int gen)
{
	struct tpstat_hist *h = to_hist(d);
	unsigned int nr = tpstat_hist_nr(d);

	h->gen[gen] = tpstat_percpu_alloc(nr, sizeof(struct tpstat_hist_cpu),
					  __alignof__(struct tpstat_hist_cpu));
	h->gen_large[gen] = tpstat_kvmalloc(nr, sizeof(struct tpstat_atomic_hist),
					    GFP_KERNEL);
	return h->gen[gen] && h->gen_large[gen] ? 0 : -ENOMEM;
}

static void tpstat_hist_free(struct tpstat_data *d, unsigned int gen)
{
	struct tpstat_hist *h = to_hist(d);

	free_percpu(h->gen[gen]);
	h->gen[gen] = NULL;
	kvfree(h->gen_large[gen]);
	h->gen_large[gen] = NULL;
}

/* An empty histogram's min is above any value. */
static void tpstat_hist_init_cpu(void *elem)
{
	struct tpstat_hist_cpu *hc = elem;

	hc->min = U64_MAX;
}

static void tpstat_hist_clear(struct tpstat_data *d, unsigned int gen)
{
	struct tpstat_hist *h = to_hist(d);
	unsigned int i, nr = tpstat_hist_nr(d);

	tpstat_percpu_clear(h->gen[gen], nr, sizeof(struct tpstat_hist_cpu),
			    tpstat_hist_init_cpu);
	for (i = 0; i < nr; i++)
		tpstat_atomic_hist_clear(&h->gen_large[gen][i]);
}

static void tpstat_hist_publish(struct tpstat_data *d, unsigned int gen)
{
	struct tpstat_hist *h = to_hist(d);

	tpstat_data_publish(h->large, h->gen_large[gen]);
	tpstat_data_publish(h->pcpu, h->gen[gen]);
}

static size_t tpstat_hist_bytes(const struct tpstat_data *d)
{
	unsigned int nr = tpstat_hist_nr(d);

	return tpstat_percpu_bytes(nr, sizeof(struct tpstat_hist_cpu)) +
	       tpstat_kv_bytes(to_hist(d)->large,
			       nr * sizeof(struct tpstat_atomic_hist));
}

const struct tpstat_data_ops tpstat_hist_ops = {
	.kind = TPSTAT_MEM_HISTOGRAMS,
	.alloc = tpstat_hist_alloc,
	.free = tpstat_hist_free,
	.clear = tpstat_hist_clear,
	.publish = tpstat_hist_publish,
	.bytes = tpstat_hist_bytes,
};
EXPORT_SYMBOL_GPL(tpstat_hist_ops);

/* Adds one CPU's part of histogram @i into @s. */
static void tpstat_hist_cpu_merge(const struct tpstat_hist *h, unsigned int i,
				  int cpu, struct tpstat_hist_summary *s)
{
	const struct tpstat_hist_cpu *hc = per_cpu_ptr(READ_ONCE(h->pcpu) + i, cpu);
	unsigned int b;

	for (b = 0; b < TPSTAT_HIST_CPU_BUCKETS; b++) {
		u64 n = READ_ONCE(hc->buckets[b]);

		s->buckets[b] += n;
		s->count += n;
	}
	/* Pairs with the smp_wmb() in __tpstat_hist_cpu_record(). */
	smp_rmb();
	s->sum += READ_ONCE(hc->sum);
	s->min = min(s->min, READ_ONCE(hc->min));
	s->max = max(s->max, READ_ONCE(hc->max));
}

void tpstat_hist_fold_at(const struct tpstat_hist *h, unsigned int i,
			 struct tpstat_hist_summary *s)
{
	int cpu;

	tpstat_hist_summary_init(s);
	for_each_possible_cpu(cpu)
		tpstat_hist_cpu_merge(h, i, cpu, s);
	tpstat_atomic_hist_merge(READ_ONCE(h->large) + i, s);
	tpstat_hist_settle(s);
}
EXPORT_SYMBOL_GPL(tpstat_hist_fold_at);

void tpstat_hist_fold_cpu_at(const struct tpstat_hist *h, unsigned int i,
			     int cpu, struct tpstat_hist_summary *s)
{
	tpstat_hist_summary_init(s);
	tpstat_hist_cpu_merge(h, i, cpu, s);
	tpstat_hist_settle(s);
}
EXPORT_SYMBOL_GPL(tpstat_hist_fold_cpu_at);

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

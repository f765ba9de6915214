// SPDX-License-Identifier: GPL-2.0
/*
 * The kmem set's files and its stats lines, folded when read.
 */
#include <linux/bsearch.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/sort.h>

#include "kmem.h"

/* Call sites with a histogram each in the sizes file. */
#define KMEM_SIZES_SITES	10

static const char *const kmem_events[KMEM_EVENTS] = {
	[KMEM_KMALLOC] = "kmalloc",
	[KMEM_CACHE_ALLOC] = "kmem_cache_alloc",
	[KMEM_KFREE] = "kfree",
	[KMEM_CACHE_FREE] = "kmem_cache_free",
	[KMEM_FAILED] = "failed",
	[KMEM_PAGE_ALLOC] = "page_alloc",
	[KMEM_PAGE_FAILED] = "page_failed",
	[KMEM_PAGE_FREE] = "page_free",
	[KMEM_EXTFRAG] = "extfrag",
};

static u64 kmem_event(unsigned int e)
{
	return tpstat_counter_sum_at(&tpstat_kmem_events, e);
}

/* The share of @alloc that @req leaves unused, in hundredths of a percent. */
static u64 kmem_frag(u64 req, u64 alloc)
{
	return alloc > req ? div64_u64((alloc - req) * 10000, alloc) : 0;
}

static void kmem_print_frag(struct seq_file *m, u64 req, u64 alloc)
{
	u64 f = kmem_frag(req, alloc);

	seq_printf(m, " %7llu.%02llu%%", f / 100, f % 100);
}

/* Bytes asked for: the sum of the requested sizes' histogram. */
static u64 kmem_requested(void)
{
	struct tpstat_hist_summary sizes;

	tpstat_hist_fold(&tpstat_kmem_sizes, &sizes);
	return sizes.sum;
}

int tpstat_kmem_summary_show(struct seq_file *m, struct tpstat_set *set)
{
	u64 req = kmem_requested();
	u64 alloc = tpstat_counter_sum(&tpstat_kmem_allocated);
	unsigned int e, order;

	for (e = 0; e < KMEM_EVENTS; e++)
		seq_printf(m, "%-18s %14llu\n", kmem_events[e], kmem_event(e));
	seq_printf(m, "%-18s %14llu\n%-18s %14llu\n%-18s %14llu\n",
		   "bytes_requested", req, "bytes_allocated", alloc,
		   "bytes_wasted", alloc > req ? alloc - req : 0);
	seq_printf(m, "%-18s", "fragmentation");
	kmem_print_frag(m, req, alloc);
	seq_printf(m, "\n\n%-6s %14s %14s\n", "order", "page_allocs", "page_frees");
	for (order = 0; order < KMEM_ORDERS; order++)
		seq_printf(m, "%-3u%-3s %14llu %14llu\n", order,
			   order == KMEM_ORDERS - 1 ? "+" : "",
			   tpstat_counter_sum_at(&tpstat_kmem_page_allocs, order),
			   tpstat_counter_sum_at(&tpstat_kmem_page_frees, order));
	return 0;
}

int tpstat_kmem_callsites_show(struct seq_file *m, struct tpstat_set *set)
{
	struct tpstat_keyed_row *rows;
	unsigned int i, nr;

	rows = tpstat_keyed_rows(&tpstat_kmem_sites, NULL, &nr);
	if (!rows)
		return -ENOMEM;
	seq_printf(m, "%-48s %12s %14s %14s %9s %12s\n", "callsite", "hits",
		   "bytes_req", "bytes_alloc", "frag", "frees");
	for (i = 0; i <= nr; i++) {
		const u64 *c = rows[i].counters;

		seq_printf(m, "%-48s %12llu %14llu %14llu", rows[i].label,
			   rows[i].hist.count, rows[i].hist.sum,
			   c[KMEM_SITE_ALLOCATED]);
		kmem_print_frag(m, rows[i].hist.sum, c[KMEM_SITE_ALLOCATED]);
		seq_printf(m, " %12llu\n", c[KMEM_SITE_FREES]);
	}
	kvfree(rows);
	return 0;
}

int tpstat_kmem_caches_show(struct seq_file *m, struct tpstat_set *set)
{
	struct tpstat_keyed_row *rows;
	unsigned int i, nr;

	rows = tpstat_keyed_rows(&tpstat_kmem_caches, NULL, &nr);
	if (!rows)
		return -ENOMEM;
	seq_printf(m, "%-32s %12s %12s %14s\n", "cache", "allocs", "frees",
		   "bytes");
	for (i = 0; i <= nr; i++)
		seq_printf(m, "%-32s %12llu %12llu %14llu\n", rows[i].label,
			   rows[i].hist.count, rows[i].counters[KMEM_CACHE_FREES],
			   rows[i].hist.sum);
	kvfree(rows);
	return 0;
}

int tpstat_kmem_sizes_show(struct seq_file *m, struct tpstat_set *set)
{
	struct tpstat_keyed_row *rows;
	unsigned int i, nr;
	int err;

	err = tpstat_hist_print(m, &tpstat_kmem_sizes);
	if (err)
		return err;
	rows = tpstat_keyed_rows(&tpstat_kmem_sites, NULL, &nr);
	if (!rows)
		return -ENOMEM;
	for (i = 0; i < min_t(unsigned int, nr, KMEM_SIZES_SITES); i++) {
		seq_printf(m, "\n%s:\n", rows[i].label);
		tpstat_keyed_print_hist(m, &tpstat_kmem_sites, &rows[i]);
	}
	kvfree(rows);
	return 0;
}

/* A call site's allocations not yet freed, gathered from the map. */
struct kmem_live_row {
	const char *label;
	u64 count;
	u64 bytes;
	u64 oldest;	/* ms since the oldest was made */
};

/* Outstanding allocations of each call site: live[i] is rows[i]'s. */
struct kmem_live {
	struct tpstat_keyed_row *rows;	/* by key, "other" at [nr] */
	struct kmem_live_row *live;
	unsigned int nr;
	u64 now;
};

static int kmem_row_by_key(const void *a, const void *b)
{
	const struct tpstat_keyed_row *x = a, *y = b;

	if (x->key.w[0] != y->key.w[0])
		return x->key.w[0] < y->key.w[0] ? -1 : 1;
	return 0;
}

static void kmem_live_visit(void *arg, u64 key, const struct tpstat_pair *start)
{
	struct kmem_live *l = arg;
	struct tpstat_keyed_row want = { .key = tpstat_key_u64(start->a) };
	struct tpstat_keyed_row *row;
	struct kmem_live_row *live = &l->live[l->nr];

	row = bsearch(&want, l->rows, l->nr, sizeof(*row), kmem_row_by_key);
	if (row)
		live = &l->live[row - l->rows];
	live->count++;
	live->bytes += kmem_live_bytes(start->ts);
	live->oldest = max_t(u64, live->oldest,
			     kmem_live_age_ms(start->ts, l->now));
}

static int kmem_live_gather(struct kmem_live *l)
{
	unsigned int i;

	l->rows = tpstat_keyed_rows(&tpstat_kmem_sites, kmem_row_by_key, &l->nr);
	if (!l->rows)
		return -ENOMEM;
	l->live = kvcalloc(l->nr + 1, sizeof(*l->live), GFP_KERNEL);
	if (!l->live) {
		kvfree(l->rows);
		return -ENOMEM;
	}
	for (i = 0; i <= l->nr; i++)
		l->live[i].label = l->rows[i].label;
	l->now = jiffies;
	tpstat_pairs_for_each(&tpstat_kmem_live, kmem_live_visit, l);
	return 0;
}

static void kmem_live_release(struct kmem_live *l)
{
	kvfree(l->live);
	kvfree(l->rows);
}

/* Most bytes first. */
static int kmem_live_cmp(const void *a, const void *b)
{
	const struct kmem_live_row *x = a, *y = b;

	if (x->bytes != y->bytes)
		return x->bytes > y->bytes ? -1 : 1;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->label, y->label);
}

int tpstat_kmem_outstanding_show(struct seq_file *m, struct tpstat_set *set)
{
	struct kmem_live l;
	unsigned int i;
	int err;

	err = kmem_live_gather(&l);
	if (err)
		return err;
	/* The rows by bytes, "other" staying last. */
	sort(l.live, l.nr, sizeof(*l.live), kmem_live_cmp, NULL);
	seq_printf(m, "%-48s %12s %14s %16s\n", "callsite", "count", "bytes",
		   "oldest_ms");
	for (i = 0; i <= l.nr; i++)
		if (l.live[i].count || i == l.nr)
			seq_printf(m, "%-48s %12llu %14llu %16llu\n",
				   l.live[i].label, l.live[i].count,
				   l.live[i].bytes, l.live[i].oldest);
	seq_printf(m, "\nnot followed: %llu allocations, max_outstanding %u\n",
		   tpstat_pairs_stat(&tpstat_kmem_live, TPSTAT_PAIRS_DROPPED),
		   tpstat_kmem_live.capacity);
	/* The map's counts, evictions to make room among them. */
	seq_puts(m, "\n");
	tpstat_pairs_print_stats(m, &tpstat_kmem_live, "live");
	kmem_live_release(&l);
	return 0;
}

int tpstat_kmem_pages_show(struct seq_file *m, struct tpstat_set *set)
{
	struct tpstat_keyed_row *rows;
	unsigned int i, nr;

	seq_printf(m, "%-6s %14s %14s\n", "order", "allocs", "frees");
	for (i = 0; i < KMEM_ORDERS; i++)
		seq_printf(m, "%-3u%-3s %14llu %14llu\n", i,
			   i == KMEM_ORDERS - 1 ? "+" : "",
			   tpstat_counter_sum_at(&tpstat_kmem_page_allocs, i),
			   tpstat_counter_sum_at(&tpstat_kmem_page_frees, i));
	seq_printf(m, "\n%-14s %14s\n", "migratetype", "allocs");
	for (i = 0; i < MIGRATE_TYPES; i++)
		if (tpstat_kmem_migratetypes[i])
			seq_printf(m, "%-14s %14llu\n", tpstat_kmem_migratetypes[i],
				   tpstat_counter_sum_at(&tpstat_kmem_page_types, i));
	seq_printf(m, "\n%-14s %14llu\n", "extfrag", kmem_event(KMEM_EXTFRAG));
	seq_printf(m, "%-14s %14llu\n", "failed", kmem_event(KMEM_PAGE_FAILED));
	rows = tpstat_keyed_rows(&tpstat_kmem_page_comms, NULL, &nr);
	if (!rows)
		return -ENOMEM;
	seq_printf(m, "\n%-16s %14s %14s\n", "comm", "allocs", "pages");
	for (i = 0; i <= nr; i++)
		seq_printf(m, "%-16s %14llu %14llu\n", rows[i].label,
			   rows[i].hist.count, rows[i].hist.sum);
	kvfree(rows);
	return 0;
}

/* "<what>.<label>.hits N" and the rest of each call site's columns. */
static void kmem_site_stats(struct seq_file *m, const struct kmem_live *l)
{
	char word[TPSTAT_KEYED_LABEL_MAX];
	unsigned int i;

	for (i = 0; i <= l->nr; i++) {
		const u64 *c = l->rows[i].counters;

		tpstat_stats_word(word, sizeof(word), l->rows[i].label);
		seq_printf(m, "site.%s.hits %llu\nsite.%s.bytes_req %llu\n"
			   "site.%s.bytes_alloc %llu\nsite.%s.frees %llu\n"
			   "site.%s.outstanding %llu\nsite.%s.outstanding_bytes %llu\n",
			   word, l->rows[i].hist.count, word, l->rows[i].hist.sum,
			   word, c[KMEM_SITE_ALLOCATED], word, c[KMEM_SITE_FREES],
			   word, l->live[i].count, word, l->live[i].bytes);
	}
}

/*
 * "<what>.<label>.count N" and ".sum N" of each key of @k, and its first
 * counter as ".<counter> N" if @counter is not NULL.
 */
static int kmem_keyed_stats(struct seq_file *m, const struct tpstat_keyed *k,
			    const char *what, const char *counter)
{
	char word[TPSTAT_KEYED_LABEL_MAX];
	struct tpstat_keyed_row *rows;
	unsigned int i, nr;

	rows = tpstat_keyed_rows(k, NULL, &nr);
	if (!rows)
		return -ENOMEM;
	for (i = 0; i <= nr; i++) {
		tpstat_stats_word(word, sizeof(word), rows[i].label);
		seq_printf(m, "%s.%s.count %llu\n%s.%s.sum %llu\n", what, word,
			   rows[i].hist.count, what, word, rows[i].hist.sum);
		if (counter)
			seq_printf(m, "%s.%s.%s %llu\n", what, word, counter,
				   rows[i].counters[0]);
	}
	kvfree(rows);
	return 0;
}

int tpstat_kmem_stats(struct seq_file *m, struct tpstat_set *set)
{
	u64 req = kmem_requested();
	u64 alloc = tpstat_counter_sum(&tpstat_kmem_allocated);
	struct kmem_live l;
	unsigned int i;
	int err;

	/*
	 * The outstanding allocations are gathered first, for the map's
	 * counts below to be read after the walk with no allocation of this
	 * reader's in between: an eviction it caused would be counted but
	 * its victim still seen.
	 */
	err = kmem_live_gather(&l);
	if (err)
		return err;
	for (i = 0; i < KMEM_EVENTS; i++)
		seq_printf(m, "%s %llu\n", kmem_events[i], kmem_event(i));
	seq_printf(m, "bytes_requested %llu\nbytes_allocated %llu\nfrag_bp %llu\n",
		   req, alloc, kmem_frag(req, alloc));
	for (i = 0; i < KMEM_ORDERS; i++)
		seq_printf(m, "pages.order%u.allocs %llu\npages.order%u.frees %llu\n",
			   i, tpstat_counter_sum_at(&tpstat_kmem_page_allocs, i),
			   i, tpstat_counter_sum_at(&tpstat_kmem_page_frees, i));
	for (i = 0; i < MIGRATE_TYPES; i++)
		if (tpstat_kmem_migratetypes[i])
			seq_printf(m, "pages.%s %llu\n", tpstat_kmem_migratetypes[i],
				   tpstat_counter_sum_at(&tpstat_kmem_page_types, i));
	tpstat_pairs_print_stats(m, &tpstat_kmem_live, "live");
	err = tpstat_hist_print_stats(m, &tpstat_kmem_sizes, "sizes");
	if (!err)
		kmem_site_stats(m, &l);
	kmem_live_release(&l);
	if (!err)
		err = kmem_keyed_stats(m, &tpstat_kmem_caches, "cache", "frees");
	if (!err)
		err = kmem_keyed_stats(m, &tpstat_kmem_page_comms, "comm", NULL);
	if (err || !static_branch_unlikely(&tpstat_kmem_by_stack))
		return err;
	return tpstat_kmem_stacks_stats(m);
}

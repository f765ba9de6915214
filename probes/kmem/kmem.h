/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tpstat_kmem.ko: what its parts share. slab.c holds the slab probes (call
 * sites, caches, sizes, outstanding allocations), page.c the page
 * allocator's, output.c the files, stacks.c those of the outstanding
 * allocations by stack, main.c the set.
 */
#ifndef _TPSTAT_KMEM_H
#define _TPSTAT_KMEM_H

#include <linux/jiffies.h>
#include <linux/jump_label.h>
#include <linux/mmzone.h>
#include <linux/slab.h>
#include <tpstat/tpstat.h>

/* Events counted per CPU, each its own counter. */
enum {
	KMEM_KMALLOC,
	KMEM_CACHE_ALLOC,
	KMEM_KFREE,
	KMEM_CACHE_FREE,
	KMEM_FAILED,		/* a slab allocation returned NULL */
	KMEM_PAGE_ALLOC,
	KMEM_PAGE_FAILED,	/* a page allocation returned NULL */
	KMEM_PAGE_FREE,
	KMEM_EXTFRAG,
	KMEM_EVENTS
};

/*
 * A call site's counters. Its hits and the bytes it asked for are its
 * histogram's count and sum, as the allocations overall are tpstat_kmem_sizes'.
 */
enum {
	KMEM_SITE_ALLOCATED,
	KMEM_SITE_FREES,
	KMEM_SITE_COUNTERS
};

/* A cache's: its allocations are its histogram's count. */
enum { KMEM_CACHE_FREES, KMEM_CACHE_COUNTERS };

/*
 * What an allocation saves in the pairing map until it is freed, in a
 * pair's three words: a, its call site; b, a hint to the site's row, for
 * the free to find it without a lookup, or if the set keeps stacks (from
 * its load to its unload) the handle of its stack's row instead, which
 * the files of outstanding allocations by stack group the map's entries
 * by (the free then looks the site up); ts, the jiffies since boot it was
 * made at, above its size. The time is in the high bits so that ts orders
 * starts by age, as the map does when it must evict the oldest to make
 * room: 40 bits of jiffies last 34 years at HZ=1000, and 24 bits hold any
 * kmalloc (KMALLOC_MAX_SIZE is 4 MiB on x86-64); a larger cache object
 * shows as 16 MiB - 1 bytes.
 */
#define KMEM_LIVE_SIZE_BITS	24
#define KMEM_LIVE_SIZE_MAX	((1U << KMEM_LIVE_SIZE_BITS) - 1)
#define KMEM_LIVE_TIME_MASK	((1ULL << (64 - KMEM_LIVE_SIZE_BITS)) - 1)

static inline u64 kmem_live_pack(size_t bytes, unsigned long when)
{
	return (u64)(when - INITIAL_JIFFIES) << KMEM_LIVE_SIZE_BITS |
	       min_t(size_t, bytes, KMEM_LIVE_SIZE_MAX);
}

static inline u32 kmem_live_bytes(u64 ts)
{
	return ts & KMEM_LIVE_SIZE_MAX;
}

/* Milliseconds since the allocation, up to now (in jiffies). */
static inline unsigned int kmem_live_age_ms(u64 ts, unsigned long now)
{
	u64 made = ts >> KMEM_LIVE_SIZE_BITS;

	return jiffies_to_msecs((now - INITIAL_JIFFIES - made) &
				KMEM_LIVE_TIME_MASK);
}

/* Orders shown one by one; larger ones share the last row. */
#define KMEM_ORDERS		12

extern struct tpstat_counter tpstat_kmem_events;
extern struct tpstat_counter tpstat_kmem_allocated;	/* bytes given */
extern struct tpstat_hist tpstat_kmem_sizes;		/* requested */
extern struct tpstat_keyed tpstat_kmem_sites;		/* requested sizes */
extern struct tpstat_keyed tpstat_kmem_caches;		/* object sizes */
extern struct tpstat_pairs tpstat_kmem_live;		/* by pointer */
extern struct tpstat_stacks tpstat_kmem_stacks;		/* stacks=1 */
DECLARE_STATIC_KEY_FALSE(tpstat_kmem_by_stack);		/* stacks=1 */
extern struct tpstat_counter tpstat_kmem_page_allocs;	/* per order */
extern struct tpstat_counter tpstat_kmem_page_frees;	/* per order */
extern struct tpstat_counter tpstat_kmem_page_types;	/* per migratetype */
extern struct tpstat_keyed tpstat_kmem_page_comms;	/* pages */

/* slab.c */
void tpstat_kmem_kmalloc(void *data, unsigned long call_site,
			 const void *ptr, size_t bytes_req, size_t bytes_alloc,
			 gfp_t gfp_flags, int node);
void tpstat_kmem_cache_alloc(void *data, unsigned long call_site,
			     const void *ptr, struct kmem_cache *s,
			     gfp_t gfp_flags, int node);
void tpstat_kmem_kfree(void *data, unsigned long call_site, const void *ptr);
void tpstat_kmem_cache_free(void *data, unsigned long call_site,
			    const void *ptr, const struct kmem_cache *s);

/* page.c */
extern const char *const tpstat_kmem_migratetypes[MIGRATE_TYPES];

void tpstat_kmem_page_alloc(void *data, struct page *page, unsigned int order,
			    gfp_t gfp_flags, int migratetype);
void tpstat_kmem_page_free(void *data, struct page *page, unsigned int order);
void tpstat_kmem_extfrag(void *data, struct page *page, int alloc_order,
			 int fallback_order, int alloc_migratetype,
			 int fallback_migratetype);

/* output.c */
int tpstat_kmem_summary_show(struct seq_file *m, struct tpstat_set *set);
int tpstat_kmem_callsites_show(struct seq_file *m, struct tpstat_set *set);
int tpstat_kmem_caches_show(struct seq_file *m, struct tpstat_set *set);
int tpstat_kmem_sizes_show(struct seq_file *m, struct tpstat_set *set);
int tpstat_kmem_outstanding_show(struct seq_file *m, struct tpstat_set *set);
int tpstat_kmem_pages_show(struct seq_file *m, struct tpstat_set *set);
int tpstat_kmem_stats(struct seq_file *m, struct tpstat_set *set);

/* stacks.c */
int tpstat_kmem_stacks_show(struct seq_file *m, struct tpstat_set *set);
int tpstat_kmem_stacks_folded_show(struct seq_file *m, struct tpstat_set *set);
int tpstat_kmem_stacks_stats(struct seq_file *m);

#endif /* _TPSTAT_KMEM_H */

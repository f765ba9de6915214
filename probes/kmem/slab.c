// SPDX-License-Identifier: GPL-2.0
/*
 * The slab probes: events and bytes, requested sizes overall and per call
 * site, allocations per cache, and each allocation's site and size saved
 * under its pointer until it is freed (outstanding allocations), with the
 * stack it came from if the set was loaded with stacks=1.
 *
 * They run inside the allocator, maybe nested on one CPU (a kmalloc in an
 * interrupt during another): per-CPU counters and histograms, keyed data,
 * the pairing map and the stack storage are all safe there, and none of
 * them allocates or takes a lock the allocator may hold.
 */
#include <linux/jiffies.h>
#include <linux/jump_label.h>
#include <linux/slab.h>

#include "kmem.h"

/*
 * A cache is named after the size of its objects. Its struct kmem_cache,
 * name and slot size included, is private to mm/ on every kernel tpstat
 * is built for (6.1's linux/slub_def.h needs mm/slab.h to compile, and
 * is gone from 6.8); kmem_cache_size() is the one exported accessor.
 */
#define KMEM_CACHE_LABEL(s)	"%u-byte objects", kmem_cache_object_size(s)

static unsigned int kmem_cache_object_size(const struct kmem_cache *s)
{
	return kmem_cache_size((struct kmem_cache *)s);
}

struct tpstat_counter tpstat_kmem_events = TPSTAT_COUNTERS(KMEM_EVENTS);
struct tpstat_counter tpstat_kmem_allocated = TPSTAT_COUNTER();
struct tpstat_hist tpstat_kmem_sizes = TPSTAT_HIST("bytes");
struct tpstat_keyed tpstat_kmem_sites =
	TPSTAT_KEYED(256, "bytes", KMEM_SITE_COUNTERS);
struct tpstat_keyed tpstat_kmem_caches =
	TPSTAT_KEYED(64, "bytes", KMEM_CACHE_COUNTERS);
struct tpstat_pairs tpstat_kmem_live = TPSTAT_PAIRS(8192, 0);
struct tpstat_stacks tpstat_kmem_stacks = TPSTAT_STACKS(1024, 16);
/* Set at load, before the probes attach: each probe's test is a jump. */
DEFINE_STATIC_KEY_FALSE(tpstat_kmem_by_stack);

/* Stacks alone, keyed by nothing else. */
static const struct tpstat_key kmem_stack_key;

/*
 * The handle of the row of the stack @ptr was allocated from, if the set
 * keeps stacks. Inlined into the probe, whose frame the walk starts from:
 * the probes are notrace, for the function graph tracer would put its own
 * return address in place of theirs.
 */
static __always_inline u64 kmem_stack(void *data, const void *ptr)
{
	if (!static_branch_unlikely(&tpstat_kmem_by_stack) || !ptr)
		return 0;
	return tpstat_stacks_hold(&tpstat_kmem_stacks, data, &kmem_stack_key,
				  true);
}

/*
 * With stacks, a call site's row found without a hint (the pair's word
 * holds the stack's handle instead): out of line, so that the hinted path
 * stays as small as it is without stacks.
 */
static noinline struct tpstat_key_ref
kmem_site_add_unhinted(unsigned long call_site, size_t req)
{
	return tpstat_keyed_add_site(&tpstat_kmem_sites, (void *)call_site,
				     NULL, req);
}

static noinline struct tpstat_key_ref kmem_site_unhinted(unsigned long call_site)
{
	return tpstat_keyed_ref_site(&tpstat_kmem_sites, (void *)call_site,
				     NULL);
}

/*
 * One allocation of @req bytes, given @alloc, from @call_site and the
 * stack of row @stack (if the set keeps stacks): counted by its site, and
 * saved under @ptr until freed, as kmem.h's kmem_live says.
 */
static void kmem_alloc(void *data, unsigned long call_site, const void *ptr,
		       size_t req, size_t alloc, u64 stack)
{
	struct tpstat_key_ref site;
	struct tpstat_pair start;

	if (!ptr) {
		tpstat_counter_inc_at(&tpstat_kmem_events, KMEM_FAILED);
		return;
	}
	tpstat_counter_add(&tpstat_kmem_allocated, alloc);
	tpstat_hist_add(&tpstat_kmem_sizes, req);
	start.b = 0;
	if (static_branch_unlikely(&tpstat_kmem_by_stack)) {
		site = kmem_site_add_unhinted(call_site, req);
		start.b = stack;
	} else {
		site = tpstat_keyed_add_site(&tpstat_kmem_sites,
					     (void *)call_site, &start.b, req);
	}
	tpstat_keyed_count_add(site, KMEM_SITE_ALLOCATED, alloc);
	start.a = call_site;
	start.ts = kmem_live_pack(req, jiffies);
	if (!tpstat_pairs_start(&tpstat_kmem_live, (unsigned long)ptr, &start)) {
		tpstat_probe_drop(data);
		return;
	}
	/*
	 * Followed, but its stack found no row (the table full): counted, with
	 * its bytes, in the stacks' "other" row, which the files show.
	 */
	if (static_branch_unlikely(&tpstat_kmem_by_stack) &&
	    (u32)stack >= tpstat_kmem_stacks.capacity) {
		tpstat_stacks_add_value(&tpstat_kmem_stacks, stack, req);
		tpstat_probe_drop(data);
	}
}

/*
 * A free of @ptr: its allocation's site, if the map had it, counts it, in
 * the row the allocation made; never a new one, which would be named from
 * an address whose code may be gone by now (tpstat_keyed_ref_site()).
 */
static void kmem_free(const void *ptr)
{
	struct tpstat_pair start;
	struct tpstat_key_ref site;

	if (ZERO_OR_NULL_PTR(ptr) ||
	    !tpstat_pairs_end(&tpstat_kmem_live, (unsigned long)ptr, &start))
		return;
	/* With stacks, b is the stack's handle, no hint: the site is looked up. */
	if (static_branch_unlikely(&tpstat_kmem_by_stack))
		site = kmem_site_unhinted(start.a);
	else
		site = tpstat_keyed_ref_site(&tpstat_kmem_sites,
					     (void *)start.a, &start.b);
	tpstat_keyed_count(site, KMEM_SITE_FREES);
}

notrace void tpstat_kmem_kmalloc(void *data, unsigned long call_site,
				 const void *ptr, size_t bytes_req,
				 size_t bytes_alloc, gfp_t gfp_flags, int node)
{
	tpstat_probe_hit(data);
	tpstat_counter_inc_at(&tpstat_kmem_events, KMEM_KMALLOC);
	kmem_alloc(data, call_site, ptr, bytes_req, bytes_alloc,
		   kmem_stack(data, ptr));
}

notrace void tpstat_kmem_cache_alloc(void *data, unsigned long call_site,
				     const void *ptr, struct kmem_cache *s,
				     gfp_t gfp_flags, int node)
{
	unsigned int size = kmem_cache_object_size(s);

	tpstat_probe_hit(data);
	tpstat_counter_inc_at(&tpstat_kmem_events, KMEM_CACHE_ALLOC);
	if (ptr) {
		struct tpstat_key key = tpstat_key_u64((unsigned long)s);

		tpstat_keyed_add_key(&tpstat_kmem_caches, &key, size,
				     KMEM_CACHE_LABEL(s));
	}
	kmem_alloc(data, call_site, ptr, size, size, kmem_stack(data, ptr));
}

void tpstat_kmem_kfree(void *data, unsigned long call_site, const void *ptr)
{
	tpstat_probe_hit(data);
	tpstat_counter_inc_at(&tpstat_kmem_events, KMEM_KFREE);
	kmem_free(ptr);
}

void tpstat_kmem_cache_free(void *data, unsigned long call_site,
			    const void *ptr, const struct kmem_cache *s)
{
	struct tpstat_key key = tpstat_key_u64((unsigned long)s);
	struct tpstat_key_ref cache;

	tpstat_probe_hit(data);
	tpstat_counter_inc_at(&tpstat_kmem_events, KMEM_CACHE_FREE);
	cache = tpstat_keyed_ref(&tpstat_kmem_caches, &key, KMEM_CACHE_LABEL(s));
	tpstat_keyed_count(cache, KMEM_CACHE_FREES);
	kmem_free(ptr);
}

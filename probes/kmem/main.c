// SPDX-License-Identifier: GPL-2.0
/*
 * tpstat_kmem.ko: slab allocations by call site, cache and size, the
 * allocations not yet freed, and the page allocator, from cat:
 *
 *   insmod tpstat_kmem.ko [max_sites=256] [max_caches=64] [max_outstanding=8192]
 *                         [stacks=0] [stack_depth=16] [max_stacks=1024]
 *   cat /sys/kernel/debug/tpstat/kmem/{summary,callsites,caches,sizes}
 *   cat /sys/kernel/debug/tpstat/kmem/{outstanding,pages,stats}
 *   cat /sys/kernel/debug/tpstat/kmem/outstanding_{stacks,folded}	(stacks=1)
 *
 * Stacks are a load-time choice, for the module's life: each allocation
 * followed then keeps its stack's handle in the map where it keeps a hint
 * otherwise, and every entry must be one or the other.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <trace/events/kmem.h>

#include "kmem.h"

#define TPSTAT_KMEM_MAX_KEYS		TPSTAT_KEYED_MAX

static unsigned int max_sites = 256;
module_param(max_sites, uint, 0400);
MODULE_PARM_DESC(max_sites, "call sites shown by name (1-65536, default 256)");

static unsigned int max_caches = 64;
module_param(max_caches, uint, 0400);
MODULE_PARM_DESC(max_caches, "slab caches shown by name (1-65536, default 64)");

static unsigned int max_outstanding = 8192;
module_param(max_outstanding, uint, 0400);
MODULE_PARM_DESC(max_outstanding, "allocations followed until freed (1-4194304, default 8192)");

static bool stacks;
module_param(stacks, bool, 0400);
MODULE_PARM_DESC(stacks, "outstanding allocations by stack too, at the cost of a stack walk per allocation (default 0)");

static unsigned int stack_depth = 16;
module_param(stack_depth, uint, 0400);
MODULE_PARM_DESC(stack_depth, "frames kept of each stack, with stacks=1 (1-32, default 16)");

static unsigned int max_stacks = 1024;
module_param(max_stacks, uint, 0400);
MODULE_PARM_DESC(max_stacks, "stacks held, with stacks=1 (1-65536, default 1024)");

/* The last two files and the last data, with stacks=1 only. */
#define TPSTAT_KMEM_STACK_FILES	2

static const struct tpstat_metric tpstat_kmem_metrics[] = {
	TPSTAT_COUNTER_METRIC("kmalloc", "kmalloc", TPSTAT_METRIC_NONE,
			      "kmalloc() calls"),
	TPSTAT_COUNTER_METRIC("kmem_cache_alloc", "kmem_cache_alloc",
			      TPSTAT_METRIC_NONE,
			      "kmem_cache_alloc() calls"),
	TPSTAT_COUNTER_METRIC("kfree", "kfree", TPSTAT_METRIC_NONE,
			      "kfree() calls"),
	TPSTAT_COUNTER_METRIC("kmem_cache_free", "kmem_cache_free",
			      TPSTAT_METRIC_NONE,
			      "kmem_cache_free() calls"),
	TPSTAT_COUNTER_METRIC("failed", "failed", TPSTAT_METRIC_NONE,
			      "Slab allocations that failed"),
	TPSTAT_COUNTER_METRIC("page_alloc", "page_alloc", TPSTAT_METRIC_NONE,
			      "Page allocations"),
	TPSTAT_COUNTER_METRIC("page_failed", "page_failed", TPSTAT_METRIC_NONE,
			      "Page allocations that failed"),
	TPSTAT_COUNTER_METRIC("page_free", "page_free", TPSTAT_METRIC_NONE,
			      "Page frees"),
	TPSTAT_COUNTER_METRIC("extfrag", "extfrag", TPSTAT_METRIC_NONE,
			      "Page allocations that fell back to another migrate type"),
	TPSTAT_COUNTER_METRIC("bytes_requested", "requested_bytes",
			      TPSTAT_METRIC_BYTES,
			      "Bytes slab allocations asked for"),
	TPSTAT_COUNTER_METRIC("bytes_allocated", "allocated_bytes",
			      TPSTAT_METRIC_BYTES,
			      "Bytes slab allocations were given"),
	TPSTAT_GAUGE_METRIC("frag_bp", "frag_ratio", TPSTAT_METRIC_BP,
			    "Share of allocated bytes not requested"),
	TPSTAT_COUNTER_METRIC("pages.order{order}.allocs", "pages_allocs",
			      TPSTAT_METRIC_NONE,
			      "Page allocations of one order"),
	TPSTAT_COUNTER_METRIC("pages.order{order}.frees", "pages_frees",
			      TPSTAT_METRIC_NONE,
			      "Page frees of one order"),
	TPSTAT_COUNTER_METRIC("pages.{migratetype}", "pages_migratetype",
			      TPSTAT_METRIC_NONE,
			      "Page allocations of one migrate type"),
	/* A pairing map's counters (core/pairs.c). */
	TPSTAT_COUNTER_METRIC("live.started", "live_started",
			      TPSTAT_METRIC_NONE,
			      "Starts recorded"),
	TPSTAT_COUNTER_METRIC("live.replaced", "live_replaced",
			      TPSTAT_METRIC_NONE,
			      "Starts that replaced an unended one of the same key"),
	TPSTAT_COUNTER_METRIC("live.paired", "live_paired", TPSTAT_METRIC_NONE,
			      "Ends paired with their start"),
	TPSTAT_COUNTER_METRIC("live.unpaired", "live_unpaired",
			      TPSTAT_METRIC_NONE,
			      "Ends whose start was not seen"),
	TPSTAT_COUNTER_METRIC("live.dropped", "live_dropped",
			      TPSTAT_METRIC_NONE,
			      "Starts lost to a full map"),
	TPSTAT_COUNTER_METRIC("live.expired", "live_expired",
			      TPSTAT_METRIC_NONE,
			      "Allocations evicted from a full map: the oldest, or one from before the attach"
	),
	TPSTAT_GAUGE_METRIC("live.held", "live_held", TPSTAT_METRIC_NONE,
			    "Starts waiting for their end now"),
	TPSTAT_GAUGE_METRIC("live.capacity", "live_capacity",
			    TPSTAT_METRIC_NONE,
			    "Starts the map can hold"),
	TPSTAT_HIST_METRIC("sizes", "sizes_bytes", TPSTAT_METRIC_BYTES,
			   "Sizes slab allocations asked for"),
	TPSTAT_COUNTER_METRIC("site.{site+}.hits", "site_allocs",
			      TPSTAT_METRIC_NONE,
			      "Slab allocations from a call site"),
	TPSTAT_COUNTER_METRIC("site.{site+}.bytes_req", "site_requested_bytes",
			      TPSTAT_METRIC_BYTES,
			      "Bytes a call site asked for"),
	TPSTAT_COUNTER_METRIC("site.{site+}.bytes_alloc",
			      "site_allocated_bytes",
			      TPSTAT_METRIC_BYTES,
			      "Bytes a call site was given"),
	TPSTAT_COUNTER_METRIC("site.{site+}.frees", "site_frees",
			      TPSTAT_METRIC_NONE,
			      "Frees of objects a call site allocated"),
	TPSTAT_GAUGE_METRIC("site.{site+}.outstanding", "site_outstanding",
			    TPSTAT_METRIC_NONE,
			    "Objects of a call site not freed yet"),
	TPSTAT_GAUGE_METRIC("site.{site+}.outstanding_bytes",
			    "site_outstanding_bytes",
			    TPSTAT_METRIC_BYTES,
			    "Bytes of a call site not freed yet"),
	TPSTAT_COUNTER_METRIC("cache.{cache+}.count", "cache_allocs",
			      TPSTAT_METRIC_NONE,
			      "Allocations from a slab cache"),
	TPSTAT_COUNTER_METRIC("cache.{cache+}.sum", "cache_allocated_bytes",
			      TPSTAT_METRIC_BYTES,
			      "Bytes allocated from a slab cache"),
	TPSTAT_COUNTER_METRIC("cache.{cache+}.frees", "cache_frees",
			      TPSTAT_METRIC_NONE,
			      "Frees to a slab cache"),
	TPSTAT_COUNTER_METRIC("comm.{comm+}.count", "comm_page_allocs",
			      TPSTAT_METRIC_NONE,
			      "Page allocations, by command"),
	TPSTAT_COUNTER_METRIC("comm.{comm+}.sum", "comm_pages",
			      TPSTAT_METRIC_NONE,
			      "Pages allocated, by command"),
	/* With stacks=1 (stacks.c). */
	TPSTAT_GAUGE_METRIC("stacks.rows", "stacks_rows", TPSTAT_METRIC_NONE,
			    "Stacks with allocations outstanding"),
	TPSTAT_GAUGE_METRIC("stacks.held", "stacks_held", TPSTAT_METRIC_NONE,
			    "Stacks the table holds, freed or not, until the reset"),
	TPSTAT_GAUGE_METRIC("stacks.capacity", "stacks_capacity",
			    TPSTAT_METRIC_NONE,
			    "Stacks the table can hold (max_stacks)"),
	TPSTAT_COUNTER_METRIC("stacks.no_row", "stacks_no_row",
			      TPSTAT_METRIC_NONE,
			      "Allocations followed whose stack found no row"),
	/* Ranked as in outstanding_stacks: a rank, not one stack. */
	TPSTAT_GAUGE_METRIC("stacks.stack{rank}.outstanding",
			    "ranked_stack_outstanding", TPSTAT_METRIC_NONE,
			    "Allocations outstanding under the stack of this rank"),
	TPSTAT_GAUGE_METRIC("stacks.stack{rank}.outstanding_bytes",
			    "ranked_stack_outstanding_bytes", TPSTAT_METRIC_BYTES,
			    "Bytes outstanding under the stack of this rank"),
	TPSTAT_GAUGE_METRIC("stacks.stack{rank}.oldest",
			    "ranked_stack_oldest_seconds", TPSTAT_METRIC_NS,
			    "Age of the oldest outstanding under the stack of this rank"),
	TPSTAT_GAUGE_METRIC("stacks.no_row.outstanding",
			    "stacks_no_row_outstanding", TPSTAT_METRIC_NONE,
			    "Allocations outstanding whose stack found no row"),
	TPSTAT_GAUGE_METRIC("stacks.no_row.outstanding_bytes",
			    "stacks_no_row_outstanding_bytes", TPSTAT_METRIC_BYTES,
			    "Bytes outstanding whose stack found no row"),
	TPSTAT_GAUGE_METRIC("stacks.reset.outstanding",
			    "stacks_reset_outstanding", TPSTAT_METRIC_NONE,
			    "Allocations outstanding whose stack's row a reset dropped"),
	TPSTAT_GAUGE_METRIC("stacks.reset.outstanding_bytes",
			    "stacks_reset_outstanding_bytes", TPSTAT_METRIC_BYTES,
			    "Bytes outstanding whose stack's row a reset dropped"),
};

static struct tpstat_set tpstat_kmem_set = {
	.name = "kmem",
	TPSTAT_PROBES(TPSTAT_PROBE(kmalloc, tpstat_kmem_kmalloc),
		      TPSTAT_PROBE(kmem_cache_alloc, tpstat_kmem_cache_alloc),
		      TPSTAT_PROBE(kfree, tpstat_kmem_kfree),
		      TPSTAT_PROBE(kmem_cache_free, tpstat_kmem_cache_free),
		      TPSTAT_PROBE(mm_page_alloc, tpstat_kmem_page_alloc),
		      TPSTAT_PROBE(mm_page_free, tpstat_kmem_page_free),
		      TPSTAT_PROBE(mm_page_alloc_extfrag, tpstat_kmem_extfrag)),
	TPSTAT_FILES({ .name = "summary", .show = tpstat_kmem_summary_show },
		     { .name = "callsites", .show = tpstat_kmem_callsites_show },
		     { .name = "caches", .show = tpstat_kmem_caches_show },
		     { .name = "sizes", .show = tpstat_kmem_sizes_show },
		     { .name = "outstanding", .show = tpstat_kmem_outstanding_show },
		     { .name = "pages", .show = tpstat_kmem_pages_show },
		     { .name = "outstanding_stacks",
		       .show = tpstat_kmem_stacks_show },
		     /* No header: folded stacks have no comments. */
		     { .name = "outstanding_folded",
		       .show = tpstat_kmem_stacks_folded_show,
		       .no_header = true }),
	TPSTAT_DATA(&tpstat_kmem_events.data,
		    &tpstat_kmem_allocated.data,
		    &tpstat_kmem_sizes.data,
		    &tpstat_kmem_sites.data,
		    &tpstat_kmem_caches.data,
		    &tpstat_kmem_live.data,
		    &tpstat_kmem_page_allocs.data,
		    &tpstat_kmem_page_frees.data,
		    &tpstat_kmem_page_types.data,
		    &tpstat_kmem_page_comms.data,
		    &tpstat_kmem_stacks.data),
	.stats = tpstat_kmem_stats,
	.metrics = tpstat_kmem_metrics,
	.nr_metrics = ARRAY_SIZE(tpstat_kmem_metrics),
};

static int __init tpstat_kmem_load(void)
{
	if (!max_sites || max_sites > TPSTAT_KMEM_MAX_KEYS ||
	    !max_caches || max_caches > TPSTAT_KMEM_MAX_KEYS ||
	    !max_outstanding || max_outstanding > TPSTAT_PAIRS_MAX) {
		pr_err("tpstat_kmem: max_sites and max_caches must be 1 to %u, max_outstanding 1 to %u\n",
		       TPSTAT_KMEM_MAX_KEYS, TPSTAT_PAIRS_MAX);
		return -EINVAL;
	}
	if (!stack_depth || stack_depth > TPSTAT_STACK_MAX_DEPTH ||
	    !max_stacks || max_stacks > TPSTAT_STACKS_MAX) {
		pr_err("tpstat_kmem: stack_depth must be 1 to %d, max_stacks 1 to %d\n",
		       TPSTAT_STACK_MAX_DEPTH, TPSTAT_STACKS_MAX);
		return -EINVAL;
	}
	tpstat_kmem_sites.capacity = max_sites;
	tpstat_kmem_caches.capacity = max_caches;
	tpstat_kmem_live.capacity = max_outstanding;
	tpstat_kmem_stacks.depth = stack_depth;
	tpstat_kmem_stacks.capacity = max_stacks;
	if (stacks)
		static_branch_enable(&tpstat_kmem_by_stack);
	/* Without stacks, no storage for them and no files of them. */
	if (!stacks) {
		tpstat_kmem_set.nr_data--;
		tpstat_kmem_set.nr_files -= TPSTAT_KMEM_STACK_FILES;
	}
	return tpstat_set_register(&tpstat_kmem_set);
}

static void __exit tpstat_kmem_unload(void)
{
	tpstat_set_unregister(&tpstat_kmem_set);
}

module_init(tpstat_kmem_load);
module_exit(tpstat_kmem_unload);

MODULE_DESCRIPTION("tpstat: slab call sites, caches, sizes, outstanding allocations, pages");
MODULE_LICENSE("GPL");

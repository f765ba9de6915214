// SPDX-License-Identifier: GPL-2.0
/*
 * tpstat_kmem.ko: slab allocations by call site, cache and size, the
 * allocations not yet freed, and the page allocator, from cat:
 *
 *   insmod tpstat_kmem.ko [max_sites=256] [max_caches=64] [max_outstanding=8192]
 *   cat /sys/kernel/debug/tpstat/kmem/{summary,callsites,caches,sizes}
 *   cat /sys/kernel/debug/tpstat/kmem/{outstanding,pages,stats}
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

static struct tpstat_probe tpstat_kmem_probes[] = {
	TPSTAT_PROBE(kmalloc, tpstat_kmem_kmalloc),
	TPSTAT_PROBE(kmem_cache_alloc, tpstat_kmem_cache_alloc),
	TPSTAT_PROBE(kfree, tpstat_kmem_kfree),
	TPSTAT_PROBE(kmem_cache_free, tpstat_kmem_cache_free),
	TPSTAT_PROBE(mm_page_alloc, tpstat_kmem_page_alloc),
	TPSTAT_PROBE(mm_page_free, tpstat_kmem_page_free),
	TPSTAT_PROBE(mm_page_alloc_extfrag, tpstat_kmem_extfrag),
};

static const struct tpstat_file tpstat_kmem_files[] = {
	{ .name = "summary", .show = tpstat_kmem_summary_show },
	{ .name = "callsites", .show = tpstat_kmem_callsites_show },
	{ .name = "caches", .show = tpstat_kmem_caches_show },
	{ .name = "sizes", .show = tpstat_kmem_sizes_show },
	{ .name = "outstanding", .show = tpstat_kmem_outstanding_show },
	{ .name = "pages", .show = tpstat_kmem_pages_show },
};

static struct tpstat_data *const tpstat_kmem_data[] = {
	&tpstat_kmem_events.data,
	&tpstat_kmem_allocated.data,
	&tpstat_kmem_sizes.data,
	&tpstat_kmem_sites.data,
	&tpstat_kmem_caches.data,
	&tpstat_kmem_live.data,
	&tpstat_kmem_page_allocs.data,
	&tpstat_kmem_page_frees.data,
	&tpstat_kmem_page_types.data,
	&tpstat_kmem_page_comms.data,
};

static struct tpstat_set tpstat_kmem_set = {
	.name = "kmem",
	.probes = tpstat_kmem_probes,
	.nr_probes = ARRAY_SIZE(tpstat_kmem_probes),
	.files = tpstat_kmem_files,
	.nr_files = ARRAY_SIZE(tpstat_kmem_files),
	.data = tpstat_kmem_data,
	.nr_data = ARRAY_SIZE(tpstat_kmem_data),
	.stats = tpstat_kmem_stats,
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
	tpstat_kmem_sites.capacity = max_sites;
	tpstat_kmem_caches.capacity = max_caches;
	tpstat_kmem_live.capacity = max_outstanding;
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

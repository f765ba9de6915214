// SPDX-License-Identifier: GPL-2.0
/*
 * The page allocator's probes: allocations and frees by order, allocations
 * by migrate type and by command, failures, and fallbacks to another
 * migrate type's pageblocks (external fragmentation).
 */
#include <linux/sched.h>

#include "kmem.h"

struct tpstat_counter tpstat_kmem_page_allocs = TPSTAT_COUNTERS(KMEM_ORDERS);
struct tpstat_counter tpstat_kmem_page_frees = TPSTAT_COUNTERS(KMEM_ORDERS);
struct tpstat_counter tpstat_kmem_page_types = TPSTAT_COUNTERS(MIGRATE_TYPES);
struct tpstat_keyed tpstat_kmem_page_comms = TPSTAT_KEYED(64, "pages", 0);

/* The kernel's own table of these names is not exported. */
const char *const tpstat_kmem_migratetypes[MIGRATE_TYPES] = {
	[MIGRATE_UNMOVABLE] = "unmovable",
	[MIGRATE_MOVABLE] = "movable",
	[MIGRATE_RECLAIMABLE] = "reclaimable",
	[MIGRATE_HIGHATOMIC] = "highatomic",
#ifdef CONFIG_CMA
	[MIGRATE_CMA] = "cma",
#endif
#ifdef CONFIG_MEMORY_ISOLATION
	[MIGRATE_ISOLATE] = "isolate",
#endif
};

static unsigned int kmem_order_row(unsigned int order)
{
	return min_t(unsigned int, order, KMEM_ORDERS - 1);
}

void tpstat_kmem_page_alloc(void *data, struct page *page, unsigned int order,
			    gfp_t gfp_flags, int migratetype)
{
	struct tpstat_key comm;

	tpstat_probe_hit(data);
	if (!page) {
		tpstat_counter_inc_at(&tpstat_kmem_events, KMEM_PAGE_FAILED);
		return;
	}
	tpstat_counter_inc_at(&tpstat_kmem_events, KMEM_PAGE_ALLOC);
	tpstat_counter_inc_at(&tpstat_kmem_page_allocs, kmem_order_row(order));
	if (migratetype >= 0 && migratetype < MIGRATE_TYPES)
		tpstat_counter_inc_at(&tpstat_kmem_page_types, migratetype);
	comm = tpstat_key_comm(current->comm);
	tpstat_keyed_add_key(&tpstat_kmem_page_comms, &comm, 1UL << order,
			     "%.*s", TASK_COMM_LEN, current->comm);
}

void tpstat_kmem_page_free(void *data, struct page *page, unsigned int order)
{
	tpstat_probe_hit(data);
	tpstat_counter_inc_at(&tpstat_kmem_events, KMEM_PAGE_FREE);
	tpstat_counter_inc_at(&tpstat_kmem_page_frees, kmem_order_row(order));
}

void tpstat_kmem_extfrag(void *data, struct page *page, int alloc_order,
			 int fallback_order, int alloc_migratetype,
			 int fallback_migratetype)
{
	tpstat_probe_hit(data);
	tpstat_counter_inc_at(&tpstat_kmem_events, KMEM_EXTFRAG);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * What the aggregation data holds, by kind, for the memory file. All of it
 * is allocated at load (or when a probe is added), never in a probe. Each
 * kind counts what its allocator gave, not what it asked for: the kernel's
 * own accounting (/proc/meminfo's Slab, VmallocUsed and Percpu) grows by
 * that: a kmalloc() of 33 KiB takes 64, a vmalloc() of it 36. Then the
 * same by set, each under its path: "set.kmem", "set.stack/kmalloc".
 */
#include <linux/atomic.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "internal.h"

static atomic64_t tpstat_memory[TPSTAT_MEM_KINDS];

static const char *const tpstat_memory_names[TPSTAT_MEM_KINDS] = {
	[TPSTAT_MEM_COUNTERS] = "counters",
	[TPSTAT_MEM_HISTOGRAMS] = "histograms",
	[TPSTAT_MEM_TABLES] = "tables",
	[TPSTAT_MEM_SCRATCH] = "scratch",
};

/*
 * What tpstat_kvmalloc() gave for @size bytes at @p: a kmalloc size class,
 * or above the largest class a power of two of whole pages (both in Slab);
 * or vmalloc's whole pages (in VmallocUsed). Asked of the
 * allocator's rounding, not of ksize(), which on 6.1 also unpoisons the
 * rest of the object for KASAN and would hide an overrun into it.
 */
size_t tpstat_kv_bytes(const void *p, size_t size)
{
	if (!p)
		return 0;
	if (is_vmalloc_addr(p))
		return PAGE_ALIGN(size);
	return kmalloc_size_roundup(size);
}

/*
 * kvmalloc() of @n elements of @size bytes, but from vmalloc's whole pages
 * wherever kmalloc would give a page or more beyond them: above its largest
 * size class it rounds up to a power of two of pages, so a table of 640 KiB
 * would take 1 MiB. Only a table in one piece of a power of two of pages,
 * or of a page or less, still comes from kmalloc: the whole of it is used.
 * @gfp may hold __GFP_ZERO.
 */
void *tpstat_kvmalloc(size_t n, size_t size, gfp_t gfp)
{
	size_t bytes;

	if (check_mul_overflow(n, size, &bytes) || bytes > INT_MAX)
		return NULL;
	if (PAGE_ALIGN(bytes) < kmalloc_size_roundup(bytes))
		return __vmalloc(bytes, gfp);
	return kvmalloc(bytes, gfp);
}

void tpstat_memory_account(struct tpstat_set *set, enum tpstat_mem_kind kind,
			   s64 bytes)
{
	atomic64_add(bytes, &tpstat_memory[kind]);
	atomic64_add(bytes, &set->memory);
}

int tpstat_memory_show(struct seq_file *m, void *unused)
{
	struct tpstat_set *set;
	s64 total = 0;
	int kind;

	seq_puts(m, "# bytes of aggregation data, as the allocators gave them\n");
	for (kind = 0; kind < TPSTAT_MEM_KINDS; kind++) {
		s64 bytes = atomic64_read(&tpstat_memory[kind]);

		seq_printf(m, "%s %lld\n", tpstat_memory_names[kind], bytes);
		total += bytes;
	}
	seq_printf(m, "total %lld\n", total);
	mutex_lock(&tpstat_mutex);
	list_for_each_entry(set, &tpstat_sets, node)
		seq_printf(m, "set.%s %lld\n", set->path,
			   atomic64_read(&set->memory));
	mutex_unlock(&tpstat_mutex);
	return 0;
}

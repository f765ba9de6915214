/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every aggregation primitive (counter, histogram, table, keyed data,
 * worst case) shares: its storage comes in generations, so that a reset
 * never stops the probes.
 *
 * A probe reads the live generation's pointer once and updates what it
 * points to. A reset allocates a new, empty generation, publishes it, waits
 * until no probe can still hold the old pointer, then frees the old one.
 * The probe pays nothing for this: it loads the same one pointer it would
 * load anyway. Between resets only the live generation exists.
 */
#ifndef _TPSTAT_DATA_H
#define _TPSTAT_DATA_H

#include <asm/barrier.h>
#include <linux/list.h>
#include <linux/types.h>

/* What the memory file calls each primitive's storage. */
enum tpstat_mem_kind {
	TPSTAT_MEM_COUNTERS,
	TPSTAT_MEM_HISTOGRAMS,
	TPSTAT_MEM_TABLES,
	TPSTAT_MEM_SCRATCH,
	TPSTAT_MEM_KINDS
};

struct tpstat_data;
struct tpstat_probe;
struct tpstat_set;

/**
 * struct tpstat_data_ops - how the core handles one kind of primitive
 * @kind: where the memory file counts it
 * @check: optional; validates the author's configuration before any
 *         allocation, returning 0 or -EINVAL with one pr_err line
 * @setup: optional; allocates what outlives generations, before the
 *         first; 0 or -ENOMEM
 * @teardown: optional; frees what @setup allocated (it may have failed),
 *            after the last generation
 * @shared_bytes: optional; bytes @setup allocated, as its allocator gave
 *                them (rounded to its size class, page or unit, for every
 *                possible CPU)
 * @alloc: allocate generation @gen; 0 or -ENOMEM
 * @free: free generation @gen (it may be only partly allocated, or not
 *        at all)
 * @clear: empty generation @gen, which no probe can be using yet
 * @publish: make generation @gen the one probes update
 * @bytes: bytes the live generation holds, as its allocator gave them
 * @probe: optional; a probe of the core's that the data needs attached
 *         with the set's own (a task table's release of freed tasks),
 *         made by @setup
 *
 * A kind with nothing to reset (per-CPU scratch state) has no generations
 * and leaves the last five NULL.
 */
struct tpstat_data_ops {
	enum tpstat_mem_kind kind;
	int (*check)(const struct tpstat_data *d, const char *set);
	int (*setup)(struct tpstat_data *d);
	void (*teardown)(struct tpstat_data *d);
	size_t (*shared_bytes)(const struct tpstat_data *d);
	int (*alloc)(struct tpstat_data *d, unsigned int gen);
	void (*free)(struct tpstat_data *d, unsigned int gen);
	void (*clear)(struct tpstat_data *d, unsigned int gen);
	void (*publish)(struct tpstat_data *d, unsigned int gen);
	size_t (*bytes)(const struct tpstat_data *d);
	struct tpstat_probe *(*probe)(struct tpstat_data *d);
};

/**
 * struct tpstat_data - the part of every primitive the core handles
 * @ops: the primitive's kind, filled in by its TPSTAT_...() initializer
 * @node: private: in its set's list of data
 * @set: private: the set it belongs to
 * @ready: private: the live generation is allocated
 * @bytes: private: what the memory file counts for it now
 */
struct tpstat_data {
	const struct tpstat_data_ops *ops;
	/* private: */
	struct list_head node;
	struct tpstat_set *set;
	bool ready;
	size_t bytes;
};

/* The live generation and, during a reset, the one replacing it. */
#define TPSTAT_GENERATIONS	2

/*
 * Makes @gen the generation probes update, in a primitive's publish op:
 * the release orders what its clear wrote before the pointer to it.
 */
#define tpstat_data_publish(live, gen)	smp_store_release(&(live), (gen))

#endif /* _TPSTAT_DATA_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * The outstanding allocations by stack (stacks=1), memleak's default view:
 * each allocation followed waits in the pairing map with its stack's
 * handle until it is freed, and a read walks the map and groups what it
 * holds by stack: how many, their bytes (as requested) and the oldest's
 * age. Grouped when read, nothing is added or taken at a free: a freed
 * allocation has left the map, so the counts are exact however frees and
 * allocations interleave. An allocation followed whose stack found no row
 * (the table full), or whose row a reset dropped, is counted apart, never
 * lost; those the map could not follow are the outstanding file's.
 */
#include <linux/mm.h>
#include <linux/sort.h>

#include "kmem.h"

/* Allocations outstanding under one stack, or under none. */
struct kmem_held {
	u64 count;
	u64 bytes;
	u64 oldest_ms;
};

/* A row of the stack storage and what is outstanding under it. */
struct kmem_stack_held {
	const struct tpstat_stack_row *row;
	struct kmem_held held;
};

/* A read: every row with allocations outstanding, most bytes first. */
struct kmem_stacks {
	struct tpstat_stack_row *rows;	/* the storage's, "other" last */
	struct kmem_stack_held *held;
	unsigned int nr;		/* in @held */
	unsigned int stored;		/* rows, freed or not */
	struct kmem_held no_row;	/* stacks that found no row */
	struct kmem_held reset;		/* rows a reset dropped */
	u64 no_row_since_reset;		/* allocations whose stack had none */
};

/* The map walk: by row id, [capacity] those with no row. */
struct kmem_stacks_walk {
	struct kmem_held *by_id;
	struct kmem_held *reset;
	u32 seq;
	unsigned long now;
};

static void kmem_held_add(struct kmem_held *h, const struct tpstat_pair *start,
			  unsigned long now)
{
	h->count++;
	h->bytes += kmem_live_bytes(start->ts);
	h->oldest_ms = max_t(u64, h->oldest_ms,
			     kmem_live_age_ms(start->ts, now));
}

static void kmem_stacks_visit(void *arg, u64 key, const struct tpstat_pair *start)
{
	struct kmem_stacks_walk *w = arg;
	u32 id = min_t(u32, (u32)start->b, tpstat_kmem_stacks.capacity);

	if (start->b >> 32 != w->seq)
		kmem_held_add(w->reset, start, w->now);
	else
		kmem_held_add(&w->by_id[id], start, w->now);
}

/* Most bytes first, then most allocations, then the oldest. */
static int kmem_stack_held_cmp(const void *a, const void *b)
{
	const struct kmem_held *x = &((const struct kmem_stack_held *)a)->held;
	const struct kmem_held *y = &((const struct kmem_stack_held *)b)->held;

	if (x->bytes != y->bytes)
		return x->bytes > y->bytes ? -1 : 1;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	if (x->oldest_ms != y->oldest_ms)
		return x->oldest_ms > y->oldest_ms ? -1 : 1;
	return 0;
}

/*
 * The map is walked before the rows are read: a handle of this generation
 * was held, its row stored, before its allocation entered the map, so
 * every row the walk meets is among them. A show or stats callback runs
 * where no reset can, so the generation stays meanwhile.
 */
static int kmem_stacks_gather(struct kmem_stacks *k)
{
	unsigned int cap = tpstat_kmem_stacks.capacity, i, nr;
	struct kmem_stacks_walk w = { .reset = &k->reset };

	*k = (struct kmem_stacks){ };
	w.by_id = kvcalloc(cap + 1, sizeof(*w.by_id), GFP_KERNEL);
	if (!w.by_id)
		return -ENOMEM;
	w.seq = tpstat_stacks_generation(&tpstat_kmem_stacks);
	w.now = jiffies;
	tpstat_pairs_for_each(&tpstat_kmem_live, kmem_stacks_visit, &w);
	k->rows = tpstat_stacks_rows(&tpstat_kmem_stacks, &nr);
	if (k->rows)
		k->held = kvmalloc_array(nr + 1, sizeof(*k->held), GFP_KERNEL);
	if (!k->held) {
		kvfree(k->rows);
		kvfree(w.by_id);
		return -ENOMEM;
	}
	for (i = 0; i < nr; i++) {
		struct kmem_held *h = &w.by_id[(u32)k->rows[i].handle];

		if (h->count)
			k->held[k->nr++] = (struct kmem_stack_held){
				.row = &k->rows[i], .held = *h };
	}
	k->stored = nr;
	k->no_row = w.by_id[cap];
	k->no_row_since_reset = k->rows[nr].count;
	kvfree(w.by_id);
	sort(k->held, k->nr, sizeof(*k->held), kmem_stack_held_cmp, NULL);
	return 0;
}

static void kmem_stacks_release(struct kmem_stacks *k)
{
	kvfree(k->held);
	kvfree(k->rows);
}

static void kmem_held_print(struct seq_file *m, const struct kmem_held *h)
{
	seq_printf(m, "%llu allocations, %llu bytes, oldest %llu ms", h->count,
		   h->bytes, h->oldest_ms);
}

/*
 * As memleak prints them, and as the stack set does its rows: each stack's
 * frames, innermost first, then its allocations outstanding; then those
 * whose stack could not be kept.
 */
int tpstat_kmem_stacks_show(struct seq_file *m, struct tpstat_set *set)
{
	struct kmem_held all = { };
	struct kmem_stacks k;
	unsigned int i;
	int err;

	err = kmem_stacks_gather(&k);
	if (err)
		return err;
	for (i = 0; i < k.nr; i++) {
		all.count += k.held[i].held.count;
		all.bytes += k.held[i].held.bytes;
	}
	seq_printf(m, "outstanding allocations by stack: %u stacks, ", k.nr);
	seq_printf(m, "%llu allocations, %llu bytes\n", all.count, all.bytes);
	for (i = 0; i < k.nr; i++) {
		seq_putc(m, '\n');
		tpstat_stacks_print_frames(m, k.held[i].row, "    ");
		seq_puts(m, "        ");
		kmem_held_print(m, &k.held[i].held);
		seq_putc(m, '\n');
	}
	seq_puts(m, "\nno row: ");
	kmem_held_print(m, &k.no_row);
	seq_printf(m, ", whose stack did not fit (max_stacks=%u, %u held; %llu allocations since the reset)\n",
		   tpstat_kmem_stacks.capacity, k.stored, k.no_row_since_reset);
	seq_puts(m, "reset: ");
	kmem_held_print(m, &k.reset);
	seq_puts(m, ", whose stack's row a reset dropped\n");
	seq_printf(m, "not followed: %llu allocations, max_outstanding %u (outstanding has the map's counts)\n",
		   tpstat_pairs_stat(&tpstat_kmem_live, TPSTAT_PAIRS_DROPPED),
		   tpstat_kmem_live.capacity);
	kmem_stacks_release(&k);
	return 0;
}

/*
 * The same rows as folded stacks, for flame graphs (tpstat flame):
 * "outermost;...;leaf BYTES", frames named without their offsets, as the
 * stack set's folded file; then the bytes outstanding under no row as
 * "[other] BYTES", so that the lines add up to every byte outstanding
 * that the map follows. Bytes, not allocations: a frame is as wide as the
 * memory held under it.
 */
int tpstat_kmem_stacks_folded_show(struct seq_file *m, struct tpstat_set *set)
{
	struct kmem_stacks k;
	unsigned int i;
	int err;

	err = kmem_stacks_gather(&k);
	if (err)
		return err;
	for (i = 0; i < k.nr; i++) {
		tpstat_stacks_print_folded(m, k.held[i].row, false);
		seq_printf(m, " %llu\n", k.held[i].held.bytes);
	}
	seq_printf(m, "[other] %llu\n", k.no_row.bytes + k.reset.bytes);
	kmem_stacks_release(&k);
	return 0;
}

static void kmem_held_stats(struct seq_file *m, const char *what,
			    const struct kmem_held *h)
{
	seq_printf(m, "stacks.%s.outstanding %llu\nstacks.%s.outstanding_bytes %llu\n",
		   what, h->count, what, h->bytes);
}

/*
 * "stacks.rows N" (stacks with allocations outstanding), the stacks held
 * (a row stays until the reset, its allocations freed or not) and their
 * capacity, the allocations since the reset whose stack found no row;
 * then each stack's
 * outstanding allocations, bytes and oldest age (ns), by its rank in
 * outstanding_stacks, from 1; and those under no row, by why.
 */
int tpstat_kmem_stacks_stats(struct seq_file *m)
{
	char what[32];
	struct kmem_stacks k;
	unsigned int i;
	int err;

	err = kmem_stacks_gather(&k);
	if (err)
		return err;
	seq_printf(m, "stacks.rows %u\nstacks.held %u\nstacks.capacity %u\n",
		   k.nr, k.stored, tpstat_kmem_stacks.capacity);
	seq_printf(m, "stacks.no_row %llu\n", k.no_row_since_reset);
	for (i = 0; i < k.nr; i++) {
		snprintf(what, sizeof(what), "stack%u", i + 1);
		kmem_held_stats(m, what, &k.held[i].held);
		seq_printf(m, "stacks.%s.oldest %llu\n", what,
			   k.held[i].held.oldest_ms * NSEC_PER_MSEC);
	}
	kmem_held_stats(m, "no_row", &k.no_row);
	kmem_held_stats(m, "reset", &k.reset);
	kmem_stacks_release(&k);
	return 0;
}

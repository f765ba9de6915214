// SPDX-License-Identifier: GPL-2.0
/*
 * Pairing maps: open addressing with linear probing over a window of
 * TPSTAT_PAIRS_WINDOW slots from a key's home, shared by all CPUs.
 *
 * Each slot has a state. A CPU makes a slot busy with a cmpxchg before it
 * writes or takes it, and with interrupts off, so a busy slot is always
 * being finished by another CPU within a few dozen instructions: whoever
 * meets one waits for it. NMIs never touch the map (their starts count as
 * dropped, their ends as unpaired), so they cannot interrupt a holder and
 * then wait for it. An ended start leaves a tombstone that later starts
 * reuse, unless the slot after it is free, when it is free again; the
 * bounded window keeps a lookup bounded however many tombstones there are.
 */
#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/seq_file.h>

#include "internal.h"

/* Slots from a key's home that may hold it. */
#define TPSTAT_PAIRS_WINDOW	32

enum tpstat_pairs_state {
	TPSTAT_SLOT_FREE,	/* never used: no key lies beyond it */
	TPSTAT_SLOT_BUSY,	/* a CPU is writing or taking it */
	TPSTAT_SLOT_FULL,	/* holds a start */
	TPSTAT_SLOT_GONE,	/* held one, taken since: look further */
};

struct tpstat_pairs_slot {
	atomic_t state;
	unsigned int epoch;	/* of the set, when the start was saved */
	u64 key;
	struct tpstat_pair start;
};

static struct tpstat_pairs *to_pairs(struct tpstat_data *d)
{
	return container_of(d, struct tpstat_pairs, data);
}

static size_t tpstat_pairs_nr_slots(const struct tpstat_pairs *p)
{
	return (size_t)p->mask + 1;
}

static int tpstat_pairs_check(const struct tpstat_data *d, const char *set)
{
	const struct tpstat_pairs *p = container_of(d, struct tpstat_pairs, data);

	if (p->capacity && p->capacity <= TPSTAT_PAIRS_MAX)
		return 0;
	pr_err("tpstat: %s: a pairing map holds 1 to %u starts, not %u\n", set,
	       TPSTAT_PAIRS_MAX, p->capacity);
	return -EINVAL;
}

/* The map outlives generations; the counts are a counter array in them. */
static int tpstat_pairs_setup(struct tpstat_data *d)
{
	struct tpstat_pairs *p = to_pairs(d);

	p->mask = roundup_pow_of_two(2 * p->capacity) - 1;
	p->bits = ilog2(p->mask + 1);
	atomic_set(&p->used, 0);
	p->slots = kvcalloc(tpstat_pairs_nr_slots(p), sizeof(*p->slots),
			    GFP_KERNEL);
	return p->slots ? 0 : -ENOMEM;
}

static void tpstat_pairs_teardown(struct tpstat_data *d)
{
	struct tpstat_pairs *p = to_pairs(d);

	kvfree(p->slots);
	p->slots = NULL;
}

TPSTAT_STATS_GEN_OPS(tpstat_pairs, tpstat_pairs);

static size_t tpstat_pairs_shared_bytes(const struct tpstat_data *d)
{
	const struct tpstat_pairs *p = container_of(d, struct tpstat_pairs, data);

	return tpstat_pairs_nr_slots(p) * sizeof(struct tpstat_pairs_slot);
}

const struct tpstat_data_ops tpstat_pairs_ops = {
	.kind = TPSTAT_MEM_TABLES,
	.check = tpstat_pairs_check,
	.setup = tpstat_pairs_setup,
	.teardown = tpstat_pairs_teardown,
	.shared_bytes = tpstat_pairs_shared_bytes,
	.alloc = tpstat_pairs_alloc,
	.free = tpstat_pairs_free,
	.clear = tpstat_pairs_clear,
	.publish = tpstat_pairs_publish,
	.bytes = tpstat_pairs_bytes,
};
EXPORT_SYMBOL_GPL(tpstat_pairs_ops);

static void tpstat_pairs_count(struct tpstat_pairs *p, enum tpstat_pairs_stat stat)
{
	tpstat_counter_inc_at(&p->stats, stat);
}

/* A slot's state once no other CPU holds it busy; interrupts are off. */
static int tpstat_pairs_settled(struct tpstat_pairs_slot *s)
{
	int state;

	while ((state = atomic_read_acquire(&s->state)) == TPSTAT_SLOT_BUSY)
		cpu_relax();
	return state;
}

/* Makes @s busy if it is still in @state. */
static bool tpstat_pairs_hold(struct tpstat_pairs_slot *s, int state)
{
	return atomic_cmpxchg_acquire(&s->state, state, TPSTAT_SLOT_BUSY) == state;
}

static void tpstat_pairs_release(struct tpstat_pairs_slot *s, int state)
{
	atomic_set_release(&s->state, state);
}

static bool tpstat_pairs_expired(const struct tpstat_pairs *p,
				 const struct tpstat_pairs_slot *s, u64 now)
{
	return p->max_age && now > s->start.ts && now - s->start.ts > p->max_age;
}

/* How far from slot @home a lookup meets @s. */
static unsigned int tpstat_pairs_distance(const struct tpstat_pairs *p,
					  unsigned int home,
					  const struct tpstat_pairs_slot *s)
{
	return ((unsigned int)(s - p->slots) - home) & p->mask;
}

/*
 * Takes the start in held slot @s out. If the next slot is free, no key
 * lies beyond @s either, and @s is free again; it is held meanwhile, so
 * that no start can be saved there behind a free slot. Else @s becomes a
 * tombstone, for lookups to pass.
 */
static void tpstat_pairs_vacate(struct tpstat_pairs *p,
				struct tpstat_pairs_slot *s)
{
	struct tpstat_pairs_slot *next;

	next = &p->slots[((unsigned int)(s - p->slots) + 1) & p->mask];
	TPSTAT_RACE_POINT();
	if (tpstat_pairs_hold(next, TPSTAT_SLOT_FREE)) {
		TPSTAT_RACE_POINT();
		tpstat_pairs_release(s, TPSTAT_SLOT_FREE);
		TPSTAT_RACE_POINT();
		tpstat_pairs_release(next, TPSTAT_SLOT_FREE);
	} else {
		tpstat_pairs_release(s, TPSTAT_SLOT_GONE);
	}
	atomic_dec(&p->used);
}

/*
 * Holds the slot of @key, FULL with its start, or with @claim an empty one
 * for it (*@state says which). A full map makes room by evicting the
 * oldest expired start in the window: in its own slot if no empty slot
 * comes before it from @key's home (a lookup stops at the first FREE
 * slot), else it leaves a tombstone and the first empty slot is taken.
 * NULL if no slot could be had.
 */
static __always_inline struct tpstat_pairs_slot *
tpstat_pairs_find(struct tpstat_pairs *p, u64 key, bool claim, u64 now,
		  int *state)
{
	unsigned int window = min_t(size_t, TPSTAT_PAIRS_WINDOW,
				    tpstat_pairs_nr_slots(p));
	unsigned int home = hash_64(key, p->bits), n;
	struct tpstat_pairs_slot *empty = NULL, *old = NULL;
	int empty_state = TPSTAT_SLOT_FREE;

	for (n = 0; n < window; n++) {
		struct tpstat_pairs_slot *s = &p->slots[(home + n) & p->mask];
		int st = tpstat_pairs_settled(s);

		TPSTAT_RACE_POINT();

		if (st == TPSTAT_SLOT_FULL && READ_ONCE(s->key) == key) {
			if (!tpstat_pairs_hold(s, st)) {
				n--;	/* changed meanwhile: look again */
				continue;
			}
			if (s->key == key) {
				*state = st;
				return s;
			}
			tpstat_pairs_release(s, st);
			continue;
		}
		if (!claim) {
			if (st == TPSTAT_SLOT_FREE)
				break;
			continue;
		}
		if (st != TPSTAT_SLOT_FULL && !empty) {
			empty = s;
			empty_state = st;
		} else if (st == TPSTAT_SLOT_FULL && tpstat_pairs_expired(p, s, now) &&
			   (!old || s->start.ts < old->start.ts)) {
			old = s;
		}
		/* No key lies beyond; when full, look on for an expired start. */
		if (st == TPSTAT_SLOT_FREE && atomic_read(&p->used) < p->capacity)
			break;
	}
	if (!claim)
		return NULL;
	TPSTAT_RACE_POINT();
	if (atomic_read(&p->used) >= p->capacity) {
		if (!old || !tpstat_pairs_hold(old, TPSTAT_SLOT_FULL))
			return NULL;
		tpstat_pairs_count(p, TPSTAT_PAIRS_EXPIRED);
		if (!empty || tpstat_pairs_distance(p, home, old) <
			      tpstat_pairs_distance(p, home, empty)) {
			*state = TPSTAT_SLOT_FULL;
			return old;
		}
		tpstat_pairs_vacate(p, old);
	}
	if (empty && tpstat_pairs_hold(empty, empty_state)) {
		*state = empty_state;
		return empty;
	}
	return NULL;
}

bool tpstat_pairs_start(struct tpstat_pairs *p, u64 key,
			const struct tpstat_pair *start)
{
	struct tpstat_pairs_slot *s;
	unsigned long flags;
	int state;

	if (in_nmi()) {
		tpstat_pairs_count(p, TPSTAT_PAIRS_DROPPED);
		return false;
	}
	local_irq_save(flags);
	s = tpstat_pairs_find(p, key, true, start->ts, &state);
	/* Another CPU took the empty slot first: look again, once. */
	if (!s)
		s = tpstat_pairs_find(p, key, true, start->ts, &state);
	if (!s) {
		tpstat_pairs_count(p, TPSTAT_PAIRS_DROPPED);
		local_irq_restore(flags);
		return false;
	}
	TPSTAT_RACE_POINT();
	if (state != TPSTAT_SLOT_FULL)
		atomic_inc(&p->used);
	else if (s->key == key)
		tpstat_pairs_count(p, TPSTAT_PAIRS_REPLACED);
	s->key = key;
	s->start = *start;
	s->epoch = READ_ONCE(p->data.set->epoch);
	tpstat_pairs_release(s, TPSTAT_SLOT_FULL);
	tpstat_pairs_count(p, TPSTAT_PAIRS_STARTED);
	local_irq_restore(flags);
	return true;
}
EXPORT_SYMBOL_GPL(tpstat_pairs_start);

/* Takes @key's start into @start; false if there is none. */
static bool tpstat_pairs_take(struct tpstat_pairs *p, u64 key,
			      struct tpstat_pair *start, unsigned int *epoch)
{
	struct tpstat_pairs_slot *s;
	unsigned long flags;
	int state;

	local_irq_save(flags);
	s = tpstat_pairs_find(p, key, false, 0, &state);
	if (s) {
		*start = s->start;
		*epoch = s->epoch;
		tpstat_pairs_vacate(p, s);
	}
	local_irq_restore(flags);
	return s;
}

bool tpstat_pairs_end(struct tpstat_pairs *p, u64 key, struct tpstat_pair *start)
{
	unsigned int epoch;

	if (!in_nmi() && tpstat_pairs_take(p, key, start, &epoch) &&
	    epoch == READ_ONCE(p->data.set->epoch)) {
		tpstat_pairs_count(p, TPSTAT_PAIRS_PAIRED);
		return true;
	}
	tpstat_pairs_count(p, TPSTAT_PAIRS_UNPAIRED);
	return false;
}
EXPORT_SYMBOL_GPL(tpstat_pairs_end);

void tpstat_pairs_forget(struct tpstat_pairs *p, u64 key)
{
	struct tpstat_pair start;
	unsigned int epoch;

	if (!in_nmi())
		tpstat_pairs_take(p, key, &start, &epoch);
}
EXPORT_SYMBOL_GPL(tpstat_pairs_forget);

unsigned int tpstat_pairs_for_each(struct tpstat_pairs *p,
				   tpstat_pairs_visit_t visit, void *arg)
{
	unsigned int epoch = READ_ONCE(p->data.set->epoch), seen = 0;
	size_t i;

	for (i = 0; i < tpstat_pairs_nr_slots(p); i++) {
		struct tpstat_pairs_slot *s = &p->slots[i];
		struct tpstat_pair start;
		unsigned long flags;
		bool live = false;
		u64 key = 0;

		if (atomic_read(&s->state) == TPSTAT_SLOT_FULL) {
			/* Held as a probe holds it, so it is read whole. */
			local_irq_save(flags);
			if (tpstat_pairs_hold(s, TPSTAT_SLOT_FULL)) {
				live = s->epoch == epoch;
				key = s->key;
				start = s->start;
				tpstat_pairs_release(s, TPSTAT_SLOT_FULL);
			}
			local_irq_restore(flags);
		}
		if (live) {
			visit(arg, key, &start);
			seen++;
		}
		if (!(i % 4096))
			cond_resched();
	}
	return seen;
}
EXPORT_SYMBOL_GPL(tpstat_pairs_for_each);

u64 tpstat_pairs_stat(const struct tpstat_pairs *p, enum tpstat_pairs_stat stat)
{
	return tpstat_counter_sum_at(&p->stats, stat);
}
EXPORT_SYMBOL_GPL(tpstat_pairs_stat);

static const char *const tpstat_pairs_stat_names[TPSTAT_PAIRS_STATS] = {
	[TPSTAT_PAIRS_STARTED] = "started",
	[TPSTAT_PAIRS_REPLACED] = "replaced",
	[TPSTAT_PAIRS_PAIRED] = "paired",
	[TPSTAT_PAIRS_UNPAIRED] = "unpaired",
	[TPSTAT_PAIRS_DROPPED] = "dropped",
	[TPSTAT_PAIRS_EXPIRED] = "expired",
};

void tpstat_pairs_print_stats(struct seq_file *m, const struct tpstat_pairs *p,
			      const char *prefix)
{
	tpstat_counter_print_named(m, &p->stats, tpstat_pairs_stat_names, prefix);
	seq_printf(m, "%s.held %u\n%s.capacity %u\n", prefix,
		   tpstat_pairs_held(p), prefix, p->capacity);
}
EXPORT_SYMBOL_GPL(tpstat_pairs_print_stats);

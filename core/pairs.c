// SPDX-License-Identifier: GPL-2.0
/*
 * Pairing maps: open addressing with linear probing over a window of
 * TPSTAT_PAIRS_WINDOW slots from a key's home, shared by all CPUs.
 *
 * Each slot has a state: FREE (never used since it was last emptied: no
 * key lies beyond it), BUSY (one CPU holds it), CLEARING (FREE, held by a
 * CPU that frees the slot before it), FULL (a start) or GONE (a tombstone
 * that lookups pass). A CPU makes a slot BUSY with a cmpxchg
 * from the state it saw before it writes or takes it, with interrupts
 * off, and waits for nothing while it holds one, so a BUSY slot is always
 * being finished by another CPU within a few dozen instructions: whoever
 * meets one in a scan (or a CLEARING one) waits for it. NMIs never touch the map (their starts
 * count as dropped, their ends as unpaired), so they cannot interrupt a
 * holder and then wait for it.
 *
 * Invariants:
 * - a FULL slot lies within its key's window, with no FREE slot between
 *   the key's home and it, so a lookup that stops at the first FREE slot
 *   never misses a start;
 * - a slot turns FREE only as the slot before a FREE one that the same CPU
 *   holds meanwhile as CLEARING (an ended start whose next slot is FREE);
 *   so once a slot is held, no slot between a home and it can turn FREE
 *   that was not FREE or CLEARING then;
 * - @used counts the FULL slots, and the BUSY ones about to be FULL.
 *
 * Saving a start scans the window for the key (a second start of it
 * replaces the first) and for the first empty slot, holds that slot, then
 * checks that no slot before it is FREE or CLEARING (the key before it
 * ended since the scan, and took the FREE slot after it along: the held
 * slot may have been that FREE slot, ABA): that start would be stranded.
 * On such a change the attempt lets the slot go as a tombstone, never
 * FREE (a start saved beyond it meanwhile may count on it), and starts
 * again, a few times at most before the start is counted dropped.
 *
 * A full map keeps following new starts: it evicts a start in the new
 * key's window, counted as expired: first one saved before the set's
 * probes were last attached (no end pairs with it), else, with max_age 0,
 * the oldest start, and with max_age set, the oldest one older than
 * max_age; if there is none, the new start is dropped. The victim is
 * chosen unheld, so once held it is checked to be the very start that was
 * weighed (key, time and attach), not one saved in its slot since. Its
 * slot takes the new start if no empty slot comes before it.
 *
 * Two starts of one key racing on two CPUs may both be saved: the map's
 * users start a key on one CPU at a time (a pointer just allocated, a pid
 * being woken), and a second copy would be evicted in time.
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
	TPSTAT_SLOT_CLEARING,	/* FREE, held while the slot before is freed */
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
	p->slots = tpstat_kvmalloc(tpstat_pairs_nr_slots(p), sizeof(*p->slots),
				   GFP_KERNEL | __GFP_ZERO);
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

	return tpstat_kv_bytes(p->slots, tpstat_pairs_nr_slots(p) *
					 sizeof(struct tpstat_pairs_slot));
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

	while ((state = atomic_read_acquire(&s->state)) == TPSTAT_SLOT_BUSY ||
	       state == TPSTAT_SLOT_CLEARING)
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

/* A start another may be evicted for, when the map is full. */
struct tpstat_pairs_victim {
	struct tpstat_pairs_slot *s;
	u64 key;
	u64 ts;
	unsigned int epoch;
	bool stale;
};

/*
 * Makes the start in @s, seen FULL, the victim *@v if it may make room for
 * one saved at @now and is a better one: a start saved before the probes
 * were last attached, which no end will pair with, before any other;
 * then, with max_age 0, any start, and with max_age set, one older than
 * it; the oldest first. Read unheld: the hold checks it again.
 */
static void tpstat_pairs_weigh(const struct tpstat_pairs *p,
			       struct tpstat_pairs_slot *s, u64 now,
			       unsigned int epoch, struct tpstat_pairs_victim *v)
{
	unsigned int e = READ_ONCE(s->epoch);
	u64 ts = READ_ONCE(s->start.ts);
	bool stale = e != epoch;

	if (!stale && p->max_age && !(now > ts && now - ts > p->max_age))
		return;
	if (v->s && (v->stale > stale || (v->stale == stale && v->ts <= ts)))
		return;
	v->s = s;
	v->key = READ_ONCE(s->key);
	v->ts = ts;
	v->epoch = e;
	v->stale = stale;
}

/* How far from slot @home a lookup meets @s. */
static unsigned int tpstat_pairs_distance(const struct tpstat_pairs *p,
					  unsigned int home,
					  const struct tpstat_pairs_slot *s)
{
	return ((unsigned int)(s - p->slots) - home) & p->mask;
}

/*
 * Whether a FREE slot lies between @home and held slot @s, where a lookup
 * would stop before reaching @s; a CLEARING one counts as FREE, since it
 * is about to be, with the slot before it. Once @s is held, no other
 * slot before it can turn FREE (that takes the slot after it FREE, and
 * so on up to @s), so this settles whether a start saved in @s can be
 * found. It waits for nothing: a busy slot is not FREE.
 */
static bool tpstat_pairs_cut_off(struct tpstat_pairs *p, unsigned int home,
				 struct tpstat_pairs_slot *s)
{
	unsigned int n, d = tpstat_pairs_distance(p, home, s);
	int state;

	for (n = 0; n < d; n++) {
		struct tpstat_pairs_slot *before = &p->slots[(home + n) & p->mask];

		TPSTAT_RACE_POINT();
		/* Pairs with the release that made it FREE before @s was. */
		state = atomic_read_acquire(&before->state);
		if (state == TPSTAT_SLOT_FREE || state == TPSTAT_SLOT_CLEARING)
			return true;
	}
	return false;
}

/*
 * Takes the start in held slot @s out. If the next slot is free, no key
 * lies beyond @s either, and @s is free again; the next is held meanwhile
 * (CLEARING), so that no start can be saved there behind a free slot, and
 * a start saved further on that reads it knows it is as good as free.
 * Else @s becomes a tombstone, for lookups to pass.
 */
static void tpstat_pairs_vacate(struct tpstat_pairs *p,
				struct tpstat_pairs_slot *s)
{
	struct tpstat_pairs_slot *next;

	next = &p->slots[((unsigned int)(s - p->slots) + 1) & p->mask];
	TPSTAT_RACE_POINT();
	if (atomic_cmpxchg_acquire(&next->state, TPSTAT_SLOT_FREE,
				   TPSTAT_SLOT_CLEARING) == TPSTAT_SLOT_FREE) {
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
 * Holds the slot of @key, FULL with its start, or with @claim one for a
 * new start of it (*@state says what it held): the first empty slot from
 * @key's home, before the first FREE one, since a lookup stops there. A
 * full map first evicts the best victim in the window (see
 * tpstat_pairs_weigh()), whose slot is taken if no empty slot comes before
 * it. NULL if no slot could be had, or if another CPU changed what the
 * attempt relied on: then the caller may try again.
 */
static __always_inline struct tpstat_pairs_slot *
tpstat_pairs_find(struct tpstat_pairs *p, u64 key, bool claim, u64 now,
		  int *state)
{
	unsigned int window = min_t(size_t, TPSTAT_PAIRS_WINDOW,
				    tpstat_pairs_nr_slots(p));
	unsigned int home = hash_64(key, p->bits), n;
	unsigned int epoch = READ_ONCE(p->data.set->epoch);
	bool full = claim && atomic_read(&p->used) >= p->capacity;
	struct tpstat_pairs_victim victim = { .s = NULL };
	struct tpstat_pairs_slot *empty = NULL, *s;
	int empty_state = TPSTAT_SLOT_FREE;

	for (n = 0; n < window; n++) {
		int st;

		s = &p->slots[(home + n) & p->mask];
		st = tpstat_pairs_settled(s);
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
		if (claim && st != TPSTAT_SLOT_FULL && !empty) {
			empty = s;
			empty_state = st;
		}
		/* No key lies beyond; when full, look on for a victim. */
		if (st == TPSTAT_SLOT_FREE && !full)
			break;
		if (st == TPSTAT_SLOT_FULL && full)
			tpstat_pairs_weigh(p, s, now, epoch, &victim);
	}
	if (!claim)
		return NULL;
	TPSTAT_RACE_POINT();
	if (full) {
		s = victim.s;
		if (!s || !tpstat_pairs_hold(s, TPSTAT_SLOT_FULL))
			return NULL;
		/* Still the start that was weighed, not one saved since. */
		if (s->key != victim.key || s->start.ts != victim.ts ||
		    s->epoch != victim.epoch) {
			tpstat_pairs_release(s, TPSTAT_SLOT_FULL);
			return NULL;
		}
		if (!empty || tpstat_pairs_distance(p, home, s) <
			      tpstat_pairs_distance(p, home, empty)) {
			if (tpstat_pairs_cut_off(p, home, s)) {
				tpstat_pairs_release(s, TPSTAT_SLOT_FULL);
				return NULL;
			}
			tpstat_pairs_count(p, TPSTAT_PAIRS_EXPIRED);
			*state = TPSTAT_SLOT_FULL;
			return s;
		}
		tpstat_pairs_count(p, TPSTAT_PAIRS_EXPIRED);
		tpstat_pairs_vacate(p, s);
	}
	if (!empty || !tpstat_pairs_hold(empty, empty_state))
		return NULL;
	/*
	 * A slot before it turned FREE since it was seen (ABA: the key before
	 * it ended, and the next slot was found FREE): a start saved here
	 * would be stranded. Never FREE again from here, for a start saved
	 * meanwhile beyond it may have counted on it.
	 */
	if (tpstat_pairs_cut_off(p, home, empty)) {
		tpstat_pairs_release(empty, TPSTAT_SLOT_GONE);
		return NULL;
	}
	*state = empty_state;
	return empty;
}

/* Tries of a start whose slot other CPUs kept changing. */
#define TPSTAT_PAIRS_TRIES	3

bool tpstat_pairs_start(struct tpstat_pairs *p, u64 key,
			const struct tpstat_pair *start)
{
	struct tpstat_pairs_slot *s = NULL;
	unsigned long flags;
	int state, tries;

	if (in_nmi()) {
		tpstat_pairs_count(p, TPSTAT_PAIRS_DROPPED);
		return false;
	}
	local_irq_save(flags);
	for (tries = 0; !s && tries < TPSTAT_PAIRS_TRIES; tries++)
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
	/* Read unheld by CPUs weighing a victim. */
	WRITE_ONCE(s->key, key);
	WRITE_ONCE(s->start.ts, start->ts);
	s->start.a = start->a;
	s->start.b = start->b;
	WRITE_ONCE(s->epoch, READ_ONCE(p->data.set->epoch));
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

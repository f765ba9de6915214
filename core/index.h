/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An index from keys to dense ids, shared by all CPUs and filled without a
 * lock, for keyed data and stack counts: open addressing with linear
 * probing over u32 slots, each 0 (free), an id + 1, or busy while a CPU
 * claims it.
 *
 * A new key first claims its slot, marked busy by its CPU, then takes an
 * id, writes its entry and publishes the id in the slot. The claim runs
 * with interrupts off and NMIs never claim, so outside NMI a busy slot is
 * always being finished by another CPU, within a few hundred instructions:
 * a lookup that meets one waits for it rather than guess, and no id is
 * ever lost to a race. A claim waits only before its own slot is busy, so
 * no two claims wait on each other.
 *
 * A lookup in NMI never waits: the CPU it waits for may be in an NMI of
 * its own, waiting for this one's claim. It passes a busy slot as one that
 * holds another key: what is being claimed there is a new key, which an
 * NMI may not find (its event goes to the owner's "other"), and every key
 * published beyond it is still found, since only a free slot ends a
 * lookup.
 *
 * Invariants: a slot goes from free to busy (one CPU's claim) to an id, or
 * back to free when no id is left; a slot never changes once it holds an
 * id, so a key reached once is reached at the same slot ever after; a key
 * has one slot, since claims of it wait for one another's outcome before
 * claiming.
 *
 * What an entry is, and how two compare, is the owner's: these functions
 * are always inlined, so each owner's comparison is inlined too.
 */
#ifndef _TPSTAT_CORE_INDEX_H
#define _TPSTAT_CORE_INDEX_H

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/preempt.h>
#include <linux/smp.h>
#include <linux/types.h>

#include "internal.h"

/* A slot being claimed: this bit, and the claiming CPU. */
#define TPSTAT_INDEX_BUSY	0x80000000U

/* Whether entry @id of @owner is @key. */
typedef bool (*tpstat_index_equal_t)(const void *owner, unsigned int id,
				     const void *key);
/* Writes entry @id of @owner for @key, before anyone can find it. */
typedef void (*tpstat_index_fill_t)(void *owner, unsigned int id,
				    const void *key);

/*
 * What slot @i holds once no other CPU is claiming it; in NMI, what it
 * holds now, busy or not.
 */
static __always_inline u32 tpstat_index_slot(u32 *slots, unsigned int i)
{
	u32 slot;

	/* Pairs with the release that published the id after its entry. */
	while ((slot = smp_load_acquire(&slots[i])) & TPSTAT_INDEX_BUSY) {
		/* Another CPU may be in NMI too, waiting for us. */
		if (in_nmi())
			break;
		cpu_relax();
	}
	return slot;
}

/* The id of @key, probing from slot @home, or @none if it is not there. */
static __always_inline unsigned int
tpstat_index_find(u32 *slots, unsigned int mask, unsigned int home,
		  unsigned int none, tpstat_index_equal_t equal,
		  const void *owner, const void *key)
{
	unsigned int i = home, n;

	for (n = 0; n <= mask; n++, i = (i + 1) & mask) {
		u32 slot = tpstat_index_slot(slots, i);

		if (!slot)
			break;
		if (!(slot & TPSTAT_INDEX_BUSY) && equal(owner, slot - 1, key))
			return slot - 1;
	}
	return none;
}

/*
 * Finds @key or gives it the next of @capacity ids in @used, probing from
 * slot @home, with interrupts off; @fill writes a new entry. Returns its
 * id, or @capacity if the index is full.
 */
static __always_inline unsigned int
tpstat_index_claim(u32 *slots, unsigned int mask, unsigned int home,
		   atomic_t *used, unsigned int capacity,
		   tpstat_index_equal_t equal, tpstat_index_fill_t fill,
		   void *owner, const void *key)
{
	u32 busy = TPSTAT_INDEX_BUSY | smp_processor_id();
	unsigned int i = home, n;
	int id;

	for (n = 0; n <= mask; n++, i = (i + 1) & mask) {
		u32 slot;

		/* Until the slot is ours, or holds an id: then it is settled. */
		while ((slot = tpstat_index_slot(slots, i)) == 0 &&
		       cmpxchg(&slots[i], 0, busy))
			;
		if (slot & TPSTAT_INDEX_BUSY)
			continue;
		if (slot) {
			if (equal(owner, slot - 1, key))
				return slot - 1;
			continue;
		}
		TPSTAT_RACE_POINT();
		id = atomic_fetch_add_unless(used, 1, capacity);
		if (id >= capacity) {
			/* Free again; waiters read it with acquire. */
			smp_store_release(&slots[i], 0);
			break;
		}
		fill(owner, id, key);
		TPSTAT_RACE_POINT();
		/* The entry is whole before anyone can find its id. */
		smp_store_release(&slots[i], id + 1);
		return id;
	}
	return capacity;
}

/* The id slot @i holds for a reader walking the index, or -1. */
static inline int tpstat_index_read(u32 *slots, unsigned int i)
{
	/* Pairs with the release that published the id. */
	u32 slot = smp_load_acquire(&slots[i]);

	return !slot || slot & TPSTAT_INDEX_BUSY ? -1 : (int)(slot - 1);
}

#endif /* _TPSTAT_CORE_INDEX_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * Task tables: open addressing with linear probing over a window of
 * TPSTAT_TASKS_WINDOW slots from a task's home, shared by all CPUs.
 *
 * A slot's key is its task, FREE (never used since it was last emptied:
 * no task lies beyond it), GONE (a tombstone that lookups pass), BUSY (a
 * CPU is releasing or evicting it), CLEARING (FREE, held by a CPU that is
 * freeing the slot before it) or a task with TPSTAT_TASK_BUSY set (a CPU
 * is claiming it for that task). Finding a task reads keys only.
 * Claiming, releasing and evicting change a key with a cmpxchg from the
 * value seen, with interrupts off, and none of them waits for anything
 * while its slot is held, so a held slot is always being finished by
 * another CPU within a few dozen instructions: a scan that meets one waits
 * for it, but in NMI, which never claims nor waits (it could have
 * interrupted the holder, or the holder could be in an NMI of its own).
 *
 * Invariants:
 * - a task lies within its window, with no FREE slot between its home and
 *   it, so a lookup that stops at the first FREE slot finds it;
 * - a slot turns FREE only as the slot before a FREE one that the same CPU
 *   holds meanwhile as CLEARING (a released task whose next slot is FREE);
 *   so once a slot is held, no slot between a home and it can turn FREE
 *   that was not FREE or CLEARING then;
 * - a task has one slot;
 * - @used counts the slots that hold a task.
 *
 * A claim takes the first vacant slot (FREE or GONE) from home, marked
 * with the task and the busy bit, then, without waiting, checks the whole
 * window: if another slot holds the task, or is being claimed for it, or
 * a slot before its own is FREE or CLEARING (the task before it was
 * released since the scan, and took the FREE slot after it along: the
 * claim's own slot may have been that FREE slot, ABA), it lets the slot
 * go as a tombstone and gives up: the claim's cmpxchg is a full barrier,
 * so of two racing claims of one task at least one sees the other (both
 * may give up: then the event finds no words, counted as dropped). A slot
 * given up is never FREE again: a task claimed meanwhile beyond it may
 * count on it.
 */
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <trace/events/sched.h>

#include "internal.h"

static struct tpstat_tasks *to_tasks(const struct tpstat_data *d)
{
	return container_of(d, struct tpstat_tasks, data);
}

static size_t tpstat_tasks_nr_slots(const struct tpstat_tasks *t)
{
	return (size_t)t->mask + 1;
}

static void tpstat_tasks_count(struct tpstat_tasks *t, enum tpstat_tasks_stat stat)
{
	tpstat_counter_inc_at(&t->stats, stat);
}

static unsigned long tpstat_tasks_settled_key(struct tpstat_tasks_slot *s)
{
	unsigned long key;

	/* Pairs with the release that ended the other CPU's hold. */
	while ((key = smp_load_acquire(&s->key)) & TPSTAT_TASK_BUSY)
		cpu_relax();
	return key;
}

struct tpstat_tasks_slot *__tpstat_tasks_settle(struct tpstat_tasks *t,
						struct tpstat_tasks_slot *s)
{
	if (in_nmi())
		return NULL;
	tpstat_tasks_settled_key(s);
	return s;
}
EXPORT_SYMBOL_GPL(__tpstat_tasks_settle);

static bool tpstat_tasks_hold(struct tpstat_tasks_slot *s, unsigned long key)
{
	return cmpxchg_acquire(&s->key, key, TPSTAT_TASK_BUSY) == key;
}

/*
 * Ends a hold: @s holds @key from now on, and what was written to it
 * before is seen by whoever reads the key with acquire.
 */
static void tpstat_tasks_unhold(struct tpstat_tasks_slot *s, unsigned long key)
{
	/* Pairs with the acquire of lookups and of waiters. */
	smp_store_release(&s->key, key);
}

static struct tpstat_tasks_slot *tpstat_tasks_slot(struct tpstat_tasks *t,
						   unsigned int i)
{
	return &t->slots[i & t->mask];
}

/*
 * The slot where @p's claim may go: the first vacant one from home (*@key
 * says which state it had), before the first free one, since lookups stop
 * there. NULL if the window has none, or if @p is there already.
 */
static struct tpstat_tasks_slot *
tpstat_tasks_vacancy(struct tpstat_tasks *t, struct task_struct *p,
		     unsigned long *key)
{
	unsigned int home = hash_ptr(p, t->bits), n;

	for (n = 0; n < TPSTAT_TASKS_WINDOW; n++) {
		struct tpstat_tasks_slot *s = tpstat_tasks_slot(t, home + n);
		unsigned long k;

		TPSTAT_RACE_POINT();
		k = tpstat_tasks_settled_key(s);
		TPSTAT_RACE_POINT();
		if (k == (unsigned long)p)
			return NULL;	/* claimed meanwhile: found next time */
		if (k == TPSTAT_TASK_FREE || k == TPSTAT_TASK_GONE) {
			*key = k;
			return s;
		}
	}
	return NULL;
}

/*
 * In a full table, makes room in @p's window by taking the words of a task
 * that has not had an event since the set's probes were last attached:
 * what they held is stale, and if its release was missed while the
 * probes were detached, nothing else would ever free them.
 */
static bool tpstat_tasks_evict(struct tpstat_tasks *t, struct task_struct *p)
{
	unsigned int home = hash_ptr(p, t->bits), n;
	unsigned int epoch = READ_ONCE(*t->epoch);

	for (n = 0; n < TPSTAT_TASKS_WINDOW; n++) {
		struct tpstat_tasks_slot *s = tpstat_tasks_slot(t, home + n);
		unsigned long k = tpstat_tasks_settled_key(s);

		if (k == TPSTAT_TASK_FREE || k == TPSTAT_TASK_GONE ||
		    READ_ONCE(s->epoch) == epoch || !tpstat_tasks_hold(s, k))
			continue;
		tpstat_tasks_unhold(s, TPSTAT_TASK_GONE);
		atomic_dec(&t->used);
		tpstat_tasks_count(t, TPSTAT_TASKS_EVICTED);
		return true;
	}
	return false;
}

/*
 * Whether held slot @held may not become @p's: another slot of @p's window
 * holds @p or is being claimed for it, or a slot before @held is FREE, so
 * that a lookup would stop before it. A slot a release holds while it
 * frees the one before (CLEARING) is FREE for this: both will be. Waits
 * for nothing.
 */
static bool tpstat_tasks_contested(struct tpstat_tasks *t,
				   struct task_struct *p,
				   struct tpstat_tasks_slot *held)
{
	unsigned int i = hash_ptr(p, t->bits), n;
	unsigned int window = min_t(size_t, TPSTAT_TASKS_WINDOW,
				    tpstat_tasks_nr_slots(t));
	bool before = true;

	for (n = 0; n < window; n++, i++) {
		struct tpstat_tasks_slot *s = tpstat_tasks_slot(t, i);
		unsigned long k;

		if (s == held) {
			before = false;
			continue;
		}
		TPSTAT_RACE_POINT();
		/* Pairs with the release that published or freed the key. */
		k = smp_load_acquire(&s->key);
		if ((k & ~TPSTAT_TASK_BUSY) == (unsigned long)p ||
		    (before && (k == TPSTAT_TASK_FREE ||
				k == TPSTAT_TASK_CLEARING)))
			return true;
	}
	return false;
}

/* Claims a slot for @p, interrupts off; NULL if none could be had. */
static struct tpstat_task *tpstat_tasks_try_claim(struct tpstat_tasks *t,
						  struct task_struct *p)
{
	unsigned long claiming = (unsigned long)p | TPSTAT_TASK_BUSY;
	unsigned long key = TPSTAT_TASK_FREE;
	struct tpstat_tasks_slot *s = NULL;

	if (atomic_read(&t->used) < t->capacity || tpstat_tasks_evict(t, p))
		s = tpstat_tasks_vacancy(t, p, &key);
	TPSTAT_RACE_POINT();
	/* A full barrier: a racing claim of @p sees this one, or it sees that. */
	if (!s || cmpxchg(&s->key, key, claiming) != key)
		return NULL;
	TPSTAT_RACE_POINT();
	if (tpstat_tasks_contested(t, p, s)) {
		tpstat_tasks_unhold(s, TPSTAT_TASK_GONE);
		return NULL;
	}
	atomic_inc(&t->used);
	memset(&s->task, 0, sizeof(s->task));
	WRITE_ONCE(s->epoch, READ_ONCE(*t->epoch));
	/* The words are zero before anyone can find them. */
	tpstat_tasks_unhold(s, (unsigned long)p);
	tpstat_tasks_count(t, TPSTAT_TASKS_CLAIMED);
	return &s->task;
}

struct tpstat_task *__tpstat_task_claim(struct tpstat_tasks *t,
					struct task_struct *p)
{
	struct tpstat_task *task = NULL;
	unsigned long flags;
	int tries;

	/* Once more if two claims of @p both gave up. */
	for (tries = 0; !task && !in_nmi() && tries < 2; tries++) {
		local_irq_save(flags);
		task = tpstat_tasks_try_claim(t, p);
		local_irq_restore(flags);
		/* Lost to another CPU's claim, perhaps for @p itself. */
		if (!task)
			task = tpstat_task_find(t, p);
	}
	if (!task)
		tpstat_tasks_count(t, TPSTAT_TASKS_DROPPED);
	return task;
}
EXPORT_SYMBOL_GPL(__tpstat_task_claim);

/*
 * Frees @p's slot. If the next slot is free, no task lies beyond, and the
 * slot is free again; the next is held meanwhile (CLEARING), so that no
 * claim lands there behind a free slot, and a claim further on that reads
 * it knows it is as good as free.
 */
static void tpstat_tasks_release(struct tpstat_tasks *t, struct task_struct *p)
{
	unsigned int i = hash_ptr(p, t->bits), n;
	struct tpstat_tasks_slot *s, *next;
	unsigned long flags;

	local_irq_save(flags);
	for (n = 0; n < TPSTAT_TASKS_WINDOW; n++, i++) {
		unsigned long k;

		s = tpstat_tasks_slot(t, i);
		k = tpstat_tasks_settled_key(s);
		if (k == TPSTAT_TASK_FREE)
			break;
		if (k != (unsigned long)p)
			continue;
		if (!tpstat_tasks_hold(s, k)) {
			n--;	/* evicted meanwhile: look at it again */
			i--;
			continue;
		}
		next = tpstat_tasks_slot(t, i + 1);
		TPSTAT_RACE_POINT();
		if (cmpxchg_acquire(&next->key, TPSTAT_TASK_FREE,
				    TPSTAT_TASK_CLEARING) == TPSTAT_TASK_FREE) {
			TPSTAT_RACE_POINT();
			tpstat_tasks_unhold(s, TPSTAT_TASK_FREE);
			TPSTAT_RACE_POINT();
			tpstat_tasks_unhold(next, TPSTAT_TASK_FREE);
		} else {
			tpstat_tasks_unhold(s, TPSTAT_TASK_GONE);
		}
		atomic_dec(&t->used);
		tpstat_tasks_count(t, TPSTAT_TASKS_RELEASED);
		break;
	}
	local_irq_restore(flags);
}

/* The tracepoint's last word on a task: no event of it can follow. */
static void tpstat_tasks_freed(void *data, struct task_struct *p)
{
	tpstat_probe_hit(data);
	tpstat_tasks_release(tpstat_probe_priv(data), p);
}

static const struct tpstat_probe tpstat_tasks_release_probe =
	TPSTAT_PROBE(sched_process_free, tpstat_tasks_freed);

static int tpstat_tasks_check(const struct tpstat_data *d, const char *set)
{
	const struct tpstat_tasks *t = to_tasks(d);

	if (t->capacity && t->capacity <= TPSTAT_TASKS_MAX)
		return 0;
	pr_err("tpstat: %s: a task table holds 1 to %u tasks, not %u\n", set,
	       TPSTAT_TASKS_MAX, t->capacity);
	return -EINVAL;
}

/* The table outlives generations; the counts are a counter array in them. */
static int tpstat_tasks_setup(struct tpstat_data *d)
{
	struct tpstat_tasks *t = to_tasks(d);

	t->mask = roundup_pow_of_two(2 * t->capacity) - 1;
	t->bits = ilog2(t->mask + 1);
	t->epoch = &d->set->epoch;
	atomic_set(&t->used, 0);
	t->release = kmemdup(&tpstat_tasks_release_probe,
			     sizeof(tpstat_tasks_release_probe), GFP_KERNEL);
	if (!t->release)
		return -ENOMEM;
	t->release->priv = t;
	t->slots = tpstat_kvmalloc(tpstat_tasks_nr_slots(t), sizeof(*t->slots),
				   GFP_KERNEL | __GFP_ZERO);
	return t->slots ? 0 : -ENOMEM;
}

static void tpstat_tasks_teardown(struct tpstat_data *d)
{
	struct tpstat_tasks *t = to_tasks(d);

	kvfree(t->slots);
	t->slots = NULL;
	kfree(t->release);
	t->release = NULL;
}

static struct tpstat_probe *tpstat_tasks_probe(struct tpstat_data *d)
{
	return to_tasks(d)->release;
}

TPSTAT_STATS_GEN_OPS(tpstat_tasks, tpstat_tasks);

static size_t tpstat_tasks_shared_bytes(const struct tpstat_data *d)
{
	const struct tpstat_tasks *t = to_tasks(d);

	return tpstat_kv_bytes(t->slots, tpstat_tasks_nr_slots(t) *
					 sizeof(struct tpstat_tasks_slot)) +
	       tpstat_kv_bytes(t->release, sizeof(*t->release));
}

const struct tpstat_data_ops tpstat_tasks_ops = {
	.kind = TPSTAT_MEM_TABLES,
	.check = tpstat_tasks_check,
	.setup = tpstat_tasks_setup,
	.teardown = tpstat_tasks_teardown,
	.shared_bytes = tpstat_tasks_shared_bytes,
	.alloc = tpstat_tasks_alloc,
	.free = tpstat_tasks_free,
	.clear = tpstat_tasks_clear,
	.publish = tpstat_tasks_publish,
	.bytes = tpstat_tasks_bytes,
	.probe = tpstat_tasks_probe,
};
EXPORT_SYMBOL_GPL(tpstat_tasks_ops);

u64 tpstat_tasks_stat(const struct tpstat_tasks *t, enum tpstat_tasks_stat stat)
{
	return tpstat_counter_sum_at(&t->stats, stat);
}
EXPORT_SYMBOL_GPL(tpstat_tasks_stat);

static const char *const tpstat_tasks_stat_names[TPSTAT_TASKS_STATS] = {
	[TPSTAT_TASKS_CLAIMED] = "claimed",
	[TPSTAT_TASKS_RELEASED] = "released",
	[TPSTAT_TASKS_DROPPED] = "dropped",
	[TPSTAT_TASKS_EVICTED] = "evicted",
};

void tpstat_tasks_print_stats(struct seq_file *m, const struct tpstat_tasks *t,
			      const char *prefix)
{
	tpstat_counter_print_named(m, &t->stats, tpstat_tasks_stat_names, prefix);
	seq_printf(m, "%s.held %u\n%s.capacity %u\n", prefix,
		   atomic_read(&t->used), prefix, t->capacity);
}
EXPORT_SYMBOL_GPL(tpstat_tasks_print_stats);

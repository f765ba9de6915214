/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-task state: a few words a set keeps for each live task (when it was
 * queued or blocked, a hint to its command's row), found by its task_struct
 * in a table shared by all CPUs. A task's words are claimed at the first
 * event that asks for them and released by the core when the task is freed
 * (the sched_process_free tracepoint, which the core probes for the set).
 *
 * Finding a task's words is a hash and a load or two; only claiming and
 * releasing them, once in a task's life, take atomics. The words are the
 * set's: the scheduler's events for one task (switch, wakeup) come one after
 * another, each seeing what the one before wrote, so plain READ_ONCE() and
 * WRITE_ONCE() of a word suffice there.
 */
#ifndef _TPSTAT_TASKS_H
#define _TPSTAT_TASKS_H

#include <linux/atomic.h>
#include <linux/hash.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/types.h>
#include <tpstat/counter.h>
#include <tpstat/data.h>
#include <tpstat/metric.h>

/* Tasks a table may hold; keeps a typo from eating memory. */
#define TPSTAT_TASKS_MAX	1048576

/* Words of state per task. */
#define TPSTAT_TASK_WORDS	2

/* What a task table counts, each per CPU, reset with its set. */
enum tpstat_tasks_stat {
	TPSTAT_TASKS_CLAIMED,	/* tasks given words */
	TPSTAT_TASKS_RELEASED,	/* tasks freed with words */
	TPSTAT_TASKS_DROPPED,	/* asks that got none: full, or in NMI */
	/*
	 * words of tasks that lost their release while the set was detached,
	 * taken for others once the table was full
	 */
	TPSTAT_TASKS_EVICTED,
	TPSTAT_TASKS_STATS
};

/**
 * struct tpstat_task - the words a set keeps for one task
 * @w: the set's; zero when claimed, and again once the set's probes are
 *     attached anew (what they held may have changed unseen meanwhile)
 */
struct tpstat_task {
	u64 w[TPSTAT_TASK_WORDS];
};

struct tpstat_tasks_slot;
struct tpstat_probe;

/**
 * struct tpstat_tasks - a task table
 * @capacity: tasks it may hold at once; a module parameter may set it
 *            before the set is registered
 * @stats: private: its counts, one counter per enum tpstat_tasks_stat
 * @slots: private: the table, which outlives every generation
 * @mask: private: slots - 1
 * @bits: private: log2 of slots
 * @used: private: tasks held
 * @epoch: private: the set's count of attaches
 * @release: private: the core's probe on sched_process_free
 * @data: private: what the core handles
 *
 * Declare it with TPSTAT_TASKS(capacity) and list it in the set's data. A
 * reset zeroes the counts, never the words.
 */
struct tpstat_tasks {
	unsigned int capacity;
	/* private: */
	struct tpstat_counter stats;
	struct tpstat_tasks_slot *slots;
	unsigned int mask;
	unsigned int bits;
	atomic_t used;
	const unsigned int *epoch;
	struct tpstat_probe *release;
	struct tpstat_data data;
};

extern const struct tpstat_data_ops tpstat_tasks_ops;

#define TPSTAT_TASKS(cap)						\
	{ .capacity = (cap), .stats = TPSTAT_COUNTERS(TPSTAT_TASKS_STATS), \
	  .data.ops = &tpstat_tasks_ops }

/*
 * What the state of a slot's key may be, besides a task; a task's pointer
 * with TPSTAT_TASK_BUSY set is a claim of it in progress (task_structs are
 * aligned: the bit is free).
 */
#define TPSTAT_TASK_FREE	0UL	/* never used: no task lies beyond */
#define TPSTAT_TASK_BUSY	1UL	/* a CPU is releasing or evicting it */
#define TPSTAT_TASK_GONE	2UL	/* released: look further */
/* Free, held while the slot before it is freed: free again, and busy. */
#define TPSTAT_TASK_CLEARING	(TPSTAT_TASK_BUSY | TPSTAT_TASK_GONE)

/* Slots from a task's home that may hold it. */
#define TPSTAT_TASKS_WINDOW	32

struct tpstat_tasks_slot {
	unsigned long key;	/* the task_struct, or a state above */
	unsigned int epoch;	/* of the set, when the words were zeroed */
	struct tpstat_task task;
};

/* Claims @p's words; NULL if it cannot (counted). */
struct tpstat_task *__tpstat_task_claim(struct tpstat_tasks *t,
					struct task_struct *p);
/* Waits out a slot another CPU holds or claims; NULL in NMI. */
struct tpstat_tasks_slot *__tpstat_tasks_settle(struct tpstat_tasks *t,
						struct tpstat_tasks_slot *s);

static __always_inline struct tpstat_task *
__tpstat_task_words(struct tpstat_tasks *t, struct tpstat_tasks_slot *s)
{
	unsigned int epoch = READ_ONCE(*t->epoch);

	/* Words saved before the probes were attached again are stale. */
	if (unlikely(READ_ONCE(s->epoch) != epoch)) {
		memset(&s->task, 0, sizeof(s->task));
		WRITE_ONCE(s->epoch, epoch);
	}
	return &s->task;
}

/**
 * tpstat_task_find() - @p's words, if it has any
 * @t: the table
 * @p: the task
 *
 * Any context, preemption off (every tracepoint's probe).
 *
 * Return: the words, or NULL if @p has none.
 */
static __always_inline struct tpstat_task *
tpstat_task_find(struct tpstat_tasks *t, struct task_struct *p)
{
	unsigned int i = hash_ptr(p, t->bits), n;

	for (n = 0; n < TPSTAT_TASKS_WINDOW; n++, i = (i + 1) & t->mask) {
		struct tpstat_tasks_slot *s = &t->slots[i];
		/* Pairs with the release that published the key. */
		unsigned long key = smp_load_acquire(&s->key);

		if (key == (unsigned long)p)
			return __tpstat_task_words(t, s);
		if (key == TPSTAT_TASK_FREE)
			return NULL;
		if (unlikely(key & TPSTAT_TASK_BUSY)) {
			if (!__tpstat_tasks_settle(t, s))
				return NULL;
			n--;	/* look at it again */
			i = (i - 1) & t->mask;
		}
	}
	return NULL;
}

/**
 * tpstat_task() - @p's words, claimed at the first call
 * @t: the table
 * @p: the task
 *
 * Any context, preemption off; in NMI, or with the table full, a task
 * without words gets none (counted as dropped).
 *
 * Return: the words, zero when new, or NULL.
 */
static __always_inline struct tpstat_task *
tpstat_task(struct tpstat_tasks *t, struct task_struct *p)
{
	return tpstat_task_find(t, p) ?: __tpstat_task_claim(t, p);
}

/**
 * tpstat_tasks_stat() - one of the table's counts, summed over all CPUs
 * @t: the table
 * @stat: which
 *
 * Return: the count since the set's last reset.
 */
u64 tpstat_tasks_stat(const struct tpstat_tasks *t, enum tpstat_tasks_stat stat);

/**
 * tpstat_tasks_print_stats() - "<prefix>.claimed N", the other counts,
 *                              "<prefix>.held" and "<prefix>.capacity"
 * @m: the file
 * @t: the table
 * @prefix: the name in front of each key
 */
void tpstat_tasks_print_stats(struct seq_file *m, const struct tpstat_tasks *t,
			      const char *prefix);

/*
 * The metrics of tpstat_tasks_print_stats()'s lines, for a set's metrics
 * array; @prefix a string literal, "tasks" for "tasks.claimed".
 */
#define TPSTAT_TASKS_METRICS(prefix)					\
	TPSTAT_COUNTER_METRIC(prefix ".claimed", prefix "_claimed",	\
			      TPSTAT_METRIC_NONE, "Tasks given a row"),	\
	TPSTAT_COUNTER_METRIC(prefix ".released", prefix "_released",	\
			      TPSTAT_METRIC_NONE,			\
			      "Rows of freed tasks released"),		\
	TPSTAT_COUNTER_METRIC(prefix ".dropped", prefix "_dropped",	\
			      TPSTAT_METRIC_NONE,			\
			      "Events of tasks the full table had no row for"), \
	TPSTAT_COUNTER_METRIC(prefix ".evicted", prefix "_evicted",	\
			      TPSTAT_METRIC_NONE,			\
			      "Rows kept from before a re-attach taken for other tasks"), \
	TPSTAT_GAUGE_METRIC(prefix ".held", prefix "_held",		\
			    TPSTAT_METRIC_NONE, "Tasks with a row now"), \
	TPSTAT_GAUGE_METRIC(prefix ".capacity", prefix "_capacity",	\
			    TPSTAT_METRIC_NONE, "Rows the table has")

#endif /* _TPSTAT_TASKS_H */

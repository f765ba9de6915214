// SPDX-License-Identifier: GPL-2.0
/*
 * tpstat_torture.ko: hammers the core's shared tables (a pairing map, a
 * task table, keyed data, stack counts) through their kernel API from
 * more kthreads than CPUs, and from an hrtimer on each CPU that runs in
 * hard IRQ context between, and inside, the threads' calls, then checks
 * what the tables counted against what the callers tallied themselves.
 *
 *   echo run > /sys/kernel/debug/tpstat_torture/summary
 *   cat /sys/kernel/debug/tpstat_torture/summary
 *
 * starts a run of seconds= seconds (refused while one runs), then reads
 * "running" until it ends, and after it the line the run also logged:
 *
 *   tpstat_torture: N ops, E errors
 *
 * N counts the calls into the tables, E the checks that failed, each
 * logged once with pr_err, saying which and by how much. Loaded with
 * run_at_load=1 it starts a run at once; an unload ends a run early and
 * still checks and logs it. plant_skip_ends=N makes N ends be skipped
 * while their callers count them as made: two checks must then fail
 * (the map's pairs, and the starts it still holds), which proves the
 * checks can fail.
 *
 * The hrtimer cannot nest inside a claim: every table claims and
 * releases a slot with interrupts off. It lands between a thread's
 * start and end of a key, and inside lookups, which run with interrupts
 * on. in_nmi() cannot be faked, so NMI nesting is not tried.
 */
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <tpstat/tpstat.h>

/* Starts a thread keeps open at most, for pair_window. */
#define TORTURE_WINDOW_MAX	64
/* Starts each CPU's hrtimer keeps open. */
#define TORTURE_TIMER_WINDOW	2
/* Hot keys of the keyed data and stack counts, found far more than added. */
#define TORTURE_HOT_KEYS	32
/* Marks the words a task's callers write, so another task's are told apart. */
#define TORTURE_TASK_MAGIC	0x70757274756f74ULL

static unsigned int seconds = 10;
module_param(seconds, uint, 0400);
MODULE_PARM_DESC(seconds, "length of a run (1-3600, default 10)");

static bool run_at_load;
module_param(run_at_load, bool, 0400);
MODULE_PARM_DESC(run_at_load, "start a run when loaded (default no)");

static unsigned int extra_threads = 2;
module_param(extra_threads, uint, 0400);
MODULE_PARM_DESC(extra_threads, "threads beside one per online CPU (0-64, default 2)");

/*
 * A small map, which the open starts of all callers nearly fill: keys
 * share homes, and slots go free, busy and full again all the time.
 */
static unsigned int pair_slots = 16;
module_param(pair_slots, uint, 0400);
MODULE_PARM_DESC(pair_slots, "starts the pairing map holds (default 16)");

static unsigned int pair_window = 4;
module_param(pair_window, uint, 0400);
MODULE_PARM_DESC(pair_window, "starts each thread keeps open (1-64, default 4)");

static unsigned int pair_age_us;
module_param(pair_age_us, uint, 0400);
MODULE_PARM_DESC(pair_age_us, "age at which a full map evicts a start (0: never, the default)");

static unsigned int task_slots = 128;
module_param(task_slots, uint, 0400);
MODULE_PARM_DESC(task_slots, "tasks the task table holds (default 128)");

/*
 * Under qemu's TCG with one host thread for all vCPUs, 6.12 guests took
 * a #DB, then double faults, in slub's allocation fast path with RFLAGS
 * holding the low half of RDI ORed in, when an interrupt came just after
 * its cmpxchg16b: an emulation fault, not the kernel's. All three hit
 * the copy kthread_create() makes of a name of 16 bytes or more, for
 * each new task; the threads' names are shorter, and the
 * interrupts and new tasks kept moderate by default.
 */
static unsigned int timer_us = 1000;
module_param(timer_us, uint, 0400);
MODULE_PARM_DESC(timer_us, "period of each CPU's hrtimer (10-1000000 us, default 1000)");

static unsigned int spawn_every = 256;
module_param(spawn_every, uint, 0400);
MODULE_PARM_DESC(spawn_every, "rounds of a thread between the short-lived tasks it makes (0: none; default 256)");

static unsigned int plant_skip_ends;
module_param(plant_skip_ends, uint, 0400);
MODULE_PARM_DESC(plant_skip_ends, "ends skipped on purpose, counted as made (default 0)");

static struct tpstat_pairs torture_pairs = TPSTAT_PAIRS(16, 0);
static struct tpstat_tasks torture_tasks = TPSTAT_TASKS(128);
/* One counter per key: each add counts there too. */
static struct tpstat_keyed torture_keyed = TPSTAT_KEYED_PER_CPU(512, "value", 1);
static struct tpstat_stacks torture_stacks = TPSTAT_STACKS(512, 1);

/* What a run checks; each failed check is one error. */
enum torture_check {
	/* Seen as the run goes, counted each time. */
	CHECK_PAIRS_GHOST,
	CHECK_PAIRS_WRONG,
	CHECK_PAIRS_TWICE,
	CHECK_TASKS_TWO,
	CHECK_TASKS_UNFOUND,
	CHECK_TASKS_FOREIGN,
	CHECK_SEEN,
	/* At the end, a count against the callers' tally. */
	CHECK_SETUP = CHECK_SEEN,
	CHECK_PAIRS_STARTED,
	CHECK_PAIRS_DROPPED,
	CHECK_PAIRS_PAIRED,
	CHECK_PAIRS_UNPAIRED,
	CHECK_PAIRS_REPLACED,
	CHECK_PAIRS_LOST,
	CHECK_PAIRS_FRESH,
	CHECK_PAIRS_HELD,
	CHECK_TASKS_CLAIMED,
	CHECK_TASKS_RELEASED,
	CHECK_TASKS_DROPPED,
	CHECK_TASKS_EVICTED,
	CHECK_TASKS_HELD,
	CHECK_KEYED_EVENTS,
	CHECK_KEYED_SUM,
	CHECK_KEYED_COUNTER,
	CHECK_KEYED_CPUS,
	CHECK_KEYED_ONCE,
	CHECK_KEYED_LABEL,
	CHECK_STACKS_EVENTS,
	CHECK_STACKS_ONCE,
	CHECK_NR
};

static const char *const torture_check_names[CHECK_NR] = {
	[CHECK_PAIRS_GHOST] = "pairs: a dropped start was found by its end",
	[CHECK_PAIRS_WRONG] = "pairs: an end got a start saved for another key",
	[CHECK_PAIRS_TWICE] = "pairs: a start was paired by two ends",
	[CHECK_TASKS_TWO] = "tasks: one task was given words twice",
	[CHECK_TASKS_UNFOUND] = "tasks: a live task's words were not found",
	[CHECK_TASKS_FOREIGN] = "tasks: a task's words held another task's mark",
	[CHECK_SETUP] = "setup: the run's threads could not all be made",
	[CHECK_PAIRS_STARTED] = "pairs: starts the map counted as saved",
	[CHECK_PAIRS_DROPPED] = "pairs: starts the map counted as dropped",
	[CHECK_PAIRS_PAIRED] = "pairs: ends the map counted as paired",
	[CHECK_PAIRS_UNPAIRED] = "pairs: ends the map counted as unpaired",
	[CHECK_PAIRS_REPLACED] = "pairs: starts the map counted as replaced",
	[CHECK_PAIRS_LOST] = "pairs: saved starts lost, against those counted as expired",
	[CHECK_PAIRS_FRESH] = "pairs: starts evicted younger than max_age",
	[CHECK_PAIRS_HELD] = "pairs: starts held once all were ended",
	[CHECK_TASKS_CLAIMED] = "tasks: tasks the table counted as claimed",
	[CHECK_TASKS_RELEASED] = "tasks: tasks the table counted as released",
	[CHECK_TASKS_DROPPED] = "tasks: asks the table counted as dropped",
	[CHECK_TASKS_EVICTED] = "tasks: words the table counted as evicted",
	[CHECK_TASKS_HELD] = "tasks: words held once every task was freed",
	[CHECK_KEYED_EVENTS] = "keyed: events in all rows and other",
	[CHECK_KEYED_SUM] = "keyed: sum of the values in all rows and other",
	[CHECK_KEYED_COUNTER] = "keyed: counts in all rows' counters and other's",
	[CHECK_KEYED_CPUS] = "keyed: rows whose counts per CPU do not add up",
	[CHECK_KEYED_ONCE] = "keyed: keys with more than one row",
	[CHECK_KEYED_LABEL] = "keyed: rows labelled for another key",
	[CHECK_STACKS_EVENTS] = "stacks: events in all rows and other",
	[CHECK_STACKS_ONCE] = "stacks: keys with more than one row",
};

/* What a caller did, and saw: the truth the tables' counts are held to. */
struct torture_tally {
	u64 ops;
	u64 saved;		/* starts the map took */
	u64 dropped;		/* starts it refused */
	u64 paired;		/* ends that got a start */
	u64 unpaired;		/* ends that got none */
	u64 lost;		/* of those, ends of starts the map took */
	u64 fresh;		/* of those, starts younger than max_age */
	u64 task_nulls;		/* asks for words that got none */
	u64 tasks;		/* tasks made, each asked for its words */
	u64 keyed_adds;
	u64 keyed_sum;
	u64 stack_adds;
};

struct torture_open {
	u64 key;
	u64 ts;
	bool saved;
};

/* The starts one caller keeps open, oldest first, and its next key. */
struct torture_ring {
	struct torture_open *open;
	unsigned int first;
	unsigned int nr;
	unsigned int window;
	unsigned int ends;
	u64 id;
	u64 seq;
};

struct torture_worker {
	struct task_struct *task;
	int cpu;		/* the CPU it is bound to, or -1 */
	struct torture_ring ring;
	struct torture_open open[TORTURE_WINDOW_MAX];
	struct torture_tally tally;
	u64 random;
};

/* Each CPU's hard IRQ caller. */
struct torture_timer {
	struct hrtimer timer;
	struct torture_ring ring;
	struct torture_open open[TORTURE_TIMER_WINDOW];
	struct torture_tally tally;
	u64 random;
};

static struct torture_timer __percpu *torture_timers;

/* The counts a run starts from and ends at. */
struct torture_counts {
	u64 pairs[TPSTAT_PAIRS_STATS];
	unsigned int pairs_held;
	u64 tasks[TPSTAT_TASKS_STATS];
	unsigned int tasks_held;
	u64 keyed_events;
	u64 keyed_sum;
	u64 keyed_counter;
	u64 stack_events;
};

static atomic_t torture_seen[CHECK_SEEN];
static atomic_t torture_plants;
/* Fresh keys for the keyed data and stacks: each met by several callers. */
static atomic64_t torture_fresh;
/* Runs made: no key of a run is one an earlier run may have left. */
static u64 torture_runs;
static struct torture_worker *torture_workers;
static unsigned int torture_nr_workers;

/*
 * torture_lock guards the fields below it: a run starts with it held and
 * ends by taking it to publish its summary; the controller thread of a
 * finished run waits to be stopped there, outside it.
 */
static DEFINE_MUTEX(torture_lock);
static struct task_struct *torture_controller;
static bool torture_running;
static bool torture_closing;
static char torture_summary[64] = "none\n";
static struct dentry *torture_dir;

static void torture_saw(enum torture_check check)
{
	atomic_inc(&torture_seen[check]);
}

static u64 torture_next(u64 *random)
{
	u64 x = *random;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*random = x;
	return x;
}

/* Ends the oldest open start, checking what the map gives back. */
static void torture_end_oldest(struct torture_ring *r, struct torture_tally *t)
{
	struct torture_open *o = &r->open[r->first];
	struct tpstat_pair start = {};
	bool got;

	r->first = (r->first + 1) % r->window;
	r->nr--;
	/* A planted skip leaves the start in the map, tallied as paired. */
	if (o->saved && atomic_add_unless(&torture_plants, -1, 0)) {
		t->paired++;
		return;
	}
	t->ops++;
	got = tpstat_pairs_end(&torture_pairs, o->key, &start);
	if (got) {
		t->paired++;
		if (start.a != o->key || start.b != r->id)
			torture_saw(CHECK_PAIRS_WRONG);
	} else {
		t->unpaired++;
	}
	/* Only an eviction, counted as expired, loses a saved start. */
	if (o->saved && !got) {
		t->lost++;
		if (ktime_get_ns() - o->ts < torture_pairs.max_age)
			t->fresh++;
	}
	if (!o->saved && got)
		torture_saw(CHECK_PAIRS_GHOST);
	/* Now and then the same end again, which must find nothing. */
	if (!(++r->ends % 16)) {
		t->ops++;
		if (tpstat_pairs_end(&torture_pairs, o->key, &start)) {
			t->paired++;
			torture_saw(CHECK_PAIRS_TWICE);
		} else {
			t->unpaired++;
		}
	}
}

/* Ends the oldest start if the window is full, then starts a new key. */
static void torture_pairs_step(struct torture_ring *r, struct torture_tally *t)
{
	struct torture_open *o;
	struct tpstat_pair start;

	if (r->nr == r->window)
		torture_end_oldest(r, t);
	o = &r->open[(r->first + r->nr) % r->window];
	o->key = r->id << 48 | r->seq++;
	start.ts = ktime_get_ns();
	o->ts = start.ts;
	start.a = o->key;
	start.b = r->id;
	t->ops++;
	o->saved = tpstat_pairs_start(&torture_pairs, o->key, &start);
	if (o->saved)
		t->saved++;
	else
		t->dropped++;
	r->nr++;
}

static void torture_pairs_drain(struct torture_ring *r, struct torture_tally *t)
{
	while (r->nr)
		torture_end_oldest(r, t);
}

static void torture_ring_init(struct torture_ring *r, struct torture_open *open,
			      u64 id, unsigned int window)
{
	memset(r, 0, sizeof(*r));
	r->open = open;
	r->id = id;
	r->window = window;
	r->seq = torture_runs << 36;
}

/*
 * A hot key most of the time, found at once; else a fresh one, which the
 * callers meet a few times each, at nearly the same moment, until the
 * data is full and the rest go to other.
 */
static u64 torture_key(u64 random)
{
	if (random & 3)
		return (random >> 8) % TORTURE_HOT_KEYS;
	return TORTURE_HOT_KEYS + (atomic64_inc_return(&torture_fresh) >> 2);
}

static void torture_keyed_step(struct torture_tally *t, u64 random)
{
	u64 key = torture_key(random), value = random >> 48;
	struct tpstat_key_ref ref;

	t->ops++;
	ref = tpstat_keyed_add(&torture_keyed, key, value, "k%llu", key);
	tpstat_keyed_count(ref, 0);
	t->keyed_adds++;
	t->keyed_sum += value;
}

static void torture_stacks_step(struct torture_tally *t, u64 random)
{
	struct tpstat_key key = tpstat_key_pair(torture_key(random >> 16), 1);

	t->ops++;
	/* By key alone: a stack needs the probe that was called. */
	tpstat_stacks_add(&torture_stacks, NULL, &key, false);
	t->stack_adds++;
}

static u64 torture_mark(struct task_struct *p)
{
	return (unsigned long)p ^ TORTURE_TASK_MAGIC;
}

/* @p's words, claimed at the first ask; preemption off. */
static struct tpstat_task *torture_task_words(struct torture_tally *t,
					      struct task_struct *p)
{
	struct tpstat_task *words;
	u64 mark;

	t->ops++;
	words = tpstat_task(&torture_tasks, p);
	if (!words) {
		t->task_nulls++;
		return NULL;
	}
	mark = READ_ONCE(words->w[0]);
	if (mark && mark != torture_mark(p))
		torture_saw(CHECK_TASKS_FOREIGN);
	return words;
}

/* Claims @p's words and marks them as @p's. */
static struct tpstat_task *torture_task_mark(struct torture_tally *t,
					     struct task_struct *p)
{
	struct tpstat_task *words;

	preempt_disable();
	words = torture_task_words(t, p);
	if (words)
		WRITE_ONCE(words->w[0], torture_mark(p));
	preempt_enable();
	return words;
}

static int torture_worker_fn(void *arg);
static int torture_child_fn(void *arg);

/* Whether @p is one of the run's tasks, whose free is sure to come. */
static bool torture_ours(struct task_struct *p)
{
	void *fn;

	if (!(p->flags & PF_KTHREAD))
		return false;
	fn = kthread_func(p);
	return fn == (void *)torture_worker_fn || fn == (void *)torture_child_fn;
}

static enum hrtimer_restart torture_timer_fn(struct hrtimer *hrtimer)
{
	struct torture_timer *tm = container_of(hrtimer, struct torture_timer, timer);
	u64 random = torture_next(&tm->random);

	torture_pairs_step(&tm->ring, &tm->tally);
	torture_keyed_step(&tm->tally, random);
	torture_stacks_step(&tm->tally, random);
	/* The interrupted task's words, perhaps in the middle of its own ask. */
	if (torture_ours(current))
		torture_task_words(&tm->tally, current);
	hrtimer_forward_now(hrtimer, ns_to_ktime((u64)timer_us * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

/* A short-lived task: asks for its words while its maker asks for them. */
struct torture_child {
	struct completion asked;
	struct tpstat_task *words;
	struct torture_tally tally;
};

static int torture_child_fn(void *arg)
{
	struct torture_child *c = arg;

	c->words = torture_task_mark(&c->tally, current);
	complete(&c->asked);
	set_current_state(TASK_INTERRUPTIBLE);
	while (!kthread_should_stop()) {
		schedule();
		set_current_state(TASK_INTERRUPTIBLE);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

static void torture_tally_add(struct torture_tally *sum,
			      const struct torture_tally *t)
{
	sum->ops += t->ops;
	sum->saved += t->saved;
	sum->dropped += t->dropped;
	sum->paired += t->paired;
	sum->unpaired += t->unpaired;
	sum->lost += t->lost;
	sum->fresh += t->fresh;
	sum->task_nulls += t->task_nulls;
	sum->tasks += t->tasks;
	sum->keyed_adds += t->keyed_adds;
	sum->keyed_sum += t->keyed_sum;
	sum->stack_adds += t->stack_adds;
}

/*
 * Makes a task and asks for its words from here while it asks for its
 * own, so two claims of one task race; every answer must be one slot.
 * The task lives until both asks are done and checked, so its free, which
 * releases its words, comes after them.
 */
static void torture_tasks_step(struct torture_worker *w)
{
	struct tpstat_task *mine, *found;
	struct torture_child c = {};
	struct task_struct *child;

	init_completion(&c.asked);
	child = kthread_run(torture_child_fn, &c, "tpstat_ttc");
	if (IS_ERR(child))
		return;
	w->tally.tasks++;
	mine = torture_task_mark(&w->tally, child);
	wait_for_completion(&c.asked);
	preempt_disable();
	w->tally.ops++;
	found = tpstat_task_find(&torture_tasks, child);
	preempt_enable();
	if ((mine && c.words && mine != c.words) ||
	    (found && ((mine && found != mine) || (c.words && found != c.words))))
		torture_saw(CHECK_TASKS_TWO);
	if ((mine || c.words) && !found)
		torture_saw(CHECK_TASKS_UNFOUND);
	kthread_stop(child);
	torture_tally_add(&w->tally, &c.tally);
}

static int torture_worker_fn(void *arg)
{
	struct torture_worker *w = arg;
	struct torture_timer *tm = NULL;
	struct tpstat_task *own, *found;
	unsigned int round = 0;

	w->tally.tasks++;
	own = torture_task_mark(&w->tally, current);
	if (w->cpu >= 0) {
		/* Bound to its CPU, so its timer is armed and stopped there. */
		tm = per_cpu_ptr(torture_timers, w->cpu);
		hrtimer_start(&tm->timer, ns_to_ktime((u64)timer_us * NSEC_PER_USEC),
			      HRTIMER_MODE_REL_PINNED_HARD);
	}
	while (!kthread_should_stop()) {
		u64 random = torture_next(&w->random);

		/* As a probe runs: preemption off, interrupts on. */
		preempt_disable();
		torture_pairs_step(&w->ring, &w->tally);
		torture_keyed_step(&w->tally, random);
		torture_stacks_step(&w->tally, random);
		w->tally.ops++;
		found = tpstat_task_find(&torture_tasks, current);
		if (own && found != own)
			torture_saw(found ? CHECK_TASKS_TWO : CHECK_TASKS_UNFOUND);
		else if (own && READ_ONCE(own->w[0]) != torture_mark(current))
			torture_saw(CHECK_TASKS_FOREIGN);
		preempt_enable();
		if (spawn_every && !(++round % spawn_every))
			torture_tasks_step(w);
		cond_resched();
	}
	if (tm) {
		hrtimer_cancel(&tm->timer);
		preempt_disable();
		torture_pairs_drain(&tm->ring, &tm->tally);
		preempt_enable();
	}
	preempt_disable();
	torture_pairs_drain(&w->ring, &w->tally);
	preempt_enable();
	return 0;
}

static int torture_by_key(const void *a, const void *b)
{
	const struct tpstat_key *x = a, *y = b;

	return memcmp(x, y, sizeof(*x));
}

static int torture_keyed_by_key(const void *a, const void *b)
{
	const struct tpstat_keyed_row *x = a, *y = b;

	return torture_by_key(&x->key, &y->key);
}

static int torture_stacks_by_key(const void *a, const void *b)
{
	const struct tpstat_stack_row *x = a, *y = b;

	return torture_by_key(&x->key, &y->key);
}

/*
 * The keyed data's totals, and with @bad its rows' own checks: a key in
 * two rows, a label not its key's, counts per CPU that are not its count.
 * False on -ENOMEM.
 */
static bool torture_read_keyed(struct torture_counts *c, unsigned int *bad)
{
	char label[TPSTAT_KEYED_LABEL_MAX];
	struct tpstat_keyed_row *rows;
	unsigned int i, nr;
	int cpu;

	rows = tpstat_keyed_rows(&torture_keyed, torture_keyed_by_key, &nr);
	if (!rows)
		return false;
	for (i = 0; i <= nr; i++) {
		u64 cpus = 0;

		c->keyed_events += rows[i].hist.count;
		c->keyed_sum += rows[i].hist.sum;
		c->keyed_counter += rows[i].counters[0];
		if (!bad)
			continue;
		for_each_possible_cpu(cpu)
			cpus += tpstat_keyed_cpu_count(&torture_keyed, cpu, rows[i].id);
		if (cpus != rows[i].hist.count)
			bad[CHECK_KEYED_CPUS]++;
		if (i == nr)
			continue;
		if (i && tpstat_key_equal(&rows[i].key, &rows[i - 1].key))
			bad[CHECK_KEYED_ONCE]++;
		snprintf(label, sizeof(label), "k%llu", rows[i].key.w[0]);
		if (strcmp(label, rows[i].label))
			bad[CHECK_KEYED_LABEL]++;
	}
	kvfree(rows);
	return true;
}

static bool torture_read_stacks(struct torture_counts *c, unsigned int *bad)
{
	struct tpstat_stack_row *rows;
	unsigned int i, nr;

	rows = tpstat_stacks_rows(&torture_stacks, &nr);
	if (!rows)
		return false;
	for (i = 0; i <= nr; i++)
		c->stack_events += rows[i].count;
	if (bad) {
		sort(rows, nr, sizeof(*rows), torture_stacks_by_key, NULL);
		for (i = 1; i < nr; i++)
			if (tpstat_key_equal(&rows[i].key, &rows[i - 1].key))
				bad[CHECK_STACKS_ONCE]++;
	}
	kvfree(rows);
	return true;
}

static bool torture_read(struct torture_counts *c, unsigned int *bad)
{
	unsigned int i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < TPSTAT_PAIRS_STATS; i++)
		c->pairs[i] = tpstat_pairs_stat(&torture_pairs, i);
	c->pairs_held = tpstat_pairs_held(&torture_pairs);
	for (i = 0; i < TPSTAT_TASKS_STATS; i++)
		c->tasks[i] = tpstat_tasks_stat(&torture_tasks, i);
	c->tasks_held = atomic_read(&torture_tasks.used);
	return torture_read_keyed(c, bad) && torture_read_stacks(c, bad);
}

/* Logs a failed check once; returns 1 if it failed. */
static unsigned int torture_expect(enum torture_check check, u64 got, u64 want)
{
	if (got == want)
		return 0;
	pr_err("tpstat_torture: %s: %llu, want %llu\n",
	       torture_check_names[check], got, want);
	return 1;
}

/* Freed tasks release their words an RCU grace period after they die. */
static void torture_tasks_settle(unsigned int held)
{
	unsigned int tries;

	for (tries = 0; tries < 500; tries++) {
		rcu_barrier();
		if (atomic_read(&torture_tasks.used) == held)
			return;
		msleep(20);
	}
}

/* What the tables counted during the run: @after less @before. */
static void torture_diff(struct torture_counts *d,
			 const struct torture_counts *after,
			 const struct torture_counts *before)
{
	unsigned int i;

	for (i = 0; i < TPSTAT_PAIRS_STATS; i++)
		d->pairs[i] = after->pairs[i] - before->pairs[i];
	for (i = 0; i < TPSTAT_TASKS_STATS; i++)
		d->tasks[i] = after->tasks[i] - before->tasks[i];
	d->keyed_events = after->keyed_events - before->keyed_events;
	d->keyed_sum = after->keyed_sum - before->keyed_sum;
	d->keyed_counter = after->keyed_counter - before->keyed_counter;
	d->stack_events = after->stack_events - before->stack_events;
}

static unsigned int torture_verify(const struct torture_counts *before,
				   const struct torture_tally *t)
{
	unsigned int bad[CHECK_NR] = {}, errors = 0, i;
	struct torture_counts after, d;

	torture_tasks_settle(before->tasks_held);
	if (!torture_read(&after, bad)) {
		pr_err("tpstat_torture: no memory to read the tables back\n");
		return 1;
	}
	for (i = 0; i < CHECK_SEEN; i++) {
		unsigned int n = atomic_read(&torture_seen[i]);

		if (n)
			pr_err("tpstat_torture: %s: %u times\n",
			       torture_check_names[i], n);
		errors += !!n;
	}
	torture_diff(&d, &after, before);
	errors += torture_expect(CHECK_PAIRS_STARTED,
				 d.pairs[TPSTAT_PAIRS_STARTED], t->saved);
	errors += torture_expect(CHECK_PAIRS_DROPPED,
				 d.pairs[TPSTAT_PAIRS_DROPPED], t->dropped);
	errors += torture_expect(CHECK_PAIRS_PAIRED,
				 d.pairs[TPSTAT_PAIRS_PAIRED], t->paired);
	errors += torture_expect(CHECK_PAIRS_UNPAIRED,
				 d.pairs[TPSTAT_PAIRS_UNPAIRED], t->unpaired);
	errors += torture_expect(CHECK_PAIRS_REPLACED,
				 d.pairs[TPSTAT_PAIRS_REPLACED], 0);
	errors += torture_expect(CHECK_PAIRS_LOST, t->lost,
				 d.pairs[TPSTAT_PAIRS_EXPIRED]);
	errors += torture_expect(CHECK_PAIRS_FRESH, t->fresh, 0);
	errors += torture_expect(CHECK_PAIRS_HELD, after.pairs_held,
				 before->pairs_held);
	/*
	 * Each task asked for has words once; if some asks got none, a task
	 * may have none at all.
	 */
	if (!d.tasks[TPSTAT_TASKS_DROPPED] ||
	    d.tasks[TPSTAT_TASKS_CLAIMED] > t->tasks)
		errors += torture_expect(CHECK_TASKS_CLAIMED,
					 d.tasks[TPSTAT_TASKS_CLAIMED], t->tasks);
	errors += torture_expect(CHECK_TASKS_RELEASED,
				 d.tasks[TPSTAT_TASKS_RELEASED],
				 d.tasks[TPSTAT_TASKS_CLAIMED]);
	errors += torture_expect(CHECK_TASKS_DROPPED,
				 d.tasks[TPSTAT_TASKS_DROPPED], t->task_nulls);
	errors += torture_expect(CHECK_TASKS_EVICTED,
				 d.tasks[TPSTAT_TASKS_EVICTED], 0);
	errors += torture_expect(CHECK_TASKS_HELD, after.tasks_held,
				 before->tasks_held);
	errors += torture_expect(CHECK_KEYED_EVENTS, d.keyed_events,
				 t->keyed_adds);
	errors += torture_expect(CHECK_KEYED_SUM, d.keyed_sum, t->keyed_sum);
	errors += torture_expect(CHECK_KEYED_COUNTER, d.keyed_counter,
				 t->keyed_adds);
	errors += torture_expect(CHECK_STACKS_EVENTS, d.stack_events,
				 t->stack_adds);
	for (i = CHECK_KEYED_CPUS; i < CHECK_NR; i++)
		if (i != CHECK_STACKS_EVENTS)
			errors += torture_expect(i, bad[i], 0);
	return errors;
}

static void torture_stop_workers(void)
{
	unsigned int i;

	for (i = 0; i < torture_nr_workers; i++)
		if (torture_workers[i].task)
			kthread_stop(torture_workers[i].task);
}

/* Makes the workers, one bound to each online CPU, then the extra ones. */
static bool torture_start_workers(void)
{
	struct torture_worker *w;
	unsigned int i = 0;
	int cpu;

	for_each_online_cpu(cpu) {
		if (i == torture_nr_workers)
			break;
		w = &torture_workers[i];
		w->cpu = cpu;
		w->task = kthread_create_on_cpu(torture_worker_fn, w, cpu,
						"tpstat_tt/%u");
		if (IS_ERR(w->task))
			goto fail;
		i++;
	}
	for (; i < torture_nr_workers; i++) {
		w = &torture_workers[i];
		w->cpu = -1;
		w->task = kthread_create(torture_worker_fn, w, "tpstat_ttx%u", i);
		if (IS_ERR(w->task))
			goto fail;
	}
	for (i = 0; i < torture_nr_workers; i++)
		wake_up_process(torture_workers[i].task);
	return true;
fail:
	w->task = NULL;
	/* Never woken: each stops before its function runs. */
	torture_stop_workers();
	return false;
}

static void torture_prepare(void)
{
	unsigned int i;
	int cpu;

	for (i = 0; i < CHECK_SEEN; i++)
		atomic_set(&torture_seen[i], 0);
	atomic_set(&torture_plants, plant_skip_ends);
	torture_runs++;
	for (i = 0; i < torture_nr_workers; i++) {
		struct torture_worker *w = &torture_workers[i];

		memset(w, 0, sizeof(*w));
		torture_ring_init(&w->ring, w->open, i + 1, pair_window);
		w->random = 0x9e3779b97f4a7c15ULL * (i + 1);
	}
	for_each_possible_cpu(cpu) {
		struct torture_timer *tm = per_cpu_ptr(torture_timers, cpu);

		torture_ring_init(&tm->ring, tm->open, 1000 + cpu,
				  TORTURE_TIMER_WINDOW);
		memset(&tm->tally, 0, sizeof(tm->tally));
		tm->random = 0xd1b54a32d192ed03ULL * (cpu + 1);
	}
}

/* One run: the workers hammer the tables until the time is up or a stop. */
static unsigned int torture_run(u64 *ops)
{
	struct torture_tally sum = {};
	struct torture_counts before;
	unsigned long end;
	unsigned int i;
	int cpu;

	if (!torture_read(&before, NULL))
		return 1;
	torture_nr_workers = num_online_cpus() + extra_threads;
	torture_workers = kcalloc(torture_nr_workers, sizeof(*torture_workers),
				  GFP_KERNEL);
	if (!torture_workers)
		return 1;
	torture_prepare();
	if (!torture_start_workers()) {
		pr_err("tpstat_torture: %s\n", torture_check_names[CHECK_SETUP]);
		kfree(torture_workers);
		return 1;
	}
	end = jiffies + (unsigned long)seconds * HZ;
	while (!kthread_should_stop() && time_before(jiffies, end))
		schedule_timeout_interruptible(min_t(unsigned long, end - jiffies, HZ));
	torture_stop_workers();
	for (i = 0; i < torture_nr_workers; i++)
		torture_tally_add(&sum, &torture_workers[i].tally);
	for_each_possible_cpu(cpu)
		torture_tally_add(&sum, &per_cpu_ptr(torture_timers, cpu)->tally);
	kfree(torture_workers);
	torture_workers = NULL;
	*ops = sum.ops;
	return torture_verify(&before, &sum);
}

static int torture_controller_fn(void *arg)
{
	unsigned int errors;
	u64 ops = 0;

	errors = torture_run(&ops);
	pr_info("tpstat_torture: %llu ops, %u errors\n", ops, errors);
	mutex_lock(&torture_lock);
	snprintf(torture_summary, sizeof(torture_summary),
		 "tpstat_torture: %llu ops, %u errors\n", ops, errors);
	torture_running = false;
	mutex_unlock(&torture_lock);
	/* Stopped by the next run, or by the unload. */
	set_current_state(TASK_INTERRUPTIBLE);
	while (!kthread_should_stop()) {
		schedule();
		set_current_state(TASK_INTERRUPTIBLE);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

static int torture_start(void)
{
	struct task_struct *task;
	int err = 0;

	mutex_lock(&torture_lock);
	if (torture_closing) {
		err = -ENODEV;
	} else if (torture_running) {
		err = -EBUSY;
	} else {
		if (torture_controller)
			kthread_stop(torture_controller);
		torture_controller = NULL;
		task = kthread_run(torture_controller_fn, NULL, "tpstat_torture");
		if (IS_ERR(task)) {
			err = PTR_ERR(task);
		} else {
			torture_controller = task;
			torture_running = true;
			strscpy(torture_summary, "running\n", sizeof(torture_summary));
		}
	}
	mutex_unlock(&torture_lock);
	return err;
}

static ssize_t torture_summary_read(struct file *file, char __user *buf,
				    size_t count, loff_t *ppos)
{
	char line[sizeof(torture_summary)];

	mutex_lock(&torture_lock);
	strscpy(line, torture_summary, sizeof(line));
	mutex_unlock(&torture_lock);
	return simple_read_from_buffer(buf, count, ppos, line, strlen(line));
}

static ssize_t torture_summary_write(struct file *file, const char __user *buf,
				     size_t count, loff_t *ppos)
{
	char word[8] = {};
	int err;

	if (count >= sizeof(word))
		return -EINVAL;
	if (copy_from_user(word, buf, count))
		return -EFAULT;
	if (strcmp(strim(word), "run"))
		return -EINVAL;
	err = torture_start();
	return err ?: count;
}

static const struct file_operations torture_summary_fops = {
	.owner = THIS_MODULE,
	.read = torture_summary_read,
	.write = torture_summary_write,
	.llseek = default_llseek,
};

static int torture_stats(struct seq_file *m, struct tpstat_set *set)
{
	tpstat_pairs_print_stats(m, &torture_pairs, "pairs");
	tpstat_tasks_print_stats(m, &torture_tasks, "tasks");
	return 0;
}

static struct tpstat_set torture_set = {
	.name = "torture",
	TPSTAT_DATA(&torture_pairs.data,
		    &torture_tasks.data,
		    &torture_keyed.data,
		    &torture_stacks.data),
	.stats = torture_stats,
};

static int __init torture_init(void)
{
	int cpu, err;

	if (!seconds || seconds > 3600 || extra_threads > 64 || !pair_window ||
	    pair_window > TORTURE_WINDOW_MAX || timer_us < 10 || timer_us > 1000000)
		return -EINVAL;
	torture_pairs.capacity = pair_slots;
	torture_pairs.max_age = (u64)pair_age_us * NSEC_PER_USEC;
	torture_tasks.capacity = task_slots;
	torture_timers = alloc_percpu(struct torture_timer);
	if (!torture_timers)
		return -ENOMEM;
	err = tpstat_set_register(&torture_set);
	if (err) {
		free_percpu(torture_timers);
		return err;
	}
	for_each_possible_cpu(cpu) {
		struct torture_timer *tm = per_cpu_ptr(torture_timers, cpu);

		hrtimer_init(&tm->timer, CLOCK_MONOTONIC,
			     HRTIMER_MODE_REL_PINNED_HARD);
		tm->timer.function = torture_timer_fn;
	}
	torture_dir = debugfs_create_dir("tpstat_torture", NULL);
	debugfs_create_file("summary", 0600, torture_dir, NULL,
			    &torture_summary_fops);
	if (run_at_load)
		torture_start();
	return 0;
}

static void __exit torture_exit(void)
{
	mutex_lock(&torture_lock);
	torture_closing = true;
	mutex_unlock(&torture_lock);
	/* A run going on ends now, and is checked and logged as it ends. */
	if (torture_controller)
		kthread_stop(torture_controller);
	debugfs_remove(torture_dir);
	tpstat_set_unregister(&torture_set);
	free_percpu(torture_timers);
}

module_init(torture_init);
module_exit(torture_exit);

MODULE_DESCRIPTION("tpstat tests: a torture of the core's shared tables");
MODULE_LICENSE("GPL");

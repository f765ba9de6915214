// SPDX-License-Identifier: GPL-2.0
/*
 * Softirqs, per vector: raises, runs, the time of each run with and without
 * the hard IRQ handlers that interrupted it, and the latency from a raise to
 * the run that serves it.
 */
#include <linux/ktime.h>
#include <linux/minmax.h>
#include <linux/percpu.h>
#include <linux/sched/clock.h>
#include <linux/string.h>

#include "irq.h"

struct tpstat_softirq_frame {
	u64 start;		/* 0: the entry was not seen */
	u64 hardirq_ns;		/* this CPU's handler time at the entry */
};

struct tpstat_softirq_cpu {
	/* Softirqs do not nest on a CPU: only their own probes touch these. */
	unsigned int epoch;
	struct tpstat_softirq_frame frames[NR_SOFTIRQS];
	u64 worst_ns[NR_SOFTIRQS];
	u64 worst_at[NR_SOFTIRQS];	/* ktime_get_mono_fast_ns() */
	/*
	 * Raises come with interrupts off, from any context but NMI; the
	 * entry probe takes its stamp with interrupts off as well.
	 */
	unsigned int raise_epoch;
	u64 raised_at[NR_SOFTIRQS];	/* first raise not yet served, or 0 */
};

static struct tpstat_softirq_cpu __percpu *softirq_cpu;

struct tpstat_softirq_vec tpstat_softirqs[NR_SOFTIRQS];
struct tpstat_counter tpstat_softirq_unpaired;

/* This CPU's state, its frames dropped if probes were attached since. */
static struct tpstat_softirq_cpu *softirq_this_cpu(void *data)
{
	struct tpstat_softirq_cpu *c = this_cpu_ptr(softirq_cpu);
	unsigned int epoch = tpstat_probe_epoch(data);

	if (unlikely(c->epoch != epoch)) {
		memset(c->frames, 0, sizeof(c->frames));
		c->epoch = epoch;
	}
	return c;
}

/* The same for the raise stamps; with interrupts off. */
static void softirq_sync_raises(struct tpstat_softirq_cpu *c, void *data)
{
	unsigned int epoch = tpstat_probe_epoch(data);

	if (unlikely(c->raise_epoch != epoch)) {
		memset(c->raised_at, 0, sizeof(c->raised_at));
		c->raise_epoch = epoch;
	}
}

/*
 * A vector raised again before it ran is served by one run: the latency
 * counts from the first raise. A raise that lands after the softirq loop
 * took the pending bits but before this vector's entry is served now too,
 * and the extra run it causes has no latency of its own, so latency
 * samples may be fewer than runs, never wrong.
 */
void tpstat_irq_softirq_raise(void *data, unsigned int vec)
{
	struct tpstat_softirq_cpu *c;
	unsigned long flags;

	tpstat_probe_hit(data);
	if (vec >= NR_SOFTIRQS)
		return;
	tpstat_counter_inc(&tpstat_softirqs[vec].raised);
	local_irq_save(flags);
	c = this_cpu_ptr(softirq_cpu);
	softirq_sync_raises(c, data);
	if (!c->raised_at[vec])
		c->raised_at[vec] = local_clock();
	local_irq_restore(flags);
}

static void softirq_latency(struct tpstat_softirq_cpu *c, unsigned int vec,
			    u64 ns)
{
	tpstat_hist_add(&tpstat_softirqs[vec].latency, ns);
	if (ns > c->worst_ns[vec]) {
		WRITE_ONCE(c->worst_ns[vec], ns);
		WRITE_ONCE(c->worst_at[vec], ktime_get_mono_fast_ns());
	}
}

void tpstat_irq_softirq_entry(void *data, unsigned int vec)
{
	u64 now = local_clock();
	struct tpstat_softirq_cpu *c;
	unsigned long flags;
	u64 raised;

	tpstat_probe_hit(data);
	if (vec >= NR_SOFTIRQS)
		return;
	tpstat_counter_inc(&tpstat_softirqs[vec].runs);
	c = softirq_this_cpu(data);
	c->frames[vec].start = now;
	c->frames[vec].hardirq_ns = tpstat_counter_cpu(&tpstat_hardirq_ns,
						       smp_processor_id());

	local_irq_save(flags);
	softirq_sync_raises(c, data);
	raised = c->raised_at[vec];
	c->raised_at[vec] = 0;
	local_irq_restore(flags);
	/* A raise from an IRQ that came after @now is served later. */
	if (raised && raised <= now)
		softirq_latency(c, vec, now - raised);
}

/*
 * Exclusive time: hard IRQ handlers that ran on this CPU between the entry
 * and the exit interrupted this run, since softirqs neither nest nor
 * migrate; their time is taken out.
 */
void tpstat_irq_softirq_exit(void *data, unsigned int vec)
{
	u64 now = local_clock();
	struct tpstat_softirq_frame *f;
	u64 ns, irq_ns;

	tpstat_probe_hit(data);
	if (vec >= NR_SOFTIRQS)
		return;
	f = &softirq_this_cpu(data)->frames[vec];
	if (!f->start) {
		tpstat_counter_inc(&tpstat_softirq_unpaired);
		return;
	}
	ns = now - f->start;
	irq_ns = tpstat_counter_cpu(&tpstat_hardirq_ns, smp_processor_id()) -
		 f->hardirq_ns;
	f->start = 0;
	tpstat_hist_add(&tpstat_softirqs[vec].ns, ns);
	tpstat_counter_add(&tpstat_softirqs[vec].irq_ns, min(irq_ns, ns));
}

/* The worst latency of @vec over all CPUs: where, how long and when. */
void tpstat_softirq_worst(unsigned int vec, int *cpu, u64 *ns, u64 *at)
{
	int i;

	*cpu = -1;
	*ns = 0;
	*at = 0;
	for_each_possible_cpu(i) {
		const struct tpstat_softirq_cpu *c = per_cpu_ptr(softirq_cpu, i);
		u64 worst = READ_ONCE(c->worst_ns[vec]);

		if (worst > *ns) {
			*cpu = i;
			*ns = worst;
			*at = READ_ONCE(c->worst_at[vec]);
		}
	}
}

void tpstat_softirq_destroy(void)
{
	unsigned int vec;

	for (vec = 0; vec < NR_SOFTIRQS; vec++) {
		struct tpstat_softirq_vec *v = &tpstat_softirqs[vec];

		tpstat_counter_destroy(&v->raised);
		tpstat_counter_destroy(&v->runs);
		tpstat_counter_destroy(&v->irq_ns);
		tpstat_hist_destroy(&v->ns);
		tpstat_hist_destroy(&v->latency);
	}
	tpstat_counter_destroy(&tpstat_softirq_unpaired);
	free_percpu(softirq_cpu);
	softirq_cpu = NULL;
}

int tpstat_softirq_init(void)
{
	unsigned int vec;

	for (vec = 0; vec < NR_SOFTIRQS; vec++) {
		struct tpstat_softirq_vec *v = &tpstat_softirqs[vec];

		if (tpstat_counter_init(&v->raised) ||
		    tpstat_counter_init(&v->runs) ||
		    tpstat_counter_init(&v->irq_ns) ||
		    tpstat_hist_init(&v->ns, "nsecs") ||
		    tpstat_hist_init(&v->latency, "nsecs"))
			goto destroy;
	}
	softirq_cpu = alloc_percpu(struct tpstat_softirq_cpu);
	if (!softirq_cpu || tpstat_counter_init(&tpstat_softirq_unpaired))
		goto destroy;
	return 0;

destroy:
	tpstat_softirq_destroy();
	return -ENOMEM;
}

/* Probes are detached: the core calls the set's reset only then. */
void tpstat_softirq_reset(void)
{
	unsigned int vec;
	int cpu;

	for (vec = 0; vec < NR_SOFTIRQS; vec++) {
		struct tpstat_softirq_vec *v = &tpstat_softirqs[vec];

		tpstat_counter_reset(&v->raised);
		tpstat_counter_reset(&v->runs);
		tpstat_counter_reset(&v->irq_ns);
		tpstat_hist_reset(&v->ns);
		tpstat_hist_reset(&v->latency);
	}
	tpstat_counter_reset(&tpstat_softirq_unpaired);
	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(softirq_cpu, cpu), 0,
		       sizeof(struct tpstat_softirq_cpu));
}

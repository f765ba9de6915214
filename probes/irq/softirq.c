// SPDX-License-Identifier: GPL-2.0
/*
 * Softirqs, per vector: raises, runs, the time of each run with and without
 * the hard IRQ handlers that interrupted it, and the latency from a raise to
 * the run that serves it.
 */
#include <linux/minmax.h>
#include <linux/sched/clock.h>

#include "irq.h"

struct tpstat_softirq_frame {
	u64 start;		/* 0: the entry was not seen */
	u64 hardirq_ns;		/* this CPU's handler time at the entry */
};

/* Softirqs do not nest on a CPU: only their own probes touch these. */
struct tpstat_softirq_frames {
	struct tpstat_softirq_frame of[NR_SOFTIRQS];
};

/*
 * Raises come with interrupts off, from any context but NMI; the entry
 * probe takes its stamp with interrupts off as well.
 */
struct tpstat_softirq_raises {
	u64 at[NR_SOFTIRQS];	/* first raise not yet served, or 0 */
};

struct tpstat_scratch tpstat_softirq_frames =
	TPSTAT_SCRATCH(struct tpstat_softirq_frames);
struct tpstat_scratch tpstat_softirq_raises =
	TPSTAT_SCRATCH(struct tpstat_softirq_raises);
struct tpstat_counter tpstat_softirq_raised = TPSTAT_COUNTERS(NR_SOFTIRQS);
struct tpstat_counter tpstat_softirq_runs = TPSTAT_COUNTERS(NR_SOFTIRQS);
struct tpstat_counter tpstat_softirq_irq_ns = TPSTAT_COUNTERS(NR_SOFTIRQS);
struct tpstat_hist tpstat_softirq_ns = TPSTAT_HISTS("nsecs", NR_SOFTIRQS);
struct tpstat_hist tpstat_softirq_latency = TPSTAT_HISTS("nsecs", NR_SOFTIRQS);
struct tpstat_worst tpstat_softirq_worst = TPSTAT_WORSTS(NR_SOFTIRQS);
struct tpstat_counter tpstat_softirq_unpaired = TPSTAT_COUNTER();

/*
 * A vector raised again before it ran is served by one run: the latency
 * counts from the first raise. A raise that lands after the softirq loop
 * took the pending bits but before this vector's entry is served now too,
 * and the extra run it causes has no latency of its own, so latency
 * samples may be fewer than runs, never wrong.
 */
void tpstat_irq_softirq_raise(void *data, unsigned int vec)
{
	struct tpstat_softirq_raises *r;
	unsigned long flags;

	tpstat_probe_hit(data);
	if (vec >= NR_SOFTIRQS)
		return;
	tpstat_counter_inc_at(&tpstat_softirq_raised, vec);
	local_irq_save(flags);
	r = tpstat_scratch_this_cpu(&tpstat_softirq_raises);
	if (!r->at[vec])
		r->at[vec] = local_clock();
	local_irq_restore(flags);
}

void tpstat_irq_softirq_entry(void *data, unsigned int vec)
{
	u64 now = local_clock();
	struct tpstat_softirq_frames *f;
	struct tpstat_softirq_raises *r;
	unsigned long flags;
	u64 raised;

	tpstat_probe_hit(data);
	if (vec >= NR_SOFTIRQS)
		return;
	tpstat_counter_inc_at(&tpstat_softirq_runs, vec);
	f = tpstat_scratch_this_cpu(&tpstat_softirq_frames);
	f->of[vec].start = now;
	f->of[vec].hardirq_ns = tpstat_hardirq_cpu_ns();

	local_irq_save(flags);
	r = tpstat_scratch_this_cpu(&tpstat_softirq_raises);
	raised = r->at[vec];
	r->at[vec] = 0;
	local_irq_restore(flags);
	/* A raise from an IRQ that came after @now is served later. */
	if (raised && raised <= now) {
		tpstat_hist_add_at(&tpstat_softirq_latency, vec, now - raised);
		tpstat_worst_add_at(&tpstat_softirq_worst, vec, now - raised, 0);
	}
}

/*
 * Exclusive time: hard IRQ handlers that ran on this CPU between the entry
 * and the exit interrupted this run, since softirqs neither nest nor
 * migrate; their time is taken out.
 */
void tpstat_irq_softirq_exit(void *data, unsigned int vec)
{
	u64 now = local_clock();
	struct tpstat_softirq_frames *frames;
	struct tpstat_softirq_frame *f;
	u64 ns, irq_ns;

	tpstat_probe_hit(data);
	if (vec >= NR_SOFTIRQS)
		return;
	frames = tpstat_scratch_this_cpu(&tpstat_softirq_frames);
	f = &frames->of[vec];
	if (!f->start) {
		tpstat_counter_inc(&tpstat_softirq_unpaired);
		return;
	}
	ns = now - f->start;
	irq_ns = tpstat_hardirq_cpu_ns() - f->hardirq_ns;
	f->start = 0;
	tpstat_hist_add_at(&tpstat_softirq_ns, vec, ns);
	tpstat_counter_add_at(&tpstat_softirq_irq_ns, vec, min(irq_ns, ns));
}

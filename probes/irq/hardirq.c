// SPDX-License-Identifier: GPL-2.0
/*
 * Hard IRQ handlers: the time from irq_handler_entry to irq_handler_exit,
 * per (IRQ number, handler name), and how often the handler claimed its IRQ.
 */
#include <linux/sched/clock.h>
#include <linux/stringhash.h>

#include "irq.h"

/*
 * Handlers run with interrupts off and do not nest, except that a handler
 * may call generic_handle_irq() for a line it demultiplexes: the child's
 * entry and exit then come between its parent's. A few frames cover that.
 */
#define TPSTAT_HARDIRQ_NEST	4

struct tpstat_hardirq_frame {
	const struct irqaction *action;	/* compared, never dereferenced */
	u64 start;
};

/* Only this CPU's handler probes touch it, with interrupts off. */
struct tpstat_hardirq_cpu {
	unsigned int depth;
	struct tpstat_hardirq_frame frames[TPSTAT_HARDIRQ_NEST];
	u64 handler_ns;		/* all handler time since attached */
};

struct tpstat_scratch tpstat_hardirq_scratch =
	TPSTAT_SCRATCH(struct tpstat_hardirq_cpu);
struct tpstat_keyed tpstat_hardirq_handlers =
	TPSTAT_KEYED_PER_CPU(256, "nsecs", TPSTAT_HARDIRQ_COUNTERS);
struct tpstat_hist tpstat_hardirq_all = TPSTAT_HIST("nsecs");
struct tpstat_counter tpstat_hardirq_unpaired = TPSTAT_COUNTER();

/*
 * A handler is keyed by its IRQ number and a hash of its name, not by its
 * irqaction: the action is freed with its driver and the same address may
 * come back for another handler, whereas (IRQ, name) is what users know
 * from /proc/interrupts. The name is read only in the probe, while the
 * handler is registered (free_irq() waits for running handlers), and the
 * registry copies it the first time. Two names on one IRQ with the same
 * 32-bit hash would share a row: with the few handlers that share an IRQ,
 * about one chance in four billion per pair.
 */
static u64 hardirq_key(int irq, const char *name)
{
	return (u64)(u32)irq << 32 | hashlen_hash(hashlen_string(NULL, name));
}

void tpstat_irq_handler_entry(void *data, int irq, struct irqaction *action)
{
	struct tpstat_hardirq_cpu *c;

	tpstat_probe_hit(data);
	c = tpstat_scratch_this_cpu(&tpstat_hardirq_scratch);
	if (c->depth == TPSTAT_HARDIRQ_NEST) {
		tpstat_probe_drop(data);
		return;
	}
	c->frames[c->depth].action = action;
	c->frames[c->depth].start = local_clock();
	c->depth++;
}

void tpstat_irq_handler_exit(void *data, int irq, struct irqaction *action,
			     int ret)
{
	u64 now = local_clock();
	struct tpstat_hardirq_cpu *c;
	struct tpstat_key_ref ref;
	const char *name;
	u64 ns;

	tpstat_probe_hit(data);
	c = tpstat_scratch_this_cpu(&tpstat_hardirq_scratch);
	/* Attached after the entry, or the entry did not fit: no time. */
	if (!c->depth || c->frames[c->depth - 1].action != action) {
		tpstat_counter_inc(&tpstat_hardirq_unpaired);
		return;
	}
	c->depth--;
	ns = now - c->frames[c->depth].start;
	c->handler_ns += ns;
	tpstat_hist_add(&tpstat_hardirq_all, ns);

	name = action->name ?: "(null)";
	ref = tpstat_keyed_add(&tpstat_hardirq_handlers, hardirq_key(irq, name),
			       ns, "%s", name);
	/* IRQ_NONE: not this handler's device, on a shared line. */
	if (ret != IRQ_NONE)
		tpstat_keyed_count(ref, TPSTAT_HARDIRQ_HANDLED);
}

/*
 * This CPU's handler time so far, for softirq.c. Interrupts go off so that
 * no handler runs while the state may be emptied after a re-attach.
 */
u64 tpstat_hardirq_cpu_ns(void)
{
	struct tpstat_hardirq_cpu *c;
	unsigned long flags;
	u64 ns;

	local_irq_save(flags);
	c = tpstat_scratch_this_cpu(&tpstat_hardirq_scratch);
	ns = c->handler_ns;
	local_irq_restore(flags);
	return ns;
}

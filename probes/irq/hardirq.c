// SPDX-License-Identifier: GPL-2.0
/*
 * Hard IRQ handlers: the time from irq_handler_entry to irq_handler_exit,
 * per (IRQ number, handler name), and how often the handler claimed its IRQ.
 */
#include <linux/percpu.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
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
	unsigned int epoch;
	unsigned int depth;
	struct tpstat_hardirq_frame frames[TPSTAT_HARDIRQ_NEST];
};

static struct tpstat_hardirq_cpu __percpu *hardirq_cpu;

struct tpstat_irq_named tpstat_hardirq_handlers;
struct tpstat_counter *tpstat_hardirq_handled;
struct tpstat_hist tpstat_hardirq_all;
struct tpstat_counter tpstat_hardirq_ns;

/* This CPU's frames, dropped if probes were attached since they were pushed. */
static struct tpstat_hardirq_cpu *hardirq_this_cpu(void *data)
{
	struct tpstat_hardirq_cpu *c = this_cpu_ptr(hardirq_cpu);
	unsigned int epoch = tpstat_probe_epoch(data);

	if (unlikely(c->epoch != epoch)) {
		c->depth = 0;
		c->epoch = epoch;
	}
	return c;
}

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
	c = hardirq_this_cpu(data);
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
	const char *name;
	u64 ns;
	int id;

	tpstat_probe_hit(data);
	c = hardirq_this_cpu(data);
	/* Attached after the entry, or the entry did not fit: no time. */
	if (!c->depth || c->frames[c->depth - 1].action != action) {
		tpstat_counter_inc(&tpstat_hardirq_handlers.unpaired);
		return;
	}
	c->depth--;
	ns = now - c->frames[c->depth].start;
	tpstat_counter_add(&tpstat_hardirq_ns, ns);
	tpstat_hist_add(&tpstat_hardirq_all, ns);

	name = action->name ?: "(null)";
	id = tpstat_keys_id(&tpstat_hardirq_handlers.keys,
			    hardirq_key(irq, name), "%s", name);
	tpstat_irq_named_add(&tpstat_hardirq_handlers, data, id, ns);
	/* IRQ_NONE: not this handler's device, on a shared line. */
	if (id >= 0 && ret != IRQ_NONE)
		tpstat_counter_inc(&tpstat_hardirq_handled[id]);
}

void tpstat_hardirq_destroy(void)
{
	unsigned int i;

	if (tpstat_hardirq_handled)
		for (i = 0; i < tpstat_hardirq_handlers.keys.capacity; i++)
			tpstat_counter_destroy(&tpstat_hardirq_handled[i]);
	kfree(tpstat_hardirq_handled);
	tpstat_hardirq_handled = NULL;
	tpstat_irq_named_destroy(&tpstat_hardirq_handlers);
	tpstat_hist_destroy(&tpstat_hardirq_all);
	tpstat_counter_destroy(&tpstat_hardirq_ns);
	free_percpu(hardirq_cpu);
	hardirq_cpu = NULL;
}

int tpstat_hardirq_init(unsigned int capacity)
{
	unsigned int i;
	int err;

	err = tpstat_irq_named_init(&tpstat_hardirq_handlers, capacity);
	if (err)
		return err;
	err = -ENOMEM;
	tpstat_hardirq_handled = kcalloc(capacity,
					 sizeof(*tpstat_hardirq_handled),
					 GFP_KERNEL);
	if (!tpstat_hardirq_handled)
		goto destroy;
	for (i = 0; i < capacity; i++)
		if (tpstat_counter_init(&tpstat_hardirq_handled[i]))
			goto destroy;
	hardirq_cpu = alloc_percpu(struct tpstat_hardirq_cpu);
	if (!hardirq_cpu || tpstat_hist_init(&tpstat_hardirq_all, "nsecs") ||
	    tpstat_counter_init(&tpstat_hardirq_ns))
		goto destroy;
	return 0;

destroy:
	tpstat_hardirq_destroy();
	return err;
}

/* Probes are detached: the core calls the set's reset only then. */
void tpstat_hardirq_reset(void)
{
	unsigned int i;
	int cpu;

	tpstat_irq_named_reset(&tpstat_hardirq_handlers);
	for (i = 0; i < tpstat_hardirq_handlers.keys.capacity; i++)
		tpstat_counter_reset(&tpstat_hardirq_handled[i]);
	tpstat_hist_reset(&tpstat_hardirq_all);
	for_each_possible_cpu(cpu)
		per_cpu_ptr(hardirq_cpu, cpu)->depth = 0;
}

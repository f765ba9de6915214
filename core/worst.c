// SPDX-License-Identifier: GPL-2.0
/*
 * Worst cases: recording a new worst and folding all CPUs'. The compare
 * that rejects the common case is inline in <tpstat/worst.h>.
 */
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "internal.h"

TPSTAT_PERCPU_OPS(tpstat_worst, struct tpstat_worst_cpu, TPSTAT_MEM_COUNTERS,
		  NULL);

/* With interrupts off nothing but an NMI, which never records, comes between. */
void __tpstat_worst_record(struct tpstat_worst_cpu __percpu *pcpu, u64 value,
			   u64 tag, const char *name)
{
	struct tpstat_worst_cpu *wc;
	unsigned long flags;

	local_irq_save(flags);
	wc = this_cpu_ptr(pcpu);
	if (value > wc->value) {
		WRITE_ONCE(wc->seq, wc->seq + 1);
		/* An odd seq is seen before any field changes. */
		smp_wmb();
		WRITE_ONCE(wc->value, value);
		WRITE_ONCE(wc->at, ktime_get_mono_fast_ns());
		WRITE_ONCE(wc->tag, tag);
		strscpy(wc->name, name ?: "", sizeof(wc->name));
		/* Every field is seen before the even seq. */
		smp_wmb();
		WRITE_ONCE(wc->seq, wc->seq + 1);
	}
	local_irq_restore(flags);
}
EXPORT_SYMBOL_GPL(__tpstat_worst_record);

/* One CPU's record, whole: read again while its writer was in the middle. */
static void tpstat_worst_read_cpu(const struct tpstat_worst_cpu *wc,
				  struct tpstat_worst_case *out)
{
	unsigned int seq;

	do {
		seq = READ_ONCE(wc->seq);
		/* Pairs with the writer's first smp_wmb(). */
		smp_rmb();
		out->value = READ_ONCE(wc->value);
		out->at = READ_ONCE(wc->at);
		out->tag = READ_ONCE(wc->tag);
		memcpy(out->name, wc->name, sizeof(out->name));
		/* Pairs with the writer's second smp_wmb(). */
		smp_rmb();
	} while ((seq & 1) || seq != READ_ONCE(wc->seq));
	out->name[sizeof(out->name) - 1] = '\0';
}

void tpstat_worst_read_at(const struct tpstat_worst *w, unsigned int i,
			  struct tpstat_worst_case *wc)
{
	struct tpstat_worst_cpu __percpu *pcpu = READ_ONCE(w->pcpu) + i;
	u64 reset_ns = READ_ONCE(w->data.set->reset_ns);
	struct tpstat_worst_case one;
	int cpu;

	memset(wc, 0, sizeof(*wc));
	wc->cpu = -1;
	for_each_possible_cpu(cpu) {
		tpstat_worst_read_cpu(per_cpu_ptr(pcpu, cpu), &one);
		if (one.value > wc->value) {
			*wc = one;
			wc->cpu = cpu;
		}
	}
	/* Both clocks are CLOCK_MONOTONIC; a case from just before is 0. */
	wc->after_reset = wc->at - min(wc->at, reset_ns);
}
EXPORT_SYMBOL_GPL(tpstat_worst_read_at);

void tpstat_worst_print(struct seq_file *m, const struct tpstat_worst_case *wc,
			const char *unit)
{
	u32 rem;
	u64 secs = div_u64_rem(wc->after_reset, NSEC_PER_SEC, &rem);

	if (wc->cpu < 0)
		return;
	seq_printf(m, " worst %llu %s on cpu%d, %llu.%03u s after reset",
		   wc->value, unit, wc->cpu, secs, rem / (u32)NSEC_PER_MSEC);
}
EXPORT_SYMBOL_GPL(tpstat_worst_print);

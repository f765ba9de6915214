/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Worst cases: the largest value seen, with when and on which CPU it was
 * seen, a tag the probe chooses (a pid, a vector) and a name (a command),
 * per CPU.
 */
#ifndef _TPSTAT_WORST_H
#define _TPSTAT_WORST_H

#include <linux/hardirq.h>
#include <linux/irqflags.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/types.h>
#include <tpstat/data.h>

/* Bytes of a worst case's name, with its NUL: a command's. */
#define TPSTAT_WORST_NAME	16

struct tpstat_worst_cpu {
	unsigned int seq;	/* odd while the record is being written */
	u64 value;
	u64 at;			/* ktime_get_mono_fast_ns() */
	u64 tag;
	char name[TPSTAT_WORST_NAME];
};

/**
 * struct tpstat_worst - @nr worst cases, one record of each per CPU
 * @pcpu: the live generation: this CPU's @nr records
 * @nr: how many (one, or one per vector, ...); 0 means 1
 * @gen: private: the live generation, and during a reset the next
 * @data: private: what the core handles
 *
 * Declare it with TPSTAT_WORST() or TPSTAT_WORSTS(n) and list it in the
 * set's data.
 */
struct tpstat_worst {
	struct tpstat_worst_cpu __percpu *pcpu;
	unsigned int nr;
	/* private: */
	struct tpstat_worst_cpu __percpu *gen[TPSTAT_GENERATIONS];
	struct tpstat_data data;
};

extern const struct tpstat_data_ops tpstat_worst_ops;

#define TPSTAT_WORSTS(n)	{ .nr = (n), .data.ops = &tpstat_worst_ops }
#define TPSTAT_WORST()		TPSTAT_WORSTS(1)

/**
 * struct tpstat_worst_case - the worst of all CPUs, as read
 * @value: the value, 0 if none was seen
 * @at: when, by ktime_get_mono_fast_ns()
 * @after_reset: when, in nanoseconds after the set's last reset
 * @tag: what the probe tagged it with
 * @name: the name it gave, "" if none
 * @cpu: where, -1 if none was seen
 */
struct tpstat_worst_case {
	u64 value;
	u64 at;
	u64 after_reset;
	u64 tag;
	char name[TPSTAT_WORST_NAME];
	int cpu;
};

void __tpstat_worst_record(struct tpstat_worst_cpu __percpu *pcpu, u64 value,
			   u64 tag, const char *name);

/**
 * tpstat_worst_add_at() - offer @value as worst case @i; any context but NMI
 * @w: the worst cases
 * @i: which, below @w->nr
 * @value: the value
 * @tag: kept with it if it is the worst
 * @name: kept with it too, cut to %TPSTAT_WORST_NAME - 1 bytes; may be NULL
 *
 * Only a new worst costs more than a compare. In NMI nothing is recorded:
 * the record is written in steps an NMI could tear.
 */
static inline void tpstat_worst_add_named_at(struct tpstat_worst *w,
					     unsigned int i, u64 value,
					     u64 tag, const char *name)
{
	struct tpstat_worst_cpu __percpu *pcpu = READ_ONCE(w->pcpu) + i;

	if (unlikely(value > this_cpu_read(pcpu->value)) && !in_nmi())
		__tpstat_worst_record(pcpu, value, tag, name);
}

static inline void tpstat_worst_add_at(struct tpstat_worst *w, unsigned int i,
				       u64 value, u64 tag)
{
	tpstat_worst_add_named_at(w, i, value, tag, NULL);
}

/**
 * tpstat_worst_read_at() - the worst of all CPUs for case @i
 * @w: the worst cases
 * @i: which, below @w->nr
 * @wc: where it goes
 */
void tpstat_worst_read_at(const struct tpstat_worst *w, unsigned int i,
			  struct tpstat_worst_case *wc);

/**
 * tpstat_worst_print() - " worst V UNIT on cpuN, S.mmm s after reset"
 * @m: the file
 * @wc: a worst case as read; nothing is printed if none was seen
 * @unit: the value's unit ("ns")
 */
void tpstat_worst_print(struct seq_file *m, const struct tpstat_worst_case *wc,
			const char *unit);

#endif /* _TPSTAT_WORST_H */

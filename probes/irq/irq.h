/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tpstat_irq.ko: what its parts share. hardirq.c, softirq.c and tasklet.c
 * hold the probes, their per-CPU state and the data they count into,
 * output.c the files, main.c the set.
 */
#ifndef _TPSTAT_IRQ_H
#define _TPSTAT_IRQ_H

#include <linux/interrupt.h>
#include <tpstat/tpstat.h>

/* hardirq.c: handlers keyed by IRQ number and name */
enum { TPSTAT_HARDIRQ_HANDLED, TPSTAT_HARDIRQ_COUNTERS };

extern struct tpstat_scratch tpstat_hardirq_scratch;	/* entries pending */
extern struct tpstat_keyed tpstat_hardirq_handlers;	/* time, handled */
extern struct tpstat_hist tpstat_hardirq_all;
extern struct tpstat_counter tpstat_hardirq_unpaired;

u64 tpstat_hardirq_cpu_ns(void);
void tpstat_irq_handler_entry(void *data, int irq, struct irqaction *action);
void tpstat_irq_handler_exit(void *data, int irq, struct irqaction *action,
			     int ret);

/* softirq.c: one of each per vector */
extern struct tpstat_scratch tpstat_softirq_frames;	/* runs pending */
extern struct tpstat_scratch tpstat_softirq_raises;	/* raises pending */
extern struct tpstat_counter tpstat_softirq_raised;
extern struct tpstat_counter tpstat_softirq_runs;	/* at entry, as /proc/softirqs */
extern struct tpstat_counter tpstat_softirq_irq_ns;	/* hard IRQ time inside runs */
extern struct tpstat_hist tpstat_softirq_ns;		/* entry to exit */
extern struct tpstat_hist tpstat_softirq_latency;	/* first raise to entry */
extern struct tpstat_worst tpstat_softirq_worst;	/* of the latency */
extern struct tpstat_counter tpstat_softirq_unpaired;

void tpstat_irq_softirq_raise(void *data, unsigned int vec);
void tpstat_irq_softirq_entry(void *data, unsigned int vec);
void tpstat_irq_softirq_exit(void *data, unsigned int vec);

/* tasklet.c: keyed by function */
extern struct tpstat_scratch tpstat_tasklet_scratch;	/* entry pending */
extern struct tpstat_keyed tpstat_tasklets;
extern struct tpstat_counter tpstat_tasklet_unpaired;

void tpstat_irq_tasklet_entry(void *data, struct tasklet_struct *t,
			      void *func);
void tpstat_irq_tasklet_exit(void *data, struct tasklet_struct *t, void *func);

/* output.c */
int tpstat_irq_hardirq_show(struct seq_file *m, struct tpstat_set *set);
int tpstat_irq_hardirq_hist_show(struct seq_file *m, struct tpstat_set *set);
int tpstat_irq_softirq_show(struct seq_file *m, struct tpstat_set *set);
int tpstat_irq_softirq_hist_show(struct seq_file *m, struct tpstat_set *set);
int tpstat_irq_softirq_latency_show(struct seq_file *m, struct tpstat_set *set);
int tpstat_irq_tasklet_show(struct seq_file *m, struct tpstat_set *set);
int tpstat_irq_stats(struct seq_file *m, struct tpstat_set *set);

#endif /* _TPSTAT_IRQ_H */

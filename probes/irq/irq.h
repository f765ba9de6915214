/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tpstat_irq.ko: what its parts share. hardirq.c, softirq.c and tasklet.c
 * hold the probes and their per-CPU state, named.c the per-key histograms
 * that hardirq.c and tasklet.c fill, output.c the files, main.c the set.
 */
#ifndef _TPSTAT_IRQ_H
#define _TPSTAT_IRQ_H

#include <linux/interrupt.h>
#include <tpstat/tpstat.h>

/*
 * Events of things with a name (an IRQ handler, a tasklet function): the
 * registry names each key the first time it is seen and gives it an id,
 * which picks its time histogram: count, total, max and per-CPU counts.
 */
struct tpstat_irq_named {
	struct tpstat_keys keys;
	struct tpstat_hist *ns;
	struct tpstat_counter dropped;	/* events of keys that did not fit */
	struct tpstat_counter unpaired;	/* ends whose start was not seen */
};

/* named.c */
int tpstat_irq_named_init(struct tpstat_irq_named *n, unsigned int capacity);
void tpstat_irq_named_destroy(struct tpstat_irq_named *n);
void tpstat_irq_named_reset(struct tpstat_irq_named *n);
void tpstat_irq_named_add(struct tpstat_irq_named *n, void *data, int id,
			  u64 ns);

/* hardirq.c: handlers keyed by IRQ number and name */
extern struct tpstat_irq_named tpstat_hardirq_handlers;
extern struct tpstat_counter *tpstat_hardirq_handled;	/* by handler id */
extern struct tpstat_hist tpstat_hardirq_all;
/* Handler time per CPU, which softirq.c takes out of the softirqs it hit. */
extern struct tpstat_counter tpstat_hardirq_ns;

int tpstat_hardirq_init(unsigned int capacity);
void tpstat_hardirq_destroy(void);
void tpstat_hardirq_reset(void);
void tpstat_irq_handler_entry(void *data, int irq, struct irqaction *action);
void tpstat_irq_handler_exit(void *data, int irq, struct irqaction *action,
			     int ret);

/* softirq.c: one of each per vector */
struct tpstat_softirq_vec {
	struct tpstat_counter raised;
	struct tpstat_counter runs;	/* at entry, as /proc/softirqs counts */
	struct tpstat_counter irq_ns;	/* hard IRQ handler time inside runs */
	struct tpstat_hist ns;		/* entry to exit */
	struct tpstat_hist latency;	/* first raise to entry */
};

extern struct tpstat_softirq_vec tpstat_softirqs[NR_SOFTIRQS];
extern struct tpstat_counter tpstat_softirq_unpaired;

int tpstat_softirq_init(void);
void tpstat_softirq_destroy(void);
void tpstat_softirq_reset(void);
void tpstat_softirq_worst(unsigned int vec, int *cpu, u64 *ns, u64 *at);
void tpstat_irq_softirq_raise(void *data, unsigned int vec);
void tpstat_irq_softirq_entry(void *data, unsigned int vec);
void tpstat_irq_softirq_exit(void *data, unsigned int vec);

/* tasklet.c: keyed by function */
extern struct tpstat_irq_named tpstat_tasklets;

int tpstat_tasklet_init(unsigned int capacity);
void tpstat_tasklet_destroy(void);
void tpstat_tasklet_reset(void);
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

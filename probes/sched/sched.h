/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tpstat_sched.ko: what its parts share. switch.c holds the switch and
 * wakeup probes (switches, run-queue latency, on-CPU and off-CPU time),
 * life.c the fork, exec, exit and migration probes, output.c the files,
 * main.c the set.
 */
#ifndef _TPSTAT_SCHED_H
#define _TPSTAT_SCHED_H

#include <linux/sched.h>
#include <tpstat/tpstat.h>

/* switch.c */
enum { SCHED_VOLUNTARY, SCHED_INVOLUNTARY, SCHED_FROM_IDLE, SCHED_SWITCH_KINDS };
/* Per command: a histogram of each of these times, and switches by kind. */
enum { SCHED_COMM_SLICE, SCHED_COMM_RUNQ, SCHED_COMM_OFF, SCHED_COMM_HISTS };
/* Voluntary switches are the slices less these. */
enum { SCHED_COMM_INVOLUNTARY, SCHED_COMM_COUNTERS };

extern struct tpstat_scratch tpstat_sched_oncpu;
extern struct tpstat_counter tpstat_sched_switches;	/* per kind */
extern struct tpstat_keyed tpstat_sched_comms;
extern struct tpstat_hist tpstat_sched_runqlat;
extern struct tpstat_hist tpstat_sched_cpudist;
extern struct tpstat_hist tpstat_sched_offcpu;
extern struct tpstat_worst tpstat_sched_runq_worst;	/* tag: pid */
extern struct tpstat_tasks tpstat_sched_tasks;

struct tpstat_key_ref tpstat_sched_comm_add(struct tpstat_keyed *k,
					    struct task_struct *p, u64 value);
void tpstat_sched_switch(void *data, bool preempt, struct task_struct *prev,
			 struct task_struct *next, unsigned int prev_state);
void tpstat_sched_wakeup(void *data, struct task_struct *p);
void tpstat_sched_wakeup_new(void *data, struct task_struct *p);

/* life.c */
enum { SCHED_FORKS, SCHED_EXECS, SCHED_EXITS, SCHED_LIFE_EVENTS };

extern struct tpstat_counter tpstat_sched_life;		/* per event */
enum { SCHED_LIFE_FORKS, SCHED_LIFE_EXECS, SCHED_LIFE_COUNTERS };
extern struct tpstat_keyed tpstat_sched_life_comms;	/* lifetimes; counters */
extern struct tpstat_hist tpstat_sched_lifetime;
/* Migrations: the matrix, if every pair fits, else the table of pairs. */
extern bool tpstat_sched_migration_matrix;
extern struct tpstat_shared_counter tpstat_sched_migrations;	/* [from][to] */
extern struct tpstat_keyed tpstat_sched_migration_pairs;	/* a counter */

void tpstat_sched_newtask(void *data, struct task_struct *task,
			  unsigned long clone_flags);
void tpstat_sched_exec(void *data, struct task_struct *p, pid_t old_pid,
		       struct linux_binprm *bprm);
void tpstat_sched_exit(void *data, struct task_struct *p);
void tpstat_sched_migrate(void *data, struct task_struct *p, int dest_cpu);

/* output.c */
int tpstat_sched_switches_show(struct seq_file *m, struct tpstat_set *set);
int tpstat_sched_runqlat_show(struct seq_file *m, struct tpstat_set *set);
int tpstat_sched_runqlat_cpus_show(struct seq_file *m, struct tpstat_set *set);
int tpstat_sched_cpudist_show(struct seq_file *m, struct tpstat_set *set);
int tpstat_sched_offcpu_show(struct seq_file *m, struct tpstat_set *set);
int tpstat_sched_lifecycle_show(struct seq_file *m, struct tpstat_set *set);
int tpstat_sched_migrations_show(struct seq_file *m, struct tpstat_set *set);
int tpstat_sched_stats(struct seq_file *m, struct tpstat_set *set);

#endif /* _TPSTAT_SCHED_H */

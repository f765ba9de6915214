/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tpstat_stack.ko: what its parts share. main.c holds the set and its
 * control, entry.c an entry's life (parsed, added, removed), probe.c the
 * probe, offcpu.c the offcpu entry's probe, output.c the files.
 */
#ifndef _TPSTAT_STACK_H
#define _TPSTAT_STACK_H

#include <linux/list.h>
#include <tpstat/tpstat.h>

/* What an entry counts by: the stack and its keys, each a bit. */
enum {
	STACK_BY_STACK = 1 << 0,
	STACK_BY_COMM = 1 << 1,
	STACK_BY_PID = 1 << 2,
	STACK_BY_TGID = 1 << 3,
	STACK_BY_CPU = 1 << 4,
	STACK_BY_ALL = (1 << 5) - 1
};

/*
 * Where each key lies in the small key of an entry's counts: a command in
 * the first two words, pid and tgid halves of the third, the CPU the
 * fourth; words an entry does not count by stay zero.
 */
enum { STACK_WORD_COMM, STACK_WORD_IDS = 2, STACK_WORD_CPU };

/* The entry that sums off-CPU time, and the tasks it can follow at once. */
#define STACK_OFFCPU		"offcpu"
#define STACK_OFFCPU_TASKS	8192

/*
 * One tracepoint counted by some keys: a set of its own, under the
 * stack set's directory, with one probe and its counts. The offcpu entry
 * sums, in its rows, the time tasks waited, and keeps each blocked task's
 * start in its task table.
 */
struct stack_entry {
	struct tpstat_set set;
	struct tpstat_probe probe;
	struct tpstat_stacks stacks;
	struct tpstat_tasks tasks;
	struct tpstat_data *data[2];
	unsigned int by;
	bool offcpu;
	struct list_head node;
	char name[TPSTAT_NAME_MAX + 1];
};

extern struct tpstat_set tpstat_stack_set;
extern unsigned int tpstat_stack_depth;
extern unsigned int tpstat_stack_max_stacks;
extern unsigned int tpstat_stack_top;
extern unsigned int tpstat_stack_max_entries;
extern bool tpstat_stack_collide;

/* entry.c */
int tpstat_stack_add(char *line);
int tpstat_stack_remove(const char *name);
/* Removes every entry, and makes no more: the set is going. */
void tpstat_stack_close(void);
int tpstat_stack_control_show(struct seq_file *m, struct tpstat_set *set);
void tpstat_stack_print_by(struct seq_file *m, unsigned int by);

/* probe.c */
void tpstat_stack_probe(void *data);
/* The keys of the task running now, as @e counts by them. */
void tpstat_stack_key(const struct stack_entry *e, struct tpstat_key *key);

/* offcpu.c */
void tpstat_stack_offcpu_init(struct stack_entry *e);

/* output.c */
extern const struct tpstat_file tpstat_stack_entry_files[2];
int tpstat_stack_entry_stats(struct seq_file *m, struct tpstat_set *set);

#endif /* _TPSTAT_STACK_H */

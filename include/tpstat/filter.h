/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Filters: an expression over the fields a set declares ("len > 128 &&
 * dev == lo"), written to a file, compiled once when written and run by
 * the probes before they record anything. Events that do not match are
 * not counted anywhere but in the filter's own rejected count.
 *
 * A probe loads the program's pointer, as it loads its data's; a new
 * program is published in place of the old, which is freed once no probe
 * can still be running it. So a write never stops the probes, and a bad
 * expression is refused before anything changes.
 */
#ifndef _TPSTAT_FILTER_H
#define _TPSTAT_FILTER_H

#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/seq_file.h>
#include <linux/types.h>
#include <tpstat/compat.h>
#include <tpstat/counter.h>
#include <tpstat/data.h>
#include <tpstat/filter_prog.h>

/**
 * struct tpstat_filter - a filter over a set's fields
 * @fields: the fields an expression may name
 * @nr_fields: their number
 * @prog: private: the program in force, NULL when every event passes
 * @stats: private: events the program rejected, per CPU
 * @data: private: what the core handles
 *
 * Declare it with TPSTAT_FILTER(fields), list it in the set's data and
 * show it with TPSTAT_FILTER_FILE(). A reset zeroes the rejected count,
 * not the program.
 */
struct tpstat_filter {
	const struct tpstat_field *fields;
	unsigned int nr_fields;
	/* private: */
	struct tpstat_filter_prog *prog;
	struct tpstat_counter stats;
	struct tpstat_data data;
};

extern const struct tpstat_data_ops tpstat_filter_ops;

#define TPSTAT_FILTER(f)						\
	{ .fields = (f), .nr_fields = ARRAY_SIZE(f),			\
	  .stats = TPSTAT_COUNTER(), .data.ops = &tpstat_filter_ops }

/**
 * tpstat_filter_prog() - the program in force, for a probe
 * @f: the filter
 *
 * Return: the program, or NULL when there is none and every event passes:
 * a probe fills in its fields only when there is one.
 */
static __always_inline const struct tpstat_filter_prog *
tpstat_filter_prog(const struct tpstat_filter *f)
{
	return READ_ONCE(f->prog);
}

/**
 * tpstat_filter_pass() - whether an event passes, counting it if it does not
 * @f: the filter
 * @prog: what tpstat_filter_prog() returned, not NULL
 * @v: the event's fields, at the slots the set declared
 *
 * Return: true if the event is to be counted.
 */
static __always_inline bool
tpstat_filter_pass(struct tpstat_filter *f, const struct tpstat_filter_prog *prog,
		   const u64 *v)
{
	if (tpstat_filter_prog_run(prog, v))
		return true;
	tpstat_counter_inc(&f->stats);
	return false;
}

/**
 * tpstat_filter_name() - a name field's value, from 16 bytes in memory
 * @slot: the field's two slots
 * @name: a task's comm or an interface's name, TASK_COMM_LEN or IFNAMSIZ
 *        (16) bytes long; bytes after its NUL are never compared
 */
static __always_inline void tpstat_filter_name(u64 *slot, const char *name)
{
	slot[0] = get_unaligned((const u64 *)name);
	slot[1] = get_unaligned((const u64 *)(name + 8));
}

/**
 * tpstat_filter_set() - compile an expression and put it in force
 * @f: a filter of a registered set
 * @text: the expression; empty, blank or "0" lifts the filter
 *
 * A malformed expression is refused with one log line saying where, and
 * the program in force stays.
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int tpstat_filter_set(struct tpstat_filter *f, const char *text);

/**
 * tpstat_filter_print_stats() - "<prefix>.rejected N"
 * @m: the file
 * @f: the filter
 * @prefix: the name in front of the key
 */
void tpstat_filter_print_stats(struct seq_file *m, const struct tpstat_filter *f,
			       const char *prefix);

#endif /* _TPSTAT_FILTER_H */

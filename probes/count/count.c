// SPDX-License-Identifier: GPL-2.0
/*
 * tpstat_count.ko: count any tracepoint by name, per CPU, with no prototype:
 * the cheap equivalent of perf stat -e.
 *
 *   insmod tpstat_count.ko tracepoints=sched_switch,kmalloc
 *   echo irq_handler_entry > /sys/kernel/debug/tpstat/count/control
 *   echo '!kmalloc' > /sys/kernel/debug/tpstat/count/control
 *   echo 'comm == sh && cpu == 1' > /sys/kernel/debug/tpstat/count/filter
 *   cat /sys/kernel/debug/tpstat/count/counts
 */
#include <linux/atomic.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>

#include <tpstat/tpstat.h>

static char *tracepoints;
module_param(tracepoints, charp, 0400);
MODULE_PARM_DESC(tracepoints, "comma-separated tracepoints to count from load");

static unsigned int max_tracepoints = 256;
module_param(max_tracepoints, uint, 0400);
MODULE_PARM_DESC(max_tracepoints, "most tracepoints counted at once (1-4096, default 256)");

#define TPSTAT_COUNT_MAX_TRACEPOINTS	4096

static atomic_t tpstat_count_nr = ATOMIC_INIT(0);

/* What a filter may test: the task and the CPU an event comes from. */
enum { COUNT_CPU, COUNT_PID, COUNT_TGID, COUNT_COMM, COUNT_COMM_HI, COUNT_SLOTS };

static const struct tpstat_field tpstat_count_fields[] = {
	TPSTAT_FIELD_NUMBER("cpu", COUNT_CPU),
	TPSTAT_FIELD_NUMBER("pid", COUNT_PID),
	TPSTAT_FIELD_NUMBER("tgid", COUNT_TGID),
	TPSTAT_FIELD_NAME("comm", COUNT_COMM),
};

static struct tpstat_filter tpstat_count_filter = TPSTAT_FILTER(tpstat_count_fields);

/*
 * Called with the tracepoint's own arguments after @data, which it ignores:
 * fine on x86-64, refused at load on kCFI kernels. An event the filter
 * rejects is not a hit.
 */
static void tpstat_count_probe(void *data)
{
	const struct tpstat_filter_prog *prog = tpstat_filter_prog(&tpstat_count_filter);

	if (prog) {
		u64 v[COUNT_SLOTS];

		v[COUNT_CPU] = raw_smp_processor_id();
		v[COUNT_PID] = current->pid;
		v[COUNT_TGID] = current->tgid;
		tpstat_filter_name(&v[COUNT_COMM], current->comm);
		if (!tpstat_filter_pass(&tpstat_count_filter, prog, v))
			return;
	}
	tpstat_probe_hit(data);
}

static int tpstat_count_add(struct tpstat_set *set, const char *name)
{
	int err;

	if (atomic_inc_return(&tpstat_count_nr) > max_tracepoints) {
		atomic_dec(&tpstat_count_nr);
		pr_warn("tpstat_count: already counting max_tracepoints=%u tracepoints\n",
			max_tracepoints);
		return -ENOSPC;
	}
	err = tpstat_set_add_probe(set, name, tpstat_count_probe);
	if (err)
		atomic_dec(&tpstat_count_nr);
	return err;
}

static int tpstat_count_remove(struct tpstat_set *set, const char *name)
{
	int err = tpstat_set_remove_probe(set, name);

	if (!err)
		atomic_dec(&tpstat_count_nr);
	return err;
}

static int tpstat_counts_show(struct seq_file *m, struct tpstat_set *set)
{
	struct tpstat_probe *probe;
	int cpu;

	seq_printf(m, "%-32s %-9s %14s", "tracepoint", "state", "total");
	tpstat_print_cpu_columns(m, 12);

	tpstat_for_each_probe(probe, set) {
		seq_printf(m, "%-32s %-9s %14llu", probe->name,
			   tpstat_probe_state(probe),
			   tpstat_counter_sum(&probe->hits));
		tpstat_for_each_shown_cpu(cpu)
			seq_printf(m, " %12llu", tpstat_counter_cpu(&probe->hits, cpu));
		seq_putc(m, '\n');
	}
	return 0;
}

static int tpstat_control_show(struct seq_file *m, struct tpstat_set *set)
{
	struct tpstat_probe *probe;

	tpstat_for_each_probe(probe, set)
		seq_printf(m, "%s\n", probe->name);
	return 0;
}

/* "name" starts counting a tracepoint, "!name" stops, as in ftrace's set_event. */
static int tpstat_control_write(struct tpstat_set *set,
				const struct tpstat_file *file, char *line)
{
	if (line[0] == '!')
		return tpstat_count_remove(set, line + 1);
	return tpstat_count_add(set, line);
}

static int tpstat_count_stats(struct seq_file *m, struct tpstat_set *set)
{
	struct tpstat_probe *probe;
	int cpu;

	tpstat_for_each_probe(probe, set)
		tpstat_for_each_shown_cpu(cpu)
			seq_printf(m, "%s.cpu%d %llu\n", probe->name, cpu,
				   tpstat_counter_cpu(&probe->hits, cpu));
	tpstat_filter_print_stats(m, &tpstat_count_filter, "filter");
	return 0;
}

static const struct tpstat_file tpstat_count_files[] = {
	{ .name = "counts", .show = tpstat_counts_show },
	{ .name = "control", .show = tpstat_control_show,
	  .write = tpstat_control_write, .no_header = true },
	TPSTAT_FILTER_FILE("filter", &tpstat_count_filter),
};

static struct tpstat_data *const tpstat_count_data[] = {
	&tpstat_count_filter.data,
};

static struct tpstat_set tpstat_count_set = {
	.name = "count",
	.files = tpstat_count_files,
	.nr_files = ARRAY_SIZE(tpstat_count_files),
	.data = tpstat_count_data,
	.nr_data = ARRAY_SIZE(tpstat_count_data),
	.stats = tpstat_count_stats,
};

/*
 * tracepoints= is a comma-separated list; blanks around a name and empty
 * entries (a trailing comma) are allowed. A name listed twice is refused,
 * naming it, rather than counted twice or once by surprise.
 */
static int tpstat_count_add_param(void)
{
	char *list, *cursor, *name;
	int err = 0;

	if (!tracepoints)
		return 0;
	list = kstrdup(tracepoints, GFP_KERNEL);
	if (!list)
		return -ENOMEM;
	cursor = list;
	while (!err && (name = strsep(&cursor, ","))) {
		name = strim(name);
		if (!*name)
			continue;
		err = tpstat_count_add(&tpstat_count_set, name);
		if (err == -EEXIST) {
			pr_err("tpstat_count: tracepoints= lists %s twice\n", name);
			err = -EINVAL;
		}
	}
	kfree(list);
	return err;
}

static int __init tpstat_count_init(void)
{
	int err;

	if (TPSTAT_UNTYPED_PROBES_TRAP) {
		pr_err("tpstat_count: this kernel has kCFI, which traps untyped probes\n");
		return -EOPNOTSUPP;
	}
	if (!max_tracepoints || max_tracepoints > TPSTAT_COUNT_MAX_TRACEPOINTS) {
		pr_err("tpstat_count: max_tracepoints must be 1 to %d\n",
		       TPSTAT_COUNT_MAX_TRACEPOINTS);
		return -EINVAL;
	}
	err = tpstat_set_register(&tpstat_count_set);
	if (err)
		return err;
	err = tpstat_count_add_param();
	if (err)
		tpstat_set_unregister(&tpstat_count_set);
	return err;
}

static void __exit tpstat_count_exit(void)
{
	tpstat_set_unregister(&tpstat_count_set);
}

module_init(tpstat_count_init);
module_exit(tpstat_count_exit);

MODULE_DESCRIPTION("tpstat: count any tracepoint by name");
MODULE_LICENSE("GPL");

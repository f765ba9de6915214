// SPDX-License-Identifier: GPL-2.0
/*
 * The files under /sys/kernel/debug/tpstat/: version and probes at the top,
 * then a directory per probe set with enable, reset, stats, metrics and its
 * own files.
 */
#include <linux/cpu.h>
#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/wait_bit.h>

#include "internal.h"

/* Longer writes are refused: no control line needs more. */
#define TPSTAT_WRITE_MAX	256

/*
 * What a file shows, and how long it was last time: a seq_file whose
 * buffer overflows runs show again with twice the buffer, folding every
 * CPU again, so each open starts with room for the last output.
 */
struct tpstat_binding {
	struct tpstat_set *set;
	const struct tpstat_file *file;
	size_t last_size;
};

static struct dentry *tpstat_root;

static int tpstat_enable_show(struct seq_file *m, struct tpstat_set *set)
{
	seq_printf(m, "%d\n", set->enabled);
	return 0;
}

static int tpstat_enable_write(struct tpstat_set *set,
			       const struct tpstat_file *file, char *line)
{
	if (strcmp(line, "0") && strcmp(line, "1"))
		return -EINVAL;
	tpstat_set_enable(set, line[0] == '1');
	return 0;
}

static int tpstat_reset_write(struct tpstat_set *set,
			      const struct tpstat_file *file, char *line)
{
	if (strcmp(line, "1"))
		return -EINVAL;
	return tpstat_set_reset(set);
}

/* A file of TPSTAT_HIST_FILE(): its histogram is the set's stats too. */
static struct tpstat_hist *tpstat_file_hist(const struct tpstat_file *file)
{
	return file->show == tpstat_hist_show ? file->priv : NULL;
}

static int tpstat_stats_show(struct seq_file *m, struct tpstat_set *set)
{
	struct tpstat_probe *probe;
	unsigned int i;
	int err;

	seq_printf(m, "since_reset_ns %llu\n",
		   ktime_get_ns() - READ_ONCE(set->reset_ns));
	seq_printf(m, "enabled %d\n", set->enabled);
	tpstat_for_each_probe(probe, set) {
		seq_printf(m, "%s.hits %llu\n", probe->name,
			   tpstat_counter_sum(&probe->hits));
		seq_printf(m, "%s.dropped %llu\n", probe->name,
			   tpstat_counter_sum(&probe->dropped));
	}
	for (i = 0; i < set->nr_files; i++) {
		struct tpstat_hist *h = tpstat_file_hist(&set->files[i]);

		if (!h)
			continue;
		err = tpstat_hist_print_stats(m, h, set->files[i].name);
		if (err)
			return err;
	}
	return set->stats ? set->stats(m, set) : 0;
}

/*
 * The lines tpstat_stats_show() prints, and a filter's (core/filter.c), in
 * every set's metrics after the set's own: a set's line such as
 * "live.dropped" is then never read as a tracepoint's.
 */
static const struct tpstat_metric tpstat_core_metrics[] = {
	TPSTAT_GAUGE_METRIC("since_reset_ns", "since_reset_seconds",
			    TPSTAT_METRIC_NS,
			    "Time since the set was loaded or last reset"),
	TPSTAT_GAUGE_METRIC("enabled", "enabled", TPSTAT_METRIC_NONE,
			    "1 while the set's probes are attached, 0 when its enable file detached them"
	),
	TPSTAT_COUNTER_METRIC("filter.rejected", "filter_rejected",
			      TPSTAT_METRIC_NONE,
			      "Events the set's filter rejected, counted nowhere else (hits included)"
	),
	TPSTAT_COUNTER_METRIC("{tracepoint}.hits", "hits", TPSTAT_METRIC_NONE,
			      "Events the set's probe on a tracepoint saw"),
	TPSTAT_COUNTER_METRIC("{tracepoint}.dropped", "dropped",
			      TPSTAT_METRIC_NONE,
			      "Events the set's probe on a tracepoint could not record"),
};

static const char *const tpstat_metric_kinds[] = {
	[TPSTAT_METRIC_COUNTER] = "counter",
	[TPSTAT_METRIC_GAUGE] = "gauge",
	[TPSTAT_METRIC_HIST] = "hist",
};

static const char *const tpstat_metric_units[] = {
	[TPSTAT_METRIC_NONE] = "none",
	[TPSTAT_METRIC_NS] = "ns",
	[TPSTAT_METRIC_BYTES] = "bytes",
	[TPSTAT_METRIC_BP] = "bp",
};

static void tpstat_metrics_print(struct seq_file *m,
				 const struct tpstat_metric *mt, unsigned int nr)
{
	unsigned int i;
	u64 low, high;

	for (i = 0; i < nr; i++, mt++) {
		seq_printf(m, "%s %s %s %s ", tpstat_metric_kinds[mt->kind],
			   tpstat_metric_units[mt->unit], mt->pattern, mt->name);
		if (mt->kind == TPSTAT_METRIC_HIST) {
			tpstat_hist_metric_range(mt, &low, &high);
			seq_printf(m, "%llu..%llu", low, high);
		} else {
			seq_putc(m, '-');
		}
		seq_printf(m, " %s\n", mt->help);
	}
}

/*
 * Version 2 of the format: "KIND UNIT PATTERN METRIC BUCKETS HELP...",
 * fields separated by one space; a later line starting with '#' is a
 * comment. BUCKETS is a histogram's "LOW..HIGH", the lowest value of the
 * first bucket its export writes and the highest of the last; "-" for a
 * counter or a gauge. Version 1 had no BUCKETS.
 * tpstat_set_register() refused a set whose declarations would break it.
 */
static int tpstat_metrics_show(struct seq_file *m, struct tpstat_set *set)
{
	unsigned int i;

	seq_puts(m, "# tpstat metrics 2\n");
	tpstat_metrics_print(m, set->metrics, set->nr_metrics);
	for (i = 0; i < set->nr_files; i++) {
		const struct tpstat_file *file = &set->files[i];
		struct tpstat_hist *h = tpstat_file_hist(file);
		struct tpstat_metric mt;

		if (!h)
			continue;
		mt = (struct tpstat_metric)TPSTAT_HIST_METRIC(file->name,
			file->name, tpstat_hist_metric_unit(h),
			"The histogram its file of this name shows");
		tpstat_metrics_print(m, &mt, 1);
	}
	tpstat_metrics_print(m, tpstat_core_metrics,
			     ARRAY_SIZE(tpstat_core_metrics));
	return 0;
}

/* The files every set has, before its own. */
static const struct tpstat_file tpstat_set_files[] = {
	{ .name = "enable", .show = tpstat_enable_show,
	  .write = tpstat_enable_write, .no_header = true },
	{ .name = "reset", .write = tpstat_reset_write },
	{ .name = "stats", .show = tpstat_stats_show, .no_header = true },
	{ .name = "metrics", .show = tpstat_metrics_show, .no_header = true },
};

static void tpstat_print_header(struct seq_file *m,
				const struct tpstat_binding *b)
{
	u32 rem;
	u64 secs = div_u64_rem(ktime_get_ns() - READ_ONCE(b->set->reset_ns),
			       NSEC_PER_SEC, &rem);

	seq_printf(m, "# %s/%s: %llu.%03u s since reset\n", b->set->path,
		   b->file->name, secs, rem / (u32)NSEC_PER_MSEC);
}

static int tpstat_file_show(struct seq_file *m, void *unused)
{
	struct tpstat_binding *b = m->private;
	int err;

	if (!b->file->show)
		return -EACCES;
	mutex_lock(&b->set->lock);
	/* The CPU columns of a header and of its rows must agree. */
	cpus_read_lock();
	if (!b->file->no_header)
		tpstat_print_header(m, b);
	err = b->file->show(m, b->set);
	cpus_read_unlock();
	mutex_unlock(&b->set->lock);
	if (!err && !seq_has_overflowed(m))
		WRITE_ONCE(b->last_size, m->count);
	return err;
}

void *tpstat_file_priv(struct seq_file *m)
{
	const struct tpstat_binding *b = m->private;

	return b->file->priv;
}
EXPORT_SYMBOL_GPL(tpstat_file_priv);

static int tpstat_file_open(struct inode *inode, struct file *file)
{
	const struct tpstat_binding *b = inode->i_private;
	size_t size = READ_ONCE(b->last_size);

	/* A quarter more, for what came since; at least a page. */
	return single_open_size(file, tpstat_file_show, inode->i_private,
				max_t(size_t, PAGE_SIZE, size + size / 4));
}

/*
 * One line per write(), whole: a rejected write changes nothing, and there is
 * no partial state to keep between writes. A newline may only end it. The
 * checks before a write's bytes are copied, whichever way they came in:
 */
static int tpstat_write_allowed(const struct tpstat_binding *b, size_t len)
{
	if (!b->file->write)
		return -EACCES;
	if (!len || len > TPSTAT_WRITE_MAX)
		return -EINVAL;
	return 0;
}

/* And those after: @line holds the @len bytes, with room for a NUL. */
static int tpstat_write_line(const struct tpstat_binding *b, char *line,
			     size_t len)
{
	line[len] = '\0';
	if (strlen(line) != len)
		return -EINVAL;
	if (line[len - 1] == '\n')
		line[--len] = '\0';
	if ((!len && !b->file->takes_empty) || memchr(line, '\n', len))
		return -EINVAL;
	return b->file->write(b->set, b->file, line);
}

static ssize_t tpstat_file_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	struct seq_file *m = file->private_data;
	const struct tpstat_binding *b = m->private;
	char line[TPSTAT_WRITE_MAX + 1];
	int err;

	err = tpstat_write_allowed(b, count);
	if (err)
		return err;
	if (copy_from_user(line, ubuf, count))
		return -EFAULT;
	err = tpstat_write_line(b, line, count);
	return err ? err : count;
}

/*
 * The file at @path, @path_len bytes ("count/filter", "count/mine/scope"),
 * if its set's files are up; tpstat_mutex held.
 */
static struct tpstat_binding *tpstat_binding_find(const char *path,
						  size_t path_len)
{
	struct tpstat_set *set;
	size_t dir_len, name_len;
	unsigned int i, n;

	lockdep_assert_held(&tpstat_mutex);

	list_for_each_entry(set, &tpstat_sets, node) {
		dir_len = strlen(set->path);
		if (!set->files_up || path_len <= dir_len + 1 ||
		    path[dir_len] != '/' || memcmp(path, set->path, dir_len))
			continue;
		name_len = path_len - dir_len - 1;
		n = ARRAY_SIZE(tpstat_set_files) + set->nr_files;
		for (i = 0; i < n; i++) {
			const char *name = set->bindings[i].file->name;

			if (strlen(name) == name_len &&
			    !memcmp(path + dir_len + 1, name, name_len))
				return &set->bindings[i];
		}
	}
	return NULL;
}

int tpstat_debugfs_write_path(const char *path, size_t path_len,
			      const char *buf, size_t len)
{
	char line[TPSTAT_WRITE_MAX + 1];
	struct tpstat_binding *b;
	struct tpstat_set *set;
	int err;

	/*
	 * Counted in its set while found, under the mutex that guards
	 * files_up: the set's unregister, having cleared files_up, waits
	 * for the count to fall to 0 before it removes the files and frees
	 * what they show.
	 */
	mutex_lock(&tpstat_mutex);
	b = tpstat_binding_find(path, path_len);
	if (b)
		atomic_inc(&b->set->control_writers);
	mutex_unlock(&tpstat_mutex);
	if (!b)
		return -ENOENT;

	set = b->set;
	err = tpstat_write_allowed(b, len);
	if (!err) {
		memcpy(line, buf, len);
		err = tpstat_write_line(b, line, len);
	}
	/* The set may be freed as soon as the count reaches 0. */
	if (atomic_dec_and_test(&set->control_writers))
		wake_up_var(&set->control_writers);
	return err;
}

static const struct file_operations tpstat_file_fops = {
	.owner = THIS_MODULE,
	.open = tpstat_file_open,
	.read = seq_read,
	.write = tpstat_file_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static umode_t tpstat_file_mode(const struct tpstat_file *file)
{
	return (file->show ? 0400 : 0) | (file->write ? 0200 : 0);
}

int tpstat_debugfs_add_set(struct tpstat_set *set)
{
	unsigned int nr_core = ARRAY_SIZE(tpstat_set_files);
	unsigned int i, n = nr_core + set->nr_files;
	struct tpstat_binding *b;

	/* On failure the caller's unregister tears down whatever is here. */
	set->dir = NULL;
	b = kcalloc(n, sizeof(*b), GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	set->bindings = b;
	set->dir = debugfs_create_dir(set->name, set->parent ? set->parent->dir :
							       tpstat_root);
	if (IS_ERR(set->dir))
		return PTR_ERR(set->dir);

	for (i = 0; i < n; i++) {
		struct dentry *d;

		b[i].set = set;
		b[i].file = i < nr_core ? &tpstat_set_files[i] :
					  &set->files[i - nr_core];
		d = debugfs_create_file(b[i].file->name,
					tpstat_file_mode(b[i].file), set->dir,
					&b[i], &tpstat_file_fops);
		if (IS_ERR(d)) {
			pr_err("tpstat: %s: cannot create file %s\n", set->path,
			       b[i].file->name);
			return PTR_ERR(d);
		}
	}
	return 0;
}

/* Waits for readers and writers inside the set's files to leave. */
void tpstat_debugfs_remove_set(struct tpstat_set *set)
{
	debugfs_remove(set->dir);
	set->dir = NULL;
	kfree(set->bindings);
	set->bindings = NULL;
}

void tpstat_print_cpu_columns(struct seq_file *m, int width)
{
	char title[16];
	int cpu;

	tpstat_for_each_shown_cpu(cpu) {
		snprintf(title, sizeof(title), "cpu%d", cpu);
		seq_printf(m, " %*s", width, title);
	}
	seq_putc(m, '\n');
}
EXPORT_SYMBOL_GPL(tpstat_print_cpu_columns);

static int tpstat_version_show(struct seq_file *m, void *unused)
{
	seq_puts(m, TPSTAT_VERSION "\n");
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(tpstat_version);

static int tpstat_probes_show(struct seq_file *m, void *unused)
{
	struct tpstat_probe *probe;
	struct tpstat_set *set;

	seq_printf(m, "# %-14s %-32s %-9s %14s %10s\n", "set", "tracepoint",
		   "state", "hits", "dropped");
	mutex_lock(&tpstat_mutex);
	list_for_each_entry(set, &tpstat_sets, node) {
		tpstat_for_each_probe(probe, set) {
			/* A reset empties the old generation only after this. */
			rcu_read_lock();
			seq_printf(m, "%-16s %-32s %-9s %14llu %10llu\n",
				   set->path, probe->name,
				   tpstat_probe_state(probe),
				   tpstat_counter_sum(&probe->hits),
				   tpstat_counter_sum(&probe->dropped));
			rcu_read_unlock();
		}
		cond_resched();
	}
	mutex_unlock(&tpstat_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(tpstat_probes);
DEFINE_SHOW_ATTRIBUTE(tpstat_memory);

static const struct {
	const char *name;
	const struct file_operations *fops;
} tpstat_root_files[] = {
	{ "version", &tpstat_version_fops },
	{ "probes", &tpstat_probes_fops },
	{ "memory", &tpstat_memory_fops },
};

/* The core loads with all of its files, or not at all. */
int tpstat_debugfs_init(void)
{
	struct dentry *d;
	unsigned int i;

	tpstat_root = debugfs_create_dir("tpstat", NULL);
	if (IS_ERR(tpstat_root))
		return PTR_ERR(tpstat_root);
	for (i = 0; i < ARRAY_SIZE(tpstat_root_files); i++) {
		d = debugfs_create_file(tpstat_root_files[i].name, 0400,
					tpstat_root, NULL,
					tpstat_root_files[i].fops);
		if (IS_ERR(d)) {
			debugfs_remove(tpstat_root);
			return PTR_ERR(d);
		}
	}
	return 0;
}

void tpstat_debugfs_exit(void)
{
	debugfs_remove(tpstat_root);
}

void tpstat_stats_word(char *buf, size_t size, const char *label)
{
	size_t i;

	for (i = 0; i + 1 < size && label[i]; i++)
		buf[i] = isgraph(label[i]) ? label[i] : '_';
	buf[i] = '\0';
}
EXPORT_SYMBOL_GPL(tpstat_stats_word);

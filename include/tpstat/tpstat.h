/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tpstat: aggregate tracepoint events in per-CPU counters, histograms and
 * keyed tables, read with cat under /sys/kernel/debug/tpstat/.
 *
 * A probe set is a module that fills in a struct tpstat_set: the tracepoints
 * it probes, by name; the files it shows; how to zero its data. The core
 * attaches each probe once its tracepoint exists, in the kernel or in a module
 * loaded later, and detaches it when either side goes away. This header is
 * all a probe set needs.
 */
#ifndef _TPSTAT_TPSTAT_H
#define _TPSTAT_TPSTAT_H

#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/tracepoint.h>

#include <tpstat/compat.h>
#include <tpstat/counter.h>
#include <tpstat/data.h>
#include <tpstat/filter.h>
#include <tpstat/hist.h>
#include <tpstat/keyed.h>
#include <tpstat/metric.h>
#include <tpstat/pairs.h>
#include <tpstat/scratch.h>
#include <tpstat/stacks.h>
#include <tpstat/table.h>
#include <tpstat/tasks.h>
#include <tpstat/worst.h>

/* Longest tracepoint name accepted; the kernel's longest is about 40. */
#define TPSTAT_NAME_MAX		127

struct tpstat_set;
struct tpstat_binding;

/**
 * struct tpstat_probe - a probe function for one tracepoint, found by name
 * @name: the tracepoint's name, as in /sys/kernel/tracing/available_events
 * @func: the probe; the tracepoint passes this struct as its first argument
 * @in_module: a module provides the tracepoint, so until it loads the probe
 *             is waiting; otherwise the kernel image must have it, and the
 *             probe is missing if it does not
 * @priv: the author's, for the probe to find with tpstat_probe_priv()
 * @node: private: in the set's list of probes
 * @set: private: the set the probe belongs to
 * @tp: private: the tracepoint, once found
 * @tp_owner: private: the module that provides @tp, NULL for the kernel image
 * @iter: private: where @tp's iterator starts, whose frame a stack leaves
 *        out; saved at attach for the probe, which never reads @tp: a
 *        module's going clears @tp while a probe may still be running
 * @iter_size: private: bytes of that iterator
 * @attached: private: @func is registered on @tp
 * @error: private: why the last attach failed, or 0
 * @dynamic: private: the core allocated this probe and frees it on removal
 * @hits: private: events seen, counted by tpstat_probe_hit()
 * @dropped: private: events that could not be recorded, counted by
 *           tpstat_probe_drop()
 *
 * Fill in the first three with TPSTAT_PROBE() or TPSTAT_MODULE_PROBE(); the
 * rest belongs to the core and is guarded by its mutex.
 */
struct tpstat_probe {
	const char *name;
	void *func;
	bool in_module;
	void *priv;

	/* private: */
	struct list_head node;
	struct tpstat_set *set;
	struct tracepoint *tp;
	struct module *tp_owner;
	unsigned long iter;
	unsigned long iter_size;
	bool attached;
	int error;
	bool dynamic;
	struct tpstat_counter hits;
	struct tpstat_counter dropped;
};

/*
 * sizeof() compiles a call to the kernel's check_trace_callback_type_<tp>()
 * without running it, so a probe whose prototype differs from the
 * tracepoint's TP_PROTO fails the build (incompatible-pointer-types is an
 * error in kbuild) with the message pointing at the probe author's line.
 */
#define __TPSTAT_PROBE(tp, fn, module)					\
	{								\
		.name = #tp,						\
		.func = (void *)(fn) +					\
			0 * sizeof((check_trace_callback_type_##tp(fn), 0)), \
		.in_module = module,					\
	}

/* The extra level expands a macro argument such as TPSTAT_TP(foo). */
#define TPSTAT_PROBE(tp, fn)		__TPSTAT_PROBE(tp, fn, false)
#define TPSTAT_MODULE_PROBE(tp, fn)	__TPSTAT_PROBE(tp, fn, true)

/**
 * tpstat_probe_hit() - count one event of the probe that was called
 * @data: the probe's first argument
 *
 * Call it first in every probe: it feeds the hits column of the probes file.
 */
static inline void tpstat_probe_hit(void *data)
{
	struct tpstat_probe *probe = data;

	tpstat_counter_inc(&probe->hits);
}

/**
 * tpstat_probe_drop() - count one event the probe could not record
 * @data: the probe's first argument
 */
static inline void tpstat_probe_drop(void *data)
{
	struct tpstat_probe *probe = data;

	tpstat_counter_inc(&probe->dropped);
}

/**
 * tpstat_probe_set() - the set of the probe that was called
 * @data: the probe's first argument
 *
 * Return: the set, for a probe shared by several sets (which tells them
 * apart by container_of() on it).
 */
static inline struct tpstat_set *tpstat_probe_set(void *data)
{
	struct tpstat_probe *probe = data;

	return probe->set;
}

/**
 * tpstat_probe_priv() - the @priv the probe was declared with
 * @data: the probe's first argument
 *
 * Return: the pointer.
 */
static inline void *tpstat_probe_priv(void *data)
{
	struct tpstat_probe *probe = data;

	return probe->priv;
}

/**
 * struct tpstat_file - a file in the set's debugfs directory
 * @name: the file name
 * @show: prints the file, after the core's "since reset" header; runs with
 *        the set's lock held, so its probes, data and resets cannot change
 *        meanwhile (events go on being counted), and CPU hotplug's read
 *        lock: it may take no lock that is held while a set registers or
 *        unregisters (a spinlock of its own is fine)
 * @write: optional; takes one line with its newline stripped, and this
 *         file (for its @priv), runs without any lock of tpstat's (it may
 *         add and remove probes) and returns 0 or a negative errno, which
 *         the write gets: a write to the file, or the same line through
 *         /sys/kernel/tpstat/control, which kernel lockdown allows
 * @priv: the author's, for @show to find with tpstat_file_priv()
 * @no_header: for files scripts read as they are, such as enable
 * @takes_empty: @write takes an empty line too; it is refused otherwise
 *
 * A file is mode 0400, 0200 or 0600 after which of @show and @write it has.
 */
struct tpstat_file {
	const char *name;
	int (*show)(struct seq_file *m, struct tpstat_set *set);
	int (*write)(struct tpstat_set *set, const struct tpstat_file *file,
		     char *line);
	void *priv;
	bool no_header;
	bool takes_empty;
};

/* A file that shows the histogram @h. */
#define TPSTAT_HIST_FILE(file, h) \
	{ .name = (file), .show = tpstat_hist_show, .priv = (h) }

int tpstat_filter_show(struct seq_file *m, struct tpstat_set *set);
int tpstat_filter_write(struct tpstat_set *set, const struct tpstat_file *file,
			char *line);

/*
 * A file that shows the expression the filter @f runs ("none" when it has
 * none) and takes a new one: "0" or an empty line lifts it.
 */
#define TPSTAT_FILTER_FILE(file, f)					\
	{ .name = (file), .show = tpstat_filter_show,			\
	  .write = tpstat_filter_write, .priv = (f), .no_header = true,	\
	  .takes_empty = true }

/**
 * tpstat_file_priv() - the @priv of the file being shown
 * @m: the file, as passed to @show
 *
 * Return: the pointer.
 */
void *tpstat_file_priv(struct seq_file *m);

/**
 * struct tpstat_set - a probe set: probes, their data and their files
 * @name: the set's debugfs directory, under tpstat/ or its @parent's; the
 *        set column of probes shows its path, "parent/name"
 * @probes: the set's probes, attached by tpstat_set_register()
 * @nr_probes: entries in @probes
 * @files: the set's own files, beside the core's enable, reset, stats and
 *         metrics
 * @nr_files: entries in @files
 * @data: what the probes count into: the &x.data of each counter,
 *        histogram, table, keyed data or worst case. The core allocates
 *        it at register, zeroes it at reset and frees it at unregister.
 * @nr_data: entries in @data
 * @stats: optional; prints "name value" lines into the stats file after the
 *         core's per-probe lines; runs as @show does and returns 0 or a
 *         negative errno
 * @metrics: optional; what each kind of line @stats prints is, in the
 *           order a reader tries them (include/tpstat/metric.h), shown in
 *           the set's metrics file before the core's own lines'
 * @nr_metrics: entries in @metrics
 * @parent: optional; a registered set whose directory holds this one's
 *          (an entry a set adds at run time, with probes, data and files
 *          of its own); unregistered before it
 * @node: private: in the core's list of sets
 * @probe_list: private: every probe of the set, static and added later
 * @data_list: private: every struct tpstat_data of the set, its probes' too
 * @lock: private: held by resets, readers and changes to the two lists
 * @live_gen: private: the generation of the data that probes update
 * @dir: private: the set's debugfs directory
 * @bindings: private: what each file in @dir shows
 * @enabled: private: probes are to be attached (the enable file)
 * @reset_ns: private: when the set was last reset, by ktime_get_ns()
 * @epoch: private: bumped each time one of the set's probes is attached,
 *         so that starts saved before (scratch state, pairing maps) are
 *         not paired with ends after
 * @owner: private: the module that registered the set
 * @path: private: the set's directory under tpstat/, "parent/name"
 * @nr_children: private: sets registered with this one as @parent
 * @files_up: private: its files are all made and none removed yet, so
 *            the control file may write them (guarded by the core's mutex)
 * @control_writers: private: writes to its files through the control file
 *                   in flight, which its unregister waits for
 *
 * A set declared outside any function lists its probes, files and data in
 * place with TPSTAT_PROBES(), TPSTAT_FILES() and TPSTAT_DATA(), which fill
 * in each array and its count. A set built at run time (an entry a control
 * file adds) points the fields at arrays of its own.
 */
struct tpstat_set {
	const char *name;
	struct tpstat_probe *probes;
	unsigned int nr_probes;
	const struct tpstat_file *files;
	unsigned int nr_files;
	struct tpstat_data *const *data;
	unsigned int nr_data;
	int (*stats)(struct seq_file *m, struct tpstat_set *set);
	const struct tpstat_metric *metrics;
	unsigned int nr_metrics;
	struct tpstat_set *parent;

	/* private: */
	struct list_head node;
	struct list_head probe_list;
	struct list_head data_list;
	struct mutex lock;	/* see internal.h for the order */
	unsigned int live_gen;
	struct dentry *dir;
	struct tpstat_binding *bindings;
	bool enabled;
	u64 reset_ns;
	unsigned int epoch;
	struct module *owner;
	char *path;
	unsigned int nr_children;
	bool files_up;
	atomic_t control_writers;
	atomic64_t memory;	/* bytes of its data, the memory file's set line */
};

/*
 * A list of a set's, written in place in its initializer: an array with
 * static storage, as the set's own, and its count. Outside any function
 * only: in one, the array would live on its stack, which register refuses.
 */
#define __TPSTAT_LIST(field, type, ...)					\
	.field = (type[]) { __VA_ARGS__ },				\
	.nr_##field = ARRAY_SIZE(((type[]) { __VA_ARGS__ }))

/* The set's probes: TPSTAT_PROBE() or TPSTAT_MODULE_PROBE() each. */
#define TPSTAT_PROBES(...) \
	__TPSTAT_LIST(probes, struct tpstat_probe, __VA_ARGS__)

/* The set's files: TPSTAT_HIST_FILE(), { .name, .show } and the like. */
#define TPSTAT_FILES(...) \
	__TPSTAT_LIST(files, const struct tpstat_file, __VA_ARGS__)

/* The set's data: &x.data of each primitive its probes update. */
#define TPSTAT_DATA(...) \
	__TPSTAT_LIST(data, struct tpstat_data *const, __VA_ARGS__)

/**
 * tpstat_stats_word() - a label as one word, for a stats key
 * @buf: where it goes
 * @size: its size
 * @label: a key's label (a command, a handler's name), which may hold
 *         spaces; each byte that is not printable and visible becomes '_'
 */
void tpstat_stats_word(char *buf, size_t size, const char *label);

/* Walks every probe of @set; inside a show or stats callback. */
#define tpstat_for_each_probe(probe, set) \
	list_for_each_entry(probe, &(set)->probe_list, node)

/**
 * tpstat_set_register() - allocate a set's data, make its files, attach its probes
 * @set: the set, with every field before @node filled in
 *
 * Probes whose tracepoint is not there yet are left waiting or missing; that
 * is not an error.
 *
 * The module that calls it is the set's: a stack counted in its probes
 * leaves out the frames of that module's code.
 *
 * Return: 0, -EINVAL for a malformed set, probe name, metric (a NULL field,
 * a space in a pattern or a name) or data size, or a set or list of it on
 * the caller's stack, -EEXIST
 * if a set of that name is registered (under the same parent), -ENOMEM.
 */
#define tpstat_set_register(set)	__tpstat_set_register(set, THIS_MODULE)
int __tpstat_set_register(struct tpstat_set *set, struct module *owner);

/**
 * tpstat_set_unregister() - remove a set's files, detach its probes, free its data
 * @set: a registered set
 *
 * When it returns no probe of the set runs any more, so the caller may free
 * what else its probes touch. A set's children go before it, and none may
 * be registered once it has begun: a file of the set that makes children
 * would wait, in debugfs, on the removal of the set's directory, which
 * waits for that file's writers. A module that makes them so closes that
 * way first, under a lock of its own (tpstat_count and tpstat_stack do).
 */
void tpstat_set_unregister(struct tpstat_set *set);

/**
 * tpstat_set_add_probe() - probe one more tracepoint with an untyped probe
 * @set: a registered set
 * @name: the tracepoint; need not exist yet (the probe waits for it)
 * @func: a probe that takes only void *data, called with the tracepoint's
 *        arguments after it, which it ignores. x86-64 allows that; kernels
 *        with kCFI do not (see TPSTAT_UNTYPED_PROBES_TRAP).
 *
 * Return: 0, -EINVAL for a malformed name, -EEXIST if @set has it, -ENOMEM.
 */
int tpstat_set_add_probe(struct tpstat_set *set, const char *name, void *func);

/**
 * tpstat_set_remove_probe() - detach and free a probe tpstat_set_add_probe() made
 * @set: a registered set
 * @name: the tracepoint
 *
 * Return: 0, -EINVAL for a malformed name, or -ENOENT if @set has no such
 * added probe.
 */
int tpstat_set_remove_probe(struct tpstat_set *set, const char *name);

/*
 * For a module that is one probe set and nothing more: registers @set at
 * load and unregisters it at unload.
 */
#define module_tpstat_set(set)						\
	static int __init set##_init(void)				\
	{								\
		return tpstat_set_register(&(set));			\
	}								\
	module_init(set##_init);					\
	static void __exit set##_exit(void)				\
	{								\
		tpstat_set_unregister(&(set));				\
	}								\
	module_exit(set##_exit)

/**
 * tpstat_probe_state() - what the probes file says of a probe
 * @probe: a probe of a registered set, inside a show or stats callback
 *
 * Return: "attached", "waiting" (for a module), "disabled", "missing" (from
 * this kernel) or "failed" (the kernel refused the probe; see the log).
 */
const char *tpstat_probe_state(const struct tpstat_probe *probe);

/*
 * The CPUs a file shows a column for: the online ones, inside a show or
 * stats callback (which holds CPU hotplug off). An offline CPU's events
 * still count in every total.
 */
#define tpstat_for_each_shown_cpu(cpu)	for_each_online_cpu(cpu)

/**
 * tpstat_print_cpu_columns() - column titles cpu0, cpu1, ... for each shown CPU
 * @m: the file
 * @width: width of each column, matching the rows' " %<width>llu"
 */
void tpstat_print_cpu_columns(struct seq_file *m, int width);

/**
 * tpstat_symbol_name() - name a code address, never print it
 * @buf: where the name goes, "function [module]"
 * @size: its size, at least KSYM_SYMBOL_LEN for a name not to be cut
 * @addr: a function or call site
 *
 * An address kallsyms cannot name (a module gone, no symbols) is
 * "unknown": no tpstat file ever shows a kernel address.
 */
void tpstat_symbol_name(char *buf, size_t size, const void *addr);

/**
 * tpstat_symbol_site() - name a call site, never print it
 * @buf: where the name goes, "function+0xoff/0xsize [module]"
 * @size: its size, at least KSYM_SYMBOL_LEN for a name not to be cut
 * @addr: a return address or call site
 *
 * As tpstat_symbol_name(), with the offset into the function and its size,
 * so that two sites in one function are told apart.
 */
void tpstat_symbol_site(char *buf, size_t size, const void *addr);

/**
 * tpstat_name_valid() - is @name shaped like a tracepoint name?
 * @name: a C identifier of at most %TPSTAT_NAME_MAX characters, or not
 *
 * Return: true if it is.
 */
bool tpstat_name_valid(const char *name);

#endif /* _TPSTAT_TPSTAT_H */

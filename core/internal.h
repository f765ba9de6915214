/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the parts of tpstat.ko share with each other and with nobody else.
 *
 * Locking order, outermost first:
 *   a write to a set's file       (waited for as a lock is: debugfs's
 *                                  removal of the file waits for a write
 *                                  made through debugfs, the set's
 *                                  unregister for one made through the
 *                                  control file, by its control_writers)
 *   a set module's own lock       (tpstat_count's instances, tpstat_stack's
 *                                  entries: held while registering and
 *                                  unregistering the sets under its own)
 *   set->lock                     (ours, one per set: its data, its resets,
 *                                  its readers, changes to its probe list;
 *                                  the only lock held across a grace period)
 *   tracepoint_module_list_mutex  (kernel; held around our module notifier)
 *   tpstat_mutex                  (ours: sets and which of their files are
 *                                  up, probes, modules with tracepoints)
 *   tracepoints_mutex             (kernel; taken by tracepoint_probe_register)
 *   cpu_hotplug_lock              (kernel; read side, under tracepoints_mutex
 *                                  for static keys, and under set->lock by
 *                                  every reader of a set's file)
 *   a set module's list spinlock  (tpstat_count's instances, tpstat_stack's
 *                                  entries, for the files that list them)
 * A set's files are removed, and its control writers waited for, with no
 * lock held that a write to them may take; a control write is counted
 * under tpstat_mutex, which never waits for one. The control file's own
 * removal waits for the writes through it: only the core's unload, with
 * no set left, removes it. Probes take no lock.
 */
#ifndef _TPSTAT_CORE_INTERNAL_H
#define _TPSTAT_CORE_INTERNAL_H

#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/mutex.h>
#include <tpstat/tpstat.h>

#define TPSTAT_VERSION	"0.1.0"

/*
 * A point between two atomic steps of a lock-free table (pairs.c, tasks.c,
 * index.h), where the host's torture (tests/host/tables-torture.c) yields
 * or plays an NMI, to open a window of a few instructions thousands of
 * times a second. Nothing in the module.
 */
#ifndef TPSTAT_RACE_POINT
#define TPSTAT_RACE_POINT()	do { } while (0)
#endif

extern struct mutex tpstat_mutex;
extern struct list_head tpstat_sets;

/* attach.c */
int tpstat_attach_init(void);
void tpstat_attach_exit(void);
void tpstat_probe_lookup(struct tpstat_probe *probe);
void tpstat_probe_update(struct tpstat_probe *probe);
void tpstat_probe_detach(struct tpstat_probe *probe);

/* set.c */
void tpstat_set_enable(struct tpstat_set *set, bool enable);
int tpstat_set_reset(struct tpstat_set *set);

/* percpu.c, for TPSTAT_PERCPU_OPS() */
void __percpu *tpstat_percpu_alloc(unsigned int nr, size_t size, size_t align);
void tpstat_percpu_clear(void __percpu *gen, unsigned int nr, size_t size,
			 void (*init)(void *elem));
size_t tpstat_percpu_bytes(unsigned int nr, size_t size);

/*
 * The data ops of a per-CPU kind: a struct @type with the fields pcpu (the
 * live generation, of @elem __percpu *), nr (elements per CPU, 0 for 1),
 * gen[] and data; @init, if not NULL, sets up an element after zeroing.
 */
#define TPSTAT_PERCPU_OPS(type, elem, mem_kind, init)			\
static struct type *type##_of(const struct tpstat_data *d)		\
{									\
	return container_of(d, struct type, data);			\
}									\
static unsigned int type##_nr(const struct tpstat_data *d)		\
{									\
	return type##_of(d)->nr ?: 1;					\
}									\
static int type##_alloc(struct tpstat_data *d, unsigned int g)		\
{									\
	struct type *x = type##_of(d);					\
									\
	x->gen[g] = tpstat_percpu_alloc(type##_nr(d), sizeof(elem),	\
					__alignof__(elem));		\
	return x->gen[g] ? 0 : -ENOMEM;					\
}									\
static void type##_free(struct tpstat_data *d, unsigned int g)		\
{									\
	struct type *x = type##_of(d);					\
									\
	free_percpu(x->gen[g]);						\
	x->gen[g] = NULL;						\
}									\
static void type##_clear(struct tpstat_data *d, unsigned int g)		\
{									\
	tpstat_percpu_clear(type##_of(d)->gen[g], type##_nr(d),		\
			    sizeof(elem), init);			\
}									\
static void type##_publish(struct tpstat_data *d, unsigned int g)	\
{									\
	struct type *x = type##_of(d);					\
									\
	tpstat_data_publish(x->pcpu, x->gen[g]);			\
}									\
static size_t type##_bytes(const struct tpstat_data *d)		\
{									\
	return tpstat_percpu_bytes(type##_nr(d), sizeof(elem));		\
}									\
const struct tpstat_data_ops type##_ops = {				\
	.kind = mem_kind,						\
	.alloc = type##_alloc,						\
	.free = type##_free,						\
	.clear = type##_clear,						\
	.publish = type##_publish,					\
	.bytes = type##_bytes,						\
};									\
EXPORT_SYMBOL_GPL(type##_ops)

/*
 * The generation ops of a kind whose only data per generation is its
 * counter array "stats" (struct @type's): they are that counter's own.
 * What else the kind holds (a task's words, a pair's start) outlives a
 * reset. Makes @prefix##_alloc, _free, _clear, _publish and _bytes.
 */
#define TPSTAT_STATS_GEN_OPS(prefix, type)				\
static struct tpstat_data *prefix##_stats(const struct tpstat_data *d)	\
{									\
	return &container_of(d, struct type, data)->stats.data;	\
}									\
static int prefix##_alloc(struct tpstat_data *d, unsigned int g)	\
{									\
	return tpstat_counter_ops.alloc(prefix##_stats(d), g);		\
}									\
static void prefix##_free(struct tpstat_data *d, unsigned int g)	\
{									\
	tpstat_counter_ops.free(prefix##_stats(d), g);			\
}									\
static void prefix##_clear(struct tpstat_data *d, unsigned int g)	\
{									\
	tpstat_counter_ops.clear(prefix##_stats(d), g);			\
}									\
static void prefix##_publish(struct tpstat_data *d, unsigned int g)	\
{									\
	tpstat_counter_ops.publish(prefix##_stats(d), g);		\
}									\
static size_t prefix##_bytes(const struct tpstat_data *d)		\
{									\
	return tpstat_counter_ops.bytes(prefix##_stats(d));		\
}

/* hist.c */
void tpstat_atomic_hist_clear(struct tpstat_atomic_hist *a);
/* Adds @a into @s; tpstat_hist_settle() makes the sum printable. */
void tpstat_atomic_hist_merge(const struct tpstat_atomic_hist *a,
			      struct tpstat_hist_summary *s);
/* An empty summary, ready to merge into. */
void tpstat_hist_summary_init(struct tpstat_hist_summary *s);
/* Keeps min and max within the buckets that hold events. */
void tpstat_hist_settle(struct tpstat_hist_summary *s);
/*
 * The first bucket's lowest value and the last's highest, of the buckets a
 * histogram metric's export writes: those of its range, or of its unit's.
 */
void tpstat_hist_metric_range(const struct tpstat_metric *mt, u64 *low,
			      u64 *high);
/* A histogram's metric unit, from the column title it was declared with. */
enum tpstat_metric_unit tpstat_hist_metric_unit(const struct tpstat_hist *h);

/* symbol.c: bytes of @addr's function from @addr on, 0 if unknown */
size_t tpstat_symbol_size(const void *addr);

/* memory.c */
/* "<prefix>.<names[i]> N" for each counter of @c, summed over CPUs. */
void tpstat_counter_print_named(struct seq_file *m,
				const struct tpstat_counter *c,
				const char *const *names, const char *prefix);

size_t tpstat_kv_bytes(const void *p, size_t size);
void *tpstat_kvmalloc(size_t n, size_t size, gfp_t gfp);
void tpstat_memory_account(struct tpstat_set *set, enum tpstat_mem_kind kind,
			   s64 bytes);
int tpstat_memory_show(struct seq_file *m, void *unused);

/* debugfs.c */
int tpstat_debugfs_init(void);
void tpstat_debugfs_exit(void);
int tpstat_debugfs_add_set(struct tpstat_set *set);
void tpstat_debugfs_remove_set(struct tpstat_set *set);
/*
 * Writes the @len bytes at @buf to the file at @path (@path_len bytes,
 * "set/file") as a write to it through debugfs would: 0 or its errno,
 * -ENOENT if no set has that file.
 */
int tpstat_debugfs_write_path(const char *path, size_t path_len,
			      const char *buf, size_t len);

/* control.c */
int tpstat_control_init(void);
void tpstat_control_exit(void);

#endif /* _TPSTAT_CORE_INTERNAL_H */

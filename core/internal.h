/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the parts of tpstat.ko share with each other and with nobody else.
 *
 * Locking order, outermost first:
 *   set->lock                     (ours, one per set: its data, its resets,
 *                                  its readers, changes to its probe list;
 *                                  the only lock held across a grace period)
 *   tracepoint_module_list_mutex  (kernel; held around our module notifier)
 *   tpstat_mutex                  (ours: sets, probes, modules with tracepoints)
 *   tracepoints_mutex             (kernel; taken by tracepoint_probe_register)
 *   cpu_hotplug_lock              (kernel; read side, under tracepoints_mutex
 *                                  for static keys, and under set->lock by
 *                                  readers printing CPU columns)
 * debugfs removal waits for readers and writers that may hold either of
 * ours, so files are never removed with one held. Probes take no lock.
 */
#ifndef _TPSTAT_CORE_INTERNAL_H
#define _TPSTAT_CORE_INTERNAL_H

#include <linux/mutex.h>
#include <tpstat/tpstat.h>

#define TPSTAT_VERSION	"0.1.0"

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
void tpstat_set_reset(struct tpstat_set *set);

/* hist.c: min and max kept within the buckets that hold events */
void __tpstat_hist_settle(struct tpstat_hist_summary *s);

/* memory.c */
void tpstat_memory_account(enum tpstat_mem_kind kind, s64 bytes);
int tpstat_memory_show(struct seq_file *m, void *unused);

/* debugfs.c */
int tpstat_debugfs_init(void);
void tpstat_debugfs_exit(void);
int tpstat_debugfs_add_set(struct tpstat_set *set);
void tpstat_debugfs_remove_set(struct tpstat_set *set);

#endif /* _TPSTAT_CORE_INTERNAL_H */

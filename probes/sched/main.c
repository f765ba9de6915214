// SPDX-License-Identifier: GPL-2.0
/*
 * tpstat_sched.ko: context switches, run-queue latency, on-CPU and off-CPU
 * time, process lifecycle and migrations, from cat:
 *
 *   insmod tpstat_sched.ko [max_tasks=8192] [max_comms=128] [max_migration_pairs=4096]
 *   cat /sys/kernel/debug/tpstat/sched/{switches,runqlat,runqlat_cpus,cpudist,offcpu}
 *   cat /sys/kernel/debug/tpstat/sched/{lifecycle,migrations,stats}
 */
#include <linux/module.h>
#include <trace/events/sched.h>
#include <trace/events/task.h>

#include "sched.h"

/* More than any machine runs at once, and a bound on the memory. */
#define TPSTAT_SCHED_MAX_TASKS	1048576U
#define TPSTAT_SCHED_MAX_COMMS	4096

static unsigned int max_tasks = 8192;
module_param(max_tasks, uint, 0400);
MODULE_PARM_DESC(max_tasks, "tasks whose state is kept at once (1-1048576, default 8192)");

static unsigned int max_comms = 128;
module_param(max_comms, uint, 0400);
MODULE_PARM_DESC(max_comms, "commands shown by name (1-4096, default 128)");

/*
 * Up to 64 CPUs, every pair in a matrix, 32 KiB at most; above, a table of
 * this many pairs, about 2.6 MiB: never nr_cpu_ids squared, which is 64
 * million pairs at 8192 CPUs.
 */
static unsigned int max_migration_pairs = 4096;
module_param(max_migration_pairs, uint, 0400);
MODULE_PARM_DESC(max_migration_pairs,
		 "CPU pairs whose migrations are counted apart (1-65536, default 4096)");

/* An array of the set's own, not TPSTAT_DATA(): load fills in its last. */
static struct tpstat_data *tpstat_sched_data[] = {
	&tpstat_sched_oncpu.data,
	&tpstat_sched_switches.data,
	&tpstat_sched_comms.data,
	&tpstat_sched_runqlat.data,
	&tpstat_sched_cpudist.data,
	&tpstat_sched_offcpu.data,
	&tpstat_sched_runq_worst.data,
	&tpstat_sched_tasks.data,
	&tpstat_sched_life.data,
	&tpstat_sched_life_comms.data,
	&tpstat_sched_lifetime.data,
	NULL,	/* the migrations' form, chosen at load */
};

static const struct tpstat_metric tpstat_sched_metrics[] = {
	TPSTAT_COUNTER_METRIC("switches.voluntary", "switches_voluntary",
			      TPSTAT_METRIC_NONE,
			      "Context switches of a task that was going to sleep"),
	TPSTAT_COUNTER_METRIC("switches.involuntary", "switches_involuntary",
			      TPSTAT_METRIC_NONE,
			      "Context switches of a preempted task"),
	TPSTAT_COUNTER_METRIC("switches.from_idle", "switches_from_idle",
			      TPSTAT_METRIC_NONE,
			      "Context switches from the idle task"),
	TPSTAT_COUNTER_METRIC("switches.all", "switches_all",
			      TPSTAT_METRIC_NONE,
			      "Context switches"),
	TPSTAT_COUNTER_METRIC("forks", "forks", TPSTAT_METRIC_NONE,
			      "Forks and clones, threads included"),
	TPSTAT_COUNTER_METRIC("execs", "execs", TPSTAT_METRIC_NONE,
			      "Execs"),
	TPSTAT_COUNTER_METRIC("exits", "exits", TPSTAT_METRIC_NONE,
			      "Task exits, threads included"),
	TPSTAT_GAUGE_METRIC("runqlat.worst_pid", "runqlat_worst_pid",
			    TPSTAT_METRIC_NONE,
			    "The pid of the longest run-queue latency"),
	TPSTAT_COUNTER_METRIC("migrations.cpu{from_cpu}.cpu{to_cpu}",
			      "migrations",
			      TPSTAT_METRIC_NONE,
			      "Tasks moved from one CPU to another"),
	TPSTAT_COUNTER_METRIC("migrations.other", "migrations_other",
			      TPSTAT_METRIC_NONE,
			      "Tasks moved between CPUs whose pair found the table full (max_migration_pairs)"
	),
	TPSTAT_TASKS_METRICS("tasks"),
	TPSTAT_HIST_METRIC("runqlat", "runqlat_seconds", TPSTAT_METRIC_NS,
			   "Run-queue latency: from a wakeup or a preemption to the switch-in"),
	TPSTAT_HIST_METRIC("runqlat.cpu{cpu}", "runqlat_cpu_seconds",
			   TPSTAT_METRIC_NS,
			   "Run-queue latency, by the CPU that ran the task"),
	TPSTAT_HIST_METRIC("cpudist", "cpudist_seconds", TPSTAT_METRIC_NS,
			   "On-CPU time per slice"),
	TPSTAT_HIST_METRIC("offcpu", "offcpu_seconds", TPSTAT_METRIC_NS,
			   "Blocked time, from a voluntary switch-out to the wakeup"),
	/* From 65 us, a short command's, to 73 minutes, a long job's. */
	TPSTAT_HIST_METRIC_RANGE("lifetime", "lifetime_seconds",
				 TPSTAT_METRIC_NS, 1ULL << 16, (1ULL << 42) - 1,
				 "Task lifetime at exit"),
	/* A command's fields before the command alone: "<comm>.max" is one. */
	TPSTAT_GAUGE_METRIC("slices.{comm+}.max", "slices_max_seconds",
			    TPSTAT_METRIC_NS,
			    "The longest slice of a command"),
	TPSTAT_COUNTER_METRIC("slices.{comm+}.voluntary", "slices_voluntary",
			      TPSTAT_METRIC_NONE,
			      "Voluntary switches of a command"),
	TPSTAT_COUNTER_METRIC("slices.{comm+}.involuntary",
			      "slices_involuntary",
			      TPSTAT_METRIC_NONE,
			      "Involuntary switches of a command"),
	TPSTAT_COUNTER_METRIC("slices.{comm+}", "slices", TPSTAT_METRIC_NONE,
			      "Slices run by a command"),
	TPSTAT_GAUGE_METRIC("runs.{comm+}.max", "runs_max_seconds",
			    TPSTAT_METRIC_NS,
			    "The longest run-queue wait of a command"),
	TPSTAT_COUNTER_METRIC("runs.{comm+}", "runs", TPSTAT_METRIC_NONE,
			      "Run-queue waits of a command"),
	TPSTAT_GAUGE_METRIC("wakeups.{comm+}.max", "wakeups_max_seconds",
			    TPSTAT_METRIC_NS,
			    "The longest blocked time of a command"),
	TPSTAT_COUNTER_METRIC("wakeups.{comm+}", "wakeups", TPSTAT_METRIC_NONE,
			      "Wakeups after blocking, of a command"),
	TPSTAT_COUNTER_METRIC("forks.{comm+}", "comm_forks", TPSTAT_METRIC_NONE,
			      "Forks, by the parent's command"),
	TPSTAT_COUNTER_METRIC("execs.{comm+}", "comm_execs", TPSTAT_METRIC_NONE,
			      "Execs, by the command after the exec"),
	TPSTAT_GAUGE_METRIC("exits.{comm+}.max",
			    "comm_exits_lifetime_max_seconds",
			    TPSTAT_METRIC_NS,
			    "The longest lifetime at exit of a command"),
	TPSTAT_COUNTER_METRIC("exits.{comm+}", "comm_exits", TPSTAT_METRIC_NONE,
			      "Exits, by command"),
};

static struct tpstat_set tpstat_sched_set = {
	.name = "sched",
	TPSTAT_PROBES(TPSTAT_PROBE(sched_switch, tpstat_sched_switch),
		      TPSTAT_PROBE(sched_wakeup, tpstat_sched_wakeup),
		      TPSTAT_PROBE(sched_wakeup_new, tpstat_sched_wakeup_new),
		      TPSTAT_PROBE(task_newtask, tpstat_sched_newtask),
		      TPSTAT_PROBE(sched_process_exec, tpstat_sched_exec),
		      TPSTAT_PROBE(sched_process_exit, tpstat_sched_exit),
		      TPSTAT_PROBE(sched_migrate_task, tpstat_sched_migrate)),
	TPSTAT_FILES({ .name = "switches", .show = tpstat_sched_switches_show },
		     { .name = "runqlat", .show = tpstat_sched_runqlat_show },
		     { .name = "runqlat_cpus", .show = tpstat_sched_runqlat_cpus_show },
		     { .name = "cpudist", .show = tpstat_sched_cpudist_show },
		     { .name = "offcpu", .show = tpstat_sched_offcpu_show },
		     { .name = "lifecycle", .show = tpstat_sched_lifecycle_show },
		     { .name = "migrations", .show = tpstat_sched_migrations_show }),
	.data = tpstat_sched_data,
	.nr_data = ARRAY_SIZE(tpstat_sched_data),
	.stats = tpstat_sched_stats,
	.metrics = tpstat_sched_metrics,
	.nr_metrics = ARRAY_SIZE(tpstat_sched_metrics),
};

static int __init tpstat_sched_load(void)
{
	u64 pairs = (u64)nr_cpu_ids * nr_cpu_ids;
	struct tpstat_data **migrations;

	if (!max_tasks || max_tasks > TPSTAT_SCHED_MAX_TASKS ||
	    !max_comms || max_comms > TPSTAT_SCHED_MAX_COMMS ||
	    !max_migration_pairs || max_migration_pairs > TPSTAT_KEYED_MAX) {
		pr_err("tpstat_sched: max_tasks must be 1 to %u, max_comms 1 to %u and max_migration_pairs 1 to %d\n",
		       TPSTAT_SCHED_MAX_TASKS, TPSTAT_SCHED_MAX_COMMS,
		       TPSTAT_KEYED_MAX);
		return -EINVAL;
	}
	tpstat_sched_tasks.capacity = max_tasks;
	tpstat_sched_comms.capacity = max_comms;
	tpstat_sched_life_comms.capacity = max_comms;
	migrations = &tpstat_sched_data[ARRAY_SIZE(tpstat_sched_data) - 1];
	tpstat_sched_migration_matrix = pairs <= max_migration_pairs;
	if (tpstat_sched_migration_matrix) {
		tpstat_sched_migrations.nr = pairs;
		*migrations = &tpstat_sched_migrations.data;
	} else {
		tpstat_sched_migration_pairs.capacity = max_migration_pairs;
		*migrations = &tpstat_sched_migration_pairs.data;
	}
	return tpstat_set_register(&tpstat_sched_set);
}

static void __exit tpstat_sched_unload(void)
{
	tpstat_set_unregister(&tpstat_sched_set);
}

module_init(tpstat_sched_load);
module_exit(tpstat_sched_unload);

MODULE_DESCRIPTION("tpstat: context switches, run-queue latency, on- and off-CPU time, process lifecycle");
MODULE_LICENSE("GPL");

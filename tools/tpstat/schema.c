// SPDX-License-Identifier: GPL-2.0
/*
 * What each line of a set's stats file is: a counter, a gauge or a part of
 * a histogram, which of its name's parts are keys (a command, a call site,
 * an IRQ, a CPU) and what metric it belongs to. The stats format carries
 * none of this, so the sets tpstat ships are described here, one pattern
 * per kind of line; every set also has the core's lines, and any
 * histogram is found by the lines it prints. A line no pattern describes
 * still goes out, untyped, under its own name.
 *
 * In a pattern, components are separated by dots, as in the names:
 *   word      itself
 *   {label}   a key of one component
 *   {label+}  a key of one or more components: labels may hold dots
 *             (sym.isra.0+0x1/0x2, python3.11); at most one per pattern,
 *             and the components around it are matched from both ends
 *   cpu{cpu}  the word, then a decimal number; keys among words in one
 *             component ({ifindex}@{netns}) are each a decimal number
 *   [...]     an optional part, which may hold others: a line's name
 *             has it or not, and the label of a key it lacks is absent.
 *             A name is matched against the forms with the most keys
 *             first, and the forms every line of the set fits before
 *             the others.
 * A key named tracepoint must be one of the set's probes.
 *
 * A pattern's set is a set's name, or, ending in '/', any set right
 * inside that one ("stack/" for stack/kmalloc): sets inside sets are
 * named by their path. Their metrics are the outermost set's, with the
 * rest of the path as a label (tpstat_nested_label()).
 */
#include <stdlib.h>
#include <string.h>

#include "tpstat.h"

struct tpstat_pattern {
	/* NULL: the lines every set has; "stack/": the sets inside stack. */
	const char *set;
	const char *stat;
	/* The metric's name, its unit's word included. */
	const char *metric;
	enum tpstat_kind kind;
	enum tpstat_unit unit;
	const char *help;
};

#define C	TPSTAT_COUNTER
#define G	TPSTAT_GAUGE
#define H	TPSTAT_HIST
#define NS	TPSTAT_UNIT_NS
#define B	TPSTAT_UNIT_BYTES
#define NONE	TPSTAT_UNIT_NONE

/*
 * Tried in order, the first match wins: a set's own lines before the
 * core's, so that a line such as "live.dropped" is never read as a
 * tracepoint's.
 */
static const struct tpstat_pattern tpstat_patterns[] = {
	/* tpstat_count.ko */
	{ "count", "{tracepoint}.cpu{cpu}", "cpu_hits", C, NONE,
	  "Events of a counted tracepoint, on one CPU" },

	/* tpstat_irq.ko */
	{ "irq", "hardirq.keys", "hardirq_keys", G, NONE, "Handlers with a row" },
	{ "irq", "hardirq.capacity", "hardirq_capacity", G, NONE,
	  "Handler rows the set has (max_handlers)" },
	{ "irq", "hardirq.other", "hardirq_other", C, NONE,
	  "Handler calls of handlers beyond max_handlers" },
	{ "irq", "hardirq.unpaired", "hardirq_unpaired", C, NONE,
	  "Handler exits whose entry was not seen" },
	{ "irq", "hardirq.all.ns", "hardirq_all_seconds", H, NS,
	  "Time in hard IRQ handlers, all handlers" },
	{ "irq", "hardirq.{irq}.{handler+}.handled", "hardirq_handled", C, NONE,
	  "Handler calls that did not return IRQ_NONE" },
	{ "irq", "hardirq.{irq}.{handler+}.count", "hardirq_count", C, NONE,
	  "Handler calls" },
	{ "irq", "hardirq.{irq}.{handler+}.cpu{cpu}", "hardirq_cpu", C, NONE,
	  "Handler calls on one CPU" },
	{ "irq", "hardirq.{irq}.{handler+}.ns", "hardirq_seconds", H, NS,
	  "Time in one handler" },
	{ "irq", "softirq.unpaired", "softirq_unpaired", C, NONE,
	  "Softirq exits whose entry was not seen" },
	{ "irq", "softirq.{vector}.raised", "softirq_raised", C, NONE,
	  "Raises of a softirq vector" },
	{ "irq", "softirq.{vector}.run", "softirq_run", C, NONE,
	  "Runs of a softirq vector, as /proc/softirqs counts them" },
	{ "irq", "softirq.{vector}.cpu{cpu}", "softirq_cpu", C, NONE,
	  "Runs of a softirq vector on one CPU" },
	{ "irq", "softirq.{vector}.irq_ns", "softirq_irq_seconds", C, NS,
	  "Time of hard IRQ handlers that interrupted the vector's runs" },
	{ "irq", "softirq.{vector}.ns", "softirq_seconds", H, NS,
	  "Run time of a softirq vector" },
	{ "irq", "softirq.{vector}.latency", "softirq_latency_seconds", H, NS,
	  "Time from a raise to the run that served it" },
	{ "irq", "softirq.{vector}.latency.worst_cpu", "softirq_latency_worst_cpu",
	  G, NONE, "The CPU of the longest raise-to-run latency" },
	{ "irq", "softirq.{vector}.latency.worst_after_reset_ns",
	  "softirq_latency_worst_after_reset_seconds", G, NS,
	  "When the longest raise-to-run latency was seen, after the reset" },
	{ "irq", "tasklet.keys", "tasklet_keys", G, NONE, "Tasklet functions with a row" },
	{ "irq", "tasklet.capacity", "tasklet_capacity", G, NONE,
	  "Tasklet rows the set has (max_tasklets)" },
	{ "irq", "tasklet.other", "tasklet_other", C, NONE,
	  "Runs of tasklet functions beyond max_tasklets" },
	{ "irq", "tasklet.unpaired", "tasklet_unpaired", C, NONE,
	  "Tasklet exits whose entry was not seen" },
	{ "irq", "tasklet.{function+}.count", "tasklet_count", C, NONE,
	  "Runs of a tasklet function" },
	{ "irq", "tasklet.{function+}.cpu{cpu}", "tasklet_cpu", C, NONE,
	  "Runs of a tasklet function on one CPU" },
	{ "irq", "tasklet.{function+}.ns", "tasklet_seconds", H, NS,
	  "Run time of a tasklet function" },

	/* tpstat_sched.ko */
	{ "sched", "switches.voluntary", "switches_voluntary", C, NONE,
	  "Context switches of a task that was going to sleep" },
	{ "sched", "switches.involuntary", "switches_involuntary", C, NONE,
	  "Context switches of a preempted task" },
	{ "sched", "switches.from_idle", "switches_from_idle", C, NONE,
	  "Context switches from the idle task" },
	{ "sched", "switches.all", "switches_all", C, NONE, "Context switches" },
	{ "sched", "forks", "forks", C, NONE, "Forks and clones, threads included" },
	{ "sched", "execs", "execs", C, NONE, "Execs" },
	{ "sched", "exits", "exits", C, NONE, "Task exits, threads included" },
	{ "sched", "runqlat.worst_pid", "runqlat_worst_pid", G, NONE,
	  "The pid of the longest run-queue latency" },
	{ "sched", "migrations.cpu{from_cpu}.cpu{to_cpu}", "migrations", C, NONE,
	  "Tasks moved from one CPU to another" },
	{ "sched", "migrations.other", "migrations_other", C, NONE,
	  "Tasks moved between CPUs whose pair found the table full (max_migration_pairs)" },
	/* A task table's counters (core/tasks.c). */
	{ "sched", "tasks.claimed", "tasks_claimed", C, NONE, "Tasks given a row" },
	{ "sched", "tasks.released", "tasks_released", C, NONE,
	  "Rows of freed tasks released" },
	{ "sched", "tasks.dropped", "tasks_dropped", C, NONE,
	  "Events of tasks the full table had no row for" },
	{ "sched", "tasks.evicted", "tasks_evicted", C, NONE,
	  "Rows kept from before a re-attach taken for other tasks" },
	{ "sched", "tasks.held", "tasks_held", G, NONE, "Tasks with a row now" },
	{ "sched", "tasks.capacity", "tasks_capacity", G, NONE, "Rows the table has" },
	{ "sched", "runqlat", "runqlat_seconds", H, NS,
	  "Run-queue latency: from a wakeup or a preemption to the switch-in" },
	{ "sched", "runqlat.cpu{cpu}", "runqlat_cpu_seconds", H, NS,
	  "Run-queue latency, by the CPU that ran the task" },
	{ "sched", "cpudist", "cpudist_seconds", H, NS, "On-CPU time per slice" },
	{ "sched", "offcpu", "offcpu_seconds", H, NS,
	  "Blocked time, from a voluntary switch-out to the wakeup" },
	{ "sched", "lifetime", "lifetime_seconds", H, NS, "Task lifetime at exit" },
	/* A command's fields before the command alone: "<comm>.max" is one. */
	{ "sched", "slices.{comm+}.max", "slices_max_seconds", G, NS,
	  "The longest slice of a command" },
	{ "sched", "slices.{comm+}.voluntary", "slices_voluntary", C, NONE,
	  "Voluntary switches of a command" },
	{ "sched", "slices.{comm+}.involuntary", "slices_involuntary", C, NONE,
	  "Involuntary switches of a command" },
	{ "sched", "slices.{comm+}", "slices", C, NONE, "Slices run by a command" },
	{ "sched", "runs.{comm+}.max", "runs_max_seconds", G, NS,
	  "The longest run-queue wait of a command" },
	{ "sched", "runs.{comm+}", "runs", C, NONE,
	  "Run-queue waits of a command" },
	{ "sched", "wakeups.{comm+}.max", "wakeups_max_seconds", G, NS,
	  "The longest blocked time of a command" },
	{ "sched", "wakeups.{comm+}", "wakeups", C, NONE,
	  "Wakeups after blocking, of a command" },
	{ "sched", "forks.{comm+}", "comm_forks", C, NONE,
	  "Forks, by the parent's command" },
	{ "sched", "execs.{comm+}", "comm_execs", C, NONE,
	  "Execs, by the command after the exec" },
	{ "sched", "exits.{comm+}.max", "comm_exits_lifetime_max_seconds", G, NS,
	  "The longest lifetime at exit of a command" },
	{ "sched", "exits.{comm+}", "comm_exits", C, NONE, "Exits, by command" },

	/* tpstat_kmem.ko */
	{ "kmem", "kmalloc", "kmalloc", C, NONE, "kmalloc() calls" },
	{ "kmem", "kmem_cache_alloc", "kmem_cache_alloc", C, NONE,
	  "kmem_cache_alloc() calls" },
	{ "kmem", "kfree", "kfree", C, NONE, "kfree() calls" },
	{ "kmem", "kmem_cache_free", "kmem_cache_free", C, NONE,
	  "kmem_cache_free() calls" },
	{ "kmem", "failed", "failed", C, NONE, "Slab allocations that failed" },
	{ "kmem", "page_alloc", "page_alloc", C, NONE, "Page allocations" },
	{ "kmem", "page_failed", "page_failed", C, NONE, "Page allocations that failed" },
	{ "kmem", "page_free", "page_free", C, NONE, "Page frees" },
	{ "kmem", "extfrag", "extfrag", C, NONE,
	  "Page allocations that fell back to another migrate type" },
	{ "kmem", "bytes_requested", "requested_bytes", C, B,
	  "Bytes slab allocations asked for" },
	{ "kmem", "bytes_allocated", "allocated_bytes", C, B,
	  "Bytes slab allocations were given" },
	{ "kmem", "frag_bp", "frag_basis_points", G, NONE,
	  "Share of allocated bytes not requested, in 1/10000" },
	{ "kmem", "pages.order{order}.allocs", "pages_allocs", C, NONE,
	  "Page allocations of one order" },
	{ "kmem", "pages.order{order}.frees", "pages_frees", C, NONE,
	  "Page frees of one order" },
	{ "kmem", "pages.{migratetype}", "pages_migratetype", C, NONE,
	  "Page allocations of one migrate type" },
	/* A pairing map's counters (core/pairs.c). */
	{ "kmem", "live.started", "live_started", C, NONE, "Starts recorded" },
	{ "kmem", "live.replaced", "live_replaced", C, NONE,
	  "Starts that replaced an unended one of the same key" },
	{ "kmem", "live.paired", "live_paired", C, NONE, "Ends paired with their start" },
	{ "kmem", "live.unpaired", "live_unpaired", C, NONE, "Ends whose start was not seen" },
	{ "kmem", "live.dropped", "live_dropped", C, NONE, "Starts lost to a full map" },
	{ "kmem", "live.expired", "live_expired", C, NONE,
	  "Allocations evicted from a full map: the oldest, or one from before the attach" },
	{ "kmem", "live.held", "live_held", G, NONE, "Starts waiting for their end now" },
	{ "kmem", "live.capacity", "live_capacity", G, NONE, "Starts the map can hold" },
	{ "kmem", "sizes", "sizes_bytes", H, B, "Sizes slab allocations asked for" },
	{ "kmem", "site.{site+}.hits", "site_allocs", C, NONE,
	  "Slab allocations from a call site" },
	{ "kmem", "site.{site+}.bytes_req", "site_requested_bytes", C, B,
	  "Bytes a call site asked for" },
	{ "kmem", "site.{site+}.bytes_alloc", "site_allocated_bytes", C, B,
	  "Bytes a call site was given" },
	{ "kmem", "site.{site+}.frees", "site_frees", C, NONE,
	  "Frees of objects a call site allocated" },
	{ "kmem", "site.{site+}.outstanding", "site_outstanding", G, NONE,
	  "Objects of a call site not freed yet" },
	{ "kmem", "site.{site+}.outstanding_bytes", "site_outstanding_bytes", G, B,
	  "Bytes of a call site not freed yet" },
	{ "kmem", "cache.{cache+}.count", "cache_allocs", C, NONE,
	  "Allocations from a slab cache" },
	{ "kmem", "cache.{cache+}.sum", "cache_allocated_bytes", C, B,
	  "Bytes allocated from a slab cache" },
	{ "kmem", "cache.{cache+}.frees", "cache_frees", C, NONE,
	  "Frees to a slab cache" },
	{ "kmem", "comm.{comm+}.count", "comm_page_allocs", C, NONE,
	  "Page allocations, by command" },
	{ "kmem", "comm.{comm+}.sum", "comm_pages", C, NONE,
	  "Pages allocated, by command" },

	/* tpstat_net.ko */
	{ "net", "queued", "packets_queued", C, NONE,
	  "Packets queued to be sent (net_dev_queue)" },
	{ "net", "sent", "packets_sent", C, NONE,
	  "Packets handed to a device's driver (net_dev_start_xmit)" },
	{ "net", "not_sent", "packets_not_sent", C, NONE,
	  "Packets a driver did not take (not NETDEV_TX_OK); one it takes later counts again" },
	{ "net", "received", "packets_received", C, NONE,
	  "Packets the protocols received, by any path" },
	{ "net", "dropped", "packets_dropped", C, NONE, "Packets dropped (kfree_skb)" },
	{ "net", "consumed", "packets_consumed", C, NONE,
	  "Packets freed after use, which are not drops (consume_skb)" },
	{ "net", "rx_path.{path}", "rx_path_packets", C, NONE,
	  "Packets received by one path: backlog (netif_rx), direct, gro or list" },
	/* A pairing map's counters (core/pairs.c): a packet's queueing. */
	{ "net", "queue.started", "queue_started", C, NONE,
	  "Queued packets timed until their transmission" },
	{ "net", "queue.replaced", "queue_replaced", C, NONE,
	  "Queueings that replaced an untransmitted one of the same packet" },
	{ "net", "queue.paired", "queue_paired", C, NONE,
	  "Transmissions timed from their queueing" },
	{ "net", "queue.unpaired", "queue_unpaired", C, NONE,
	  "Transmissions whose queueing was not timed (filtered out, or before the attach)" },
	{ "net", "queue.dropped", "queue_dropped", C, NONE,
	  "Queueings not timed: the map was full (max_queued)" },
	{ "net", "queue.expired", "queue_expired", C, NONE,
	  "Queueings evicted after a second without their transmission" },
	{ "net", "queue.held", "queue_held", G, NONE,
	  "Queued packets waiting for their transmission now" },
	{ "net", "queue.capacity", "queue_capacity", G, NONE,
	  "Queueings the map can hold (max_queued)" },
	/* A device: its name (which may hold dots), ifindex and netns; or other. */
	{ "net", "dev.{device+}[.{ifindex}[@{netns}]].rx_packets", "dev_rx_packets",
	  C, NONE, "Packets a device received" },
	{ "net", "dev.{device+}[.{ifindex}[@{netns}]].rx_bytes", "dev_rx_bytes",
	  C, B, "Bytes a device received, link-layer headers included" },
	{ "net", "dev.{device+}[.{ifindex}[@{netns}]].tx_packets", "dev_tx_packets",
	  C, NONE, "Packets handed to a device's driver" },
	{ "net", "dev.{device+}[.{ifindex}[@{netns}]].tx_bytes", "dev_tx_bytes",
	  C, B, "Bytes handed to a device's driver, link-layer headers included" },
	{ "net", "dev.{device+}[.{ifindex}[@{netns}]].not_sent", "dev_not_sent",
	  C, NONE, "Packets a device's driver did not take (not NETDEV_TX_OK)" },
	{ "net", "sizes.{direction}", "packet_size_bytes", H, B,
	  "Packet lengths, link-layer header included, received (rx) or sent (tx)" },
	{ "net", "queue.ns", "queue_seconds", H, NS,
	  "Time from a packet's queueing (net_dev_queue) to its transmission (net_dev_xmit)" },
	{ "net", "drop.{reason}", "drops_by_reason", C, NONE,
	  "Packets dropped, by the reason the running kernel names" },
	{ "net", "drop_site.{function+}", "drops_by_function", C, NONE,
	  "Packets dropped, by the function that dropped them" },

	/* tpstat_stack.ko: an entry, stack/<tracepoint>, a set of its own. */
	{ "stack/", "events", "events", C, NONE,
	  "Events the entry counted, its rows' and other's" },
	{ "stack/", "rows", "rows", G, NONE,
	  "Rows the entry holds: its stacks, or keys, since the reset" },
	{ "stack/", "capacity", "capacity", G, NONE,
	  "Rows the entry can hold (max_stacks)" },
	{ "stack/", "other", "other", C, NONE,
	  "Events whose stack or keys found no row" },
	/* A row of an entry by stack: its rank moves as the rows count. */
	{ "stack/", "row.stack{rank}[.comm.{comm+}][.pid.{pid}][.tgid.{tgid}][.cpu.{cpu}]",
	  "ranked_row_events", G, NONE,
	  "Events of the row of this rank in the stacks file: a rank, not one stack" },
	{ "stack/", "row[.comm.{comm+}][.pid.{pid}][.tgid.{tgid}][.cpu.{cpu}]",
	  "row_events", C, NONE,
	  "Events of a command, pid, tgid or CPU, as the entry counts by them" },

	/* tpstat_test_probe.ko, the test suite's set */
	{ "test", "hist", "hist", H, NONE, "Values fired" },
	{ "test", "table.{key}.count", "table_count", C, NONE, "Events of a table key" },
	{ "test", "table.{key}.sum", "table_sum", C, NONE, "Values of a table key" },
	{ "test", "table.other", "table_other", C, NONE,
	  "Events of keys the table had no room for" },
	{ "test", "high.{key}.count", "high_count", C, NONE, "Events of a table key" },
	{ "test", "high.{key}.sum", "high_sum", C, NONE, "Values of a table key" },
	{ "test", "high.other", "high_other", C, NONE,
	  "Events of keys the table had no room for" },
	/* A pairing map's counters (core/pairs.c). */
	{ "test", "pairs.started", "pairs_started", C, NONE, "Starts recorded" },
	{ "test", "pairs.replaced", "pairs_replaced", C, NONE,
	  "Starts that replaced an unended one of the same key" },
	{ "test", "pairs.paired", "pairs_paired", C, NONE, "Ends paired with their start" },
	{ "test", "pairs.unpaired", "pairs_unpaired", C, NONE, "Ends whose start was not seen" },
	{ "test", "pairs.dropped", "pairs_dropped", C, NONE, "Starts lost to a full map" },
	{ "test", "pairs.expired", "pairs_expired", C, NONE,
	  "Starts evicted from a full map: the oldest, or one from before the attach" },
	{ "test", "pairs.held", "pairs_held", G, NONE, "Starts waiting for their end now" },
	{ "test", "pairs.capacity", "pairs_capacity", G, NONE, "Starts the map can hold" },
	{ "test", "wide.{label+}.count", "wide_count", C, NONE, "Events of a key" },
	{ "test", "wide.{label+}.cpu{cpu}", "wide_cpu", C, NONE,
	  "Events of a key on one CPU" },
	{ "test", "wide.other", "wide_other", C, NONE,
	  "Events of keys with no row" },
	{ "test", "wtable.{comm+}.count", "wtable_count", C, NONE,
	  "Events by command" },
	{ "test", "wtable.other", "wtable_other", C, NONE,
	  "Events of commands with no row" },
	{ "test", "pair_ns", "pair_seconds", H, NS, "Time from a start to its end" },

	/* tpstat_test_tasks.ko */
	{ "test_tasks", "comms.{comm+}.even", "comms_even", C, NONE,
	  "Even values fired, by command" },
	{ "test_tasks", "comms.{comm+}.odd", "comms_odd", C, NONE,
	  "Odd values fired, by command" },
	/* A task table's counters (core/tasks.c). */
	{ "test_tasks", "tasks.claimed", "tasks_claimed", C, NONE, "Tasks given a row" },
	{ "test_tasks", "tasks.released", "tasks_released", C, NONE,
	  "Rows of freed tasks released" },
	{ "test_tasks", "tasks.dropped", "tasks_dropped", C, NONE,
	  "Events of tasks the full table had no row for" },
	{ "test_tasks", "tasks.evicted", "tasks_evicted", C, NONE,
	  "Rows kept from before a re-attach taken for other tasks" },
	{ "test_tasks", "tasks.held", "tasks_held", G, NONE, "Tasks with a row now" },
	{ "test_tasks", "tasks.capacity", "tasks_capacity", G, NONE, "Rows the table has" },

	/*
	 * The core's lines, in every set's stats (core/debugfs.c); and a
	 * filter's, in those of sets with one (core/filter.c).
	 */
	{ NULL, "since_reset_ns", "since_reset_seconds", G, NS,
	  "Time since the set was loaded or last reset" },
	{ NULL, "enabled", "enabled", G, NONE,
	  "1 while the set's probes are attached, 0 when its enable file detached them" },
	{ NULL, "filter.rejected", "filter_rejected", C, NONE,
	  "Events the set's filter rejected, counted nowhere else (hits included)" },
	{ NULL, "{tracepoint}.hits", "hits", C, NONE,
	  "Events the set's probe on a tracepoint saw" },
	{ NULL, "{tracepoint}.dropped", "dropped", C, NONE,
	  "Events the set's probe on a tracepoint could not record" },
};

#define TPSTAT_COMPS_MAX	64
/* Optional parts a pattern may have: its forms fit a u64's bits. */
#define TPSTAT_GROUPS_MAX	6

/* A component of a name or a pattern. */
struct comp {
	const char *s;
	size_t n;
};

/* Splits @s at dots; returns the number of components, 0 if too many. */
static size_t split(const char *s, size_t len, struct comp *c)
{
	size_t nr = 0;
	const char *end = s + len, *dot;

	for (;;) {
		if (nr == TPSTAT_COMPS_MAX)
			return 0;
		dot = memchr(s, '.', end - s);
		c[nr].s = s;
		c[nr].n = (dot ? dot : end) - s;
		nr++;
		if (!dot)
			return nr;
		s = dot + 1;
	}
}

/* One form of a pattern: each optional part in or out. */
struct form {
	char *text;
	struct comp *c;
	size_t nr;
	unsigned int keys;
};

/*
 * The forms of a pattern the set's lines are matched against, those with
 * the most keys first: a line's keys are taken greedily. For a pattern
 * whose lines have the same keys in a set (same_keys()), @fits has bit i
 * set when form i matches every line of the set that some form matches:
 * so an entry of the stack set by comm reads a row whose command looks
 * like more keys ("x.cpu.1") as its other rows say. All ones for other
 * patterns.
 */
struct forms {
	struct form *f;
	unsigned int nr;
	unsigned long long fits;
};

static bool applies(const struct tpstat_pattern *pat, const char *set)
{
	size_t n;

	if (!pat->set)
		return true;
	/* "stack/": any set right inside stack. */
	n = strlen(pat->set);
	if (n > 1 && pat->set[n - 1] == '/')
		return !strncmp(set, pat->set, n) && set[n] && !strchr(set + n, '/');
	return !strcmp(pat->set, set);
}

/*
 * Form @mask of @stat in @b: optional part i (by its '[') left out when
 * bit i is set. False for a mask that leaves out a part inside one left
 * out already: that form is the one with the inner part's bit clear.
 */
static bool form_text(const char *stat, unsigned int mask, struct tpstat_buf *b)
{
	unsigned int group = 0, depth = 0, out = 0;

	for (; *stat; stat++) {
		if (*stat == '[') {
			depth++;
			if (group < TPSTAT_GROUPS_MAX && (mask & (1U << group))) {
				if (out)
					return false;
				out = depth;
			}
			group++;
		} else if (*stat == ']') {
			if (out == depth)
				out = 0;
			depth--;
		} else if (!out) {
			tpstat_buf_add(b, stat, 1);
		}
	}
	return true;
}

static unsigned int count_char(const char *s, char c)
{
	unsigned int n = 0;

	for (; *s; s++)
		n += *s == c;
	return n;
}

static void build_forms(const char *stat, struct forms *fs)
{
	unsigned int groups = count_char(stat, '['), mask, i, j;

	if (groups > TPSTAT_GROUPS_MAX)
		groups = TPSTAT_GROUPS_MAX;
	fs->f = tpstat_alloc((1U << groups) * sizeof(*fs->f));
	fs->fits = ~0ULL;
	for (mask = 0; mask < 1U << groups; mask++) {
		struct tpstat_buf b = { 0 };
		struct comp c[TPSTAT_COMPS_MAX];
		struct form f;

		tpstat_buf_add(&b, "", 0);
		if (!form_text(stat, mask, &b)) {
			tpstat_buf_free(&b);
			continue;
		}
		f.text = b.s;
		f.nr = split(f.text, b.len, c);
		f.c = tpstat_alloc((f.nr + 1) * sizeof(*f.c));
		memcpy(f.c, c, f.nr * sizeof(*c));
		f.keys = count_char(f.text, '{');
		/* After those with as many keys or more: the order is stable. */
		for (i = fs->nr; i > 0 && fs->f[i - 1].keys < f.keys; i--)
			;
		for (j = fs->nr; j > i; j--)
			fs->f[j] = fs->f[j - 1];
		fs->f[i] = f;
		fs->nr++;
	}
}

static void free_forms(struct forms *fs, size_t nr)
{
	size_t i, j;

	for (i = 0; i < nr; i++) {
		for (j = 0; j < fs[i].nr; j++) {
			free(fs[i].f[j].text);
			free(fs[i].f[j].c);
		}
		free(fs[i].f);
	}
	free(fs);
}

/* A key of a pattern: its label. */
struct key {
	const char *label;
	size_t label_len;
};

/* "{label}" or "{label+}" at @open; returns what follows it. */
static const char *parse_key(const char *open, struct key *k)
{
	const char *close = strchr(open, '}');

	k->label = open + 1;
	k->label_len = close - k->label;
	if (k->label_len && k->label[k->label_len - 1] == '+')
		k->label_len--;
	return close + 1;
}

/* A component that is a key of one or more components: "{label+}". */
static bool is_multi(const struct comp *p)
{
	return p->n > 3 && p->s[0] == '{' && p->s[p->n - 2] == '+' &&
	       p->s[p->n - 1] == '}';
}

static bool is_probe(const struct tpstat_probes *probes, const char *set,
		     const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < probes->nr; i++)
		if (!strcmp(probes->p[i].set, set) &&
		    strlen(probes->p[i].tracepoint) == n &&
		    !memcmp(probes->p[i].tracepoint, s, n))
			return true;
	return false;
}

/* Where a pattern matched: the labels, and the name's components they took. */
struct match {
	struct comp value[TPSTAT_LABELS_MAX];
	struct key key[TPSTAT_LABELS_MAX];
	unsigned int nr;
	/* The name's components after the last key. */
	size_t after;
};

static bool add_key(struct match *m, const struct key *k, const char *s,
		    size_t n, const struct tpstat_probes *probes, const char *set)
{
	if (!n || m->nr == TPSTAT_LABELS_MAX)
		return false;
	if (k->label_len == strlen("tracepoint") &&
	    !memcmp(k->label, "tracepoint", k->label_len) &&
	    !is_probe(probes, set, s, n))
		return false;
	m->key[m->nr] = *k;
	m->value[m->nr].s = s;
	m->value[m->nr++].n = n;
	return true;
}

/*
 * Matches one component of a form, @p, against the name's @c: a word is
 * itself; a key alone takes the whole component; keys among words
 * ("cpu{cpu}", "{ifindex}@{netns}") each take a decimal number.
 */
static bool match_comp(const struct comp *p, const struct comp *c,
		       struct match *m, const struct tpstat_probes *probes,
		       const char *set)
{
	const char *ps = p->s, *pe = p->s + p->n, *cs = c->s, *ce = c->s + c->n;
	bool alone = p->n > 1 && ps[0] == '{' && memchr(ps, '}', p->n) == pe - 1;

	if (!c->n)
		return false;
	while (ps < pe) {
		const char *open = memchr(ps, '{', pe - ps), *v;
		size_t word = (open ? open : pe) - ps;
		struct key k;

		if ((size_t)(ce - cs) < word || memcmp(ps, cs, word))
			return false;
		ps += word;
		cs += word;
		if (!open)
			break;
		ps = parse_key(open, &k);
		v = cs;
		if (alone)
			cs = ce;
		while (!alone && cs < ce && *cs >= '0' && *cs <= '9')
			cs++;
		if (!add_key(m, &k, v, cs - v, probes, set))
			return false;
	}
	return cs == ce;
}

/* Matches @name's @n components against form @f of a pattern. */
static bool match_form(const struct form *f, const struct comp *name, size_t n,
		       struct match *m, const struct tpstat_probes *probes,
		       const char *set)
{
	const struct comp *p = f->c;
	size_t i, multi = f->nr, at;

	m->nr = 0;
	m->after = 0;
	for (i = 0; i < f->nr; i++)
		if (is_multi(&p[i]))
			multi = i;
	if (!f->nr || (multi == f->nr ? n != f->nr : n < f->nr))
		return false;
	for (i = 0, at = 0; i < f->nr; i++, at++) {
		if (i == multi) {
			size_t last = at + n - f->nr;
			const char *s = name[at].s;
			struct key k;

			for (; at < last; at++)
				if (!name[at].n)
					return false;
			parse_key(p[i].s, &k);
			if (!name[last].n ||
			    !add_key(m, &k, s, name[last].s + name[last].n - s,
				     probes, set))
				return false;
		} else if (!match_comp(&p[i], &name[at], m, probes, set)) {
			return false;
		}
		if (memchr(p[i].s, '{', p[i].n))
			m->after = at + 1;
	}
	return true;
}

/*
 * Matches @name against @fs: first the forms every line of the set fits,
 * then the rest, each in order. Returns the form that matched, or NULL.
 */
static const struct form *match_forms(const struct forms *fs,
				      const struct comp *name, size_t n,
				      struct match *m,
				      const struct tpstat_probes *probes,
				      const char *set)
{
	unsigned int pass, i;

	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < fs->nr; i++)
			if ((fs->fits >> i & 1) == !pass &&
			    match_form(&fs->f[i], name, n, m, probes, set))
				return &fs->f[i];
	return NULL;
}

static const char *const tpstat_hist_parts[] = {
	[TPSTAT_HIST_COUNT] = "count",
	[TPSTAT_HIST_SUM] = "sum",
	[TPSTAT_HIST_MIN] = "min",
	[TPSTAT_HIST_MAX] = "max",
	[TPSTAT_HIST_P50] = "p50",
	[TPSTAT_HIST_P90] = "p90",
	[TPSTAT_HIST_P99] = "p99",
};

/* The histogram part @s names: "count", ..., "bucket_<low>_<high>". */
static enum tpstat_hist_part hist_part(const char *s, unsigned long long *low,
				       unsigned long long *high)
{
	unsigned int i;
	int end = 0;

	for (i = TPSTAT_HIST_COUNT; i <= TPSTAT_HIST_P99; i++)
		if (!strcmp(s, tpstat_hist_parts[i]))
			return i;
	if (!strncmp(s, "bucket_", 7) && s[7] >= '0' && s[7] <= '9' &&
	    sscanf(s, "bucket_%llu_%llu%n", low, high, &end) == 2 &&
	    !s[end] && *low <= *high)
		return TPSTAT_HIST_BUCKET;
	return TPSTAT_HIST_NONE;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool has_name(char **sorted, size_t nr, const char *prefix,
		     size_t len, const char *part)
{
	struct tpstat_buf b = { 0 };
	bool found;
	char *key;

	tpstat_buf_add(&b, prefix, len);
	tpstat_buf_printf(&b, ".%s", part);
	key = b.s;
	found = bsearch(&key, sorted, nr, sizeof(*sorted), cmp_str);
	tpstat_buf_free(&b);
	return found;
}

void tpstat_sanitize(struct tpstat_buf *b, const char *s, size_t n)
{
	size_t i, start = b->len;

	for (i = 0; i < n; i++) {
		char c = s[i];
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || c == '_';

		tpstat_buf_add(b, ok ? &c : "_", 1);
	}
	if (b->len > start && b->s[start] >= '0' && b->s[start] <= '9') {
		tpstat_buf_add(b, "_", 1);
		memmove(b->s + start + 1, b->s + start, b->len - start - 1);
		b->s[start] = '_';
	}
}

/*
 * A line no pattern describes: its name, sanitized; one ending in "ns"
 * (".ns", "_ns") is taken as nanoseconds, as every tpstat set names them.
 */
static void describe_unknown(struct tpstat_meaning *m, const char *name,
			     size_t len)
{
	struct tpstat_buf b = { 0 };

	if (len > 3 && (!strncmp(name + len - 3, ".ns", 3) ||
			!strncmp(name + len - 3, "_ns", 3))) {
		m->unit = TPSTAT_UNIT_NS;
		tpstat_sanitize(&b, name, len - 2);
		tpstat_buf_add(&b, "seconds", 7);
	} else {
		tpstat_sanitize(&b, name, len);
	}
	m->metric = b.s;
	m->help = NULL;
}

static char *join(const struct comp *c, size_t from, size_t to)
{
	if (from >= to)
		return tpstat_strdup("");
	return tpstat_strndup(c[from].s, c[to - 1].s + c[to - 1].n - c[from].s);
}

/*
 * The table a keyed line is a row of: the pattern's words before its
 * first key or optional part ("dev" of "dev.{device+}[...]"), or the set's
 * name when there are none, then every key the pattern has.
 */
static char *table_of(const struct tpstat_meaning *m, const char *stat,
		      const char *set)
{
	size_t len = strcspn(stat, "{[");
	struct tpstat_buf b = { 0 };
	unsigned int i;

	/* The component a key is part of ("cpu{cpu}") is not a word. */
	if (stat[len] == '{')
		while (len && stat[len - 1] != '.')
			len--;
	while (len && stat[len - 1] == '.')
		len--;
	if (len)
		tpstat_buf_add(&b, stat, len);
	else
		tpstat_buf_add(&b, set, strlen(set));
	tpstat_buf_add(&b, " by", 3);
	for (i = 0; i < m->nr_labels; i++)
		tpstat_buf_printf(&b, " %s", m->labels[i].name);
	return b.s;
}

/* The labels of a match, and where watch shows the line. */
static void describe_match(struct tpstat_meaning *m,
			   const struct tpstat_pattern *pat,
			   const struct match *mt, const struct comp *name,
			   size_t n, const char *set)
{
	struct tpstat_buf row = { 0 };
	const char *s = pat->stat;
	unsigned int i, j;

	m->metric = tpstat_strdup(pat->metric);
	m->help = pat->help;
	m->kind = pat->kind;
	m->unit = pat->unit;
	/* Every key of the pattern, each with the value the name gave it. */
	while ((s = strchr(s, '{')) && m->nr_labels < TPSTAT_LABELS_MAX) {
		struct tpstat_label *l = &m->labels[m->nr_labels++];
		struct key k;

		s = parse_key(s, &k);
		l->name = tpstat_strndup(k.label, k.label_len);
		for (j = 0; j < mt->nr; j++)
			if (mt->key[j].label_len == k.label_len &&
			    !memcmp(mt->key[j].label, k.label, k.label_len))
				l->value = tpstat_strndup(mt->value[j].s,
							  mt->value[j].n);
		if (strcmp(l->name, "tracepoint"))
			m->keyed = true;
	}
	if (!m->keyed)
		return;
	m->table = table_of(m, pat->stat, set);
	tpstat_buf_add(&row, "", 0);
	for (i = 0; i < m->nr_labels; i++)
		tpstat_buf_printf(&row, "%s%s", i ? "\n" : "",
				  m->labels[i].value ? m->labels[i].value : "");
	m->row = row.s;
	m->column = mt->after < n ? join(name, mt->after, n) :
				    tpstat_strdup(pat->metric);
}

/* A histogram's part: its prefix is matched against the patterns. */
static bool describe_hist(struct tpstat_meaning *m, const char *name,
			  char **sorted, size_t nr_sorted,
			  const struct forms *forms,
			  const struct tpstat_probes *probes, const char *set)
{
	const char *dot = strrchr(name, '.');
	struct comp c[TPSTAT_COMPS_MAX];
	unsigned long long low = 0, high = 0;
	enum tpstat_hist_part part;
	struct tpstat_buf col = { 0 };
	struct match mt;
	size_t i, n, len;

	if (!dot)
		return false;
	part = hist_part(dot + 1, &low, &high);
	len = dot - name;
	/* A histogram prints all of these, buckets only when not empty. */
	if (!part || !has_name(sorted, nr_sorted, name, len, "count") ||
	    !has_name(sorted, nr_sorted, name, len, "sum") ||
	    !has_name(sorted, nr_sorted, name, len, "p99"))
		return false;
	m->part = part;
	m->prefix_len = len;
	m->bucket_low = low;
	m->bucket_high = high;
	n = split(name, len, c);
	for (i = 0; n && i < ARRAY_SIZE(tpstat_patterns); i++) {
		const struct tpstat_pattern *pat = &tpstat_patterns[i];

		if (pat->kind != TPSTAT_HIST || !forms[i].nr ||
		    !match_forms(&forms[i], c, n, &mt, probes, set))
			continue;
		describe_match(m, pat, &mt, c, n, set);
		if (m->keyed) {
			/* "ns.count" of hardirq's "4.ttyS0.ns.count". */
			if (mt.after < n)
				tpstat_buf_printf(&col, "%s.", m->column);
			tpstat_buf_printf(&col, "%s", dot + 1);
			free(m->column);
			m->column = col.s;
		}
		return true;
	}
	describe_unknown(m, name, len);
	m->kind = TPSTAT_HIST;
	return true;
}

static void describe_line(struct tpstat_meaning *m, const char *name,
			  char **sorted, size_t nr_sorted,
			  const struct forms *forms,
			  const struct tpstat_probes *probes, const char *set)
{
	struct comp c[TPSTAT_COMPS_MAX];
	struct match mt;
	size_t i, n;

	if (describe_hist(m, name, sorted, nr_sorted, forms, probes, set))
		return;
	n = split(name, strlen(name), c);
	for (i = 0; n && i < ARRAY_SIZE(tpstat_patterns); i++) {
		const struct tpstat_pattern *pat = &tpstat_patterns[i];

		if (pat->kind == TPSTAT_HIST || !forms[i].nr ||
		    !match_forms(&forms[i], c, n, &mt, probes, set))
			continue;
		describe_match(m, pat, &mt, c, n, set);
		return;
	}
	describe_unknown(m, name, strlen(name));
	m->kind = TPSTAT_UNTYPED;
}

/*
 * The sets whose lines of one pattern all have the same optional parts:
 * an entry of the stack set counts each of its rows by the same keys.
 */
static const char *const tpstat_same_keys[] = {
	"stack/",
};

static bool same_keys(const struct tpstat_pattern *pat)
{
	size_t i;

	for (i = 0; pat->set && pat->kind != TPSTAT_HIST &&
	     i < ARRAY_SIZE(tpstat_same_keys); i++)
		if (!strcmp(pat->set, tpstat_same_keys[i]))
			return true;
	return false;
}

/*
 * The forms of the patterns that apply to @stats' set, and of those whose
 * lines have the same keys, which forms every line they match fits.
 */
static struct forms *set_forms(const struct tpstat_stats *stats,
			       const struct tpstat_probes *probes)
{
	struct forms *forms = tpstat_alloc(ARRAY_SIZE(tpstat_patterns) *
					   sizeof(*forms));
	struct comp c[TPSTAT_COMPS_MAX];
	struct match mt;
	size_t i, l, n;
	unsigned int f;

	for (i = 0; i < ARRAY_SIZE(tpstat_patterns); i++)
		if (applies(&tpstat_patterns[i], stats->set))
			build_forms(tpstat_patterns[i].stat, &forms[i]);
	for (l = 0; l < stats->nr; l++) {
		n = split(stats->lines[l].name, strlen(stats->lines[l].name), c);
		for (i = 0; n && i < ARRAY_SIZE(tpstat_patterns); i++) {
			unsigned long long fit = 0;

			if (forms[i].nr < 2 || !same_keys(&tpstat_patterns[i]))
				continue;
			for (f = 0; f < forms[i].nr; f++)
				if (match_form(&forms[i].f[f], c, n, &mt, probes,
					       stats->set))
					fit |= 1ULL << f;
			if (fit)
				forms[i].fits &= fit;
		}
	}
	return forms;
}

void tpstat_describe(const struct tpstat_stats *stats,
		     const struct tpstat_probes *probes, struct tpstat_meaning *m)
{
	char **sorted = tpstat_alloc((stats->nr + 1) * sizeof(*sorted));
	struct forms *forms = set_forms(stats, probes);
	size_t l;

	for (l = 0; l < stats->nr; l++)
		sorted[l] = stats->lines[l].name;
	qsort(sorted, stats->nr, sizeof(*sorted), cmp_str);

	for (l = 0; l < stats->nr; l++) {
		const char *name = stats->lines[l].name;
		const char *dot;

		memset(&m[l], 0, sizeof(m[l]));
		describe_line(&m[l], name, sorted, stats->nr, forms, probes,
			      stats->set);
		if (!m[l].keyed) {
			/* Columns are grouped by what comes before the last dot. */
			dot = m[l].part ? name + m[l].prefix_len : strrchr(name, '.');
			m[l].group = dot ? tpstat_strndup(name, dot - name) :
					   tpstat_strdup("");
			m[l].column = tpstat_strdup(dot ? dot + 1 : name);
		}
		/* watch shows a histogram's sum as its interval's mean. */
		if (m[l].part == TPSTAT_HIST_SUM)
			memcpy(m[l].column + strlen(m[l].column) - 3, "avg", 3);
	}
	free_forms(forms, ARRAY_SIZE(tpstat_patterns));
	free(sorted);
}

/* tpstat_stack.ko's entries are sets named by the tracepoint they count. */
static const struct {
	const char *set, *label;
} tpstat_nested[] = {
	{ "stack", "tracepoint" },
};

const char *tpstat_nested_label(const char *set, size_t *top_len)
{
	const char *slash = strchr(set, '/');
	size_t i;

	if (!slash)
		return NULL;
	*top_len = slash - set;
	for (i = 0; i < ARRAY_SIZE(tpstat_nested); i++)
		if (strlen(tpstat_nested[i].set) == *top_len &&
		    !strncmp(tpstat_nested[i].set, set, *top_len))
			return tpstat_nested[i].label;
	return "set";
}

void tpstat_free_meanings(struct tpstat_meaning *m, size_t nr)
{
	size_t l;
	unsigned int i;

	for (l = 0; l < nr; l++) {
		for (i = 0; i < m[l].nr_labels; i++) {
			free(m[l].labels[i].name);
			free(m[l].labels[i].value);
		}
		free(m[l].metric);
		free(m[l].table);
		free(m[l].row);
		free(m[l].column);
		free(m[l].group);
	}
}

static const struct tpstat_stats *sort_stats;

static int cmp_line(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(sort_stats->lines[x].name, sort_stats->lines[y].name);

	return c ? c : (x > y) - (x < y);
}

/* Folds @from, a second line of the same name, into @into. */
static bool merge_line(struct tpstat_line *into, const struct tpstat_line *from,
		       const struct tpstat_meaning *m)
{
	switch (m->kind == TPSTAT_HIST ? m->part : TPSTAT_HIST_NONE) {
	case TPSTAT_HIST_COUNT:
	case TPSTAT_HIST_SUM:
	case TPSTAT_HIST_BUCKET:
		into->value += from->value;
		return true;
	case TPSTAT_HIST_MIN:
		if (from->value < into->value)
			into->value = from->value;
		return true;
	case TPSTAT_HIST_MAX:
		if (from->value > into->value)
			into->value = from->value;
		return true;
	case TPSTAT_HIST_NONE:
		if (m->kind != TPSTAT_COUNTER)
			return false;
		into->value += from->value;
		return true;
	default:
		/* A percentile of two rows is not to be had from theirs. */
		return false;
	}
}

size_t tpstat_merge_duplicates(struct tpstat_stats *stats,
			       struct tpstat_meaning *m)
{
	size_t *order = tpstat_alloc((stats->nr + 1) * sizeof(*order));
	bool *gone = tpstat_alloc(stats->nr + 1);
	size_t i, first = 0, out, kept = 0;

	for (i = 0; i < stats->nr; i++)
		order[i] = i;
	sort_stats = stats;
	qsort(order, stats->nr, sizeof(*order), cmp_line);
	for (i = 1; i < stats->nr; i++) {
		struct tpstat_line *a, *b;

		a = &stats->lines[order[first]];
		b = &stats->lines[order[i]];
		if (strcmp(a->name, b->name)) {
			first = i;
			continue;
		}
		if (!merge_line(a, b, &m[order[i]]))
			kept++;
		gone[order[i]] = true;
	}
	for (i = 0, out = 0; i < stats->nr; i++) {
		if (gone[i]) {
			free(stats->lines[i].name);
			tpstat_free_meanings(&m[i], 1);
			continue;
		}
		stats->lines[out] = stats->lines[i];
		m[out++] = m[i];
	}
	stats->nr = out;
	free(order);
	free(gone);
	return kept;
}

bool tpstat_is_counter(const struct tpstat_meaning *m)
{
	if (m->kind == TPSTAT_HIST)
		return m->part == TPSTAT_HIST_COUNT || m->part == TPSTAT_HIST_SUM;
	return m->kind == TPSTAT_COUNTER || m->kind == TPSTAT_UNTYPED;
}

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
 *   cpu{cpu}  the prefix, then a decimal number
 * A key named tracepoint must be one of the set's probes.
 */
#include <stdlib.h>
#include <string.h>

#include "tpstat.h"

struct tpstat_pattern {
	/* NULL: the lines every set has. */
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
	{ "kmem", "live.expired", "live_expired", C, NONE, "Starts evicted as too old" },
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
	{ "test", "pairs.expired", "pairs_expired", C, NONE, "Starts evicted as too old" },
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

	/* The core's lines, in every set's stats (core/debugfs.c). */
	{ NULL, "since_reset_ns", "since_reset_seconds", G, NS,
	  "Time since the set was loaded or last reset" },
	{ NULL, "enabled", "enabled", G, NONE,
	  "1 while the set's probes are attached, 0 when its enable file detached them" },
	{ NULL, "{tracepoint}.hits", "hits", C, NONE,
	  "Events the set's probe on a tracepoint saw" },
	{ NULL, "{tracepoint}.dropped", "dropped", C, NONE,
	  "Events the set's probe on a tracepoint could not record" },
};

#define TPSTAT_COMPS_MAX	64

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

/* A pattern component's key: its label and the prefix before the brace. */
struct key {
	const char *label;
	size_t label_len, prefix_len;
	bool multi;
};

static bool pattern_key(const struct comp *p, struct key *k)
{
	const char *open = memchr(p->s, '{', p->n);

	if (!open)
		return false;
	k->prefix_len = open - p->s;
	k->label = open + 1;
	k->label_len = p->s + p->n - 1 - k->label;
	k->multi = k->label[k->label_len - 1] == '+';
	if (k->multi)
		k->label_len--;
	return true;
}

static bool is_number(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return n > 0;
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
	/* The name's components before the first key and after the last. */
	size_t first, after;
};

/* Matches one component of the pattern, @p, against the name's @c. */
static bool match_comp(const struct comp *p, const struct comp *c,
		       struct match *m, const struct tpstat_probes *probes,
		       const char *set)
{
	struct key k;
	struct comp v;

	if (!pattern_key(p, &k))
		return c->n && p->n == c->n && !memcmp(p->s, c->s, c->n);
	if (c->n <= k.prefix_len || memcmp(c->s, p->s, k.prefix_len))
		return false;
	v.s = c->s + k.prefix_len;
	v.n = c->n - k.prefix_len;
	if (k.prefix_len && !is_number(v.s, v.n))
		return false;
	if (k.label_len == strlen("tracepoint") &&
	    !memcmp(k.label, "tracepoint", k.label_len) &&
	    !is_probe(probes, set, v.s, v.n))
		return false;
	if (m->nr == TPSTAT_LABELS_MAX)
		return false;
	m->key[m->nr] = k;
	m->value[m->nr++] = v;
	return true;
}

/* Matches @name's @n components against a pattern's. */
static bool match_pattern(const struct tpstat_pattern *pat,
			  const struct comp *name, size_t n, struct match *m,
			  const struct tpstat_probes *probes, const char *set)
{
	struct comp p[TPSTAT_COMPS_MAX];
	size_t np = split(pat->stat, strlen(pat->stat), p);
	size_t i, multi = np, at;
	struct key k;

	m->nr = 0;
	for (i = 0; i < np; i++)
		if (pattern_key(&p[i], &k) && k.multi)
			multi = i;
	if (multi == np ? n != np : n < np)
		return false;
	m->first = n;
	m->after = 0;
	for (i = 0, at = 0; i < np; i++, at++) {
		bool key = pattern_key(&p[i], &k);

		if (key && m->first == n)
			m->first = at;
		if (i == multi) {
			struct comp v = { name[at].s, 0 };
			size_t last = at + n - np;

			v.n = name[last].s + name[last].n - v.s;
			for (; at < last; at++)
				if (!name[at].n)
					return false;
			if (!name[at].n || m->nr == TPSTAT_LABELS_MAX)
				return false;
			m->key[m->nr] = k;
			m->value[m->nr++] = v;
		} else if (!match_comp(&p[i], &name[at], m, probes, set)) {
			return false;
		}
		if (key)
			m->after = at + 1;
	}
	return true;
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

/* The labels of a match, and where watch shows the line. */
static void describe_match(struct tpstat_meaning *m,
			   const struct tpstat_pattern *pat,
			   const struct match *mt, const struct comp *name,
			   size_t n, const char *set)
{
	struct tpstat_buf table = { 0 }, row = { 0 };
	unsigned int i;

	m->metric = tpstat_strdup(pat->metric);
	m->help = pat->help;
	m->kind = pat->kind;
	m->unit = pat->unit;
	m->nr_labels = mt->nr;
	for (i = 0; i < mt->nr; i++) {
		m->labels[i].name = tpstat_strndup(mt->key[i].label,
						   mt->key[i].label_len);
		m->labels[i].value = tpstat_strndup(mt->value[i].s,
						    mt->value[i].n);
		if (strcmp(m->labels[i].name, "tracepoint"))
			m->keyed = true;
	}
	if (!m->keyed)
		return;
	/* A table per prefix and set of keys: "hardirq by irq handler cpu". */
	if (mt->first)
		tpstat_buf_add(&table, name[0].s,
			       name[mt->first - 1].s + name[mt->first - 1].n -
			       name[0].s);
	else
		tpstat_buf_add(&table, set, strlen(set));
	tpstat_buf_add(&table, " by", 3);
	for (i = 0; i < mt->nr; i++) {
		tpstat_buf_printf(&table, " %s", m->labels[i].name);
		tpstat_buf_printf(&row, "%s%s", i ? " " : "",
				  m->labels[i].value);
	}
	m->table = table.s;
	m->row = row.s;
	m->column = mt->after < n ? join(name, mt->after, n) :
				    tpstat_strdup(pat->metric);
}

/* A histogram's part: its prefix is matched against the patterns. */
static bool describe_hist(struct tpstat_meaning *m, const char *name,
			  char **sorted, size_t nr_sorted,
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

		if (pat->kind != TPSTAT_HIST || (pat->set && strcmp(pat->set, set)) ||
		    !match_pattern(pat, c, n, &mt, probes, set))
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
			  const struct tpstat_probes *probes, const char *set)
{
	struct comp c[TPSTAT_COMPS_MAX];
	struct match mt;
	size_t i, n;

	if (describe_hist(m, name, sorted, nr_sorted, probes, set))
		return;
	n = split(name, strlen(name), c);
	for (i = 0; n && i < ARRAY_SIZE(tpstat_patterns); i++) {
		const struct tpstat_pattern *pat = &tpstat_patterns[i];

		if (pat->kind == TPSTAT_HIST || (pat->set && strcmp(pat->set, set)) ||
		    !match_pattern(pat, c, n, &mt, probes, set))
			continue;
		describe_match(m, pat, &mt, c, n, set);
		return;
	}
	describe_unknown(m, name, strlen(name));
	m->kind = TPSTAT_UNTYPED;
}

void tpstat_describe(const struct tpstat_stats *stats,
		     const struct tpstat_probes *probes, struct tpstat_meaning *m)
{
	char **sorted = tpstat_alloc((stats->nr + 1) * sizeof(*sorted));
	size_t l;

	for (l = 0; l < stats->nr; l++)
		sorted[l] = stats->lines[l].name;
	qsort(sorted, stats->nr, sizeof(*sorted), cmp_str);

	for (l = 0; l < stats->nr; l++) {
		const char *name = stats->lines[l].name;
		const char *dot;

		memset(&m[l], 0, sizeof(m[l]));
		describe_line(&m[l], name, sorted, stats->nr, probes, stats->set);
		if (m[l].keyed)
			continue;
		/* Columns are grouped by what comes before the last dot. */
		dot = m[l].part ? name + m[l].prefix_len : strrchr(name, '.');
		m[l].group = dot ? tpstat_strndup(name, dot - name) : tpstat_strdup("");
		m[l].column = tpstat_strdup(dot ? dot + 1 : name);
	}
	free(sorted);
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

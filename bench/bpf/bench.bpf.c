// SPDX-License-Identifier: GPL-2.0
/*
 * What a BPF user would write to get tpstat's numbers, one program per
 * aggregation, each into per-CPU maps as a careful BPF tool would. The
 * loader (bench/user/bpf-run.c) loads one of them and sums the maps.
 *
 * tp_count runs from the event's perf handler, which first copies the
 * event's fields into a record, as classic BPF tracepoint programs see
 * them; the raw_* programs get the tracepoint's arguments directly.
 */
#include <linux/bpf.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

#include "bench.h"

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bench_hist);
} hist SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, BENCH_KEYS);
	__type(key, __u64);
	__type(value, struct bench_row);
} table SEC(".maps");

static __always_inline int count_one(void)
{
	__u32 zero = 0;
	__u64 *n = bpf_map_lookup_elem(&counts, &zero);

	if (n)
		*n += 1;
	return 0;
}

SEC("tracepoint/tpstat_bench/tpstat_bench_fire")
int tp_count(void *ctx)
{
	return count_one();
}

SEC("raw_tracepoint/tpstat_bench_fire")
int raw_count(struct bpf_raw_tracepoint_args *ctx)
{
	return count_one();
}

/* fls64() without a count-leading-zeros instruction, which BPF lacks. */
static __always_inline __u32 log2_bucket(__u64 v)
{
	__u32 bucket = 0;

	if (v >> 32) {
		v >>= 32;
		bucket += 32;
	}
	if (v >> 16) {
		v >>= 16;
		bucket += 16;
	}
	if (v >> 8) {
		v >>= 8;
		bucket += 8;
	}
	if (v >> 4) {
		v >>= 4;
		bucket += 4;
	}
	if (v >> 2) {
		v >>= 2;
		bucket += 2;
	}
	if (v >> 1) {
		v >>= 1;
		bucket += 1;
	}
	return bucket + v;
}

/* Records @value in the histogram @h, as tpstat's per-CPU one does. */
static __always_inline int hist_record(struct bench_hist *h, __u64 value)
{
	__u32 bucket = log2_bucket(value);

	if (!h || bucket >= BENCH_BUCKETS)
		return 0;
	h->buckets[bucket] += 1;
	h->sum += value;
	if (value < h->min)
		h->min = value;
	if (value > h->max)
		h->max = value;
	return 0;
}

SEC("raw_tracepoint/tpstat_bench_fire")
int raw_hist(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 zero = 0;

	return hist_record(bpf_map_lookup_elem(&hist, &zero), ctx->args[0]);
}

/* Counts @value in the row of @key in a per-CPU hash, made at first sight. */
static __always_inline int row_add(void *map, const void *key, __u64 value)
{
	struct bench_row *row = bpf_map_lookup_elem(map, key);

	if (!row) {
		struct bench_row fresh = {};

		bpf_map_update_elem(map, key, &fresh, BPF_NOEXIST);
		row = bpf_map_lookup_elem(map, key);
		if (!row)
			return 0;
	}
	row->count += 1;
	row->sum += value;
	if (value > row->max)
		row->max = value;
	return 0;
}

SEC("raw_tracepoint/tpstat_bench_fire")
int raw_table(struct bpf_raw_tracepoint_args *ctx)
{
	__u64 value = ctx->args[0], key = value % BENCH_KEYS;

	return row_add(&table, &key, value);
}

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BENCH_PAIRS);
	__type(key, __u64);
	__type(value, struct bench_pair);
} pairs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, BENCH_PAIR_COUNTS);
	__type(key, __u32);
	__type(value, __u64);
} pair_counts SEC(".maps");

static __always_inline void pair_count(__u32 what)
{
	__u64 *n = bpf_map_lookup_elem(&pair_counts, &what);

	if (n)
		*n += 1;
}

/* A start at each even value, taken by the odd one after it, as runqlat does. */
SEC("raw_tracepoint/tpstat_bench_fire")
int raw_pairs(struct bpf_raw_tracepoint_args *ctx)
{
	__u64 value = ctx->args[0], key = value >> 1;
	struct bench_pair *found, start = { .ts = value };

	if (!(value & 1)) {
		pair_count(bpf_map_update_elem(&pairs, &key, &start, BPF_ANY) ?
			   BENCH_DROPPED : BENCH_STARTED);
		return 0;
	}
	found = bpf_map_lookup_elem(&pairs, &key);
	if (!found) {
		pair_count(BENCH_UNPAIRED);
		return 0;
	}
	start = *found;
	bpf_map_delete_elem(&pairs, &key);
	pair_count(BENCH_PAIRED);
	return 0;
}

/* A histogram per key; a new key starts from the empty one in hist. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, BENCH_KEYS);
	__type(key, __u64);
	__type(value, struct bench_hist);
} keyed SEC(".maps");

SEC("raw_tracepoint/tpstat_bench_fire")
int raw_keyed(struct bpf_raw_tracepoint_args *ctx)
{
	__u64 value = ctx->args[0], key = value % BENCH_KEYS;
	struct bench_hist *h = bpf_map_lookup_elem(&keyed, &key);
	__u32 zero = 0;

	if (!h) {
		struct bench_hist *empty = bpf_map_lookup_elem(&hist, &zero);

		if (!empty)
			return 0;
		bpf_map_update_elem(&keyed, &key, empty, BPF_NOEXIST);
		h = bpf_map_lookup_elem(&keyed, &key);
		if (!h)
			return 0;
	}
	return hist_record(h, value);
}

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, BENCH_KEYS);
	__type(key, struct bench_wide_key);
	__type(value, struct bench_row);
} wide SEC(".maps");

SEC("raw_tracepoint/tpstat_bench_fire")
int raw_wide(struct bpf_raw_tracepoint_args *ctx)
{
	__u64 value = ctx->args[0];
	struct bench_wide_key key = {
		.key = value % BENCH_KEYS,
		.word = BENCH_WIDE_WORD,
	};

	return row_add(&wide, &key, value);
}

/*
 * runqlat's logic, as libbpf-tools writes it: a wakeup (or a preemption)
 * saves the time under the task's pid, the switch-in takes it out and
 * adds the latency to a log2 histogram. The task's fields are read with
 * CO-RE, against the running kernel's BTF.
 */
struct task_struct {
	int pid;
	unsigned int __state;
} __attribute__((preserve_access_index));

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BENCH_TASKS);
	__type(key, __u32);
	__type(value, __u64);
} runq_start SEC(".maps");

static __always_inline int runq_enqueue(struct task_struct *p)
{
	__u32 pid = BPF_CORE_READ(p, pid);
	__u64 ts;

	if (!pid)
		return 0;
	ts = bpf_ktime_get_ns();
	bpf_map_update_elem(&runq_start, &pid, &ts, BPF_ANY);
	return 0;
}

SEC("raw_tracepoint/sched_wakeup")
int runqlat_wakeup(struct bpf_raw_tracepoint_args *ctx)
{
	return runq_enqueue((struct task_struct *)ctx->args[0]);
}

SEC("raw_tracepoint/sched_wakeup_new")
int runqlat_wakeup_new(struct bpf_raw_tracepoint_args *ctx)
{
	return runq_enqueue((struct task_struct *)ctx->args[0]);
}

SEC("raw_tracepoint/sched_switch")
int runqlat_switch(struct bpf_raw_tracepoint_args *ctx)
{
	struct task_struct *prev = (struct task_struct *)ctx->args[1];
	struct task_struct *next = (struct task_struct *)ctx->args[2];
	__u32 pid, zero = 0;
	__u64 *tsp, delta;

	if (BPF_CORE_READ(prev, __state) == 0)
		runq_enqueue(prev);
	pid = BPF_CORE_READ(next, pid);
	tsp = bpf_map_lookup_elem(&runq_start, &pid);
	if (!tsp)
		return 0;
	delta = bpf_ktime_get_ns() - *tsp;
	bpf_map_delete_elem(&runq_start, &pid);
	return hist_record(bpf_map_lookup_elem(&hist, &zero), delta);
}

/*
 * memleak's work, keyed by call site as tpstat_kmem is rather than by
 * stack: each allocation saved under its pointer until freed, and per-site
 * sums. Every event is also counted in counts, for the bench's check.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BENCH_ALLOCS);
	__type(key, __u64);
	__type(value, struct bench_pair);
} leak_allocs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, BENCH_SITES);
	__type(key, __u64);
	__type(value, struct bench_site);
} leak_sites SEC(".maps");

static __always_inline struct bench_site *leak_site(__u64 site)
{
	struct bench_site *row = bpf_map_lookup_elem(&leak_sites, &site);

	if (!row) {
		struct bench_site fresh = {};

		bpf_map_update_elem(&leak_sites, &site, &fresh, BPF_NOEXIST);
		row = bpf_map_lookup_elem(&leak_sites, &site);
	}
	return row;
}

/* kmalloc(call_site, ptr, bytes_req, bytes_alloc, gfp_flags, node) */
SEC("raw_tracepoint/kmalloc")
int leak_kmalloc(struct bpf_raw_tracepoint_args *ctx)
{
	__u64 ptr = ctx->args[1];
	struct bench_pair alloc = {
		.ts = bpf_ktime_get_ns(), .a = ctx->args[0], .b = ctx->args[2],
	};
	struct bench_site *site;

	count_one();
	if (!ptr)
		return 0;
	bpf_map_update_elem(&leak_allocs, &ptr, &alloc, BPF_ANY);
	site = leak_site(alloc.a);
	if (site) {
		site->hits += 1;
		site->requested += ctx->args[2];
		site->allocated += ctx->args[3];
	}
	return 0;
}

/* kfree(call_site, ptr) */
SEC("raw_tracepoint/kfree")
int leak_kfree(struct bpf_raw_tracepoint_args *ctx)
{
	__u64 ptr = ctx->args[1], site_key;
	struct bench_pair *alloc;
	struct bench_site *site;

	count_one();
	alloc = bpf_map_lookup_elem(&leak_allocs, &ptr);
	if (!alloc)
		return 0;
	site_key = alloc->a;
	bpf_map_delete_elem(&leak_allocs, &ptr);
	site = leak_site(site_key);
	if (site)
		site->frees += 1;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// SPDX-License-Identifier: GPL-2.0
/*
 * What a BPF user would write to get tpstat's numbers, one program per
 * aggregation, each into per-CPU maps as a careful BPF tool would. The
 * loader (bench/user/bpf-run.c) loads one of them and sums the maps.
 *
 * tp_count runs from the event's perf handler, which first copies the
 * event's fields into a record, as classic BPF tracepoint programs see
 * them; the raw_* programs get the tracepoint's arguments directly. The
 * network's programs are tp_btf ones, raw tracepoints whose arguments the
 * verifier knows the types of: they read a packet's fields with plain
 * loads, where a raw_tracepoint program would call a helper for each.
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
 * bpftrace's @[kstack] = count(): bpf_get_stackid() walks the kernel stack
 * and keeps it in a stack map, whose id keys a count in a per-CPU hash. A
 * walk that fails counts under its error, as bpftrace keys it; bpf-run
 * counts only the stacks kept. As many stacks as tpstat_stack holds, each
 * of as many frames as it and ftrace's hist triggers keep.
 */
struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, BENCH_STACKS);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, BENCH_STACK_DEPTH * sizeof(__u64));
} kstacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, BENCH_STACKS);
	__type(key, __s64);
	__type(value, __u64);
} kstack_counts SEC(".maps");

SEC("raw_tracepoint/tpstat_bench_fire")
int raw_kstack(struct bpf_raw_tracepoint_args *ctx)
{
	__s64 id = bpf_get_stackid(ctx, &kstacks, 0);
	__u64 *n = bpf_map_lookup_elem(&kstack_counts, &id), one = 1;

	if (n)
		*n += 1;
	else
		bpf_map_update_elem(&kstack_counts, &id, &one, BPF_NOEXIST);
	return 0;
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
 * offcputime's work (libbpf-tools' offcputime, kernel stacks only), for
 * tpstat_stack's offcpu entry: a task that blocks has its kernel stack
 * walked into a stack map, and its key and the time saved in a start map
 * by pid; switched in again, the time since is added to its key's row in
 * a per-CPU hash, made at first sight. Blocks as tpstat counts them:
 * voluntary switches out (offcputime's default takes every switch out;
 * the ping-pong's are all voluntary). sched_switch passes (preempt, prev,
 * next, prev_state) on both kernels.
 */
#define OFFCPU_TASK_DEAD	0x80

struct offcpu_start {
	__u64 ts;
	struct bench_offcpu_key key;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BENCH_TASKS);
	__type(key, __u32);
	__type(value, struct offcpu_start);
} offcpu_starts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, BENCH_STACKS);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, BENCH_STACK_DEPTH * sizeof(__u64));
} offcpu_stacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, BENCH_STACKS);
	__type(key, struct bench_offcpu_key);
	__type(value, struct bench_row);
} offcpu_rows SEC(".maps");

SEC("raw_tracepoint/sched_switch")
int offcpu_switch(struct bpf_raw_tracepoint_args *ctx)
{
	struct task_struct *prev = (struct task_struct *)ctx->args[1];
	struct task_struct *next = (struct task_struct *)ctx->args[2];
	unsigned int state = (unsigned int)ctx->args[3];
	struct offcpu_start start = {}, *found;
	__u32 pid = BPF_CORE_READ(prev, pid);

	/* prev is current: the stack walked and the command are its own. */
	if (pid && !(__u8)ctx->args[0] && state && !(state & OFFCPU_TASK_DEAD)) {
		start.key.pid = pid;
		start.key.kstack = bpf_get_stackid(ctx, &offcpu_stacks, 0);
		bpf_get_current_comm(start.key.comm, sizeof(start.key.comm));
		start.ts = bpf_ktime_get_ns();
		bpf_map_update_elem(&offcpu_starts, &pid, &start, BPF_ANY);
	}
	pid = BPF_CORE_READ(next, pid);
	if (!pid)
		return 0;
	found = bpf_map_lookup_elem(&offcpu_starts, &pid);
	if (!found)
		return 0;
	start = *found;
	bpf_map_delete_elem(&offcpu_starts, &pid);
	return row_add(&offcpu_rows, &start.key, bpf_ktime_get_ns() - start.ts);
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

/*
 * memleak's default work, by stack (libbpf-tools' memleak on the kmalloc
 * and kfree tracepoints, kernel stacks only): each allocation's kernel
 * stack walked into a stack map with memleak's flag, the allocation saved
 * under its pointer with its size, time and stack id, and its stack's
 * outstanding bytes and count raised with atomic adds in a shared hash
 * (made at first sight); a free finds the allocation, deletes it and
 * lowers its stack's sums. memleak also stores the size in a hash by
 * thread and takes it out again, a detour left out here. The stack map is
 * kstacks, as many stacks of as many frames as tpstat keeps. An event is
 * counted in counts when it kept its stack (an allocation saved, its
 * stack walked; a free that found its allocation), else in leak_lost: a
 * save that failed, or a walk whose stack collided with another in the
 * map or failed; memleak keeps such an allocation under the error.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BENCH_ALLOCS);
	__type(key, __u64);
	__type(value, struct bench_leak_alloc);
} leak_stack_allocs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BENCH_STACKS);
	__type(key, __u64);
	__type(value, struct bench_leak_stack);
} leak_stack_sums SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} leak_lost SEC(".maps");

static __always_inline void leak_lose(void)
{
	__u32 zero = 0;
	__u64 *n = bpf_map_lookup_elem(&leak_lost, &zero);

	if (n)
		*n += 1;
}

/* Adds @bytes and @count to a stack's sums; a free adds their negation. */
static __always_inline void leak_stack_add(__u64 stack_id, __u64 bytes,
					   __u64 count)
{
	struct bench_leak_stack *sums, fresh = {};

	sums = bpf_map_lookup_elem(&leak_stack_sums, &stack_id);
	if (!sums) {
		bpf_map_update_elem(&leak_stack_sums, &stack_id, &fresh, BPF_NOEXIST);
		sums = bpf_map_lookup_elem(&leak_stack_sums, &stack_id);
		if (!sums)
			return;
	}
	__sync_fetch_and_add(&sums->bytes, bytes);
	__sync_fetch_and_add(&sums->count, count);
}

/* kmalloc(call_site, ptr, bytes_req, bytes_alloc, gfp_flags, node) */
SEC("raw_tracepoint/kmalloc")
int leak_stack_kmalloc(struct bpf_raw_tracepoint_args *ctx)
{
	struct bench_leak_alloc alloc = { .size = ctx->args[2] };
	__u64 ptr = ctx->args[1];

	if (!ptr)
		return 0;
	alloc.ts = bpf_ktime_get_ns();
	alloc.stack_id = bpf_get_stackid(ctx, &kstacks, BPF_F_FAST_STACK_CMP);
	if (bpf_map_update_elem(&leak_stack_allocs, &ptr, &alloc, BPF_ANY)) {
		leak_lose();
		return 0;
	}
	leak_stack_add(alloc.stack_id, alloc.size, 1);
	if (alloc.stack_id < 0)
		leak_lose();
	else
		count_one();
	return 0;
}

/* kfree(call_site, ptr) */
SEC("raw_tracepoint/kfree")
int leak_stack_kfree(struct bpf_raw_tracepoint_args *ctx)
{
	struct bench_leak_alloc *found;
	__u64 ptr = ctx->args[1], size, stack_id;

	found = bpf_map_lookup_elem(&leak_stack_allocs, &ptr);
	if (!found)
		return 0;
	count_one();
	size = found->size;
	stack_id = found->stack_id;
	bpf_map_delete_elem(&leak_stack_allocs, &ptr);
	leak_stack_add(stack_id, -size, -1);
	return 0;
}

/*
 * The filters of tpstat_bench mode=filter, tested as a BPF programmer
 * would: the command fetched with bpf_get_current_comm() and compared as
 * one word, as tpstat compares "sh" and its NUL. Every value the bench
 * fires is below 65536, so every event passes and every test runs.
 */
#define BENCH_COMM_SH		0x6873ULL	/* "sh", loaded as a little-endian word */
#define BENCH_COMM_SH_MASK	0xffffffULL	/* its bytes and its NUL */

static __always_inline int comm_is_sh(void)
{
	char comm[16];
	__u64 word;

	if (bpf_get_current_comm(comm, sizeof(comm)))
		return 0;
	__builtin_memcpy(&word, comm, sizeof(word));
	return (word & BENCH_COMM_SH_MASK) == BENCH_COMM_SH;
}

/* value >= 0 && value < 65536 && comm == "sh": the compiler merges the first two. */
SEC("raw_tracepoint/tpstat_bench_fire")
int raw_filter_merged(struct bpf_raw_tracepoint_args *ctx)
{
	__u64 value = ctx->args[0];

	if (value >= 0 && value < 65536 && comm_is_sh())
		return count_one();
	return 0;
}

/* value < 65536 && cpu < 64 && comm == "sh" */
SEC("raw_tracepoint/tpstat_bench_fire")
int raw_filter3(struct bpf_raw_tracepoint_args *ctx)
{
	if (ctx->args[0] < 65536 && bpf_get_smp_processor_id() < 64 &&
	    comm_is_sh())
		return count_one();
	return 0;
}

/*
 * tpstat_net's work, on the same tracepoints. The kernel's types, as far as
 * the programs read them; CO-RE finds each field in the running kernel.
 */
struct ns_common {
	unsigned int inum;
} __attribute__((preserve_access_index));

struct net {
	struct ns_common ns;
} __attribute__((preserve_access_index));

/* nd_net is a possible_net_t, a struct of the one pointer. */
struct net_device {
	int ifindex;
	struct {
		struct net *net;
	} nd_net;
} __attribute__((preserve_access_index));

struct sk_buff {
	struct net_device *dev;
	unsigned int len;
	__u16 mac_header;
	__u16 protocol;
	unsigned char *head;
	unsigned char *data;
} __attribute__((preserve_access_index));

/* As net_skb_len(): a received packet's link-layer header counts too. */
static __always_inline __u64 skb_len(struct sk_buff *skb)
{
	__u64 headroom = skb->data - skb->head;
	__u16 mac = skb->mac_header;

	if (mac != 0xffff && mac < headroom)
		return skb->len + headroom - mac;
	return skb->len;
}

static __always_inline struct bench_dev_key dev_key(struct net_device *dev)
{
	struct bench_dev_key key = {
		.ifindex = dev->ifindex,
		.netns = dev->nd_net.net->ns.inum,
	};

	return key;
}

/*
 * A histogram in a row of a per-CPU hash: a row made on one CPU is zeroed
 * on the others, so its min holds the complement of the least value, and
 * 0 is none. User space would turn it back.
 */
static __always_inline void hist_record_zeroed(struct bench_hist *h, __u64 value)
{
	__u32 bucket = log2_bucket(value);

	if (bucket >= BENCH_BUCKETS)
		return;
	h->buckets[bucket] += 1;
	h->sum += value;
	if (~value > h->min)
		h->min = ~value;
	if (value > h->max)
		h->max = value;
}

/* Zeros, as large as any row below: what a new row starts from. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bench_device);
} net_zero SEC(".maps");

/* The row of @key in the per-CPU hash @map, made at first sight. */
static __always_inline void *row_of(void *map, const void *key)
{
	void *row = bpf_map_lookup_elem(map, key);
	__u32 zero = 0;
	void *empty;

	if (row)
		return row;
	empty = bpf_map_lookup_elem(&net_zero, &zero);
	if (!empty)
		return 0;
	bpf_map_update_elem(map, key, empty, BPF_NOEXIST);
	return bpf_map_lookup_elem(map, key);
}

/* A packet of @len bytes in its device's row, direction @dir. */
static __always_inline void device_add(void *map, struct net_device *dev,
				       int dir, __u64 len)
{
	struct bench_dev_key key = dev_key(dev);
	struct bench_device *row = row_of(map, &key);

	if (!row)
		return;
	row->packets[dir] += 1;
	hist_record_zeroed(&row->sizes[dir], len);
}

/* tpstat_net's devices alone: rows of packets and lengths, both ways. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, BENCH_DEVICES);
	__type(key, struct bench_dev_key);
	__type(value, struct bench_device);
} devices SEC(".maps");

SEC("tp_btf/net_dev_start_xmit")
int dev_tx(__u64 *ctx)
{
	struct sk_buff *skb = (struct sk_buff *)ctx[0];

	device_add(&devices, (struct net_device *)ctx[1], BENCH_TX, skb_len(skb));
	return 0;
}

SEC("tp_btf/netif_receive_skb")
int dev_rx(__u64 *ctx)
{
	struct sk_buff *skb = (struct sk_buff *)ctx[0];

	device_add(&devices, skb->dev, BENCH_RX, skb_len(skb));
	return 0;
}

/*
 * All of tpstat_net's work: its counters, sizes overall and per device,
 * the time from queueing to transmission paired by skb (overall and per
 * device), and drops by reason and by function, with their lengths.
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, BENCH_NET_EVENTS);
	__type(key, __u32);
	__type(value, __u64);
} net_events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, BENCH_NET_PATHS);
	__type(key, __u32);
	__type(value, __u64);
} net_paths SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, BENCH_NET_TIMED);
	__type(key, __u32);
	__type(value, __u64);
} net_timed SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, BENCH_DIRS);
	__type(key, __u32);
	__type(value, struct bench_hist);
} net_sizes SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, BENCH_DEVICES);
	__type(key, struct bench_dev_key);
	__type(value, struct bench_device);
} net_devices SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BENCH_NET_QUEUED_MAX);
	__type(key, __u64);
	__type(value, struct bench_pair);
} net_queued SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bench_hist);
} net_queue SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, BENCH_DEVICES);
	__type(key, struct bench_dev_key);
	__type(value, struct bench_hist);
} net_queue_devices SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, BENCH_REASONS);
	__type(key, __u32);
	__type(value, struct bench_hist);
} net_reasons SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, BENCH_DROP_SITES);
	__type(key, __u64);
	__type(value, struct bench_hist);
} net_drop_sites SEC(".maps");

static __always_inline void net_count(void *map, __u32 i)
{
	__u64 *n = bpf_map_lookup_elem(map, &i);

	if (n)
		*n += 1;
}

static __always_inline void net_size(int dir, __u64 len)
{
	__u32 i = dir;
	struct bench_hist *h = bpf_map_lookup_elem(&net_sizes, &i);

	if (h)
		hist_record_zeroed(h, len);
}

/* Saved under the skb's address until its transmission, with its protocol. */
SEC("tp_btf/net_dev_queue")
int net_queue_start(__u64 *ctx)
{
	struct sk_buff *skb = (struct sk_buff *)ctx[0];
	struct bench_pair start = {
		.ts = bpf_ktime_get_ns(), .a = skb->protocol,
	};
	__u64 key = ctx[0];

	net_count(&net_events, BENCH_NET_QUEUED);
	bpf_map_update_elem(&net_queued, &key, &start, BPF_ANY);
	return 0;
}

SEC("tp_btf/net_dev_start_xmit")
int net_start_xmit(__u64 *ctx)
{
	__u64 len = skb_len((struct sk_buff *)ctx[0]);

	net_count(&net_events, BENCH_NET_SENT);
	net_size(BENCH_TX, len);
	device_add(&net_devices, (struct net_device *)ctx[1], BENCH_TX, len);
	return 0;
}

/* Adds @value to the first histogram of a per-CPU array. */
static __always_inline void net_hist(void *map, __u64 value)
{
	__u32 zero = 0;
	struct bench_hist *h = bpf_map_lookup_elem(map, &zero);

	if (h)
		hist_record_zeroed(h, value);
}

/*
 * net_dev_xmit(skb, rc, dev, skb_len), after the driver, which may have
 * freed the skb: its address is only a key.
 */
#define BENCH_NETDEV_TX_BUSY	0x10

SEC("tp_btf/net_dev_xmit")
int net_xmit(__u64 *ctx)
{
	struct net_device *dev = (struct net_device *)ctx[2];
	struct bench_dev_key dk = dev_key(dev);
	struct bench_device *row;
	struct bench_pair *start;
	struct bench_hist *h;
	__u64 key = ctx[0], ns;
	int rc = (int)ctx[1];

	if (rc != BENCH_NETDEV_TX_BUSY) {
		start = bpf_map_lookup_elem(&net_queued, &key);
		if (start) {
			ns = bpf_ktime_get_ns() - start->ts;
			bpf_map_delete_elem(&net_queued, &key);
			if ((__s64)ns < 0)
				ns = 0;
			net_count(&net_timed, BENCH_TIMED);
			net_hist(&net_queue, ns);
			h = row_of(&net_queue_devices, &dk);
			if (h)
				hist_record_zeroed(h, ns);
		} else {
			net_count(&net_timed, BENCH_UNTIMED);
		}
	}
	if (!rc)
		return 0;
	net_count(&net_events, BENCH_NET_NOT_SENT);
	row = row_of(&net_devices, &dk);
	if (row)
		row->not_sent += 1;
	return 0;
}

SEC("tp_btf/netif_rx")
int net_rx_backlog(__u64 *ctx)
{
	net_count(&net_paths, BENCH_PATH_BACKLOG);
	return 0;
}

SEC("tp_btf/netif_receive_skb_entry")
int net_rx_direct(__u64 *ctx)
{
	net_count(&net_paths, BENCH_PATH_DIRECT);
	return 0;
}

SEC("tp_btf/napi_gro_receive_entry")
int net_rx_gro(__u64 *ctx)
{
	net_count(&net_paths, BENCH_PATH_GRO);
	return 0;
}

SEC("tp_btf/netif_receive_skb_list_entry")
int net_rx_list(__u64 *ctx)
{
	net_count(&net_paths, BENCH_PATH_LIST);
	return 0;
}

SEC("tp_btf/netif_receive_skb")
int net_receive(__u64 *ctx)
{
	struct sk_buff *skb = (struct sk_buff *)ctx[0];
	__u64 len = skb_len(skb);

	net_count(&net_events, BENCH_NET_RECEIVED);
	net_size(BENCH_RX, len);
	device_add(&net_devices, skb->dev, BENCH_RX, len);
	return 0;
}

/* kfree_skb(skb, location, reason[, rx_sk]): by reason and by function. */
SEC("tp_btf/kfree_skb")
int net_drop(__u64 *ctx)
{
	__u64 len = skb_len((struct sk_buff *)ctx[0]), site = ctx[1];
	__u32 reason = (__u32)ctx[2];
	struct bench_hist *h;

	net_count(&net_events, BENCH_NET_DROPPED);
	h = row_of(&net_reasons, &reason);
	if (h)
		hist_record_zeroed(h, len);
	h = row_of(&net_drop_sites, &site);
	if (h)
		hist_record_zeroed(h, len);
	return 0;
}

SEC("tp_btf/consume_skb")
int net_consume(__u64 *ctx)
{
	net_count(&net_events, BENCH_NET_CONSUMED);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The map values bench.bpf.c writes and bpf-run reads, shaped like tpstat's
 * own histogram and table so that both sides do the same work per event.
 */
#ifndef _TPSTAT_BENCH_BPF_H
#define _TPSTAT_BENCH_BPF_H

#include <linux/types.h>

/* As tpstat_bench's table: the key is the value modulo this. */
#define BENCH_KEYS	64

/* As TPSTAT_HIST_BUCKETS: bucket 0 for 0, then one per power of two. */
#define BENCH_BUCKETS	65

struct bench_hist {
	__u64 buckets[BENCH_BUCKETS];
	__u64 sum;
	__u64 min;
	__u64 max;
};

struct bench_row {
	__u64 count;
	__u64 sum;
	__u64 max;
};

/*
 * As tpstat_stack's defaults, max_stacks and depth; 16 frames is also what
 * ftrace's hist triggers keep of a stacktrace key.
 */
#define BENCH_STACKS		1024
#define BENCH_STACK_DEPTH	16

/* As tpstat_sched's default max_tasks: tasks whose wakeup is held. */
#define BENCH_TASKS	8192

/*
 * offcputime's key (kernel stacks only): the task, the id of the kernel
 * stack it blocked in, its command; as tpstat_stack's "offcpu by
 * stack,pid,comm". A negative id is the stack walk's error.
 */
struct bench_offcpu_key {
	__u32 pid;
	__s32 kstack;
	char comm[16];
};

/* As tpstat_bench's pairing map: starts held at once. */
#define BENCH_PAIRS	1024

/* What a start saves, as struct tpstat_pair. */
struct bench_pair {
	__u64 ts;
	__u64 a;
	__u64 b;
};

/* As tpstat_kmem's defaults: allocations followed, call sites. */
#define BENCH_ALLOCS	8192
#define BENCH_SITES	256

/* A call site's sums in the memleak program. */
struct bench_site {
	__u64 hits;
	__u64 requested;
	__u64 allocated;
	__u64 frees;
};

/*
 * memleak's saved allocation and its sums per stack (libbpf-tools'
 * alloc_info and combined_alloc_info, without the bit fields).
 */
struct bench_leak_alloc {
	__u64 size;
	__u64 ts;
	__s64 stack_id;
};

struct bench_leak_stack {
	__u64 bytes;
	__u64 count;
};

/* What the pairing program counts, per CPU: every event is one of these. */
enum bench_pair_count {
	BENCH_STARTED,
	BENCH_DROPPED,
	BENCH_PAIRED,
	BENCH_UNPAIRED,
	BENCH_PAIR_COUNTS
};

/* A 16-byte key, as tpstat_bench's wide table: value % 64, then a word. */
struct bench_wide_key {
	__u64 key;
	__u64 word;
};

#define BENCH_WIDE_WORD	0x5450535441540000ULL

/*
 * tpstat_net's work. A device's row: packets per direction, transmissions
 * the driver did not take, and log2 histograms of lengths (whose sums are
 * the bytes); its key, an ifindex and a network namespace.
 */
enum bench_dir { BENCH_RX, BENCH_TX, BENCH_DIRS };

struct bench_dev_key {
	__u32 ifindex;
	__u32 netns;
};

struct bench_device {
	__u64 packets[BENCH_DIRS];
	__u64 not_sent;
	struct bench_hist sizes[BENCH_DIRS];
};

/* As tpstat_net's counters: events by kind, received packets by path. */
enum bench_net_event {
	BENCH_NET_QUEUED,
	BENCH_NET_SENT,
	BENCH_NET_NOT_SENT,
	BENCH_NET_RECEIVED,
	BENCH_NET_DROPPED,
	BENCH_NET_CONSUMED,
	BENCH_NET_EVENTS
};

/* As the queue file's: transmissions timed from their queueing, or not. */
enum bench_net_timed { BENCH_TIMED, BENCH_UNTIMED, BENCH_NET_TIMED };

enum bench_net_path {
	BENCH_PATH_BACKLOG,
	BENCH_PATH_DIRECT,
	BENCH_PATH_GRO,
	BENCH_PATH_LIST,
	BENCH_NET_PATHS
};

/* As tpstat_net's defaults: devices, packets timed at once, reasons, sites. */
#define BENCH_DEVICES		64
#define BENCH_NET_QUEUED_MAX	4096
#define BENCH_REASONS		128
#define BENCH_DROP_SITES	128

#endif /* _TPSTAT_BENCH_BPF_H */

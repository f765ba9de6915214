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

/* As tpstat_sched's default max_tasks: tasks whose wakeup is held. */
#define BENCH_TASKS	8192

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

#endif /* _TPSTAT_BENCH_BPF_H */

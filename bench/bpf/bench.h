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

#endif /* _TPSTAT_BENCH_BPF_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trace event the benchmark fires in a tight loop. Its value changes
 * from one event to the next, as real ones do, so that a histogram or a
 * table sees more than one bucket or key.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM tpstat_bench

#if !defined(_TPSTAT_BENCH_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TPSTAT_BENCH_TRACE_H

#include <linux/tracepoint.h>

TRACE_EVENT(tpstat_bench_fire,
	TP_PROTO(u64 value),
	TP_ARGS(value),
	TP_STRUCT__entry(
		__field(u64, value)
	),
	TP_fast_assign(
		__entry->value = value;
	),
	TP_printk("value=%llu", __entry->value)
);

#endif /* _TPSTAT_BENCH_TRACE_H */

/* Out of the kernel tree: found through -I$(src) in the Kbuild file. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE tpstat_bench_trace
#include <trace/define_trace.h>

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trace events the tests fire on purpose, an exact number of times.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM tpstat_test

#if !defined(_TPSTAT_TEST_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TPSTAT_TEST_TRACE_H

#include <linux/tracepoint.h>

TRACE_EVENT(tpstat_test_fire,
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

/* The start (end == 0) or the end of what key names, for pairing maps. */
TRACE_EVENT(tpstat_test_pair,
	TP_PROTO(u64 key, int end),
	TP_ARGS(key, end),
	TP_STRUCT__entry(
		__field(u64, key)
		__field(int, end)
	),
	TP_fast_assign(
		__entry->key = key;
		__entry->end = end;
	),
	TP_printk("key=%llu end=%d", __entry->key, __entry->end)
);

#endif /* _TPSTAT_TEST_TRACE_H */

/* Out of the kernel tree: found through -I$(src) in the Kbuild file. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE tpstat_test_trace
#include <trace/define_trace.h>

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sample's trace events. Each TRACE_EVENT() makes a tracepoint, as
 * DECLARE_TRACE() does (see ../raw-tracepoint/), and on top of it an event:
 * a record layout in the ring buffer, the code that fills it, a way to print
 * it, and a directory in /sys/kernel/tracing/events/<system>/ with format,
 * filter, enable and trigger files.
 */

/*
 * TRACE_SYSTEM is the directory the events appear in:
 * /sys/kernel/tracing/events/tpstat_sample/. It is set outside the guard
 * below, on every read, and #undef'd first, since a trace header read
 * earlier has set its own.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM tpstat_sample

/*
 * Why this guard lets the header be read more than once: in the one .c
 * file that defines CREATE_TRACE_POINTS, the first read declares
 * trace_<event>() and friends, as any header would. Then
 * <trace/define_trace.h>, at the bottom, defines TRACE_HEADER_MULTI_READ and
 * includes this file again, several times, each time with TRACE_EVENT() and
 * the field macros redefined to produce one more piece: the record's
 * struct, the function that fills it, the one that prints it, the field
 * list of the format file, and so on. One description, many expansions.
 */
#if !defined(_SAMPLE_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _SAMPLE_TRACE_H

#include <linux/cpumask.h>
#include <linux/sched.h>
#include <linux/tracepoint.h>
#include <linux/version.h>

/*
 * What must exist only once (constants, prototypes, helper macros) gets a
 * guard of its own, or the second read would define it again.
 */
#ifndef _SAMPLE_TRACE_ONCE
#define _SAMPLE_TRACE_ONCE

/* sample_fields records the squares 0, 1, 4, 9 up to this many of them. */
#define SAMPLE_MAX_SQUARES	4

/*
 * __assign_str() copies a __string() field's source into the record. Up to
 * 6.9 it is given that source again; from 6.10 on __string() remembers it
 * and __assign_str() takes the field alone. The samples must build when
 * copied out of tpstat, so this one version test lives here and not in
 * <tpstat/compat.h>; a subsystem in the kernel tree calls __assign_str()
 * as its kernel wants.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#define SAMPLE_ASSIGN_STR(field, src)	__assign_str(field)
#else
#define SAMPLE_ASSIGN_STR(field, src)	__assign_str(field, src)
#endif

/* The register and unregister callbacks of sample_produced (producer.c). */
int sample_producer_start(void);
void sample_producer_stop(void);
/* Stops the producer for good; module exit calls it. */
void sample_producer_retire(void);

#endif /* _SAMPLE_TRACE_ONCE */

/*
 * sample_fields: one field of every kind.
 *
 * TP_PROTO and TP_ARGS: the tracepoint's parameters, with and without
 * their types, exactly as for DECLARE_TRACE().
 *
 * TP_STRUCT__entry: the record written to the ring buffer. Each line adds
 * a field, which also appears in the format file and can be named in a
 * filter or a trigger:
 *   __field(type, name)            one value of a fixed-size type
 *   __array(type, name, len)       a fixed number of them; always takes
 *                                  len elements of room
 *   __string(name, src)            a NUL-terminated string, stored at its
 *                                  own length
 *   __dynamic_array(type, name, n) n elements, n computed per event
 *   __bitmask(name, nr_bits)       a bitmap such as a CPU mask
 * Variable-size fields sit after the fixed ones; the record holds their
 * offset and length ("__data_loc" in the format file), so each event takes
 * only the room it needs.
 *
 * TP_fast_assign: fills the record from the arguments. __entry is the
 * record; __get_dynamic_array() and friends point into its variable part.
 * It runs only while the event is enabled, in the tracepoint's context: it
 * must be quick and must not sleep.
 *
 * TP_printk: how the "trace" file shows a record, printed when it is read,
 * not when it is recorded, so it sees only __entry, never the arguments: a
 * pointer would be stale by then, which is why the record holds copies.
 * Tools such as perf and trace-cmd parse the format too, so keep to plain
 * formats and the kernel's __print_*() helpers.
 */
TRACE_EVENT(sample_fields,

	TP_PROTO(unsigned int seq, const char *word, const u32 *squares,
		 unsigned int nr_squares, const struct cpumask *cpus),

	TP_ARGS(seq, word, squares, nr_squares, cpus),

	TP_STRUCT__entry(
		__field(unsigned int, seq)
		__array(char, comm, TASK_COMM_LEN)
		__string(word, word)
		__dynamic_array(u32, squares, nr_squares)
		__bitmask(cpus, nr_cpu_ids)
	),

	TP_fast_assign(
		__entry->seq = seq;
		memcpy(__entry->comm, current->comm, TASK_COMM_LEN);
		SAMPLE_ASSIGN_STR(word, word);
		memcpy(__get_dynamic_array(squares), squares,
		       nr_squares * sizeof(*squares));
		__assign_bitmask(cpus, cpumask_bits(cpus), nr_cpu_ids);
	),

	TP_printk("seq=%u comm=%s word=%s squares=%s cpus=%s",
		  __entry->seq, __entry->comm, __get_str(word),
		  __print_array(__get_dynamic_array(squares),
				__get_dynamic_array_len(squares) / sizeof(u32),
				sizeof(u32)),
		  __get_bitmask(cpus))
);

/*
 * An event class holds what several events share: prototype, record,
 * assignment and output. Each DEFINE_EVENT() then adds one event of that
 * shape for the price of a tracepoint and a small descriptor; the code is
 * generated once per class, not per event. TRACE_EVENT() is a class with a
 * single event. sample_even and sample_odd are two events of one class.
 */
DECLARE_EVENT_CLASS(sample_parity,

	TP_PROTO(unsigned int seq),

	TP_ARGS(seq),

	TP_STRUCT__entry(
		__field(unsigned int, seq)
	),

	TP_fast_assign(
		__entry->seq = seq;
	),

	TP_printk("seq=%u", __entry->seq)
);

DEFINE_EVENT(sample_parity, sample_even,
	TP_PROTO(unsigned int seq),
	TP_ARGS(seq)
);

DEFINE_EVENT(sample_parity, sample_odd,
	TP_PROTO(unsigned int seq),
	TP_ARGS(seq)
);

/*
 * TP_CONDITION is tested inside trace_sample_tenth(), before any probe
 * runs, and only while someone listens. It filters for every user at once
 * (tracefs, perf, BPF, tpstat) and cannot be changed at run time; a filter
 * file is per user and tested after the record is built. Use it when the
 * call site cannot cheaply decide and most calls are uninteresting.
 */
TRACE_EVENT_CONDITION(sample_tenth,

	TP_PROTO(unsigned int seq),

	TP_ARGS(seq),

	TP_CONDITION(seq % 10 == 0),

	TP_STRUCT__entry(
		__field(unsigned int, seq)
	),

	TP_fast_assign(
		__entry->seq = seq;
	),

	TP_printk("seq=%u", __entry->seq)
);

/*
 * TRACE_EVENT_FN adds two callbacks: the first runs when the tracepoint
 * gets its first probe, the second when it loses its last. They start and
 * stop work that exists only to feed the event: here a thread.
 */
TRACE_EVENT_FN(sample_produced,

	TP_PROTO(unsigned long nr),

	TP_ARGS(nr),

	TP_STRUCT__entry(
		__field(unsigned long, nr)
	),

	TP_fast_assign(
		__entry->nr = nr;
	),

	TP_printk("nr=%lu", __entry->nr),

	sample_producer_start, sample_producer_stop
);

#endif /* _SAMPLE_TRACE_H */

/*
 * Outside the guard, so every read reaches it. define_trace.h does
 * nothing unless CREATE_TRACE_POINTS is defined; when it is, it includes
 * this header again as "TRACE_INCLUDE_PATH/TRACE_INCLUDE_FILE.h".
 *
 * That quoted include is looked up first beside define_trace.h, in the
 * kernel's include/trace/, then along the -I search path. Headers in the
 * kernel's include/trace/events/ need neither macro. Out of the tree, use
 * "." as the path and put this folder on the search path of the file that
 * defines CREATE_TRACE_POINTS: "CFLAGS_events.o := -I$(src)" in Kbuild.
 * TRACE_INCLUDE_FILE is this file's name without ".h" (the default would be
 * TRACE_SYSTEM).
 */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE sample_trace
#include <trace/define_trace.h>

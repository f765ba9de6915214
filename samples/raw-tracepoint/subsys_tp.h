/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Two raw tracepoints of a make-believe subsystem, "subsys".
 *
 * A raw tracepoint is only a hook: the subsystem calls trace_<name>() at an
 * interesting spot and modules hang probe functions on it. It records
 * nothing by itself and has no directory in tracefs, unlike a trace event
 * (see ../trace-events/); only code that knows its prototype can use it.
 * Choose it when the data is for in-kernel users and should not become a
 * format user space depends on.
 *
 * This header only declares. Every file that fires or probes the
 * tracepoints includes it; exactly one .c file also defines them (subsys.c),
 * the way a global variable is declared in a header and defined once.
 */
#ifndef _SUBSYS_TP_H
#define _SUBSYS_TP_H

#include <linux/fs.h>
#include <linux/tracepoint.h>
#include <linux/version.h>

/*
 * Raw tracepoints are named with a "_tp" suffix, so that nobody looks for
 * them among the trace events in tracefs. Up to 6.14 the suffix is part of
 * the name given to DECLARE_TRACE(); from 6.15 on DECLARE_TRACE() appends it
 * by itself. This macro is the only place that knows, so everything below
 * and in the .c files uses the full names (trace_subsys_event_tp(),
 * register_trace_subsys_event_tp(), ...) on every kernel. A subsystem in the
 * kernel tree builds for one version and writes DECLARE_TRACE() directly.
 *
 * The samples must build when copied out of tpstat, so they cannot include
 * <tpstat/compat.h>, where tpstat keeps its own version tests.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 15, 0)
#define SUBSYS_DECLARE_TRACE(name, proto, args) \
	DECLARE_TRACE(name, PARAMS(proto), PARAMS(args))
#else
#define SUBSYS_DECLARE_TRACE(name, proto, args) \
	DECLARE_TRACE(name##_tp, PARAMS(proto), PARAMS(args))
#endif

/*
 * DECLARE_TRACE(name, TP_PROTO(...), TP_ARGS(...)) declares:
 *   trace_<name>(proto)            the call the subsystem makes: a no-op
 *                                  instruction until a probe is registered,
 *                                  then patched into a jump to the probes
 *   register_trace_<name>(probe, data) and unregister_trace_<name>()
 *   check_trace_callback_type_<name>(probe)  a compile-time type check
 *   __tracepoint_<name>            the struct tracepoint, defined elsewhere
 *
 * TP_PROTO is the parameter list, TP_ARGS the same names without types:
 * the macro needs both, since C cannot derive one from the other. A probe
 * has the prototype void probe(void *data, <TP_PROTO>): the data pointer
 * given at registration comes first, so one probe function can serve
 * several registrations, each with its own state.
 *
 * subsys_event_tp fires once per open of /proc/tpstat-sample.
 */
SUBSYS_DECLARE_TRACE(subsys_event,
		     TP_PROTO(struct inode *inode, struct file *file),
		     TP_ARGS(inode, file));

/*
 * subsys_eventb_tp fires ten times per open and has nothing to tell. It
 * still takes an argument: a probe's parameter list is "void *data" followed
 * by TP_PROTO, and "void *data, void" is not C. So a tracepoint with nothing
 * to say passes something cheap; here, which of the ten calls this is.
 */
SUBSYS_DECLARE_TRACE(subsys_eventb,
		     TP_PROTO(unsigned int nth),
		     TP_ARGS(nth));

/* How many times each open fires subsys_eventb_tp. */
#define SUBSYS_EVENTB_PER_OPEN	10

#endif /* _SUBSYS_TP_H */

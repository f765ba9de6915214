/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every difference between the kernels tpstat builds for, in one place, each
 * with the version that brought it.
 */
#ifndef _TPSTAT_COMPAT_H
#define _TPSTAT_COMPAT_H

#include <linux/version.h>

/*
 * 6.15 appends "_tp" to the names of tracepoints made with DECLARE_TRACE(),
 * so they cannot be mistaken for trace events. TPSTAT_TP(foo) is the name the
 * running kernel gives such a tracepoint; trace events keep their names.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 15, 0)
#define TPSTAT_TP(name)		name##_tp
#else
#define TPSTAT_TP(name)		name
#endif

/*
 * A probe called through a pointer of another type traps under kCFI (clang,
 * 6.1 and later), so untyped probes are refused there.
 */
#define TPSTAT_UNTYPED_PROBES_TRAP	IS_ENABLED(CONFIG_CFI_CLANG)

/*
 * The free of a packet: 6.11 passes kfree_skb's probes the socket that
 * received it, if any, after the reason; 6.3 passes consume_skb's the
 * caller's address. These declare such a probe, named @fn.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
#define TPSTAT_KFREE_SKB_PROBE(fn)					\
	void fn(void *data, struct sk_buff *skb, void *location,	\
		enum skb_drop_reason reason, struct sock *rx_sk)
#else
#define TPSTAT_KFREE_SKB_PROBE(fn)					\
	void fn(void *data, struct sk_buff *skb, void *location,	\
		enum skb_drop_reason reason)
#endif
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
#define TPSTAT_CONSUME_SKB_PROBE(fn)					\
	void fn(void *data, struct sk_buff *skb, void *location)
#else
#define TPSTAT_CONSUME_SKB_PROBE(fn)					\
	void fn(void *data, struct sk_buff *skb)
#endif

/*
 * 6.4 gave drop reasons a subsystem in their high 16 bits, and the names
 * of each subsystem's reasons a list of their own: drop_reasons_by_subsys[]
 * in place of drop_reasons[].
 */
#define TPSTAT_DROP_REASON_SUBSYS	\
	(LINUX_VERSION_CODE >= KERNEL_VERSION(6, 4, 0))

/* 6.12 moved get_unaligned() and its kin from asm/ to linux/unaligned.h. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

#endif /* _TPSTAT_COMPAT_H */

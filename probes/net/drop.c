// SPDX-License-Identifier: GPL-2.0
/*
 * Freed packets: drops by the kernel's reason and by the function that
 * dropped them, and packets consumed (freed once used), which are not
 * drops.
 *
 * A packet being freed has no device, whatever skb->dev holds: by then
 * that word is often reused. UDP keeps its receive state there from the
 * time a datagram is queued to its socket (udp_set_dev_scratch()) until it
 * is read and freed (__consume_stateless_skb()); TCP's out-of-order queue
 * and IP fragments being reassembled keep it in an rb-tree node (rbnode)
 * over the same word. So neither probe reads it: a filter sees the
 * device's fields (dev, ifindex, netns) as 0.
 *
 * A reason is named as the running kernel names it, from its own table,
 * never from a copy of one version's enum: the list grows with every
 * release, and from 6.4 a reason's high 16 bits name a subsystem with a
 * list of its own, which a module may add at any time.
 */
#include <linux/rcupdate.h>
#include <linux/string.h>

#include "net.h"

/* Longest reason name kept; the kernel's are well under it. */
#define NET_REASON_NAME	48

struct tpstat_keyed tpstat_net_reasons = TPSTAT_KEYED(128, "bytes", 0);
struct tpstat_keyed tpstat_net_drop_sites = TPSTAT_KEYED(128, "bytes", 0);

/* The kernel's name of @reason, in @buf; a new reason's, once. */
static const char *net_reason_name(enum skb_drop_reason reason, char *buf)
{
	const char *name = NULL;
#if TPSTAT_DROP_REASON_SUBSYS
	unsigned int subsys = (unsigned int)reason >> SKB_DROP_REASON_SUBSYS_SHIFT;
	unsigned int code = reason & ~SKB_DROP_REASON_SUBSYS_MASK;
	const struct drop_reason_list *list;

	buf[0] = '\0';
	if (subsys < SKB_DROP_REASON_SUBSYS_NUM) {
		/* A subsystem's list may go with its module. */
		rcu_read_lock();
		list = rcu_dereference(drop_reasons_by_subsys[subsys]);
		if (list && code < list->n_reasons && list->reasons[code])
			strscpy(buf, list->reasons[code], NET_REASON_NAME);
		rcu_read_unlock();
	}
	if (buf[0])
		name = buf;
#else
	if ((unsigned int)reason < SKB_DROP_REASON_MAX)
		name = drop_reasons[reason];
#endif
	if (!name) {
		snprintf(buf, NET_REASON_NAME, "unnamed reason %u", reason);
		name = buf;
	}
	return name;
}

/* The filter's verdict on a freed packet, its length read only for it. */
static __always_inline bool net_pass_freed(const struct sk_buff *skb)
{
	const struct tpstat_filter_prog *prog = tpstat_filter_prog(&tpstat_net_filter);

	return !prog || __tpstat_net_pass(prog, NULL, net_skb_len(skb),
					  skb->protocol);
}

TPSTAT_KFREE_SKB_PROBE(tpstat_net_kfree_skb)
{
	unsigned int len = net_skb_len(skb);
	char name[NET_REASON_NAME];

	if (!net_pass(NULL, len, skb->protocol))
		return;
	tpstat_probe_hit(data);
	tpstat_counter_inc_at(&tpstat_net_events, NET_DROPPED);
	tpstat_keyed_add(&tpstat_net_reasons, reason, len, "%s",
			 net_reason_name(reason, name));
	tpstat_keyed_add_site(&tpstat_net_drop_sites, location, NULL, len);
}

TPSTAT_CONSUME_SKB_PROBE(tpstat_net_consume_skb)
{
	if (!net_pass_freed(skb))
		return;
	tpstat_probe_hit(data);
	tpstat_counter_inc_at(&tpstat_net_events, NET_CONSUMED);
}

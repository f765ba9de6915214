// SPDX-License-Identifier: GPL-2.0
/*
 * What a filter on the net set tests: a packet's length, its device by
 * name, ifindex and network namespace, its protocol and the CPU.
 *
 *   echo 'len > 128 && dev == lo' > /sys/kernel/debug/tpstat/net/filter
 */
#include <linux/smp.h>

#include "net.h"

enum {
	NET_LEN, NET_IFINDEX, NET_NETNS, NET_CPU, NET_PROTOCOL, NET_DEV,
	NET_DEV_HI, NET_SLOTS
};

static const struct tpstat_field tpstat_net_fields[] = {
	TPSTAT_FIELD_NUMBER("len", NET_LEN),
	TPSTAT_FIELD_NAME("dev", NET_DEV),
	TPSTAT_FIELD_NUMBER("ifindex", NET_IFINDEX),
	TPSTAT_FIELD_NUMBER("netns", NET_NETNS),
	TPSTAT_FIELD_NUMBER("cpu", NET_CPU),
	TPSTAT_FIELD_NUMBER("protocol", NET_PROTOCOL),
};

struct tpstat_filter tpstat_net_filter = TPSTAT_FILTER(tpstat_net_fields);

/* The device's fields, which cost loads through it, filled if read. */
#define NET_DEV_SLOTS	(BIT_ULL(NET_IFINDEX) | BIT_ULL(NET_NETNS) |	\
			 BIT_ULL(NET_DEV) | BIT_ULL(NET_DEV_HI))

/*
 * An event with no device (a packet being freed, whose skb->dev may hold
 * something else by then: drop.c) passes NULL: its device's fields are 0.
 * Slots the program does not read stay unset.
 */
bool __tpstat_net_pass(const struct tpstat_filter_prog *prog,
		       const struct net_device *dev, unsigned int len,
		       __be16 protocol)
{
	u64 v[NET_SLOTS];

	v[NET_LEN] = len;
	v[NET_CPU] = raw_smp_processor_id();
	v[NET_PROTOCOL] = be16_to_cpu(protocol);
	if (prog->uses & NET_DEV_SLOTS) {
		if (dev) {
			v[NET_IFINDEX] = dev->ifindex;
			v[NET_NETNS] = net_netns(dev);
			tpstat_filter_name(&v[NET_DEV], dev->name);
		} else {
			v[NET_IFINDEX] = 0;
			v[NET_NETNS] = 0;
			v[NET_DEV] = 0;
			v[NET_DEV_HI] = 0;
		}
	}
	return tpstat_filter_pass(&tpstat_net_filter, prog, v);
}

bool __tpstat_net_pass_skb(const struct tpstat_filter_prog *prog,
			   const struct sk_buff *skb)
{
	return __tpstat_net_pass(prog, skb->dev, net_skb_len(skb), skb->protocol);
}

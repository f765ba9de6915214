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

/* An event with no device (a packet freed after it left one) has none. */
bool __tpstat_net_pass(const struct tpstat_filter_prog *prog,
		       const struct net_device *dev, unsigned int len,
		       __be16 protocol)
{
	u64 v[NET_SLOTS] = {
		[NET_LEN] = len,
		[NET_CPU] = raw_smp_processor_id(),
		[NET_PROTOCOL] = be16_to_cpu(protocol),
	};

	if (dev) {
		v[NET_IFINDEX] = dev->ifindex;
		v[NET_NETNS] = net_netns(dev);
		tpstat_filter_name(&v[NET_DEV], dev->name);
	}
	return tpstat_filter_pass(&tpstat_net_filter, prog, v);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The receive probes: how each packet entered the stack, per CPU, and each
 * packet the protocols get, per device and size.
 *
 * A driver hands a packet in one of four ways: to a CPU's backlog
 * (netif_rx, as loopback and veth do), straight in (netif_receive_skb),
 * through GRO, which may merge it with others, or in a list. Every packet
 * that comes out of them, merged or not, reaches netif_receive_skb: that
 * is what rx counts.
 */
#include "net.h"

struct tpstat_counter tpstat_net_rx_paths = TPSTAT_COUNTERS(NET_RX_PATHS);

static __always_inline void net_rx_path(void *data, const struct sk_buff *skb,
					unsigned int path)
{
	if (!net_pass_skb(skb))
		return;
	tpstat_probe_hit(data);
	tpstat_counter_inc_at(&tpstat_net_rx_paths, path);
}

void tpstat_net_netif_rx(void *data, struct sk_buff *skb)
{
	net_rx_path(data, skb, NET_RX_BACKLOG);
}

void tpstat_net_receive_skb_entry(void *data, const struct sk_buff *skb)
{
	net_rx_path(data, skb, NET_RX_DIRECT);
}

void tpstat_net_gro_receive_entry(void *data, const struct sk_buff *skb)
{
	net_rx_path(data, skb, NET_RX_GRO);
}

void tpstat_net_receive_skb_list_entry(void *data, const struct sk_buff *skb)
{
	net_rx_path(data, skb, NET_RX_LIST);
}

void tpstat_net_receive_skb(void *data, struct sk_buff *skb)
{
	unsigned int len = net_skb_len(skb);

	if (!net_pass(skb->dev, len, skb->protocol))
		return;
	tpstat_probe_hit(data);
	tpstat_counter_inc_at(&tpstat_net_events, NET_RECEIVED);
	tpstat_hist_add_at(&tpstat_net_sizes, NET_DIR_RX, len);
	net_device_add(&tpstat_net_devices, skb->dev, NET_DIR_RX, len);
}

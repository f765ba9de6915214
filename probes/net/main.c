// SPDX-License-Identifier: GPL-2.0
/*
 * tpstat_net.ko: packets per device, size and receive path, the time they
 * wait in a device's queue, and the packets the kernel drops, by reason
 * and by function, from cat; a filter chooses which packets count:
 *
 *   insmod tpstat_net.ko [max_devices=64] [max_queued=4096]
 *                        [max_reasons=128] [max_sites=128]
 *   cat /sys/kernel/debug/tpstat/net/{devices,rx_path,sizes,queue,drops}
 *   echo 'len > 128 && dev == lo' > /sys/kernel/debug/tpstat/net/filter
 */
#include <linux/module.h>
#include <linux/sizes.h>
#include <trace/events/net.h>
#include <trace/events/skb.h>

#include "net.h"

#define TPSTAT_NET_MAX_KEYS	TPSTAT_KEYED_MAX

static unsigned int max_devices = 64;
module_param(max_devices, uint, 0400);
MODULE_PARM_DESC(max_devices, "devices shown by name (1-65536, default 64)");

static unsigned int max_queued = 4096;
module_param(max_queued, uint, 0400);
MODULE_PARM_DESC(max_queued, "packets timed in queues at once (1-4194304, default 4096)");

static unsigned int max_reasons = 128;
module_param(max_reasons, uint, 0400);
MODULE_PARM_DESC(max_reasons, "drop reasons shown by name (1-65536, default 128)");

static unsigned int max_sites = 128;
module_param(max_sites, uint, 0400);
MODULE_PARM_DESC(max_sites, "functions that drop, shown by name (1-65536, default 128)");

static const struct tpstat_metric tpstat_net_metrics[] = {
	TPSTAT_COUNTER_METRIC("queued", "packets_queued", TPSTAT_METRIC_NONE,
			      "Packets queued to be sent (net_dev_queue)"),
	TPSTAT_COUNTER_METRIC("sent", "packets_sent", TPSTAT_METRIC_NONE,
			      "Packets handed to a device's driver (net_dev_start_xmit)"),
	TPSTAT_COUNTER_METRIC("not_sent", "packets_not_sent",
			      TPSTAT_METRIC_NONE,
			      "Packets a driver did not take (not NETDEV_TX_OK); one it takes later counts again"
	),
	TPSTAT_COUNTER_METRIC("received", "packets_received",
			      TPSTAT_METRIC_NONE,
			      "Packets the protocols received, by any path"),
	TPSTAT_COUNTER_METRIC("dropped", "packets_dropped", TPSTAT_METRIC_NONE,
			      "Packets dropped (kfree_skb)"),
	TPSTAT_COUNTER_METRIC("consumed", "packets_consumed",
			      TPSTAT_METRIC_NONE,
			      "Packets freed after use, which are not drops (consume_skb)"),
	TPSTAT_COUNTER_METRIC("rx_path.{path}", "rx_path_packets",
			      TPSTAT_METRIC_NONE,
			      "Packets received by one path: backlog (netif_rx), direct, gro or list"
	),
	/* A pairing map's counters (core/pairs.c): a packet's queueing. */
	TPSTAT_COUNTER_METRIC("queue.started", "queue_started",
			      TPSTAT_METRIC_NONE,
			      "Queued packets timed until their transmission"),
	TPSTAT_COUNTER_METRIC("queue.replaced", "queue_replaced",
			      TPSTAT_METRIC_NONE,
			      "Queueings that replaced an untransmitted one of the same packet"),
	TPSTAT_COUNTER_METRIC("queue.paired", "queue_paired",
			      TPSTAT_METRIC_NONE,
			      "Transmissions timed from their queueing"),
	TPSTAT_COUNTER_METRIC("queue.unpaired", "queue_unpaired",
			      TPSTAT_METRIC_NONE,
			      "Transmissions whose queueing was not timed (filtered out, or before the attach)"
	),
	TPSTAT_COUNTER_METRIC("queue.dropped", "queue_dropped",
			      TPSTAT_METRIC_NONE,
			      "Queueings not timed: the map was full (max_queued)"),
	TPSTAT_COUNTER_METRIC("queue.expired", "queue_expired",
			      TPSTAT_METRIC_NONE,
			      "Queueings evicted after a second without their transmission"),
	TPSTAT_GAUGE_METRIC("queue.held", "queue_held", TPSTAT_METRIC_NONE,
			    "Queued packets waiting for their transmission now"),
	TPSTAT_GAUGE_METRIC("queue.capacity", "queue_capacity",
			    TPSTAT_METRIC_NONE,
			    "Queueings the map can hold (max_queued)"),
	/* A device: its name (which may hold dots), ifindex and netns; or other. */
	TPSTAT_COUNTER_METRIC("dev.{device+}[.{ifindex}[@{netns}]].rx_packets",
			      "dev_rx_packets",
			      TPSTAT_METRIC_NONE,
			      "Packets a device received"),
	TPSTAT_COUNTER_METRIC("dev.{device+}[.{ifindex}[@{netns}]].rx_bytes",
			      "dev_rx_bytes",
			      TPSTAT_METRIC_BYTES,
			      "Bytes a device received, link-layer headers included"),
	TPSTAT_COUNTER_METRIC("dev.{device+}[.{ifindex}[@{netns}]].tx_packets",
			      "dev_tx_packets",
			      TPSTAT_METRIC_NONE,
			      "Packets handed to a device's driver"),
	TPSTAT_COUNTER_METRIC("dev.{device+}[.{ifindex}[@{netns}]].tx_bytes",
			      "dev_tx_bytes",
			      TPSTAT_METRIC_BYTES,
			      "Bytes handed to a device's driver, link-layer headers included"),
	TPSTAT_COUNTER_METRIC("dev.{device+}[.{ifindex}[@{netns}]].not_sent",
			      "dev_not_sent",
			      TPSTAT_METRIC_NONE,
			      "Packets a device's driver did not take (not NETDEV_TX_OK)"),
	/* From an Ethernet header's 14 bytes to a GSO packet's 64 KiB and more. */
	TPSTAT_HIST_METRIC_RANGE("sizes.{direction}", "packet_size_bytes",
				 TPSTAT_METRIC_BYTES, 8, SZ_128K - 1,
				 "Packet lengths, link-layer header included, received (rx) or sent (tx)"
	),
	TPSTAT_HIST_METRIC("queue.ns", "queue_seconds", TPSTAT_METRIC_NS,
			   "Time from a packet's queueing (net_dev_queue) to its driver (net_dev_start_xmit)"
	),
	TPSTAT_COUNTER_METRIC("drop.{reason}", "drops_by_reason",
			      TPSTAT_METRIC_NONE,
			      "Packets dropped, by the reason the running kernel names"),
	TPSTAT_COUNTER_METRIC("drop_site.{function+}", "drops_by_function",
			      TPSTAT_METRIC_NONE,
			      "Packets dropped, by the function that dropped them"),
};

static struct tpstat_set tpstat_net_set = {
	.name = "net",
	TPSTAT_PROBES(TPSTAT_PROBE(net_dev_queue, tpstat_net_dev_queue),
		      TPSTAT_PROBE(net_dev_start_xmit, tpstat_net_dev_start_xmit),
		      TPSTAT_PROBE(net_dev_xmit, tpstat_net_dev_xmit),
		      TPSTAT_PROBE(netif_rx, tpstat_net_netif_rx),
		      TPSTAT_PROBE(netif_receive_skb_entry, tpstat_net_receive_skb_entry),
		      TPSTAT_PROBE(napi_gro_receive_entry, tpstat_net_gro_receive_entry),
		      TPSTAT_PROBE(netif_receive_skb_list_entry,
				   tpstat_net_receive_skb_list_entry),
		      TPSTAT_PROBE(netif_receive_skb, tpstat_net_receive_skb),
		      TPSTAT_PROBE(kfree_skb, tpstat_net_kfree_skb),
		      TPSTAT_PROBE(consume_skb, tpstat_net_consume_skb)),
	TPSTAT_FILES({ .name = "devices", .show = tpstat_net_devices_show },
		     { .name = "rx_path", .show = tpstat_net_rx_path_show },
		     { .name = "sizes", .show = tpstat_net_sizes_show },
		     { .name = "queue", .show = tpstat_net_queue_show },
		     { .name = "drops", .show = tpstat_net_drops_show },
		     TPSTAT_FILTER_FILE("filter", &tpstat_net_filter)),
	TPSTAT_DATA(&tpstat_net_events.data,
		    &tpstat_net_rx_paths.data,
		    &tpstat_net_sizes.data,
		    &tpstat_net_devices.data,
		    &tpstat_net_queue_devices.data,
		    &tpstat_net_queue.data,
		    &tpstat_net_queued.data,
		    &tpstat_net_xmit_frames.data,
		    &tpstat_net_reasons.data,
		    &tpstat_net_drop_sites.data,
		    &tpstat_net_filter.data),
	.stats = tpstat_net_stats,
	.metrics = tpstat_net_metrics,
	.nr_metrics = ARRAY_SIZE(tpstat_net_metrics),
};

static int __init tpstat_net_load(void)
{
	if (!max_devices || max_devices > TPSTAT_NET_MAX_KEYS ||
	    !max_reasons || max_reasons > TPSTAT_NET_MAX_KEYS ||
	    !max_sites || max_sites > TPSTAT_NET_MAX_KEYS ||
	    !max_queued || max_queued > TPSTAT_PAIRS_MAX) {
		pr_err("tpstat_net: max_devices, max_reasons and max_sites must be 1 to %u, max_queued 1 to %u\n",
		       TPSTAT_NET_MAX_KEYS, TPSTAT_PAIRS_MAX);
		return -EINVAL;
	}
	tpstat_net_devices.capacity = max_devices;
	tpstat_net_queue_devices.capacity = max_devices;
	tpstat_net_queued.capacity = max_queued;
	tpstat_net_reasons.capacity = max_reasons;
	tpstat_net_drop_sites.capacity = max_sites;
	return tpstat_set_register(&tpstat_net_set);
}

static void __exit tpstat_net_unload(void)
{
	tpstat_set_unregister(&tpstat_net_set);
}

module_init(tpstat_net_load);
module_exit(tpstat_net_unload);

MODULE_DESCRIPTION("tpstat: packets per device, size and path; queueing; drops by reason");
MODULE_LICENSE("GPL");

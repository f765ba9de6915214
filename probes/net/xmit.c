// SPDX-License-Identifier: GPL-2.0
/*
 * The transmit probes: packets handed to a driver, per device and size,
 * the driver's refusals, and the time from a packet's queueing to its
 * transmission, paired by its skb.
 *
 * net_dev_xmit runs after the driver, which may have freed the skb: that
 * probe uses the pointer as a key and never reads through it.
 */
#include <linux/sched/clock.h>

#include "net.h"

struct tpstat_counter tpstat_net_events = TPSTAT_COUNTERS(NET_EVENTS);
struct tpstat_hist tpstat_net_sizes = TPSTAT_HISTS("bytes", NET_DIRS);
struct tpstat_keyed tpstat_net_devices =
	TPSTAT_KEYED_HISTS_PER_CPU(64, "bytes", NET_DIRS, NET_DEV_COUNTERS);
struct tpstat_keyed tpstat_net_queue_devices = TPSTAT_KEYED(64, "nsecs", 0);
struct tpstat_hist tpstat_net_queue = TPSTAT_HIST("nsecs");
/* A start whose end never comes (a packet segmented or dropped) ages out. */
struct tpstat_pairs tpstat_net_queued = TPSTAT_PAIRS(4096, NSEC_PER_SEC);

/*
 * A packet enters a device's queue (or, on a device without one, goes
 * straight on to its driver): the packets the filter passes are timed
 * from here, with their protocol saved for the filter at the end.
 */
void tpstat_net_dev_queue(void *data, struct sk_buff *skb)
{
	struct tpstat_pair start = { .a = (__force u16)skb->protocol };

	if (!net_pass_skb(skb))
		return;
	tpstat_probe_hit(data);
	start.ts = local_clock();
	tpstat_counter_inc_at(&tpstat_net_events, NET_QUEUED);
	if (!tpstat_pairs_start(&tpstat_net_queued, (unsigned long)skb, &start))
		tpstat_probe_drop(data);
}

void tpstat_net_dev_start_xmit(void *data, const struct sk_buff *skb,
			       const struct net_device *dev)
{
	unsigned int len = net_skb_len(skb);

	if (!net_pass(dev, len, skb->protocol))
		return;
	tpstat_probe_hit(data);
	tpstat_counter_inc_at(&tpstat_net_events, NET_SENT);
	tpstat_hist_add_at(&tpstat_net_sizes, NET_DIR_TX, len);
	net_device_add(&tpstat_net_devices, dev, NET_DIR_TX, len);
}

/*
 * The driver's verdict. The packet's protocol is the one its queueing
 * saved; one whose queueing was not timed (filtered out, sent without
 * dev_queue_xmit(), queued before the probes were attached) has 0. A busy
 * driver gets the packet again later, so its time runs on until then.
 */
void tpstat_net_dev_xmit(void *data, struct sk_buff *skb, int rc,
			 struct net_device *dev, unsigned int skb_len)
{
	struct tpstat_pair start = { .a = 0 };
	struct tpstat_key_ref ref;
	bool timed;
	u64 ns;

	timed = rc != NETDEV_TX_BUSY &&
		tpstat_pairs_end(&tpstat_net_queued, (unsigned long)skb, &start);
	if (!net_pass(dev, skb_len, (__force __be16)(u16)start.a))
		return;
	tpstat_probe_hit(data);
	if (timed) {
		ns = local_clock() - start.ts;
		/* Clocks of two CPUs a little apart: never below 0. */
		if ((s64)ns < 0)
			ns = 0;
		tpstat_hist_add(&tpstat_net_queue, ns);
		net_device_add(&tpstat_net_queue_devices, dev, 0, ns);
	}
	if (rc == NETDEV_TX_OK)
		return;
	tpstat_counter_inc_at(&tpstat_net_events, NET_NOT_SENT);
	ref = net_device_add(&tpstat_net_devices, dev, TPSTAT_KEYED_NO_HIST, 0);
	tpstat_keyed_count(ref, NET_DEV_NOT_SENT);
}

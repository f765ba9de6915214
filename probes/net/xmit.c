// SPDX-License-Identifier: GPL-2.0
/*
 * The transmit probes: packets handed to a driver, per device and size,
 * the driver's refusals, and the time from a packet's queueing to its
 * handing to the driver, paired by its skb.
 *
 * The pair ends at net_dev_start_xmit, while the packet is still the
 * caller's to send. net_dev_xmit comes after the driver, which may have
 * freed the packet, and its address may be another's by then: that probe
 * never reads through the pointer, and never looks it up in the pairing
 * map, where it might find that other packet's start.
 */
#include <linux/sched/clock.h>

#include "net.h"

/*
 * What net_dev_start_xmit saw of a packet, for its net_dev_xmit, which
 * comes after the driver on the same CPU. A driver may send on another
 * device before it returns (a VLAN, a bond, a tunnel), so frames nest, the
 * innermost last, as deep as the kernel lets transmissions nest.
 */
#define NET_XMIT_NEST	XMIT_RECURSION_LIMIT

struct net_xmit_frame {
	const struct sk_buff *skb;	/* compared, never dereferenced */
	__be16 protocol;
};

/*
 * Touched only by the transmit probes, which run with bottom halves off
 * (xmit_one()): one at a time on a CPU, but for the nesting above.
 */
struct net_xmit_cpu {
	unsigned int depth;
	struct net_xmit_frame frames[NET_XMIT_NEST];
};

struct tpstat_counter tpstat_net_events = TPSTAT_COUNTERS(NET_EVENTS);
struct tpstat_hist tpstat_net_sizes = TPSTAT_HISTS("bytes", NET_DIRS);
struct tpstat_keyed tpstat_net_devices =
	TPSTAT_KEYED_HISTS_PER_CPU(64, "bytes", NET_DIRS, NET_DEV_COUNTERS);
struct tpstat_keyed tpstat_net_queue_devices = TPSTAT_KEYED(64, "nsecs", 0);
struct tpstat_hist tpstat_net_queue = TPSTAT_HIST("nsecs");
/* A start whose end never comes (a packet segmented or dropped) ages out. */
struct tpstat_pairs tpstat_net_queued = TPSTAT_PAIRS(4096, NSEC_PER_SEC);
struct tpstat_scratch tpstat_net_xmit_frames = TPSTAT_SCRATCH(struct net_xmit_cpu);

/*
 * A packet enters a device's queue (or, on a device without one, goes
 * straight on to its driver): the packets the filter passes are timed
 * from here.
 */
void tpstat_net_dev_queue(void *data, struct sk_buff *skb)
{
	struct tpstat_pair start = { };

	if (!net_pass_skb(skb))
		return;
	tpstat_probe_hit(data);
	start.ts = local_clock();
	tpstat_counter_inc_at(&tpstat_net_events, NET_QUEUED);
	if (!tpstat_pairs_start(&tpstat_net_queued, (unsigned long)skb, &start))
		tpstat_probe_drop(data);
}

/* Its frame for net_dev_xmit; none if the nesting is deeper than kept. */
static void net_xmit_push(const struct sk_buff *skb)
{
	struct net_xmit_cpu *c = tpstat_scratch_this_cpu(&tpstat_net_xmit_frames);

	if (c->depth == NET_XMIT_NEST)
		return;
	c->frames[c->depth].skb = skb;
	c->frames[c->depth].protocol = skb->protocol;
	c->depth++;
}

/*
 * The protocol net_dev_start_xmit saw of @skb, if its frame is the
 * innermost; else (its start not seen, or not kept) 0.
 */
static __be16 net_xmit_pop(const struct sk_buff *skb)
{
	struct net_xmit_cpu *c = tpstat_scratch_this_cpu(&tpstat_net_xmit_frames);

	if (!c->depth || c->frames[c->depth - 1].skb != skb)
		return 0;
	c->depth--;
	return c->frames[c->depth].protocol;
}

/*
 * The driver gets the packet: it is counted as sent, and its time in the
 * queue ends. One the filter rejects leaves the pairing map uncounted. A
 * busy driver (NETDEV_TX_BUSY) gets it again later, from the queue it went
 * back to: that handing finds no start, and counts as unpaired.
 */
void tpstat_net_dev_start_xmit(void *data, const struct sk_buff *skb,
			       const struct net_device *dev)
{
	unsigned int len = net_skb_len(skb);
	struct tpstat_pair start;
	u64 ns;

	net_xmit_push(skb);
	if (!net_pass(dev, len, skb->protocol)) {
		tpstat_pairs_forget(&tpstat_net_queued, (unsigned long)skb);
		return;
	}
	tpstat_probe_hit(data);
	tpstat_counter_inc_at(&tpstat_net_events, NET_SENT);
	tpstat_hist_add_at(&tpstat_net_sizes, NET_DIR_TX, len);
	net_device_add(&tpstat_net_devices, dev, NET_DIR_TX, len);
	if (!tpstat_pairs_end(&tpstat_net_queued, (unsigned long)skb, &start))
		return;
	ns = local_clock() - start.ts;
	/* Clocks of two CPUs a little apart: never below 0. */
	if ((s64)ns < 0)
		ns = 0;
	tpstat_hist_add(&tpstat_net_queue, ns);
	net_device_add(&tpstat_net_queue_devices, dev, 0, ns);
}

/*
 * The driver's verdict. The filter sees the protocol net_dev_start_xmit
 * read, or 0 if that probe did not see this packet (attached in between).
 */
void tpstat_net_dev_xmit(void *data, struct sk_buff *skb, int rc,
			 struct net_device *dev, unsigned int skb_len)
{
	__be16 protocol = net_xmit_pop(skb);
	struct tpstat_key_ref ref;

	if (!net_pass(dev, skb_len, protocol))
		return;
	tpstat_probe_hit(data);
	if (rc == NETDEV_TX_OK)
		return;
	tpstat_counter_inc_at(&tpstat_net_events, NET_NOT_SENT);
	ref = net_device_add(&tpstat_net_devices, dev, TPSTAT_KEYED_NO_HIST, 0);
	tpstat_keyed_count(ref, NET_DEV_NOT_SENT);
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tpstat_net.ko: what its parts share. xmit.c holds the transmit probes,
 * rx.c the receive ones, drop.c those of freed packets, filter.c the
 * fields a filter tests, output.c the files, main.c the set.
 */
#ifndef _TPSTAT_NET_H
#define _TPSTAT_NET_H

#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <net/dropreason.h>
#include <net/net_namespace.h>
#include <tpstat/tpstat.h>

/* Events counted per CPU, each its own counter. */
enum {
	NET_QUEUED,		/* net_dev_queue */
	NET_SENT,		/* net_dev_start_xmit: handed to the driver */
	NET_NOT_SENT,		/* net_dev_xmit: the driver said not NETDEV_TX_OK */
	NET_RECEIVED,		/* netif_receive_skb: into the protocols */
	NET_DROPPED,		/* kfree_skb */
	NET_CONSUMED,		/* consume_skb: freed once used, not a drop */
	NET_EVENTS
};

/* How received packets entered the stack, per CPU. */
enum {
	NET_RX_BACKLOG,		/* netif_rx: queued to a CPU's backlog */
	NET_RX_DIRECT,		/* netif_receive_skb_entry: straight in */
	NET_RX_GRO,		/* napi_gro_receive_entry */
	NET_RX_LIST,		/* netif_receive_skb_list_entry */
	NET_RX_PATHS
};

/* A device's histograms: lengths received and sent. */
enum { NET_DIR_RX, NET_DIR_TX, NET_DIRS };

/* A device's counters beside them. */
enum { NET_DEV_NOT_SENT, NET_DEV_COUNTERS };

extern struct tpstat_counter tpstat_net_events;
extern struct tpstat_counter tpstat_net_rx_paths;
extern struct tpstat_hist tpstat_net_sizes;		/* per direction */
extern struct tpstat_keyed tpstat_net_devices;		/* lengths per direction */
extern struct tpstat_keyed tpstat_net_queue_devices;	/* queueing time */
extern struct tpstat_hist tpstat_net_queue;		/* queueing time */
extern struct tpstat_pairs tpstat_net_queued;		/* by skb */
extern struct tpstat_scratch tpstat_net_xmit_frames;	/* per CPU */
extern struct tpstat_keyed tpstat_net_reasons;		/* dropped lengths */
extern struct tpstat_keyed tpstat_net_drop_sites;	/* dropped lengths */
extern struct tpstat_filter tpstat_net_filter;

/*
 * A network namespace is known by its cookie, which the kernel gives it
 * when it is made (1 for the initial one) from a 64-bit count it never
 * reuses while it runs. Not by its inode number: that goes back to a pool
 * when the namespace dies (ns_free_inum(), an IDA handing out its lowest
 * free number), and the next namespace made usually gets it again.
 */
static inline u64 net_netns(const struct net_device *dev)
{
	return dev_net(dev)->net_cookie;
}

/*
 * A device is keyed by its ifindex and network namespace: two namespaces'
 * lo are two devices, one renamed is still one, and the lo of a namespace
 * made after another died is not the dead one's. Its label is its name
 * when first seen, so a device gone keeps its row, named as it was.
 */
static __always_inline struct tpstat_key_ref
net_device_add(struct tpstat_keyed *k, const struct net_device *dev,
	       unsigned int hist, u64 value)
{
	struct tpstat_key key = tpstat_key_pair(dev->ifindex, net_netns(dev));

	return tpstat_keyed_add_hinted(k, &key, NULL, hist, value, "%.*s",
				       IFNAMSIZ, dev->name);
}

/*
 * A packet's length with its link-layer header: a received one's, pulled
 * by the driver, counts as /proc/net/dev counts it.
 */
static __always_inline unsigned int net_skb_len(const struct sk_buff *skb)
{
	unsigned int headroom = skb_headroom(skb);

	if (skb_mac_header_was_set(skb) && skb->mac_header < headroom)
		return skb->len + headroom - skb->mac_header;
	return skb->len;
}

/* filter.c: the fields, filled only when a filter is in force. */
bool __tpstat_net_pass(const struct tpstat_filter_prog *prog,
		       const struct net_device *dev, unsigned int len,
		       __be16 protocol);

bool __tpstat_net_pass_skb(const struct tpstat_filter_prog *prog,
			   const struct sk_buff *skb);

static __always_inline bool net_pass(const struct net_device *dev,
				     unsigned int len, __be16 protocol)
{
	const struct tpstat_filter_prog *prog = tpstat_filter_prog(&tpstat_net_filter);

	return !prog || __tpstat_net_pass(prog, dev, len, protocol);
}

/*
 * The same for a packet whose length is wanted for the filter alone, and
 * whose skb->dev is its device: not for one being freed (drop.c).
 */
static __always_inline bool net_pass_skb(const struct sk_buff *skb)
{
	const struct tpstat_filter_prog *prog = tpstat_filter_prog(&tpstat_net_filter);

	return !prog || __tpstat_net_pass_skb(prog, skb);
}

/* xmit.c */
void tpstat_net_dev_queue(void *data, struct sk_buff *skb);
void tpstat_net_dev_start_xmit(void *data, const struct sk_buff *skb,
			       const struct net_device *dev);
void tpstat_net_dev_xmit(void *data, struct sk_buff *skb, int rc,
			 struct net_device *dev, unsigned int skb_len);

/* rx.c */
void tpstat_net_netif_rx(void *data, struct sk_buff *skb);
void tpstat_net_receive_skb_entry(void *data, const struct sk_buff *skb);
void tpstat_net_gro_receive_entry(void *data, const struct sk_buff *skb);
void tpstat_net_receive_skb_list_entry(void *data, const struct sk_buff *skb);
void tpstat_net_receive_skb(void *data, struct sk_buff *skb);

/* drop.c */
TPSTAT_KFREE_SKB_PROBE(tpstat_net_kfree_skb);
TPSTAT_CONSUME_SKB_PROBE(tpstat_net_consume_skb);

/* output.c */
int tpstat_net_devices_show(struct seq_file *m, struct tpstat_set *set);
int tpstat_net_rx_path_show(struct seq_file *m, struct tpstat_set *set);
int tpstat_net_sizes_show(struct seq_file *m, struct tpstat_set *set);
int tpstat_net_queue_show(struct seq_file *m, struct tpstat_set *set);
int tpstat_net_drops_show(struct seq_file *m, struct tpstat_set *set);
int tpstat_net_stats(struct seq_file *m, struct tpstat_set *set);

#endif /* _TPSTAT_NET_H */

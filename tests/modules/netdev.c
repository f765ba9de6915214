// SPDX-License-Identifier: GPL-2.0
/*
 * tpstat_test_netdev.ko: a network device, tpbusy0, whose driver answers
 * NETDEV_TX_BUSY to its first @busy packets and then takes every packet
 * as sent, so that tests know how often a driver refused a packet:
 *
 *   insmod tpstat_test_netdev.ko busy=5
 *
 * @calls and @refused, read-only parameters, say how many packets the
 * driver was handed and how many it refused. A refused packet stays in
 * its qdisc, which hands it again from the transmit softirq. No ARP, a
 * queue of its own (a device without one may not refuse).
 *
 *   echo 1 > /sys/module/tpstat_test_netdev/parameters/stopped
 *   echo 0 > /sys/module/tpstat_test_netdev/parameters/stopped
 *
 * stops the device's queue, as a driver does when its ring is full, and
 * wakes it: what is sent meanwhile waits in the qdisc for as long as a
 * test chooses. Written once the device is up.
 */
#include <linux/etherdevice.h>
#include <linux/module.h>
#include <linux/netdevice.h>

static unsigned int busy;
module_param(busy, uint, 0444);
MODULE_PARM_DESC(busy, "packets refused with NETDEV_TX_BUSY before any is sent");

/* The queue's transmit lock serializes the driver: plain counts do. */
static unsigned int calls;
module_param(calls, uint, 0444);
MODULE_PARM_DESC(calls, "packets the driver was handed");

static unsigned int refused;
module_param(refused, uint, 0444);
MODULE_PARM_DESC(refused, "packets the driver answered NETDEV_TX_BUSY");

static struct net_device *tpstat_test_netdev;

static bool stopped;

static int tpstat_test_netdev_stop_set(const char *val,
				       const struct kernel_param *kp)
{
	struct net_device *dev = tpstat_test_netdev;
	bool stop;
	int err;

	err = kstrtobool(val, &stop);
	if (err)
		return err;
	if (!dev || !netif_running(dev)) {
		pr_err("tpstat_test_netdev: stopped= needs tpbusy0 up\n");
		return -ENETDOWN;
	}
	if (stop)
		netif_tx_stop_all_queues(dev);
	else
		netif_tx_wake_all_queues(dev);
	stopped = stop;
	return 0;
}

static const struct kernel_param_ops tpstat_test_netdev_stop_ops = {
	.set = tpstat_test_netdev_stop_set,
	.get = param_get_bool,
};
module_param_cb(stopped, &tpstat_test_netdev_stop_ops, &stopped, 0644);
MODULE_PARM_DESC(stopped, "1 stops the device's queue, 0 wakes it");

static netdev_tx_t tpstat_test_netdev_xmit(struct sk_buff *skb,
					   struct net_device *dev)
{
	WRITE_ONCE(calls, calls + 1);
	if (refused < busy) {
		WRITE_ONCE(refused, refused + 1);
		return NETDEV_TX_BUSY;
	}
	dev_kfree_skb(skb);
	return NETDEV_TX_OK;
}

static const struct net_device_ops tpstat_test_netdev_ops = {
	.ndo_start_xmit = tpstat_test_netdev_xmit,
};

static void tpstat_test_netdev_setup(struct net_device *dev)
{
	ether_setup(dev);
	dev->netdev_ops = &tpstat_test_netdev_ops;
	dev->flags |= IFF_NOARP;
	dev->needs_free_netdev = true;
	eth_hw_addr_random(dev);
}

static int __init tpstat_test_netdev_init(void)
{
	struct net_device *dev;
	int err;

	dev = alloc_netdev(0, "tpbusy%d", NET_NAME_ENUM,
			   tpstat_test_netdev_setup);
	if (!dev)
		return -ENOMEM;
	err = register_netdev(dev);
	if (err) {
		free_netdev(dev);
		return err;
	}
	tpstat_test_netdev = dev;
	return 0;
}

static void __exit tpstat_test_netdev_exit(void)
{
	/* needs_free_netdev: unregistering frees it. */
	unregister_netdev(tpstat_test_netdev);
}

module_init(tpstat_test_netdev_init);
module_exit(tpstat_test_netdev_exit);
MODULE_DESCRIPTION("tpstat test: a network device that refuses or holds packets");
MODULE_LICENSE("GPL");

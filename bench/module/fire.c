// SPDX-License-Identifier: GPL-2.0
/*
 * tpstat_bench_tp.ko: defines the tpstat_bench_fire event and fires it in a
 * tight loop on request. The whole loop is timed, not each event, so the
 * clock is read twice per loop and its cost vanishes in the division.
 *
 *   taskset -c 0 sh -c 'echo 200000 > /sys/kernel/debug/tpstat_bench/fire'
 *   echo 200000 > /sys/kernel/debug/tpstat_bench/fire_all
 *   cat /sys/kernel/debug/tpstat_bench/result
 *
 * kmalloc runs a loop of its own instead: N kmalloc()s of 64 bytes, freed
 * 32 at a time, for the slab allocator's tracepoints (kmalloc, kfree).
 * packets sends N frames of 128 bytes over lo, each built, queued with
 * dev_queue_xmit(), received and dropped before the next, for the network
 * stack's tracepoints (see tpstat_bench_packet()).
 *
 * fire runs the loop on the writer's CPU; pin the writer, since the result
 * is kept for the CPU the loop ends on. fire_all runs it on every online CPU
 * at once, one bound thread each, all released together. result has one
 * line per CPU that ran a loop, its last: "cpu<N> <events> <ns>".
 * The values the events carry are tpstat_bench_value()'s; after
 * "echo Y > sequential" they are 0, 1, 2, ... instead, so that a pairing
 * map can take at each odd event the start the even one before saved.
 */
#include <linux/cpu.h>
#include <linux/debugfs.h>
#include <linux/etherdevice.h>
#include <linux/hash.h>
#include <linux/if_ether.h>
#include <linux/interrupt.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/sched/task.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#define CREATE_TRACE_POINTS
#include "tpstat_bench_trace.h"

#define TPSTAT_BENCH_FIRE_MAX	100000000ULL
#define TPSTAT_BENCH_KMALLOC_BYTES	64

/* A packet's length on the wire, its Ethernet header included. */
#define TPSTAT_BENCH_FRAME_BYTES	128

struct tpstat_bench_result {
	u64 events;
	u64 ns;
};

static DEFINE_PER_CPU(struct tpstat_bench_result, tpstat_bench_results);

/* One fire_all at a time: each would disturb the other's timing anyway. */
static DEFINE_MUTEX(tpstat_bench_all_mutex);

static struct dentry *tpstat_bench_dir;
static bool tpstat_bench_sequential;

/*
 * The i-th event's value: 0 to 65535, scattered by a multiplicative hash.
 * A rising sequence would set a new maximum on every event, which real
 * values (latencies, sizes) almost never do; these set few, spread over
 * the histogram's upper buckets and reach every key of a small table.
 */
static u64 tpstat_bench_value(u64 i)
{
	return hash_32((u32)i, 16);
}

/* Slow configurations under emulation run for seconds. */
static void tpstat_bench_fire_hashed(u64 n)
{
	u64 i;

	for (i = 0; i < n; i++) {
		trace_tpstat_bench_fire(tpstat_bench_value(i));
		if ((i & 0xffff) == 0xffff)
			cond_resched();
	}
}

/* A loop of its own, so the hashed one is the same as it always was. */
static void tpstat_bench_fire_sequential(u64 n)
{
	u64 i;

	for (i = 0; i < n; i++) {
		trace_tpstat_bench_fire(i);
		if ((i & 0xffff) == 0xffff)
			cond_resched();
	}
}

/*
 * One kmalloc and one kfree per event, from this one call site, in
 * batches: TPSTAT_BENCH_KMALLOC_BATCH objects held at once, then freed,
 * so that the events carry that many addresses. A pairing map's cost for
 * one address depends on whether its home slot is free, which KASLR
 * decides anew at each boot; over a batch it is the average. A perf ring
 * buffer's reader runs only when the loop yields: often, so that it
 * keeps up.
 */
#define TPSTAT_BENCH_KMALLOC_BATCH	32

static __always_inline u64 tpstat_bench_kmalloc(u64 n)
{
	void *p[TPSTAT_BENCH_KMALLOC_BATCH];
	u64 i, j, batch;

	for (i = 0; i < n; i += batch) {
		batch = min_t(u64, n - i, TPSTAT_BENCH_KMALLOC_BATCH);
		for (j = 0; j < batch; j++)
			p[j] = kmalloc(TPSTAT_BENCH_KMALLOC_BYTES, GFP_KERNEL);
		/* Else the compiler may drop the pairs as having no effect. */
		barrier_data(p);
		for (j = 0; j < batch; j++)
			kfree(p[j]);
		if ((i & ~0x3ffULL) != ((i + batch) & ~0x3ffULL))
			cond_resched();
	}
	return n;
}

/*
 * One frame over lo, from its allocation to its free: dev_queue_xmit()
 * queues it (net_dev_queue) and hands it to loopback's driver
 * (net_dev_start_xmit, net_dev_xmit), which puts it in this CPU's backlog
 * (netif_rx). Its ethertype, IEEE 802's first local experimental one, is
 * one no protocol takes, so when the bottom half run as dev_queue_xmit()
 * returns receives it (netif_receive_skb), it is dropped (kfree_skb,
 * UNHANDLED_PROTO) and nothing answers it: six events per frame.
 *
 * Return: 0, or the error that stopped it.
 */
static int tpstat_bench_packet(struct net_device *dev)
{
	unsigned int room = LL_RESERVED_SPACE(dev);
	struct sk_buff *skb;

	skb = alloc_skb(room + TPSTAT_BENCH_FRAME_BYTES + dev->needed_tailroom,
			GFP_KERNEL);
	if (!skb)
		return -ENOMEM;
	skb_reserve(skb, room);
	skb_reset_network_header(skb);
	skb_put_zero(skb, TPSTAT_BENCH_FRAME_BYTES - ETH_HLEN);
	skb->dev = dev;
	skb->protocol = htons(ETH_P_802_EX1);
	if (dev_hard_header(skb, dev, ETH_P_802_EX1, dev->dev_addr,
			    dev->dev_addr, skb->len) < 0) {
		kfree_skb(skb);
		return -EINVAL;
	}
	/* Takes the skb whatever it returns. */
	return dev_queue_xmit(skb) == NET_XMIT_SUCCESS ? 0 : -EIO;
}

/* Whether this CPU's receive bottom half is still to run. */
static bool tpstat_bench_rx_pending(void)
{
	bool pending;

	preempt_disable();
	pending = local_softirq_pending() & BIT(NET_RX_SOFTIRQ);
	preempt_enable();
	return pending;
}

/*
 * init_net's lo lives as long as the kernel. Stops at the first frame that
 * fails, having sent fewer than asked.
 *
 * 6.1 leaves a bottom half raised while ksoftirqd is runnable to that
 * thread, which may wait for the CPU a whole time slice while frames pile
 * up in the backlog, and past netdev_max_backlog are dropped unreceived:
 * a frame left there has the CPU given up to it at once.
 */
static u64 tpstat_bench_packets(u64 n)
{
	struct net_device *lo = init_net.loopback_dev;
	u64 i;

	for (i = 0; i < n; i++) {
		if (tpstat_bench_packet(lo))
			break;
		if (tpstat_bench_rx_pending())
			schedule();
		else if ((i & 0x3f) == 0x3f)
			cond_resched();
	}
	return i;
}

static void tpstat_bench_save(u64 n, u64 ns)
{
	struct tpstat_bench_result *result;

	result = per_cpu_ptr(&tpstat_bench_results, raw_smp_processor_id());
	WRITE_ONCE(result->events, n);
	WRITE_ONCE(result->ns, ns);
}

static void tpstat_bench_loop(u64 n)
{
	bool sequential = READ_ONCE(tpstat_bench_sequential);
	u64 start = ktime_get_ns();

	if (sequential)
		tpstat_bench_fire_sequential(n);
	else
		tpstat_bench_fire_hashed(n);
	tpstat_bench_save(n, ktime_get_ns() - start);
}

/* What the threads of one fire_all share; it lives on the writer's stack. */
struct tpstat_bench_run {
	u64 events;
	atomic_t waiting;
	struct completion ready;
	struct completion start;
};

/*
 * Every thread waits at the start line until the last one is there, so the
 * loops overlap from their first event instead of by luck of scheduling.
 */
static int tpstat_bench_thread(void *arg)
{
	struct tpstat_bench_run *run = arg;

	if (atomic_dec_and_test(&run->waiting))
		complete(&run->ready);
	wait_for_completion(&run->start);
	tpstat_bench_loop(run->events);
	return 0;
}

static int tpstat_bench_fire_all(u64 n)
{
	struct tpstat_bench_run run = { .events = n };
	struct task_struct **threads;
	unsigned int i, nr = 0;
	int cpu, err = 0;

	threads = kcalloc(nr_cpu_ids, sizeof(*threads), GFP_KERNEL);
	if (!threads)
		return -ENOMEM;
	init_completion(&run.ready);
	init_completion(&run.start);

	mutex_lock(&tpstat_bench_all_mutex);
	cpus_read_lock();
	atomic_set(&run.waiting, num_online_cpus());
	for_each_online_cpu(cpu) {
		struct task_struct *t;

		t = kthread_create_on_cpu(tpstat_bench_thread, &run, cpu,
					  "tpstat_bench/%u");
		if (IS_ERR(t)) {
			err = PTR_ERR(t);
			break;
		}
		/* A thread may end before kthread_stop() looks at it. */
		get_task_struct(t);
		threads[nr++] = t;
	}
	if (!err) {
		for (i = 0; i < nr; i++)
			wake_up_process(threads[i]);
		wait_for_completion(&run.ready);
		complete_all(&run.start);
	}
	/* Waits for each loop to end; threads never woken do not run at all. */
	for (i = 0; i < nr; i++) {
		kthread_stop(threads[i]);
		put_task_struct(threads[i]);
	}
	cpus_read_unlock();
	mutex_unlock(&tpstat_bench_all_mutex);
	kfree(threads);
	return err;
}

static int tpstat_bench_parse(const char __user *ubuf, size_t count, u64 *n)
{
	int err = kstrtou64_from_user(ubuf, count, 10, n);

	if (err)
		return err;
	return *n > TPSTAT_BENCH_FIRE_MAX ? -EINVAL : 0;
}

static ssize_t tpstat_bench_fire_write(struct file *file,
				       const char __user *ubuf, size_t count,
				       loff_t *ppos)
{
	u64 n;
	int err = tpstat_bench_parse(ubuf, count, &n);

	if (err)
		return err;
	tpstat_bench_loop(n);
	return count;
}

/*
 * A loop of another kind, timed as fire's: @loop returns how many it did,
 * which result shows; a loop cut short fails the write. Inline, so that
 * each loop is called directly and inlined in turn: a kmalloc's call site
 * is then tpstat_bench_kmalloc_write(), as tests/guest/t-60 expects.
 */
static __always_inline ssize_t
tpstat_bench_timed_write(const char __user *ubuf, size_t count,
			 u64 (*loop)(u64 n))
{
	u64 n, done, start;
	int err = tpstat_bench_parse(ubuf, count, &n);

	if (err)
		return err;
	start = ktime_get_ns();
	done = loop(n);
	tpstat_bench_save(done, ktime_get_ns() - start);
	return done == n ? count : -EIO;
}

static ssize_t tpstat_bench_kmalloc_write(struct file *file,
					  const char __user *ubuf,
					  size_t count, loff_t *ppos)
{
	return tpstat_bench_timed_write(ubuf, count, tpstat_bench_kmalloc);
}

static ssize_t tpstat_bench_packets_write(struct file *file,
					  const char __user *ubuf,
					  size_t count, loff_t *ppos)
{
	return tpstat_bench_timed_write(ubuf, count, tpstat_bench_packets);
}

static ssize_t tpstat_bench_fire_all_write(struct file *file,
					   const char __user *ubuf,
					   size_t count, loff_t *ppos)
{
	u64 n;
	int err = tpstat_bench_parse(ubuf, count, &n);

	if (!err)
		err = tpstat_bench_fire_all(n);
	return err ? err : count;
}

static int tpstat_bench_result_show(struct seq_file *m, void *unused)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct tpstat_bench_result *r;

		r = per_cpu_ptr(&tpstat_bench_results, cpu);
		if (READ_ONCE(r->events))
			seq_printf(m, "cpu%d %llu %llu\n", cpu,
				   READ_ONCE(r->events), READ_ONCE(r->ns));
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(tpstat_bench_result);

static const struct file_operations tpstat_bench_fire_fops = {
	.owner = THIS_MODULE,
	.write = tpstat_bench_fire_write,
};

static const struct file_operations tpstat_bench_kmalloc_fops = {
	.owner = THIS_MODULE,
	.write = tpstat_bench_kmalloc_write,
};

static const struct file_operations tpstat_bench_packets_fops = {
	.owner = THIS_MODULE,
	.write = tpstat_bench_packets_write,
};

static const struct file_operations tpstat_bench_fire_all_fops = {
	.owner = THIS_MODULE,
	.write = tpstat_bench_fire_all_write,
};

static int __init tpstat_bench_tp_init(void)
{
	tpstat_bench_dir = debugfs_create_dir("tpstat_bench", NULL);
	debugfs_create_file("fire", 0200, tpstat_bench_dir, NULL,
			    &tpstat_bench_fire_fops);
	debugfs_create_file("kmalloc", 0200, tpstat_bench_dir, NULL,
			    &tpstat_bench_kmalloc_fops);
	debugfs_create_file("packets", 0200, tpstat_bench_dir, NULL,
			    &tpstat_bench_packets_fops);
	debugfs_create_file("fire_all", 0200, tpstat_bench_dir, NULL,
			    &tpstat_bench_fire_all_fops);
	debugfs_create_file("result", 0400, tpstat_bench_dir, NULL,
			    &tpstat_bench_result_fops);
	debugfs_create_bool("sequential", 0600, tpstat_bench_dir,
			    &tpstat_bench_sequential);
	return 0;
}

static void __exit tpstat_bench_tp_exit(void)
{
	debugfs_remove(tpstat_bench_dir);
}

module_init(tpstat_bench_tp_init);
module_exit(tpstat_bench_tp_exit);

MODULE_DESCRIPTION("tpstat benchmark: a trace event, kmalloc and kfree, or packets over lo, in a timed loop");
MODULE_LICENSE("GPL");

// SPDX-License-Identifier: GPL-2.0
/*
 * tpstat_test_kmem.ko: slab allocations driven on request, each kind from
 * a function of its own, so that tests find them by name in tpstat_kmem's
 * files and check them against the numbers they asked for.
 *
 *   echo "N S" > /sys/kernel/debug/tpstat_test_kmem/alloc
 *	N kmallocs of S bytes, then N kfrees
 *   echo "K S" > /sys/kernel/debug/tpstat_test_kmem/leak
 *	K kmallocs of S bytes, kept until "echo 0 > leak" or the unload
 *   echo N > /sys/kernel/debug/tpstat_test_kmem/cache
 *	N allocations from the test's own cache, of TEST_KMEM_OBJECT bytes,
 *	then N frees
 *   echo "N O" > /sys/kernel/debug/tpstat_test_kmem/pages
 *	N page allocations of order O, then N frees
 *   echo "N O" > /sys/kernel/debug/tpstat_test_kmem/pages_movable
 *   echo "N O" > /sys/kernel/debug/tpstat_test_kmem/pages_reclaimable
 *	the same, of the movable and the reclaimable migrate types
 *   echo N > /sys/kernel/debug/tpstat_test_kmem/cache_bulk
 *	N allocations from the test's own cache, then one
 *	kmem_cache_free_bulk() of them all: frees no tracepoint sees
 *   echo N > /sys/kernel/debug/tpstat_test_kmem/kfree_bulk
 *	the same, given back with kfree_bulk(), which takes any slab
 *	object: the test's cache keeps the freed objects from being taken
 *	meanwhile by an allocation of someone else's, which would replace
 *	their entries in tpstat_kmem's map
 *
 *   echo "N S" > /sys/kernel/debug/tpstat_test_kmem/rcu
 *	N kmallocs of S bytes, each given back with kfree_rcu(): freed
 *	after a grace period in the kernel's batches (kfree_bulk() of a
 *	page of pointers where it can), which fire no free event
 *
 *   echo N > /sys/kernel/debug/tpstat_test_kmem/fail
 *	N kmallocs of a size no kmalloc can give (TEST_KMEM_IMPOSSIBLE),
 *	each failing at once with a NULL and, asked with __GFP_NOWARN,
 *	no report in the log
 *
 *   insmod tpstat_test_kmem.ko init_leak=K
 *	K kmallocs of TEST_KMEM_INIT_SIZE bytes made by the module's init
 *	code, which the kernel discards once the load is done: kept, and
 *	freed with the leak above ("echo 0 > leak")
 */
#include <linux/debugfs.h>
#include <linux/gfp.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>

#define TEST_KMEM_MAX		100000
#define TEST_KMEM_MAX_SIZE	65536
/* A size no other cache of the guest's has, so its row is the test's. */
#define TEST_KMEM_OBJECT	1212
#define TEST_KMEM_MAX_ORDER	4
#define TEST_KMEM_INIT_SIZE	96
/*
 * Above KMALLOC_MAX_SIZE: an order the page allocator refuses before it
 * tries, on either kernel. A constant, so that kmalloc() calls the large
 * path directly and its one kmalloc event names the caller; on 6.12 a
 * size the compiler cannot see goes through __do_kmalloc_node(), which
 * traces it twice (the large path's event, then its own).
 */
#define TEST_KMEM_IMPOSSIBLE	(KMALLOC_MAX_SIZE + 1)

static unsigned int init_leak;
module_param(init_leak, uint, 0400);
MODULE_PARM_DESC(init_leak, "allocations made by the init code and kept (default 0)");

static struct dentry *test_dir;
static struct kmem_cache *test_cache;
static DEFINE_MUTEX(test_lock);
static LIST_HEAD(test_leaked);

/*
 * Each call site is one of these functions: the barrier after each call
 * keeps the compiler from making it a tail call, which would pass the
 * caller's return address to the allocator instead.
 */
static noinline void *tpstat_test_kmem_alloc(size_t size)
{
	void *p = kmalloc(size, GFP_KERNEL);

	barrier_data(p);
	return p;
}

static noinline void tpstat_test_kmem_free(void *p)
{
	kfree(p);
	barrier();
}

/* Zeroed, so that the compiler does not fold it into the one above. */
static noinline void *tpstat_test_kmem_leak(size_t size)
{
	void *p = kzalloc(size, GFP_KERNEL);

	barrier_data(p);
	return p;
}

static noinline void *tpstat_test_kmem_cache_alloc(void)
{
	void *p = kmem_cache_alloc(test_cache, GFP_KERNEL);

	barrier_data(p);
	return p;
}

static noinline void tpstat_test_kmem_cache_free(void *p)
{
	kmem_cache_free(test_cache, p);
	barrier();
}

/*
 * A call site in init code: gone once the module is live, its address then
 * belonging to no symbol, or to whatever code is loaded there later.
 */
static noinline __init void *tpstat_test_kmem_init_alloc(void)
{
	void *p = kmalloc(TEST_KMEM_INIT_SIZE, GFP_KERNEL);

	barrier_data(p);
	return p;
}

/*
 * Freed without a tracepoint: their allocations stay in the map. Their
 * flags differ from the functions' above only for the compiler not to
 * fold them into those (-fipa-icf), which would merge their sites.
 */
static noinline void *tpstat_test_kmem_fill(void)
{
	void *p = kmem_cache_alloc(test_cache, GFP_KERNEL | __GFP_NOWARN);

	barrier_data(p);
	return p;
}

static noinline void *tpstat_test_kmem_kfree_bulk(void)
{
	void *p = kmem_cache_alloc(test_cache, GFP_KERNEL | __GFP_NORETRY);

	barrier_data(p);
	return p;
}

/* An object kfree_rcu() frees: its rcu_head first, the rest unused. */
struct test_kmem_rcu {
	struct rcu_head rcu;
};

static noinline void tpstat_test_kmem_rcu(size_t size)
{
	struct test_kmem_rcu *p = kmalloc(size, GFP_KERNEL | __GFP_NOWARN);

	if (p)
		kfree_rcu(p, rcu);
}

static noinline void *tpstat_test_kmem_fail(void)
{
	void *p = kmalloc(TEST_KMEM_IMPOSSIBLE, GFP_KERNEL | __GFP_NOWARN);

	barrier_data(p);
	return p;
}

/* A constructor keeps the cache from being merged with another. */
static void tpstat_test_kmem_ctor(void *p)
{
}

/* Reads "A" or "A B" from the user: how many numbers it read, or -errno. */
static int test_kmem_read(const char __user *ubuf, size_t count,
			  unsigned int *a, unsigned int *b)
{
	char buf[32];
	int got;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	got = sscanf(buf, "%u %u", a, b);
	return got < 1 ? -EINVAL : got;
}

/* "N": a count of objects alone, up to TEST_KMEM_MAX. */
static int test_kmem_count(const char __user *ubuf, size_t count,
			   unsigned int *n)
{
	unsigned int unused;
	int got = test_kmem_read(ubuf, count, n, &unused);

	if (got < 0)
		return got;
	return got != 1 || *n > TEST_KMEM_MAX ? -EINVAL : 0;
}

/* "N S": N objects of S bytes; "0" alone for none. */
static int test_kmem_args(const char __user *ubuf, size_t count,
			  unsigned int *n, unsigned int *size)
{
	int got = test_kmem_read(ubuf, count, n, size);

	if (got < 0)
		return got;
	if (*n > TEST_KMEM_MAX ||
	    (*n && (got != 2 || *size < sizeof(struct list_head) ||
		    *size > TEST_KMEM_MAX_SIZE)))
		return -EINVAL;
	return 0;
}

static ssize_t test_kmem_alloc_write(struct file *file, const char __user *ubuf,
				     size_t count, loff_t *ppos)
{
	unsigned int n, size = 0, i;
	void **p;
	int err;

	err = test_kmem_args(ubuf, count, &n, &size);
	if (err)
		return err;
	p = kvcalloc(n, sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		p[i] = tpstat_test_kmem_alloc(size);
	for (i = 0; i < n; i++)
		tpstat_test_kmem_free(p[i]);
	kvfree(p);
	return count;
}

static const struct file_operations test_kmem_alloc_fops = {
	.write = test_kmem_alloc_write,
};

static void test_kmem_free_leaked(void)
{
	struct list_head *pos, *next;

	list_for_each_safe(pos, next, &test_leaked) {
		list_del(pos);
		tpstat_test_kmem_free(pos);
	}
}

static ssize_t test_kmem_leak_write(struct file *file, const char __user *ubuf,
				    size_t count, loff_t *ppos)
{
	unsigned int n, size = 0, i;
	struct list_head *p;
	int err;

	err = test_kmem_args(ubuf, count, &n, &size);
	if (err)
		return err;
	mutex_lock(&test_lock);
	if (!n)
		test_kmem_free_leaked();
	for (i = 0; i < n; i++) {
		p = tpstat_test_kmem_leak(size);
		if (!p) {
			err = -ENOMEM;
			break;
		}
		list_add(p, &test_leaked);
	}
	mutex_unlock(&test_lock);
	return err ?: count;
}

static const struct file_operations test_kmem_leak_fops = {
	.write = test_kmem_leak_write,
};

static ssize_t test_kmem_cache_write(struct file *file, const char __user *ubuf,
				     size_t count, loff_t *ppos)
{
	unsigned int n, i;
	void **p;
	int err;

	/* "N": the cache's objects have one size. */
	err = test_kmem_count(ubuf, count, &n);
	if (err)
		return err;
	p = kvcalloc(n, sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		p[i] = tpstat_test_kmem_cache_alloc();
	for (i = 0; i < n; i++)
		if (p[i])
			tpstat_test_kmem_cache_free(p[i]);
	kvfree(p);
	return count;
}

static const struct file_operations test_kmem_cache_fops = {
	.write = test_kmem_cache_write,
};

/*
 * The page files' flags, each file's private data: GFP_KERNEL's pages are
 * unmovable; the movable and the reclaimable ones, freed at once, are
 * never moved or reclaimed.
 */
static gfp_t test_kmem_page_gfp[] = {
	GFP_KERNEL,
	GFP_KERNEL | __GFP_MOVABLE,
	GFP_KERNEL | __GFP_RECLAIMABLE,
};

/* "N O": N allocations of order O with the file's flags, then N frees. */
static ssize_t test_kmem_pages_write(struct file *file, const char __user *ubuf,
				     size_t count, loff_t *ppos)
{
	gfp_t gfp = *(gfp_t *)file->private_data;
	unsigned int n, order, i;
	struct page **p;
	int got;

	got = test_kmem_read(ubuf, count, &n, &order);
	if (got < 0)
		return got;
	if (got != 2 || n > TEST_KMEM_MAX || order > TEST_KMEM_MAX_ORDER)
		return -EINVAL;
	p = kvcalloc(n, sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		p[i] = alloc_pages(gfp, order);
	for (i = 0; i < n; i++)
		if (p[i])
			__free_pages(p[i], order);
	kvfree(p);
	return count;
}

static const struct file_operations test_kmem_pages_fops = {
	.open = simple_open,
	.write = test_kmem_pages_write,
};

static ssize_t test_kmem_rcu_write(struct file *file, const char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	unsigned int n, size = 0, i;
	int err;

	err = test_kmem_args(ubuf, count, &n, &size);
	if (err)
		return err;
	if (n && size < sizeof(struct test_kmem_rcu))
		return -EINVAL;
	for (i = 0; i < n; i++)
		tpstat_test_kmem_rcu(size);
	return count;
}

static const struct file_operations test_kmem_rcu_fops = {
	.write = test_kmem_rcu_write,
};

/* "N": how many kmallocs must fail; -EIO if one did not. */
static ssize_t test_kmem_fail_write(struct file *file, const char __user *ubuf,
				    size_t count, loff_t *ppos)
{
	unsigned int n, i;
	ssize_t ret = count;
	void *p;
	int err;

	err = test_kmem_count(ubuf, count, &n);
	if (err)
		return err;
	for (i = 0; i < n; i++) {
		p = tpstat_test_kmem_fail();
		if (p)
			ret = -EIO;
		kfree(p);
	}
	return ret;
}

static const struct file_operations test_kmem_fail_fops = {
	.write = test_kmem_fail_write,
};

/*
 * @n objects of the test's cache made one by one, then handed back in
 * one kmem_cache_free_bulk() if @cache, else one kfree_bulk(): neither
 * fires a kfree or kmem_cache_free event. @count is what the write
 * returns.
 */
static ssize_t test_kmem_bulk(unsigned int n, bool cache, size_t count)
{
	unsigned int made;
	void **p;

	p = kvcalloc(n, sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	for (made = 0; made < n; made++) {
		p[made] = cache ? tpstat_test_kmem_fill() :
				  tpstat_test_kmem_kfree_bulk();
		if (!p[made])
			break;
	}
	if (cache)
		kmem_cache_free_bulk(test_cache, made, p);
	else
		kfree_bulk(made, p);
	kvfree(p);
	return made == n ? count : -ENOMEM;
}

/* "N": how many objects of the test's cache go through a bulk free. */
static ssize_t test_kmem_bulk_write(const char __user *ubuf, size_t count,
				    bool cache)
{
	unsigned int n;
	int err;

	err = test_kmem_count(ubuf, count, &n);
	return err ?: test_kmem_bulk(n, cache, count);
}

static ssize_t test_kmem_cache_bulk_write(struct file *file,
					  const char __user *ubuf,
					  size_t count, loff_t *ppos)
{
	return test_kmem_bulk_write(ubuf, count, true);
}

static const struct file_operations test_kmem_cache_bulk_fops = {
	.write = test_kmem_cache_bulk_write,
};

static ssize_t test_kmem_kfree_bulk_write(struct file *file,
					  const char __user *ubuf,
					  size_t count, loff_t *ppos)
{
	return test_kmem_bulk_write(ubuf, count, false);
}

static const struct file_operations test_kmem_kfree_bulk_fops = {
	.write = test_kmem_kfree_bulk_write,
};

/* The init code's allocations, kept with the leak's. */
static int __init test_kmem_init_leak(void)
{
	struct list_head *p;
	unsigned int i;

	if (init_leak > TEST_KMEM_MAX)
		return -EINVAL;
	for (i = 0; i < init_leak; i++) {
		p = tpstat_test_kmem_init_alloc();
		if (!p)
			return -ENOMEM;
		list_add(p, &test_leaked);
	}
	return 0;
}

static int __init tpstat_test_kmem_init(void)
{
	int err;

	test_cache = kmem_cache_create("tpstat_test_kmem", TEST_KMEM_OBJECT, 0,
				       0, tpstat_test_kmem_ctor);
	if (!test_cache)
		return -ENOMEM;
	err = test_kmem_init_leak();
	if (err) {
		test_kmem_free_leaked();
		kmem_cache_destroy(test_cache);
		return err;
	}
	test_dir = debugfs_create_dir("tpstat_test_kmem", NULL);
	debugfs_create_file("alloc", 0200, test_dir, NULL, &test_kmem_alloc_fops);
	debugfs_create_file("leak", 0200, test_dir, NULL, &test_kmem_leak_fops);
	debugfs_create_file("cache", 0200, test_dir, NULL, &test_kmem_cache_fops);
	debugfs_create_file("pages", 0200, test_dir, &test_kmem_page_gfp[0],
			    &test_kmem_pages_fops);
	debugfs_create_file("pages_movable", 0200, test_dir,
			    &test_kmem_page_gfp[1], &test_kmem_pages_fops);
	debugfs_create_file("pages_reclaimable", 0200, test_dir,
			    &test_kmem_page_gfp[2], &test_kmem_pages_fops);
	debugfs_create_file("cache_bulk", 0200, test_dir, NULL,
			    &test_kmem_cache_bulk_fops);
	debugfs_create_file("kfree_bulk", 0200, test_dir, NULL,
			    &test_kmem_kfree_bulk_fops);
	debugfs_create_file("rcu", 0200, test_dir, NULL, &test_kmem_rcu_fops);
	debugfs_create_file("fail", 0200, test_dir, NULL, &test_kmem_fail_fops);
	return 0;
}

static void __exit tpstat_test_kmem_exit(void)
{
	debugfs_remove(test_dir);
	test_kmem_free_leaked();
	kmem_cache_destroy(test_cache);
}

module_init(tpstat_test_kmem_init);
module_exit(tpstat_test_kmem_exit);

MODULE_DESCRIPTION("tpstat test: slab allocations driven on request");
MODULE_LICENSE("GPL");

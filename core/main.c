// SPDX-License-Identifier: GPL-2.0
/*
 * tpstat.ko: the core every probe set loads on top of.
 */
#include <linux/debugfs.h>
#include <linux/module.h>

#include "internal.h"

static int __init tpstat_init(void)
{
	int err;

	if (!debugfs_initialized()) {
		pr_err("tpstat: debugfs is not available (CONFIG_DEBUG_FS or debugfs= on the command line)\n");
		return -ENODEV;
	}
	err = tpstat_debugfs_init();
	if (err)
		return err;
	err = tpstat_attach_init();
	if (err)
		goto debugfs_exit;
	/* Last: a write through it finds the core whole. */
	err = tpstat_control_init();
	if (err)
		goto attach_exit;
	return 0;

attach_exit:
	tpstat_attach_exit();
debugfs_exit:
	tpstat_debugfs_exit();
	return err;
}

/* Every probe set holds a reference on us, so none is left here. */
static void __exit tpstat_exit(void)
{
	tpstat_control_exit();
	tpstat_attach_exit();
	tpstat_debugfs_exit();
}

module_init(tpstat_init);
module_exit(tpstat_exit);

MODULE_DESCRIPTION("tpstat: per-CPU counters and histograms on tracepoints");
MODULE_LICENSE("GPL");
MODULE_VERSION(TPSTAT_VERSION);

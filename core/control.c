// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/tpstat/control: every file a set writes, reached where
 * kernel lockdown lets a writer in. Under lockdown (Secure Boot on Debian
 * raises it to integrity) debugfs opens no file with a write bit, even to
 * read it; sysfs is not restricted. A write here is a file's path under
 * /sys/kernel/debug/tpstat/, a space, and the bytes a write to that file
 * would carry:
 *
 *   echo 'count/filter comm == sh' > /sys/kernel/tpstat/control
 *   echo 'count/mine/scope 0' > /sys/kernel/tpstat/control
 *   echo 'net/enable 0' > /sys/kernel/tpstat/control
 *
 * They go through the checks a write to the file makes, to its handler,
 * and the write gets what the file's would: the same errno, EACCES for a
 * file that is only read; ENOENT for a path that names no file of a set,
 * EINVAL for a line with no path. A path that ends the write at its
 * newline carries an empty line ("count/filter" alone lifts the filter).
 * A set being removed waits for the writes let into its files. Nothing
 * is read here: lockdown lets debugfs open the read-only files (a set's
 * stats say whether it is enabled, count/counts what it counts), not
 * those that are written as well.
 *
 * Not a module parameter: a parameter's set runs under its module's
 * param_lock, which would serialize every control write behind a reset's
 * grace period, and gets the value without its length, so a NUL inside a
 * line would cut it short where the file refuses it; and a parameter is
 * also given at load, before any set exists.
 */
#include <linux/kobject.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "internal.h"

static struct kobject *tpstat_kobj;

static ssize_t tpstat_control_store(struct kobject *kobj,
				    struct kobj_attribute *attr,
				    const char *buf, size_t count)
{
	size_t path_len;
	const char *line;
	int err;

	/* sysfs cuts a longer write to a page: refused, as it is overlong. */
	if (count >= PAGE_SIZE || strlen(buf) != count)
		return -EINVAL;
	path_len = strcspn(buf, "\n ");
	/* An empty line, or one that starts with a blank, names no path. */
	if (!path_len)
		return -EINVAL;
	line = buf + path_len + (buf[path_len] == ' ');
	err = tpstat_debugfs_write_path(buf, path_len, line,
					count - (line - buf));
	return err ? err : count;
}

static struct kobj_attribute tpstat_control_attr =
	__ATTR(control, 0200, NULL, tpstat_control_store);

int tpstat_control_init(void)
{
	int err;

	tpstat_kobj = kobject_create_and_add("tpstat", kernel_kobj);
	if (!tpstat_kobj)
		return -ENOMEM;
	err = sysfs_create_file(tpstat_kobj, &tpstat_control_attr.attr);
	if (err)
		kobject_put(tpstat_kobj);
	return err;
}

/* Waits for a write in flight to leave. */
void tpstat_control_exit(void)
{
	sysfs_remove_file(tpstat_kobj, &tpstat_control_attr.attr);
	kobject_put(tpstat_kobj);
}

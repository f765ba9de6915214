// SPDX-License-Identifier: GPL-2.0
/*
 * tpstat_stack.ko: count any tracepoint by kernel stack, command, pid,
 * tgid or CPU, or any of them together, without its prototype: the
 * @[kstack, comm] = count() of bpftrace, from cat.
 *
 *   insmod tpstat_stack.ko [tracepoints="kmalloc by stack;sched_switch by comm"]
 *                          [depth=16] [max_stacks=1024] [top=20] [max_tracepoints=32]
 *                          [collide=0]
 *   echo 'kfree by stack,comm' > /sys/kernel/debug/tpstat/stack/control
 *   cat /sys/kernel/debug/tpstat/stack/kfree/stacks
 *   echo '!kfree' > /sys/kernel/debug/tpstat/stack/control
 *   echo 'offcpu by stack,comm' > /sys/kernel/debug/tpstat/stack/control
 *
 * "offcpu" is no tracepoint: that entry sums the time tasks spent blocked
 * by the stack they blocked in (offcpu.c).
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "stack.h"

static char *tracepoints;
module_param(tracepoints, charp, 0400);
MODULE_PARM_DESC(tracepoints, "entries to count from load, 'TRACEPOINT by KEY[,KEY...]', separated by ';'");

unsigned int tpstat_stack_depth = 16;
module_param_named(depth, tpstat_stack_depth, uint, 0400);
MODULE_PARM_DESC(depth, "frames kept of each stack (1-32, default 16)");

unsigned int tpstat_stack_max_stacks = 1024;
module_param_named(max_stacks, tpstat_stack_max_stacks, uint, 0400);
MODULE_PARM_DESC(max_stacks, "stacks and keys each tracepoint holds (1-65536, default 1024)");

unsigned int tpstat_stack_top = 20;
module_param_named(top, tpstat_stack_top, uint, 0400);
MODULE_PARM_DESC(top, "rows an entry's stacks file shows, busiest first (1-65536, default 20)");

unsigned int tpstat_stack_max_entries = 32;
module_param_named(max_tracepoints, tpstat_stack_max_entries, uint, 0400);
MODULE_PARM_DESC(max_tracepoints, "most tracepoints counted at once (1-4096, default 32)");

bool tpstat_stack_collide;
module_param_named(collide, tpstat_stack_collide, bool, 0400);
MODULE_PARM_DESC(collide, "for tests: every stack hashes alike, kept apart only by comparing them whole (default 0)");

#define TPSTAT_STACK_MAX_ENTRIES	4096

/* "NAME by KEYS" adds an entry, "!NAME" removes it. */
static int tpstat_stack_control_write(struct tpstat_set *set,
				      const struct tpstat_file *file, char *line)
{
	if (line[0] == '!')
		return tpstat_stack_remove(line + 1);
	return tpstat_stack_add(line);
}

struct tpstat_set tpstat_stack_set = {
	.name = "stack",
	TPSTAT_FILES({ .name = "control", .show = tpstat_stack_control_show,
		     .write = tpstat_stack_control_write, .no_header = true }),
};

/* tracepoints= is a list of control lines, separated by ';'. */
static int tpstat_stack_add_param(void)
{
	char *list, *cursor, *line;
	int err = 0;

	if (!tracepoints)
		return 0;
	list = kstrdup(tracepoints, GFP_KERNEL);
	if (!list)
		return -ENOMEM;
	cursor = list;
	while (!err && (line = strsep(&cursor, ";"))) {
		line = strim(line);
		if (*line)
			err = tpstat_stack_add(line);
	}
	kfree(list);
	return err == -EEXIST ? -EINVAL : err;
}

static int __init tpstat_stack_init(void)
{
	int err;

	if (TPSTAT_UNTYPED_PROBES_TRAP) {
		pr_err("tpstat_stack: this kernel has kCFI, which traps untyped probes\n");
		return -EOPNOTSUPP;
	}
	if (!tpstat_stack_depth || tpstat_stack_depth > TPSTAT_STACK_MAX_DEPTH ||
	    !tpstat_stack_max_stacks || tpstat_stack_max_stacks > TPSTAT_STACKS_MAX ||
	    !tpstat_stack_top || tpstat_stack_top > TPSTAT_STACKS_MAX ||
	    !tpstat_stack_max_entries ||
	    tpstat_stack_max_entries > TPSTAT_STACK_MAX_ENTRIES) {
		pr_err("tpstat_stack: depth must be 1 to %d, max_stacks and top 1 to %d, max_tracepoints 1 to %d\n",
		       TPSTAT_STACK_MAX_DEPTH, TPSTAT_STACKS_MAX,
		       TPSTAT_STACK_MAX_ENTRIES);
		return -EINVAL;
	}
	err = tpstat_set_register(&tpstat_stack_set);
	if (err)
		return err;
	err = tpstat_stack_add_param();
	if (err) {
		tpstat_stack_close();
		tpstat_set_unregister(&tpstat_stack_set);
	}
	return err;
}

static void __exit tpstat_stack_exit(void)
{
	tpstat_stack_close();
	tpstat_set_unregister(&tpstat_stack_set);
}

module_init(tpstat_stack_init);
module_exit(tpstat_stack_exit);

MODULE_DESCRIPTION("tpstat: count any tracepoint by kernel stack, command, pid or CPU");
MODULE_LICENSE("GPL");

// SPDX-License-Identifier: GPL-2.0
/*
 * tpstat enable, reset, add, remove and filter: a line written to a set's
 * file, as echo would write it, and the file's own error said when it
 * refuses one. Under kernel lockdown debugfs opens no file with a write
 * bit, so tpstat_write() sends the line to the sysfs control file instead,
 * which hands it to the same file's handler: the same effect and errors.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tpstat.h"

#define CONTROL_USAGE_TAIL \
	"\n" \
	"SET is a loaded set's name or path (count, count/mine, stack/kmalloc).\n" \
	"Under kernel lockdown, which refuses debugfs files that have a write bit,\n" \
	"or when debugfs has no tpstat directory, the line goes to\n" \
	"/sys/kernel/tpstat/control ($TPSTAT_CONTROL) as 'SET/FILE LINE', with\n" \
	"the same effect and the same errors.\n" \
	"Exit status: 0; 1 after one line naming the file, the line written and\n" \
	"the file's error; 2 when used wrongly.\n"

/* What a command writes: the file, and how its lines are made. */
enum control_kind {
	CONTROL_ENABLE,
	CONTROL_RESET,
	CONTROL_ADD,
	CONTROL_REMOVE,
	CONTROL_FILTER,
};

struct control_cmd {
	const char *file;
	/* "cannot add 'x'": what failed, before the line. */
	const char *verb;
	const char *usage;
};

static const struct control_cmd control_cmds[] = {
	[CONTROL_ENABLE] = { "enable", "write",
		"usage: tpstat enable SET [0|1]\n"
		"\n"
		"Attaches SET's probes (1, the default) or detaches them (0), keeping\n"
		"what they counted: writes 1 or 0 to SET/enable.\n"
		CONTROL_USAGE_TAIL },
	[CONTROL_RESET] = { "reset", "write",
		"usage: tpstat reset SET\n"
		"\n"
		"Zeroes everything SET counts, its probes left attached: writes 1 to\n"
		"SET/reset. The sets inside SET have resets of their own.\n"
		CONTROL_USAGE_TAIL },
	[CONTROL_ADD] = { "control", "add",
		"usage: tpstat add SET TRACEPOINT...\n"
		"\n"
		"Writes each TRACEPOINT, in turn, to SET/control (count, its instances\n"
		"and stack have one): a name, sched_switch (perf's sched:sched_switch\n"
		"too, its subsystem left out), or for stack a line with its keys, one\n"
		"argument: 'kfree by stack,comm'. A name no module provides yet is\n"
		"taken, and waits for it. Stops at the first line the file refuses.\n"
		CONTROL_USAGE_TAIL },
	[CONTROL_REMOVE] = { "control", "remove",
		"usage: tpstat remove SET TRACEPOINT...\n"
		"\n"
		"Removes each TRACEPOINT from SET/control: writes !NAME, in turn\n"
		"(sched:sched_switch is sched_switch). Stops at the first line the\n"
		"file refuses (ENOENT: SET does not count it).\n"
		CONTROL_USAGE_TAIL },
	[CONTROL_FILTER] = { "filter", "write",
		"usage: tpstat filter SET [EXPR]...\n"
		"\n"
		"Writes EXPR, its words joined by spaces, to SET/filter: SET counts\n"
		"only the events that match it (tpstat filter count 'comm == nginx*').\n"
		"Without EXPR, writes an empty line, which removes the filter. The\n"
		"README's Filters say what an expression takes; tpstat show SET\n"
		"filter shows the one in force.\n"
		CONTROL_USAGE_TAIL },
};

/* @s is a word of one line: not empty, no blank, no newline. */
static bool control_word(const char *s)
{
	return *s && !strpbrk(s, " \t\n");
}

/*
 * SET/FILE is there to write; or debugfs has no tpstat directory and the
 * control file may take the line. 0, or 1 after saying why not.
 */
static int control_check(const char *cmd, const char *set, const char *file)
{
	struct tpstat_buf rel = { 0 };
	int ret = 0;

	if (!tpstat_exists("")) {
		if (!access(tpstat_control_file(), F_OK))
			return 0;
		tpstat_check_root();
		return 1;
	}
	if (!tpstat_set_exists(set)) {
		tpstat_err("no set '%s' is loaded (tpstat list names them)", set);
		return 1;
	}
	tpstat_buf_printf(&rel, "%s/%s", set, file);
	if (!tpstat_exists(rel.s)) {
		tpstat_err("%s has no file '%s', which tpstat %s writes", set, file, cmd);
		ret = 1;
	}
	tpstat_buf_free(&rel);
	return ret;
}

/*
 * Writes @line to SET/FILE; says the file's error, naming what was
 * written as @shown ("bogus" for "!bogus" removed). 0, or 1.
 */
static int control_write(const struct control_cmd *c, const char *set,
			 const char *line, const char *shown)
{
	struct tpstat_buf rel = { 0 };
	int err;

	tpstat_buf_printf(&rel, "%s/%s", set, c->file);
	err = tpstat_write(rel.s, line);
	/*
	 * Not root, or lockdown refusing the file where no control file
	 * takes its line: why the file could not be opened. Else the
	 * file's own answer to the line.
	 */
	if ((err == -EACCES && geteuid()) ||
	    (err == -EPERM && access(tpstat_control_file(), F_OK)))
		tpstat_write_error(rel.s, err);
	else if (err)
		tpstat_err("%s: cannot %s '%s': %s", rel.s, c->verb, shown,
			   strerror(-err));
	tpstat_buf_free(&rel);
	return err ? 1 : 0;
}

/* A tracepoint as perf names it, sched:sched_switch, is its name. */
static const char *control_tracepoint(const char *arg)
{
	size_t word = strcspn(arg, " ");
	const char *colon = memchr(arg, ':', word);

	return colon ? colon + 1 : arg;
}

static int control_run(enum control_kind kind, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const struct control_cmd *c = &control_cmds[kind];
	struct tpstat_buf line = { 0 };
	const char *set;
	int a, nr, ret = 0;

	/* Options end at SET: an expression or a line may start with '-'. */
	while (tpstat_getopt(argc, argv, c->usage, "+:h", longopts) != -1)
		;
	nr = argc - optind;
	if (nr < 1)
		return tpstat_usage_error(argv[0], "needs a SET");
	set = argv[optind];
	if (!control_word(set))
		return tpstat_usage_error(argv[0], "takes a set's name or path, not '%s'", set);
	switch (kind) {
	case CONTROL_ENABLE:
		if (nr > 2 || (nr == 2 && strcmp(argv[optind + 1], "0") &&
			       strcmp(argv[optind + 1], "1")))
			return tpstat_usage_error(argv[0], "takes SET and 0 or 1, not '%s'",
						  argv[optind + nr - 1]);
		break;
	case CONTROL_RESET:
		if (nr > 1)
			return tpstat_usage_error(argv[0], "takes one SET, not '%s' too",
						  argv[optind + 1]);
		break;
	case CONTROL_ADD:
	case CONTROL_REMOVE:
		if (nr < 2)
			return tpstat_usage_error(argv[0], "needs a TRACEPOINT after the SET");
		for (a = optind + 1; a < argc; a++)
			if (!*argv[a] || strchr(argv[a], '\n'))
				return tpstat_usage_error(argv[0],
							  "takes a line per TRACEPOINT, not '%s'",
							  argv[a]);
		break;
	case CONTROL_FILTER:
		for (a = optind + 1; a < argc; a++)
			if (strchr(argv[a], '\n'))
				return tpstat_usage_error(argv[0], "takes a filter of one line");
		break;
	}
	if (control_check(argv[0], set, c->file))
		return 1;
	switch (kind) {
	case CONTROL_ENABLE: {
		const char *value = nr == 2 ? argv[optind + 1] : "1";

		ret = control_write(c, set, value, value);
		break;
	}
	case CONTROL_RESET:
		ret = control_write(c, set, "1", "1");
		break;
	case CONTROL_ADD:
	case CONTROL_REMOVE:
		for (a = optind + 1; a < argc && !ret; a++) {
			const char *tp = control_tracepoint(argv[a]);

			line.len = 0;
			tpstat_buf_printf(&line, "%s%s", kind == CONTROL_REMOVE ? "!" : "", tp);
			ret = control_write(c, set, line.s, tp);
		}
		break;
	case CONTROL_FILTER:
		tpstat_buf_add(&line, "", 0);
		for (a = optind + 1; a < argc; a++)
			tpstat_buf_printf(&line, "%s%s", a > optind + 1 ? " " : "", argv[a]);
		ret = control_write(c, set, line.s, line.s);
		break;
	}
	tpstat_buf_free(&line);
	return ret;
}

int tpstat_enable(int argc, char **argv)
{
	return control_run(CONTROL_ENABLE, argc, argv);
}

int tpstat_reset(int argc, char **argv)
{
	return control_run(CONTROL_RESET, argc, argv);
}

int tpstat_add(int argc, char **argv)
{
	return control_run(CONTROL_ADD, argc, argv);
}

int tpstat_remove(int argc, char **argv)
{
	return control_run(CONTROL_REMOVE, argc, argv);
}

int tpstat_filter(int argc, char **argv)
{
	return control_run(CONTROL_FILTER, argc, argv);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * tpstat(8): the loaded probe sets, their files, their counters as rates,
 * and all of it for Prometheus or as JSON, from the files tpstat's modules
 * keep under /sys/kernel/debug/tpstat/; and one command's events, counted
 * in an instance of tpstat_count of its own. Only libc: it is linked
 * statically to run in a bare initramfs.
 *
 * A command is a row of tpstat_commands and a file of its own that parses
 * its options (tpstat_getopt()) and returns the exit status; what commands
 * share lives in debugfs.c (finding and reading files), stats.c (a stats
 * file's lines), describe.c (what each line is) and sample.c (counters read
 * at intervals, and their rates, for watch and whatever counts over time).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "tpstat.h"

struct tpstat_command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

static const struct tpstat_command tpstat_commands[] = {
	{ "list", tpstat_list, "the loaded sets, their probes and states (the default);\n"
	  "           with --available, the kernel's tracepoints (sched:sched_switch)" },
	{ "show", tpstat_show, "a set's files, as cat shows them" },
	{ "watch", tpstat_watch, "a set's counters as rates per second, one line per interval" },
	{ "export", tpstat_export, "every set's stats for Prometheus, or as JSON" },
	{ "diff", tpstat_diff, "what changed between two exports (export --json)" },
	{ "stat", tpstat_stat, "a command's events alone, counted in an instance of its own" },
	{ "enable", tpstat_enable, "attach (1) or detach (0) a set's probes" },
	{ "reset", tpstat_reset, "zero what a set counts" },
	{ "add", tpstat_add, "add tracepoints to a set's control (count, its instances, stack)" },
	{ "remove", tpstat_remove, "remove tracepoints from a set's control" },
	{ "filter", tpstat_filter, "set a set's filter, or remove it" },
	{ "flame", tpstat_flame, "folded stacks (a stack entry's folded) as an SVG flame graph" },
};

static void tpstat_main_usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: tpstat [COMMAND [OPTION]... [ARG]...]\n"
		"\n"
		"Reads the counters tpstat's modules keep in %s/tpstat/.\n"
		"\n"
		"commands:\n", tpstat_debugfs());
	for (i = 0; i < ARRAY_SIZE(tpstat_commands); i++)
		fprintf(f, "  %-8s %s\n", tpstat_commands[i].name,
			tpstat_commands[i].summary);
	fputs("\n"
	      "tpstat COMMAND --help says more of each, as does tpstat(8).\n"
	      "TPSTAT_DEBUGFS names another debugfs mount (default /sys/kernel/debug),\n"
	      "TPSTAT_TRACEFS another tracefs mount (default /sys/kernel/tracing),\n"
	      "TPSTAT_KALLSYMS another kallsyms (default /proc/kallsyms),\n"
	      "TPSTAT_CONTROL the file that takes writes under lockdown\n"
	      "(default /sys/kernel/tpstat/control).\n"
	      "Exit status: 0; 1 after one line on stderr saying what went wrong;\n"
	      "2 when a command or option is used wrongly; tpstat stat exits with\n"
	      "its command's (tpstat stat --help says more).\n"
	      "Bash completion: make install-tools installs it where bash-completion\n"
	      "looks (share/bash-completion/completions/tpstat; tpstat(8), FILES).\n",
	      f);
}

/*
 * Says what was wrong with the long option at @arg, if the error was one:
 * getopt_long() names a long option's error by the option's short form,
 * or by none when the option is unknown (or an ambiguous prefix).
 */
static bool long_option_error(const char *cmd, const char *arg, int c, int optopt_seen,
			      const struct option *longopts)
{
	size_t len;

	if (strncmp(arg, "--", 2) || !arg[2])
		return false;
	arg += 2;
	len = strcspn(arg, "=");
	if (!optopt_seen) {
		tpstat_usage_error(cmd, "unknown option --%.*s", (int)len, arg);
		return true;
	}
	for (; longopts && longopts->name; longopts++) {
		/* getopt_long() takes any prefix that names one option. */
		if (longopts->val != optopt_seen || strncmp(longopts->name, arg, len))
			continue;
		if (c == ':')
			tpstat_usage_error(cmd, "missing the value of --%s", longopts->name);
		else
			tpstat_usage_error(cmd, "--%s takes no value", longopts->name);
		return true;
	}
	return false;
}

int tpstat_getopt(int argc, char **argv, const char *usage,
		  const char *shortopts, const struct option *longopts)
{
	int c;

	opterr = 0;
	for (;;) {
		c = getopt_long(argc, argv, shortopts, longopts, NULL);
		if (c != 'h')
			break;
		fputs(usage, stdout);
		exit(tpstat_output_done(0));
	}
	if (c != '?' && c != ':')
		return c;
	/* The option as given: "-x", "--bogus", "--verbose=1" or "-i" lacking its value. */
	if (!long_option_error(argv[0], argv[optind - 1], c, optopt, longopts))
		tpstat_usage_error(argv[0], "%s -%c", c == ':' ?
				   "missing the value of" : "unknown option",
				   optopt);
	exit(TPSTAT_EXIT_USAGE);
}

int main(int argc, char **argv)
{
	char *args[3];
	size_t i;

	/* From here on argv[0] is the command, as getopt wants it. */
	if (argc < 2) {
		args[0] = "list";
		args[1] = NULL;
		argc = 1;
		argv = args;
	} else {
		argc--;
		argv++;
	}
	if (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h")) {
		tpstat_main_usage(stdout);
		return tpstat_output_done(0);
	}
	if (!strcmp(argv[0], "--version") || !strcmp(argv[0], "-V")) {
		printf("tpstat %s\n", TPSTAT_VERSION);
		return tpstat_output_done(0);
	}
	/* "tpstat help CMD" is "tpstat CMD --help". */
	if (!strcmp(argv[0], "help")) {
		if (argc < 2) {
			tpstat_main_usage(stdout);
			return tpstat_output_done(0);
		}
		args[0] = argv[1];
		args[1] = "--help";
		args[2] = NULL;
		argc = 2;
		argv = args;
	}
	for (i = 0; i < ARRAY_SIZE(tpstat_commands); i++)
		if (!strcmp(argv[0], tpstat_commands[i].name))
			return tpstat_output_done(tpstat_commands[i].run(argc, argv));
	tpstat_err("no command '%s' (tpstat --help lists them)", argv[0]);
	return TPSTAT_EXIT_USAGE;
}

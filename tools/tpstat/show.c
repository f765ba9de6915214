// SPDX-License-Identifier: GPL-2.0
/*
 * tpstat show: a set's file as cat shows it. Without a file, the set's
 * tables: every read-only file of its own, which each set writes for
 * people; stats, the same numbers for scripts, only when there is no other;
 * metrics, what the stats lines are, for the tool, only when named.
 * Control files (enable, count/control) are shown only when named: under
 * lockdown debugfs refuses to open them at all.
 */
#include <stdlib.h>
#include <string.h>

#include "tpstat.h"

static const char tpstat_show_usage[] =
	"usage: tpstat show SET [FILE]\n"
	"\n"
	"Prints FILE of SET as cat would. Without FILE, every read-only file\n"
	"of the set's own (its tables and histograms, each starting with its\n"
	"name and the time since the reset), or its stats if it has none.\n"
	"A set inside another is named by its path: tpstat show stack/kmalloc\n"
	"stacks. tpstat list names the sets and their files.\n";

static bool show_one(const char *set, const char *file, bool title)
{
	struct tpstat_buf rel = { 0 };
	char *text;
	size_t len;
	int err;

	tpstat_buf_printf(&rel, "%s/%s", set, file);
	err = tpstat_read(rel.s, &text, &len);
	if (err) {
		tpstat_file_error(rel.s, err);
		tpstat_buf_free(&rel);
		return false;
	}
	/* Files that lack the "# set/file: ..." line get one. */
	if (title && strncmp(text, "# ", 2))
		printf("# %s\n", rel.s);
	fwrite(text, 1, len, stdout);
	free(text);
	tpstat_buf_free(&rel);
	return true;
}

static void list_files(struct tpstat_buf *b, const struct tpstat_file *files,
		       size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		tpstat_buf_printf(b, "%s%s", i ? " " : "", files[i].name);
}

int tpstat_show(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct tpstat_buf names = { 0 };
	struct tpstat_file *files;
	const char *set, *file;
	size_t i, nr, shown = 0;
	bool ok = true;
	int err;

	while (tpstat_getopt(argc, argv, tpstat_show_usage, ":h", longopts) != -1)
		;
	if (optind >= argc || argc - optind > 2)
		return tpstat_usage_error(argv[0], "takes a set and at most one file");
	set = argv[optind];
	file = optind + 1 < argc ? argv[optind + 1] : NULL;
	if (tpstat_check_root())
		return 1;
	if (!tpstat_set_exists(set)) {
		tpstat_err("no set '%s' is loaded (tpstat list names them)", set);
		return 1;
	}
	err = tpstat_set_files(set, &files, &nr);
	if (err) {
		tpstat_file_error(set, err);
		return 1;
	}
	if (file) {
		for (i = 0; i < nr && strcmp(files[i].name, file); i++)
			;
		if (i == nr) {
			list_files(&names, files, nr);
			tpstat_err("%s has no file '%s' (its files: %s)", set, file,
				   names.s ? names.s : "none");
			ok = false;
		} else {
			ok = show_one(set, file, false);
		}
	} else {
		for (i = 0; ok && i < nr; i++) {
			if ((files[i].mode & 0222) || !(files[i].mode & 0444) ||
			    !strcmp(files[i].name, "stats") ||
			    !strcmp(files[i].name, "metrics"))
				continue;
			if (shown++)
				putchar('\n');
			ok = show_one(set, files[i].name, true);
		}
		if (ok && !shown)
			ok = show_one(set, "stats", false);
	}
	tpstat_buf_free(&names);
	tpstat_free_files(files, nr);
	return ok ? 0 : 1;
}

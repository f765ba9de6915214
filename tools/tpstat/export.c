// SPDX-License-Identifier: GPL-2.0
/*
 * tpstat export: every loaded set's stats in Prometheus' text format, or
 * as JSON, on stdout or in a file. The file is written whole under a
 * temporary name in its directory, then renamed over the old one, so that
 * node_exporter's textfile collector, reading the directory at any time,
 * sees the last export or this one, never half of one; the temporary name
 * does not end in .prom, which the collector would read.
 */
#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tpstat.h"

static const char tpstat_export_usage[] =
	"usage: tpstat export --prometheus [--keep WHAT,...]|--json [-o FILE] [SET]...\n"
	"\n"
	"Every stats line of every loaded set (or of each SET and the sets\n"
	"inside it, such as stack's stack/kmalloc).\n"
	"\n"
	"  --prometheus     Prometheus' text format: tpstat_<set>_<metric>{labels},\n"
	"                   a call site's, command's, IRQ's or CPU's key as labels,\n"
	"                   counters as counters (_total), histograms as histograms,\n"
	"                   nanoseconds as seconds; a set inside another as the\n"
	"                   outer one's metrics, labelled (tracepoint=\"kmalloc\");\n"
	"                   typed by each set's metrics file, as tpstat(8) says\n"
	"  --keep WHAT,...  with --prometheus, put back what it leaves out by\n"
	"                   default, to keep a fleet's series few and stable:\n"
	"                   offsets  a call site as its stats name it,\n"
	"                            foo+0x1c/0x80 [m], not foo [m] (sites summed)\n"
	"                   zeros    counters keyed by a CPU that are 0\n"
	"                   cpu      a histogram by CPU, not summed over CPUs\n"
	"                   pid      pid, tgid and rank labels, not summed away\n"
	"                            (gauges of such rows left out)\n"
	"                   stat     count instances that tpstat stat makes\n"
	"                            (count/stat_<pid>), unless named as a SET\n"
	"  --json           the version, memory, and per set its probes and its\n"
	"                   stats lines, as they stand\n"
	"  -o, --output FILE  write FILE atomically (a temporary file in its\n"
	"                   directory, then rename), as node_exporter's textfile\n"
	"                   collector wants; mode 0644\n";

/* --keep's words, and what each puts back. */
static const struct {
	const char *word;
	unsigned int flag;
} keep_words[] = {
	{ "offsets", TPSTAT_EXPORT_OFFSETS },
	{ "zeros", TPSTAT_EXPORT_ZEROS },
	{ "cpu", TPSTAT_EXPORT_CPU },
	{ "pid", TPSTAT_EXPORT_PID },
	{ "stat", TPSTAT_EXPORT_STAT },
};

/* --keep's list into @flags; the word it does not know, or NULL. */
static char *parse_keep(const char *list, unsigned int *flags)
{
	const char *p = list;

	for (;;) {
		size_t n = strcspn(p, ","), i;

		for (i = 0; i < sizeof(keep_words) / sizeof(*keep_words); i++)
			if (strlen(keep_words[i].word) == n &&
			    !strncmp(keep_words[i].word, p, n))
				break;
		if (i == sizeof(keep_words) / sizeof(*keep_words))
			return tpstat_strndup(p, n);
		*flags |= keep_words[i].flag;
		if (!p[n])
			return NULL;
		p += n + 1;
	}
}

enum format { NONE, PROMETHEUS, JSON };

static int export_to(FILE *f, enum format format, unsigned int flags,
		     char **sets, size_t nr)
{
	int ret = format == PROMETHEUS ?
		  tpstat_export_prometheus(f, sets, nr, flags) :
		  tpstat_export_json(f, sets, nr);

	if (fflush(f) || ferror(f)) {
		if (!ret)
			tpstat_err("writing the output failed: %s", strerror(errno));
		return -1;
	}
	return ret;
}

/* FILE.XXXXXX beside FILE, renamed to FILE once complete. */
static int export_file(const char *path, enum format format,
		       unsigned int flags, char **sets, size_t nr)
{
	struct tpstat_buf tmp = { 0 };
	int fd, ret;
	FILE *f;

	tpstat_buf_printf(&tmp, "%s.XXXXXX", path);
	fd = mkstemp(tmp.s);
	if (fd < 0) {
		char *dir = tpstat_strdup(path);

		tpstat_err("cannot create a file in %s: %s", dirname(dir),
			   strerror(errno));
		free(dir);
		tpstat_buf_free(&tmp);
		return 1;
	}
	/* mkstemp() makes it 0600; node_exporter runs as another user. */
	f = fdopen(fd, "w");
	if (!f || fchmod(fd, 0644)) {
		tpstat_err("%s: %s", tmp.s, strerror(errno));
		if (f)
			fclose(f);
		else
			close(fd);
		unlink(tmp.s);
		tpstat_buf_free(&tmp);
		return 1;
	}
	ret = export_to(f, format, flags, sets, nr);
	if (!ret && fsync(fd)) {
		tpstat_err("%s: %s", tmp.s, strerror(errno));
		ret = -1;
	}
	if (fclose(f) && !ret) {
		tpstat_err("%s: %s", tmp.s, strerror(errno));
		ret = -1;
	}
	if (!ret && rename(tmp.s, path)) {
		tpstat_err("cannot rename %s to %s: %s", tmp.s, path, strerror(errno));
		ret = -1;
	}
	if (ret)
		unlink(tmp.s);
	tpstat_buf_free(&tmp);
	return ret ? 1 : 0;
}

int tpstat_export(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "prometheus", no_argument, NULL, 'p' },
		{ "json", no_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ "keep", required_argument, NULL, 'k' },
		{ NULL, 0, NULL, 0 },
	};
	enum format format = NONE;
	unsigned int flags = 0;
	const char *output = NULL;
	char **sets, *bad;
	size_t nr, i, kept;
	bool keep = false;
	int c, ret;

	while ((c = tpstat_getopt(argc, argv, tpstat_export_usage, ":ho:",
				  longopts)) != -1) {
		switch (c) {
		case 'p':
		case 'j':
			if (format != NONE)
				return tpstat_usage_error(argv[0],
							  "takes one of --prometheus and --json");
			format = c == 'p' ? PROMETHEUS : JSON;
			break;
		case 'o':
			output = optarg;
			break;
		case 'k':
			bad = parse_keep(optarg, &flags);
			if (bad) {
				ret = tpstat_usage_error(argv[0],
							 "--keep: '%s' is none of offsets, zeros, cpu, pid and stat",
							 bad);
				free(bad);
				return ret;
			}
			keep = true;
			break;
		}
	}
	if (format == NONE)
		return tpstat_usage_error(argv[0], "needs --prometheus or --json");
	if (keep && format != PROMETHEUS)
		return tpstat_usage_error(argv[0], "--keep goes with --prometheus");
	if (tpstat_check_root())
		return 1;
	for (c = optind; c < argc; c++)
		if (!tpstat_set_exists(argv[c])) {
			tpstat_err("no set '%s' is loaded (tpstat list names them)",
				   argv[c]);
			return 1;
		}
	if (tpstat_set_names(&sets, &nr))
		return 1;
	/*
	 * The sets named, each with the sets inside it; tpstat stat's count
	 * instances, which live as long as one command, only if named.
	 */
	for (i = 0, kept = 0; i < nr; i++) {
		bool named = false, within = optind == argc;

		for (c = optind; c < argc; c++) {
			named |= !strcmp(sets[i], argv[c]);
			within |= tpstat_set_within(sets[i], argv[c]);
		}
		if (format == PROMETHEUS && !(flags & TPSTAT_EXPORT_STAT) &&
		    !named && tpstat_is_stat_instance(sets[i]))
			within = false;
		if (within)
			sets[kept++] = sets[i];
		else
			free(sets[i]);
	}
	nr = kept;
	if (output)
		ret = export_file(output, format, flags, sets, nr);
	else
		ret = export_to(stdout, format, flags, sets, nr) ? 1 : 0;
	tpstat_free_names(sets, nr);
	return ret;
}

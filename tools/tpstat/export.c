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
	"usage: tpstat export --prometheus [--offsets]|--json [-o FILE] [SET]...\n"
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
	"  --offsets        a call site as its stats name it, foo+0x1c/0x80 [m],\n"
	"                   not foo [m], its function, whose sites are summed\n"
	"  --json           the version, memory, and per set its probes and its\n"
	"                   stats lines, as they stand\n"
	"  -o, --output FILE  write FILE atomically (a temporary file in its\n"
	"                   directory, then rename), as node_exporter's textfile\n"
	"                   collector wants; mode 0644\n";

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
		{ "offsets", no_argument, NULL, 'O' },
		{ NULL, 0, NULL, 0 },
	};
	enum format format = NONE;
	unsigned int flags = 0;
	const char *output = NULL;
	char **sets;
	size_t nr, i, kept;
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
		case 'O':
			flags |= TPSTAT_EXPORT_OFFSETS;
			break;
		}
	}
	if (format == NONE)
		return tpstat_usage_error(argv[0], "needs --prometheus or --json");
	if (flags && format != PROMETHEUS)
		return tpstat_usage_error(argv[0], "--offsets goes with --prometheus");
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
	/* The sets named, each with the sets inside it. */
	for (i = 0, kept = 0; optind < argc && i < nr; i++) {
		for (c = optind; c < argc && !tpstat_set_within(sets[i], argv[c]); c++)
			;
		if (c < argc)
			sets[kept++] = sets[i];
		else
			free(sets[i]);
	}
	if (optind < argc)
		nr = kept;
	if (output)
		ret = export_file(output, format, flags, sets, nr);
	else
		ret = export_to(stdout, format, flags, sets, nr) ? 1 : 0;
	tpstat_free_names(sets, nr);
	return ret;
}

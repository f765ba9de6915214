// SPDX-License-Identifier: GPL-2.0
/*
 * tpstat list: a line per loaded set, from the probes file and the set's
 * directory, so that all of them fit on one screen: whether its probes
 * are attached, how long since its reset, how many probes are in each
 * state (naming those not attached, which are the news), and its files.
 * The sets inside a set follow it, named by their paths.
 * Only read-only files are read, so it works under lockdown too.
 */
#include <stdlib.h>
#include <string.h>

#include "tpstat.h"

static const char tpstat_list_usage[] =
	"usage: tpstat list [-v] [SET]...\n"
	"       tpstat list --available [EVENT]...\n"
	"\n"
	"A line per loaded set (or per SET and each set inside it): whether its\n"
	"probes are attached, the time since its last reset, its probes by\n"
	"state, naming those that are not attached, and its files besides\n"
	"enable, metrics, reset and stats. A set inside another (an entry of\n"
	"the stack set) is named by its path, stack/kmalloc, under the one it\n"
	"is in.\n"
	"\n"
	"With --available, every tracepoint the running kernel and its loaded\n"
	"modules define instead, a line each, SUBSYSTEM:NAME, sorted, as perf list\n"
	"tracepoint and bpftrace -l name them (sched:sched_switch), from tracefs'\n"
	"events that /proc/kallsyms names as tracepoints, then the tracepoints\n"
	"that have no event (kallsyms' alone) by their names; without tracefs,\n"
	"the names kallsyms has alone (said on stderr), without subsystems.\n"
	"Each EVENT (NAME, SUBSYSTEM:NAME or a glob: 'sched:*', 'kmem:k*') keeps\n"
	"those it matches; one matching none is an error (exit 1). tpstat's sets\n"
	"need not be loaded, nor debugfs mounted.\n"
	"\n"
	"  -v, --verbose   each probe too: tracepoint, state, hits, dropped\n"
	"  --available     the kernel's tracepoints, as tpstat stat -e takes them\n";

#define STATES_MAX	8

/* "7 attached" or "2 attached, 1 missing: tpstat_test_absent". */
static void probe_summary(struct tpstat_buf *b, const struct tpstat_probes *probes,
			  const char *set)
{
	const char *states[STATES_MAX] = { "attached" };
	size_t counts[STATES_MAX] = { 0 }, nr_states = 1, i, s, named;

	for (i = 0; i < probes->nr; i++) {
		if (strcmp(probes->p[i].set, set))
			continue;
		for (s = 0; s < nr_states; s++)
			if (!strcmp(states[s], probes->p[i].state))
				break;
		if (s == nr_states && nr_states < STATES_MAX)
			states[nr_states++] = probes->p[i].state;
		if (s < nr_states)
			counts[s]++;
	}
	for (s = 0; s < nr_states; s++) {
		if (!counts[s])
			continue;
		tpstat_buf_printf(b, "%s%zu %s", b->len ? ", " : "", counts[s],
				  states[s]);
		/* The probes that are not attached are what to look into. */
		for (named = 0, i = 0; s && i < probes->nr && named < 3; i++) {
			if (strcmp(probes->p[i].set, set) ||
			    strcmp(probes->p[i].state, states[s]))
				continue;
			tpstat_buf_printf(b, "%s%s", named++ ? " " : ": ",
					  probes->p[i].tracepoint);
		}
		if (s && counts[s] > named)
			tpstat_buf_add(b, " ...", 4);
	}
	if (!b->len)
		tpstat_buf_printf(b, "no probes");
}

/* A set's own files, those every set has left out. */
static void own_files(struct tpstat_buf *b, const char *set)
{
	struct tpstat_file *files;
	size_t i, nr;

	if (tpstat_set_files(set, &files, &nr))
		return;
	for (i = 0; i < nr; i++)
		if (strcmp(files[i].name, "enable") && strcmp(files[i].name, "reset") &&
		    strcmp(files[i].name, "stats") && strcmp(files[i].name, "metrics"))
			tpstat_buf_printf(b, "%s%s", b->len ? " " : "", files[i].name);
	tpstat_free_files(files, nr);
}

enum list_column { COL_SET, COL_STATE, COL_SINCE, COL_PROBES, COL_FILES, NR_COLS };

static const char * const list_headers[NR_COLS] = {
	"SET", "STATE", "SINCE RESET", "PROBES", "FILES",
};

/* A set's line, cell by cell: the columns are as wide as their widest. */
struct list_row {
	const char *set;
	struct tpstat_buf cells[NR_COLS];
};

static void list_row_fill(struct list_row *row, const char *set,
			  const struct tpstat_probes *probes)
{
	struct tpstat_buf *cells = row->cells;
	const char *state = "?";
	struct tpstat_stats stats;
	size_t i;

	row->set = set;
	tpstat_buf_printf(&cells[COL_SET], "%s", set);
	tpstat_buf_printf(&cells[COL_SINCE], "?");
	if (!tpstat_read_stats(set, &stats)) {
		for (i = 0; i < stats.nr; i++)
			if (!strcmp(stats.lines[i].name, "enabled"))
				state = stats.lines[i].value ? "enabled" : "disabled";
		if (stats.has_since_reset) {
			cells[COL_SINCE].len = 0;
			tpstat_buf_printf(&cells[COL_SINCE], "%.1f s",
					  stats.since_reset_ns / 1e9);
		}
		tpstat_free_stats(&stats);
	}
	tpstat_buf_printf(&cells[COL_STATE], "%s", state);
	probe_summary(&cells[COL_PROBES], probes, set);
	own_files(&cells[COL_FILES], set);
	tpstat_buf_add(&cells[COL_FILES], "", 0);
}

/* Two spaces between columns, the time right-aligned, no trailing blanks. */
static void list_print_row(const char * const *cells, const int *widths)
{
	struct tpstat_buf line = { 0 };
	int c;

	for (c = 0; c < NR_COLS; c++)
		tpstat_buf_printf(&line, c == COL_SINCE ? "%s%*s" : "%s%-*s",
				  c ? "  " : "", widths[c], cells[c]);
	while (line.len && line.s[line.len - 1] == ' ')
		line.s[--line.len] = '\0';
	printf("%s\n", line.s);
	tpstat_buf_free(&line);
}

static void list_rows(struct list_row *rows, size_t nr,
		      const struct tpstat_probes *probes, bool verbose)
{
	const char *cells[NR_COLS];
	int widths[NR_COLS];
	size_t r, i;
	int c;

	for (c = 0; c < NR_COLS; c++) {
		widths[c] = strlen(list_headers[c]);
		for (r = 0; r < nr; r++)
			if ((int)rows[r].cells[c].len > widths[c])
				widths[c] = rows[r].cells[c].len;
	}
	list_print_row(list_headers, widths);
	for (r = 0; r < nr; r++) {
		for (c = 0; c < NR_COLS; c++)
			cells[c] = rows[r].cells[c].s;
		list_print_row(cells, widths);
		for (i = 0; verbose && i < probes->nr; i++)
			if (!strcmp(probes->p[i].set, rows[r].set))
				printf("    %-32s %-9s %14llu hits %10llu dropped\n",
				       probes->p[i].tracepoint, probes->p[i].state,
				       probes->p[i].hits, probes->p[i].dropped);
	}
}

/*
 * --available: the kernel's tracepoints, or those @events (globs, checked)
 * match. 0, or 1 if one matches none.
 */
static int list_available(char **events, int nr)
{
	struct tpstat_tracepoints t;
	bool *matched, any;
	size_t i;
	int e, ret = 0;

	if (tpstat_read_tracepoints(&t))
		return 1;
	matched = tpstat_alloc((nr ? nr : 1) * sizeof(*matched));
	for (i = 0; i < t.nr; i++) {
		any = !nr;
		for (e = 0; e < nr; e++)
			if (tpstat_event_match(&t.tp[i], events[e])) {
				matched[e] = true;
				any = true;
			}
		if (!any)
			continue;
		if (t.tp[i].subsys)
			printf("%s:%s\n", t.tp[i].subsys, t.tp[i].name);
		else
			printf("%s\n", t.tp[i].name);
	}
	for (e = 0; e < nr; e++) {
		if (matched[e])
			continue;
		tpstat_err("no tracepoint of this kernel or its loaded modules matches %s%s",
			   events[e], tpstat_event_hint(&t, events[e]));
		ret = 1;
	}
	free(matched);
	tpstat_free_tracepoints(&t);
	return ret;
}

/* The first line: the core's version, the sets, the memory they hold. */
static void list_header(size_t nr)
{
	char *version = NULL, *memory = NULL, *total;
	unsigned long long bytes = 0;
	size_t len;

	/* An unreadable one leaves it NULL, shown as "?". */
	tpstat_read_version(&version);
	if (!tpstat_read("memory", &memory, &len)) {
		total = strstr(memory, "\ntotal ");
		if (total)
			bytes = strtoull(total + 7, NULL, 10);
	}
	printf("tpstat %s: %zu set%s loaded, %llu bytes of aggregation data\n",
	       version ? version : "?", nr, nr == 1 ? "" : "s", bytes);
	free(version);
	free(memory);
}

int tpstat_list(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "available", no_argument, NULL, 'a' },
		{ NULL, 0, NULL, 0 },
	};
	struct tpstat_probes probes;
	struct list_row *rows;
	bool verbose = false, available = false;
	size_t i, nr, nr_rows = 0;
	char **names;
	int a, c;

	while ((c = tpstat_getopt(argc, argv, tpstat_list_usage, ":hv", longopts)) != -1) {
		if (c == 'a')
			available = true;
		else
			verbose = true;
	}
	if (available) {
		for (a = optind; a < argc; a++)
			if (!tpstat_event_valid(argv[a], strlen(argv[a])))
				return tpstat_usage_error(argv[0],
							  "--available takes tracepoints as [SUBSYSTEM:]NAME or globs of them, not '%s'",
							  argv[a]);
		return list_available(argv + optind, argc - optind);
	}
	if (tpstat_check_root())
		return 1;
	for (a = optind; a < argc; a++) {
		if (!tpstat_set_exists(argv[a])) {
			tpstat_err("no set '%s' is loaded (tpstat list names them)", argv[a]);
			return 1;
		}
	}
	if (tpstat_set_names(&names, &nr))
		return 1;
	if (tpstat_read_probes(&probes)) {
		tpstat_free_names(names, nr);
		return 1;
	}
	list_header(nr);
	if (!nr)
		printf("no set is loaded: %s\n",
		       "modprobe tpstat_irq, tpstat_sched, tpstat_kmem, tpstat_net, tpstat_stack or tpstat_count");
	rows = tpstat_alloc(nr * sizeof(*rows));
	for (i = 0; i < nr; i++) {
		bool wanted = optind >= argc;

		for (a = optind; a < argc; a++)
			wanted |= tpstat_set_within(names[i], argv[a]);
		if (wanted)
			list_row_fill(&rows[nr_rows++], names[i], &probes);
	}
	if (nr)
		list_rows(rows, nr_rows, &probes, verbose);
	for (i = 0; i < nr_rows; i++)
		for (c = 0; c < NR_COLS; c++)
			tpstat_buf_free(&rows[i].cells[c]);
	free(rows);
	tpstat_free_probes(&probes);
	tpstat_free_names(names, nr);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * tpstat watch: a set's counters as rates per second (sample.c), one line
 * per interval under a header repeated as vmstat repeats its own, then the
 * busiest keys of each keyed table, a line each. A reset of the set in the
 * interval is said in a line of its own, and a counter that went down
 * without one shows as "-", never as a negative rate. This file reads the
 * options, samples at each interval and prints its line; watch.h names the
 * files that choose the columns, print the tables, the records and --hist.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "watch.h"

static const char tpstat_watch_usage[] =
	"usage: tpstat watch [-T] [-c COLUMN[,...]] [-i SECONDS] [-n COUNT] [-t KEYS]\n"
	"                    [--json | --csv | --hist NAME [--heatmap]] SET\n"
	"\n"
	"Every counter of SET's stats as a rate per second, one line per\n"
	"interval; columns are grouped by the part of their name before the\n"
	"last dot, and the header comes again every screenful. Under each line,\n"
	"each keyed table (call sites, commands, IRQs, CPUs ...) has a line:\n"
	"its busiest keys by the rate of its first column (slices by comm,\n"
	"slices: nginx 900K  postgres 500K (2 of 6)). Gauges and histogram\n"
	"buckets are left out: tpstat show SET has them; a histogram shows its\n"
	"events per second, their mean in the interval (avg, a time for\n"
	"nanoseconds: 12.5us) and their p99 in the interval (the upper bound\n"
	"of the bucket that holds it, from the buckets' growth). Rates from\n"
	"100000 on are scaled: 14.9M is 14,900,000 per second. A set inside\n"
	"another is named by its path (stack/kmalloc).\n"
	"\n"
	"Without -c, the columns that fit the terminal's width (132 when not a\n"
	"terminal): each histogram's count, avg and p99 first, then the set's\n"
	"own counters, then its tracepoints' hits and dropped; those left out\n"
	"are said once on stderr, their number and the first names that fit.\n"
	"\n"
	"With --json or --csv, a record per interval for a program, written as\n"
	"the interval ends: the same values unscaled (rates per second with\n"
	"three decimals, avg and p99 in the histogram's own unit, such as ns), by\n"
	"the columns' -c names, every column unless -c chooses. JSON has the\n"
	"keyed tables too: \"tables\", each table's -t busiest rows that moved,\n"
	"each row its keys and its columns' values; CSV has none.\n"
	"\n"
	"  -c, --columns COLUMN[,...]\n"
	"                          these columns, in this order: names as the\n"
	"                          header shows them, group.name (runqlat.p99,\n"
	"                          forks), or globs (runqlat.*, '*' for all)\n"
	"  -i, --interval SECONDS  time between lines (default 1; 0.01 at least)\n"
	"  -n, --count COUNT       stop after COUNT lines (default: never)\n"
	"  -t, --top KEYS          keys per table's line (default 5; 0: none)\n"
	"  -T, --timestamp         each line starts with its time of day\n"
	"      --json              an object per line, as perf stat -j: with -T\n"
	"                          \"time\", then \"set\", \"seconds\" (what the rates\n"
	"                          are over), \"reset\" (true: the set was reset in\n"
	"                          the interval) and each column; null for a\n"
	"                          counter or bucket that went down\n"
	"      --csv               a header line, [time,]seconds,reset,COLUMN...,\n"
	"                          then a line per interval: the first interval's\n"
	"                          columns, a field empty where JSON has null or a\n"
	"                          line is gone\n"
	"      --hist NAME         SET's histogram NAME (its NAME.* lines, its\n"
	"                          file NAME: runqlat of sched) per interval, as\n"
	"                          runqlat 1 prints: the events of the interval,\n"
	"                          then its buckets' growth, a bar of stars each\n"
	"      --heatmap           with --hist, a line per interval: its events\n"
	"                          per second, then a cell per power-of-two\n"
	"                          bucket, from the lowest the histogram has had\n"
	"                          to the highest, shaded by the bucket's growth\n"
	"                          against the busiest's (UTF-8 blocks, ASCII\n"
	"                          . : * # when the locale is not UTF-8), under\n"
	"                          a header of the buckets' low bounds\n";

/* The local time a line is printed at, HH:MM:SS. */
void watch_time_of_day(char *buf, size_t size)
{
	time_t now = time(NULL);
	struct tm tm;

	if (!localtime_r(&now, &tm) || !strftime(buf, size, "%H:%M:%S", &tm))
		snprintf(buf, size, "?");
}

/* One interval: @cur against @prev. Returns -1 after a usage error. */
static int print_interval(struct watch *w, const struct tpstat_sample *prev,
			  const struct tpstat_sample *cur, bool first)
{
	struct tpstat_rate *r = tpstat_alloc((cur->stats.nr + 1) * sizeof(*r));
	int *widths = tpstat_alloc((cur->stats.nr + 1) * sizeof(*widths));
	size_t *cols = tpstat_alloc((cur->stats.nr + 1) * sizeof(*cols));
	struct tpstat_buf top = { 0 }, names = { 0 }, down_names = { 0 };
	char *columns, buf[32];
	ssize_t nr;
	bool reset;
	double dt;
	size_t i, down;

	down = tpstat_rates(prev, cur, r, &dt, &reset, &down_names);
	if (w->format == WATCH_HIST && w->heatmap) {
		nr = watch_print_heat(w, prev, cur, dt, reset, first);
		goto out;
	}
	if (w->format == WATCH_HIST) {
		nr = watch_print_hist(w, prev, cur, dt, reset, first);
		goto out;
	}
	if (w->nr_want)
		nr = watch_wanted_columns(w, cur, cols, first);
	else
		nr = watch_default_columns(w, cur, cols, widths);
	if (nr < 0)
		goto out;
	if (w->format == WATCH_JSON) {
		watch_print_json(w, cur, r, cols, nr, dt, reset);
		goto out;
	}
	if (w->format == WATCH_CSV) {
		watch_print_csv(w, cur, r, cols, nr, dt, reset);
		goto out;
	}
	watch_layout(cur, cols, nr, widths, &top, &names);
	/* The columns of no group leave blanks at the end of the first line. */
	while (top.len && top.s[top.len - 1] == ' ')
		top.s[--top.len] = '\0';
	columns = watch_column_key(cur, cols, nr);
	if (!w->columns || strcmp(columns, w->columns) || w->lines >= w->height) {
		if (nr)
			printf("%s%s\n%s%s\n", w->timestamp ? "        " : "", top.s,
			       w->timestamp ? "    time" : "", names.s);
		else
			printf("(%s/stats has no counters)\n", cur->stats.set);
		w->lines = 0;
	}
	free(w->columns);
	w->columns = columns;

	if (w->timestamp) {
		watch_time_of_day(buf, sizeof(buf));
		printf("%8s", buf);
	}
	for (i = 0; i < (size_t)nr; i++) {
		tpstat_format_rate(buf, sizeof(buf), &r[cols[i]]);
		printf(" %*s", widths[i], buf);
	}
	printf("\n");
	w->lines++;

	/* Lines under this one push the header away: it comes again. */
	if (reset) {
		printf("# %s was reset %.3f s before this line: %s\n", w->set, dt,
		       "these rates are over that time");
		w->lines = w->height;
	}
	if (down) {
		printf("# %zu counter%s went down without a reset, shown as -: %s%s\n",
		       down, down == 1 ? "" : "s", down_names.s,
		       down > 3 ? ", ..." : "");
		w->lines = w->height;
	}
	if (w->top && watch_print_tables(w, cur, r))
		w->lines = w->height;
out:
	free(cols);
	free(widths);
	free(r);
	tpstat_buf_free(&top);
	tpstat_buf_free(&names);
	tpstat_buf_free(&down_names);
	return nr < 0 ? -1 : 0;
}

/*
 * Lines between headers: a screenful on a terminal, as vmstat does; and
 * the width the default columns fit: the terminal's, else 132, a wide
 * terminal's and a printer's.
 */
static void screen_size(unsigned int *height, unsigned int *width)
{
	struct winsize ws;

	*height = 20;
	*width = 132;
	if (!isatty(STDOUT_FILENO) || ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws))
		return;
	if (ws.ws_row > 8)
		*height = ws.ws_row - 3;
	if (ws.ws_col > 20)
		*width = ws.ws_col;
}

/*
 * The locale's character set is UTF-8, as the environment names it: the
 * first of LC_ALL, LC_CTYPE and LANG that is set and not empty, as
 * setlocale() would take it, without loading locales into a static
 * binary. No locale, or C or POSIX, is ASCII.
 */
static bool utf8_locale(void)
{
	static const char * const vars[] = { "LC_ALL", "LC_CTYPE", "LANG" };
	const char *v = NULL, *dot;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(vars) && (!v || !*v); i++)
		v = getenv(vars[i]);
	dot = v ? strchr(v, '.') : NULL;
	if (!dot)
		return false;
	dot++;
	return !strncasecmp(dot, "UTF-8", 5) || !strncasecmp(dot, "utf8", 4);
}

/* -c's list: names and globs separated by commas, none empty. */
static int parse_columns(struct watch *w, const char *cmd, const char *arg)
{
	const char *p = arg;

	for (;;) {
		size_t n = strcspn(p, ",");

		if (!n)
			return tpstat_usage_error(cmd,
						  "-c takes column names separated by commas, not '%s'",
						  arg);
		w->want = tpstat_realloc(w->want, (w->nr_want + 1) * sizeof(*w->want));
		w->want[w->nr_want++] = tpstat_strndup(p, n);
		if (!p[n])
			return 0;
		p += n + 1;
	}
}

int tpstat_watch(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "interval", required_argument, NULL, 'i' },
		{ "count", required_argument, NULL, 'n' },
		{ "top", required_argument, NULL, 't' },
		{ "timestamp", no_argument, NULL, 'T' },
		{ "columns", required_argument, NULL, 'c' },
		{ "json", no_argument, NULL, 'J' },
		{ "csv", no_argument, NULL, 'V' },
		{ "hist", required_argument, NULL, 'H' },
		{ "heatmap", no_argument, NULL, 'M' },
		{ NULL, 0, NULL, 0 },
	};
	struct watch w = { .top = 5, .cmd = argv[0], .heat_lo = -1, .heat_hi = -1 };
	double interval = 1, count = 0, top;
	struct tpstat_sample prev, cur;
	struct timespec next;
	unsigned long long n;
	int c, ret = 0;

	while ((c = tpstat_getopt(argc, argv, tpstat_watch_usage, ":hc:i:n:t:T",
				  longopts)) != -1) {
		switch (c) {
		case 'c':
			ret = parse_columns(&w, argv[0], optarg);
			break;
		case 'i':
			ret = tpstat_parse_interval(argv[0], optarg, &interval);
			break;
		case 'n':
			if (!tpstat_parse_number(optarg, &count) || count < 1 ||
			    count > 1e15 || count != (unsigned long long)count)
				ret = tpstat_usage_error(argv[0],
							 "-n takes a count of 1 or more, not '%s'",
							 optarg);
			break;
		case 't':
			if (!tpstat_parse_number(optarg, &top) || top < 0 || top > 1000000 ||
			    top != (unsigned int)top)
				ret = tpstat_usage_error(argv[0],
							 "-t takes a number of keys, not '%s'",
							 optarg);
			w.top = top;
			break;
		case 'T':
			w.timestamp = true;
			break;
		case 'M':
			w.heatmap = true;
			break;
		case 'J':
		case 'V':
		case 'H':
			if (w.format != WATCH_TEXT)
				ret = tpstat_usage_error(argv[0],
							 "takes one of --json, --csv and --hist");
			w.format = c == 'J' ? WATCH_JSON : c == 'V' ? WATCH_CSV : WATCH_HIST;
			w.hist = optarg;
			break;
		}
		if (ret)
			goto out;
	}
	if (argc - optind != 1) {
		ret = tpstat_usage_error(argv[0], "takes one set");
		goto out;
	}
	if (w.heatmap && w.format != WATCH_HIST) {
		ret = tpstat_usage_error(argv[0],
					 "--heatmap draws --hist NAME's histogram: takes --hist NAME too");
		goto out;
	}
	w.utf8 = utf8_locale();
	w.set = argv[optind];
	ret = 1;
	if (tpstat_check_root())
		goto out;
	if (!tpstat_set_exists(w.set)) {
		tpstat_err("no set '%s' is loaded (tpstat list names them)", w.set);
		goto out;
	}
	screen_size(&w.height, &w.width);
	/* A record has room for every column. */
	if (w.format != WATCH_TEXT)
		w.width = UINT_MAX;
	if (tpstat_sample(w.set, &prev, &w.warned))
		goto out;
	ret = 0;
	next = prev.t;
	for (n = 0; !count || n < count; n++) {
		tpstat_sleep_until(&next, interval);
		if (tpstat_sample(w.set, &cur, &w.warned)) {
			ret = 1;
			break;
		}
		if (print_interval(&w, &prev, &cur, !n)) {
			ret = TPSTAT_EXIT_USAGE;
			tpstat_free_sample(&cur);
			break;
		}
		tpstat_free_sample(&prev);
		prev = cur;
		/* Each interval is seen as it ends; a reader gone ends the watch. */
		if (!tpstat_output_ok())
			break;
	}
	tpstat_free_sample(&prev);
out:
	for (n = 0; n < w.nr_want; n++)
		free(w.want[n]);
	free(w.want);
	free(w.columns);
	for (n = 0; n < w.nr_csv; n++)
		free(w.csv_lines[n]);
	free(w.csv_lines);
	return ret;
}

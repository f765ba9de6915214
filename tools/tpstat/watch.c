// SPDX-License-Identifier: GPL-2.0
/*
 * tpstat watch: a set's counters as rates per second, one line per
 * interval under a header repeated as vmstat repeats its own, then the
 * busiest keys of each keyed table.
 *
 * The time between two samples is the kernel's: the difference of the
 * stats' since_reset_ns, taken where the counters are folded. A set reset
 * in between shows as since_reset_ns smaller than the time since the last
 * sample; its counters restarted from zero then, so that line's rates are
 * over the time since the reset, and a note says so. A counter that went
 * down without a reset (a tracepoint counted again, a row given to a new
 * key) shows as "-", never as a negative rate.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "tpstat.h"

static const char tpstat_watch_usage[] =
	"usage: tpstat watch [-i SECONDS] [-n COUNT] [-t KEYS] SET\n"
	"\n"
	"Every counter of SET's stats as a rate per second, one line per\n"
	"interval; columns are grouped by the part of their name before the\n"
	"last dot, and the header comes again every screenful. Under each line,\n"
	"each keyed table (call sites, commands, IRQs, CPUs ...) shows its\n"
	"busiest keys by the rate of its first column. Gauges and histogram\n"
	"buckets are left out: tpstat show SET has them.\n"
	"\n"
	"  -i, --interval SECONDS  time between lines (default 1; 0.01 at least)\n"
	"  -n, --count COUNT       stop after COUNT lines (default: never)\n"
	"  -t, --top KEYS          keys per table (default 5; 0: no tables)\n";

/* A sample: the stats, what each line is, and when it was taken. */
struct sample {
	struct tpstat_stats stats;
	struct tpstat_meaning *m;
	struct timespec t;
	/* Lines by name, to find a counter's last value. */
	size_t *by_name;
};

struct watch {
	const char *set;
	unsigned int top;
	/* Lines printed since the header, and the header's height. */
	unsigned int lines, height;
	/* The last header's columns, one string, to see them change. */
	char *columns;
	bool warned, warned_dup;
};

/* A counter and how fast it went: the rate, or that it went down. */
struct rate {
	double rate;
	bool down;
};

static const struct sample *sort_sample;

static int cmp_line(const void *a, const void *b)
{
	return strcmp(sort_sample->stats.lines[*(const size_t *)a].name,
		      sort_sample->stats.lines[*(const size_t *)b].name);
}

static int take_sample(struct watch *w, struct sample *s)
{
	struct tpstat_probes probes;
	size_t i;
	int err;

	memset(s, 0, sizeof(*s));
	clock_gettime(CLOCK_MONOTONIC, &s->t);
	err = tpstat_read_stats(w->set, &s->stats);
	if (err == -ENOENT) {
		tpstat_err("%s is not loaded any more", w->set);
		return -1;
	}
	if (err) {
		struct tpstat_buf rel = { 0 };

		tpstat_buf_printf(&rel, "%s/stats", w->set);
		tpstat_file_error(rel.s, err);
		tpstat_buf_free(&rel);
		return -1;
	}
	if (s->stats.malformed && !w->warned) {
		tpstat_err("%s/stats: %zu line%s not \"name value\", left out",
			   w->set, s->stats.malformed, s->stats.malformed == 1 ? "" : "s");
		w->warned = true;
	}
	/* The probes name the set's tracepoints; without them, no labels. */
	if (tpstat_read_probes(&probes))
		memset(&probes, 0, sizeof(probes));
	s->m = tpstat_alloc((s->stats.nr + 1) * sizeof(*s->m));
	tpstat_describe(&s->stats, &probes, s->m);
	tpstat_free_probes(&probes);
	if (tpstat_merge_duplicates(&s->stats, s->m) && !w->warned_dup) {
		tpstat_err("%s/stats: lines of one name that cannot be added: the first is shown",
			   w->set);
		w->warned_dup = true;
	}
	s->by_name = tpstat_alloc((s->stats.nr + 1) * sizeof(*s->by_name));
	for (i = 0; i < s->stats.nr; i++)
		s->by_name[i] = i;
	sort_sample = s;
	qsort(s->by_name, s->stats.nr, sizeof(*s->by_name), cmp_line);
	return 0;
}

static void free_sample(struct sample *s)
{
	tpstat_free_meanings(s->m, s->stats.nr);
	free(s->m);
	free(s->by_name);
	tpstat_free_stats(&s->stats);
}

/* A line of @s named @name, or NULL. */
static const struct tpstat_line *find_line(const struct sample *s,
					   const char *name)
{
	size_t lo = 0, hi = s->stats.nr;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct tpstat_line *l = &s->stats.lines[s->by_name[mid]];
		int c = strcmp(name, l->name);

		if (!c)
			return l;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/* Counters: what watch shows. The sum of a histogram counts too. */
static bool is_counter(const struct tpstat_meaning *m)
{
	if (m->kind == TPSTAT_HIST)
		return m->part == TPSTAT_HIST_COUNT || m->part == TPSTAT_HIST_SUM;
	return m->kind == TPSTAT_COUNTER || m->kind == TPSTAT_UNTYPED;
}

#define MIN_WIDTH	6

static int column_width(const struct tpstat_meaning *m)
{
	int n = strlen(m->column);

	return n > MIN_WIDTH ? n : MIN_WIDTH;
}

static void format_rate(char *buf, size_t size, const struct rate *r)
{
	if (r->down)
		snprintf(buf, size, "-");
	else if (r->rate == 0)
		snprintf(buf, size, "0");
	else if (r->rate < 99.95)
		snprintf(buf, size, "%.1f", r->rate);
	else
		snprintf(buf, size, "%.0f", r->rate);
}

/*
 * The header, two lines as vmstat's: each group's name centred in dashes
 * over its columns ("--tpstat_test_fire--"), then the columns' names. A
 * group's last column widens if its name needs more room; @widths gets
 * the width of each line's column.
 */
static void layout(const struct sample *s, int *widths, struct tpstat_buf *top,
		   struct tpstat_buf *names)
{
	size_t i, j, end;

	for (i = 0; i < s->stats.nr; i = end) {
		const struct tpstat_meaning *m = &s->m[i];
		int span = 0, glen = strlen(m->group), left, k, cols;

		if (m->keyed || !is_counter(m)) {
			end = i + 1;
			continue;
		}
		cols = 0;
		for (end = i; end < s->stats.nr; end++) {
			const struct tpstat_meaning *e = &s->m[end];

			if (e->keyed || !is_counter(e))
				continue;
			if (strcmp(e->group, m->group))
				break;
			widths[end] = column_width(e);
			span += widths[end] + 1;
			cols++;
		}
		/* Room for the group's name and a dash either side, shared out. */
		if (glen && glen + 2 > span - 1) {
			int more = glen + 2 - (span - 1);

			for (j = i, k = 0; j < end; j++) {
				if (s->m[j].keyed || !is_counter(&s->m[j]))
					continue;
				widths[j] += more / cols + (k++ < more % cols);
			}
			span = glen + 3;
		}
		left = (span - 1 - glen) / 2;
		tpstat_buf_add(top, " ", 1);
		for (k = 0; k < span - 1; k++) {
			char c = glen ? '-' : ' ';

			if (glen && k >= left && k < left + glen)
				c = m->group[k - left];
			tpstat_buf_add(top, &c, 1);
		}
		for (j = i; j < end; j++)
			if (!s->m[j].keyed && is_counter(&s->m[j]))
				tpstat_buf_printf(names, " %*s", widths[j], s->m[j].column);
	}
}

/* The columns' names in one string, to see them change. */
static char *column_key(const struct sample *s)
{
	struct tpstat_buf b = { 0 };
	size_t i;

	tpstat_buf_add(&b, "", 0);
	for (i = 0; i < s->stats.nr; i++)
		if (!s->m[i].keyed && is_counter(&s->m[i]))
			tpstat_buf_printf(&b, "%s\n", s->stats.lines[i].name);
	return b.s;
}

/* A keyed table's row: its key and a rate per column. */
struct row {
	const char *key;
	struct rate *rates;
	double order;
	bool busy;
};

/* A keyed table: the lines of one prefix and set of keys. */
struct table {
	const struct tpstat_meaning *first;
	const char **cols;
	size_t nr_cols;
	struct row *rows;
	size_t nr_rows;
};

static int cmp_row(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->order != y->order)
		return x->order < y->order ? 1 : -1;
	return strcmp(x->key, y->key);
}

/* Puts line @m's rate @r in its row and column of @t. */
static void table_add(struct table *t, const struct tpstat_meaning *m,
		      const struct rate *r)
{
	size_t c, k;

	for (c = 0; c < t->nr_cols && strcmp(t->cols[c], m->column); c++)
		;
	if (c == t->nr_cols) {
		t->cols = tpstat_realloc(t->cols, (c + 1) * sizeof(*t->cols));
		t->cols[t->nr_cols++] = m->column;
		for (k = 0; k < t->nr_rows; k++) {
			t->rows[k].rates = tpstat_realloc(t->rows[k].rates,
							  t->nr_cols * sizeof(*r));
			memset(&t->rows[k].rates[c], 0, sizeof(*r));
		}
	}
	for (k = 0; k < t->nr_rows && strcmp(t->rows[k].key, m->row); k++)
		;
	if (k == t->nr_rows) {
		t->rows = tpstat_realloc(t->rows, (k + 1) * sizeof(*t->rows));
		memset(&t->rows[k], 0, sizeof(t->rows[k]));
		t->rows[k].key = m->row;
		t->rows[k].rates = tpstat_alloc(t->nr_cols * sizeof(*r));
		t->nr_rows++;
	}
	t->rows[k].rates[c] = *r;
	t->rows[k].busy |= r->rate > 0 || r->down;
	/* The first column orders the rows; one that went down comes last. */
	if (!c)
		t->rows[k].order = r->down ? -1 : r->rate;
}

static int col_width(const char *col)
{
	int n = strlen(col);

	return n > 9 ? n : 9;
}

/* The busiest @top rows of @t that moved; returns how many. */
static size_t table_print(struct table *t, unsigned int top)
{
	size_t i, j, busy = 0, shown = 0;
	unsigned int l;
	char buf[32];

	qsort(t->rows, t->nr_rows, sizeof(*t->rows), cmp_row);
	for (i = 0; i < t->nr_rows; i++)
		busy += t->rows[i].busy;
	if (!busy)
		return 0;
	printf("  %s: the busiest %zu of %zu keys\n  ", t->first->table,
	       busy < top ? busy : top, t->nr_rows);
	for (j = 0; j < t->nr_cols; j++)
		printf(" %*s", col_width(t->cols[j]), t->cols[j]);
	printf(" ");
	for (l = 0; l < t->first->nr_labels; l++)
		printf(" %s", t->first->labels[l].name);
	printf("\n");
	for (i = 0; i < t->nr_rows && shown < top; i++) {
		if (!t->rows[i].busy)
			continue;
		printf("  ");
		for (j = 0; j < t->nr_cols; j++) {
			format_rate(buf, sizeof(buf), &t->rows[i].rates[j]);
			printf(" %*s", col_width(t->cols[j]), buf);
		}
		printf("  %s\n", t->rows[i].key);
		shown++;
	}
	return shown;
}

/* Each keyed table of @s, busiest rows first; @r has each line's rate. */
static size_t print_tables(const struct watch *w, const struct sample *s,
			   const struct rate *r)
{
	bool *done = tpstat_alloc(s->stats.nr + 1);
	size_t i, t, printed = 0;

	for (t = 0; t < s->stats.nr; t++) {
		struct table table = { .first = &s->m[t] };

		if (done[t] || !s->m[t].keyed || !is_counter(&s->m[t]))
			continue;
		for (i = t; i < s->stats.nr; i++) {
			if (!s->m[i].keyed || !is_counter(&s->m[i]) ||
			    strcmp(s->m[i].table, s->m[t].table))
				continue;
			done[i] = true;
			table_add(&table, &s->m[i], &r[i]);
		}
		printed += table_print(&table, w->top);
		for (i = 0; i < table.nr_rows; i++)
			free(table.rows[i].rates);
		free(table.rows);
		free(table.cols);
	}
	free(done);
	return printed;
}

/*
 * The time @cur covers, and whether the set was reset in it: then its
 * counters started again from zero that many seconds ago.
 */
static double interval_of(const struct sample *prev, const struct sample *cur,
			  bool *reset)
{
	double mono = (cur->t.tv_sec - prev->t.tv_sec) +
		      (cur->t.tv_nsec - prev->t.tv_nsec) / 1e9;

	*reset = false;
	if (!cur->stats.has_since_reset || !prev->stats.has_since_reset)
		return mono;
	/* Reset after the last sample: less time since it than since that. */
	if (cur->stats.since_reset_ns < mono * 1e9) {
		*reset = true;
		return cur->stats.since_reset_ns / 1e9;
	}
	if (cur->stats.since_reset_ns > prev->stats.since_reset_ns)
		return (cur->stats.since_reset_ns - prev->stats.since_reset_ns) / 1e9;
	return mono;
}

/* One interval: @cur against @prev. */
static void print_interval(struct watch *w, const struct sample *prev,
			   const struct sample *cur)
{
	struct rate *r = tpstat_alloc((cur->stats.nr + 1) * sizeof(*r));
	int *widths = tpstat_alloc((cur->stats.nr + 1) * sizeof(*widths));
	struct tpstat_buf top = { 0 }, names = { 0 }, down_names = { 0 };
	size_t i, down = 0;
	char *columns, buf[32];
	bool reset;
	double dt = interval_of(prev, cur, &reset);

	for (i = 0; i < cur->stats.nr; i++) {
		const struct tpstat_line *l = &cur->stats.lines[i];
		const struct tpstat_line *p = reset ? NULL : find_line(prev, l->name);
		unsigned long long before = p ? p->value : 0;

		if (!is_counter(&cur->m[i]))
			continue;
		if (l->value < before) {
			r[i].down = true;
			if (down++ < 3)
				tpstat_buf_printf(&down_names, "%s%s", down > 1 ? ", " : "",
						  l->name);
		} else if (dt > 0) {
			r[i].rate = (l->value - before) / dt;
		}
	}

	layout(cur, widths, &top, &names);
	columns = column_key(cur);
	if (!w->columns || strcmp(columns, w->columns) || w->lines >= w->height) {
		if (names.s)
			printf("%s\n%s\n", top.s, names.s);
		else
			printf("(%s/stats has no counters)\n", cur->stats.set);
		w->lines = 0;
	}
	free(w->columns);
	w->columns = columns;

	for (i = 0; i < cur->stats.nr; i++) {
		if (cur->m[i].keyed || !is_counter(&cur->m[i]))
			continue;
		format_rate(buf, sizeof(buf), &r[i]);
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
	if (w->top && print_tables(w, cur, r))
		w->lines = w->height;
	fflush(stdout);
	free(widths);
	free(r);
	tpstat_buf_free(&top);
	tpstat_buf_free(&names);
	tpstat_buf_free(&down_names);
}

/* Lines between headers: a screenful on a terminal, as vmstat does. */
static unsigned int screen_height(void)
{
	struct winsize ws;

	if (isatty(STDOUT_FILENO) && !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) &&
	    ws.ws_row > 8)
		return ws.ws_row - 3;
	return 20;
}

static bool parse_number(const char *s, double *value)
{
	char *end;

	errno = 0;
	*value = strtod(s, &end);
	return *s && !*end && !errno && *value == *value;
}

/* Sleeps until @next, or the first multiple of @interval after it not past. */
static void sleep_until(struct timespec *next, double interval)
{
	struct timespec now;
	double behind;
	long long skip;

	next->tv_sec += (time_t)interval;
	next->tv_nsec += (long)((interval - (time_t)interval) * 1e9);
	if (next->tv_nsec >= 1000000000L) {
		next->tv_sec++;
		next->tv_nsec -= 1000000000L;
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	behind = (now.tv_sec - next->tv_sec) + (now.tv_nsec - next->tv_nsec) / 1e9;
	/* A sample that took longer than an interval: the next one on time. */
	if (behind > 0) {
		skip = (long long)(behind / interval) + 1;
		behind = skip * interval;
		next->tv_sec += (time_t)behind;
		next->tv_nsec += (long)((behind - (time_t)behind) * 1e9);
		if (next->tv_nsec >= 1000000000L) {
			next->tv_sec++;
			next->tv_nsec -= 1000000000L;
		}
	}
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, next, NULL) == EINTR)
		;
}

int tpstat_watch(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "interval", required_argument, NULL, 'i' },
		{ "count", required_argument, NULL, 'n' },
		{ "top", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 },
	};
	struct watch w = { .top = 5 };
	double interval = 1, count = 0, top;
	struct sample prev, cur;
	struct timespec next;
	unsigned long long n;
	int c, ret = 0;

	while ((c = tpstat_getopt(argc, argv, tpstat_watch_usage, ":hi:n:t:",
				  longopts)) != -1) {
		switch (c) {
		case 'i':
			if (!parse_number(optarg, &interval) || interval < 0.01 ||
			    interval > 86400)
				return tpstat_usage_error(argv[0],
							  "-i takes seconds from 0.01 to 86400, not '%s'",
							  optarg);
			break;
		case 'n':
			if (!parse_number(optarg, &count) || count < 1 ||
			    count != (unsigned long long)count)
				return tpstat_usage_error(argv[0],
							  "-n takes a count of 1 or more, not '%s'",
							  optarg);
			break;
		case 't':
			if (!parse_number(optarg, &top) || top < 0 || top > 1000000 ||
			    top != (unsigned int)top)
				return tpstat_usage_error(argv[0],
							  "-t takes a number of keys, not '%s'",
							  optarg);
			w.top = top;
			break;
		}
	}
	if (argc - optind != 1)
		return tpstat_usage_error(argv[0], "takes one set");
	w.set = argv[optind];
	if (tpstat_check_root())
		return 1;
	if (!tpstat_set_exists(w.set)) {
		tpstat_err("no set '%s' is loaded (tpstat list names them)", w.set);
		return 1;
	}
	w.height = screen_height();
	if (take_sample(&w, &prev))
		return 1;
	next = prev.t;
	for (n = 0; !count || n < count; n++) {
		sleep_until(&next, interval);
		if (take_sample(&w, &cur)) {
			ret = 1;
			break;
		}
		print_interval(&w, &prev, &cur);
		free_sample(&prev);
		prev = cur;
	}
	free_sample(&prev);
	free(w.columns);
	if (ferror(stdout)) {
		tpstat_err("writing the output failed");
		ret = 1;
	}
	return ret;
}

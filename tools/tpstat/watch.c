// SPDX-License-Identifier: GPL-2.0
/*
 * tpstat watch: a set's counters as rates per second (sample.c), one line
 * per interval under a header repeated as vmstat repeats its own, then the
 * busiest keys of each keyed table, a line each. A reset of the set in the
 * interval is said in a line of its own, and a counter that went down
 * without one shows as "-", never as a negative rate.
 */
#include <fnmatch.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/types.h>
#include <unistd.h>

#include "tpstat.h"

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
	"are named once on stderr.\n"
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

struct watch {
	const char *set;
	/* The command's name, for a usage error found at the first sample. */
	const char *cmd;
	/* -c's names and globs, in the order given; none: the default. */
	char **want;
	size_t nr_want;
	/* The width the default columns fit: the terminal's, else 132. */
	unsigned int width;
	/* The default's left-out columns were said, once. */
	bool said_left_out;
	unsigned int top;
	/* -T: a column of the time of day, as vmstat -t and sar have. */
	bool timestamp;
	/* Lines printed since the header, and the header's height. */
	unsigned int lines, height;
	/* The last header's columns, one string, to see them change. */
	char *columns;
	unsigned int warned;
	/* --json or --csv: a record per interval, for a program. */
	enum { WATCH_TEXT, WATCH_JSON, WATCH_CSV, WATCH_HIST } format;
	/* --hist: the histogram's name, its lines' prefix. */
	const char *hist;
	/* --csv: the header's lines, the columns of every record. */
	char **csv_lines;
	size_t nr_csv;
	/* --heatmap: --hist's histogram as a line of shaded cells. */
	bool heatmap;
	/* The locale's character set is UTF-8: block shades, not ASCII. */
	bool utf8;
	/* The cells of the last header, lowest and highest (-1: none yet). */
	int heat_lo, heat_hi;
	/* The characters of a cell: 2, or 1 when that does not fit. */
	int heat_width;
};

#define MIN_WIDTH	6

static int column_width(const struct tpstat_meaning *m)
{
	int n = strlen(m->column);

	return n > MIN_WIDTH ? n : MIN_WIDTH;
}

/*
 * The header, two lines as vmstat's: each group's name centred in dashes
 * over its columns ("--tpstat_test_fire--"), then the columns' names. A
 * group's last column widens if its name needs more room; @widths gets
 * the width of each of the @nr columns, lines @cols of @s.
 */
static void layout(const struct tpstat_sample *s, const size_t *cols, size_t nr,
		   int *widths, struct tpstat_buf *top, struct tpstat_buf *names)
{
	size_t i, j, end;

	tpstat_buf_add(top, "", 0);
	tpstat_buf_add(names, "", 0);
	for (i = 0; i < nr; i = end) {
		const struct tpstat_meaning *m = &s->m[cols[i]];
		int span = 0, glen = strlen(m->group), left, k, n;

		for (end = i; end < nr && !strcmp(s->m[cols[end]].group, m->group); end++) {
			widths[end] = column_width(&s->m[cols[end]]);
			span += widths[end] + 1;
		}
		n = end - i;
		/* Room for the group's name and a dash either side, shared out. */
		if (glen && glen + 2 > span - 1) {
			int more = glen + 2 - (span - 1);

			for (j = i, k = 0; j < end; j++)
				widths[j] += more / n + (k++ < more % n);
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
			tpstat_buf_printf(names, " %*s", widths[j], s->m[cols[j]].column);
	}
}

/* A line watch can show as a column: not a table's, and with a rate. */
static bool watchable(const struct tpstat_meaning *m)
{
	return !m->keyed && tpstat_has_rate(m);
}

/* A column's name, as -c takes it: its group and name, "runqlat.p99". */
static void column_name(const struct tpstat_meaning *m, struct tpstat_buf *b)
{
	b->len = 0;
	tpstat_buf_printf(b, "%s%s%s", m->group, *m->group ? "." : "", m->column);
}

/* The width of the line of columns @cols, the time's included. */
static size_t line_width(const struct watch *w, const struct tpstat_sample *s,
			 const size_t *cols, size_t nr, int *widths)
{
	struct tpstat_buf top = { 0 }, names = { 0 };
	size_t len;

	layout(s, cols, nr, widths, &top, &names);
	len = names.len + (w->timestamp ? 8 : 0);
	tpstat_buf_free(&top);
	tpstat_buf_free(&names);
	return len;
}

/*
 * -c's columns, in the order its names and globs were given, each once.
 * Returns the number of columns, or -1 after a usage error when a name
 * matches none (said at the first sample only: a line may come and go).
 */
static ssize_t wanted_columns(struct watch *w, const struct tpstat_sample *s,
			      size_t *cols, bool first)
{
	bool *taken = tpstat_alloc(s->stats.nr + 1);
	struct tpstat_buf name = { 0 }, all = { 0 };
	size_t i, p, nr = 0;
	ssize_t ret;

	for (p = 0; p < w->nr_want; p++) {
		bool matched = false;

		for (i = 0; i < s->stats.nr; i++) {
			if (!watchable(&s->m[i]))
				continue;
			column_name(&s->m[i], &name);
			if (fnmatch(w->want[p], name.s, 0))
				continue;
			matched = true;
			if (!taken[i])
				cols[nr++] = i;
			taken[i] = true;
		}
		if (matched || !first)
			continue;
		for (i = 0; i < s->stats.nr; i++) {
			if (!watchable(&s->m[i]))
				continue;
			column_name(&s->m[i], &name);
			tpstat_buf_printf(&all, "%s%s", all.len ? " " : "", name.s);
		}
		tpstat_usage_error(w->cmd, "-c: %s has no column '%s' (its columns: %s)",
				   w->set, w->want[p], all.s ? all.s : "none");
		nr = 0;
		break;
	}
	ret = p < w->nr_want ? -1 : (ssize_t)nr;
	tpstat_buf_free(&name);
	tpstat_buf_free(&all);
	free(taken);
	return ret;
}

/*
 * How much a column is worth to the default: each histogram's count, avg
 * and p99 first, then the set's own counters, then each tracepoint's hits
 * and dropped (list -v has them too).
 */
static int column_rank(const struct tpstat_meaning *m)
{
	unsigned int l;

	if (m->kind == TPSTAT_HIST)
		return 0;
	for (l = 0; l < m->nr_labels; l++)
		if (!strcmp(m->labels[l].name, "tracepoint"))
			return 2;
	return 1;
}

/*
 * The default columns: every one, in the stats file's order, as long as
 * the line fits w->width; else the most worth keeping that fit, by
 * column_rank(), a histogram's three together or not at all. Those left
 * out are named once on stderr.
 */
static size_t default_columns(struct watch *w, const struct tpstat_sample *s,
			      size_t *cols, int *widths)
{
	bool *in = tpstat_alloc(s->stats.nr + 1);
	/* Taken or left out already: a histogram's parts are tried once. */
	bool *tried = tpstat_alloc(s->stats.nr + 1);
	struct tpstat_buf out = { 0 }, name = { 0 };
	size_t i, j, nr, left_out = 0;
	int rank;

	for (rank = 0; rank < 3; rank++) {
		for (i = 0; i < s->stats.nr; i++) {
			const struct tpstat_meaning *m = &s->m[i];

			if (!watchable(m) || tried[i] || column_rank(m) != rank)
				continue;
			/* A histogram's parts, its group, are one. */
			for (j = i; j < s->stats.nr; j++) {
				bool part = watchable(&s->m[j]) && (j == i ||
					    (m->kind == TPSTAT_HIST &&
					     s->m[j].kind == TPSTAT_HIST &&
					     !strcmp(s->m[j].group, m->group)));

				in[j] |= part;
				tried[j] |= part;
			}
			for (j = 0, nr = 0; j < s->stats.nr; j++)
				if (in[j])
					cols[nr++] = j;
			if (line_width(w, s, cols, nr, widths) <= w->width)
				continue;
			for (j = i; j < s->stats.nr; j++) {
				if (!in[j] || (j != i && (m->kind != TPSTAT_HIST ||
							  s->m[j].kind != TPSTAT_HIST ||
							  strcmp(s->m[j].group, m->group))))
					continue;
				in[j] = false;
				column_name(&s->m[j], &name);
				tpstat_buf_printf(&out, "%s%s", left_out++ ? ", " : "",
						  name.s);
			}
		}
	}
	for (j = 0, nr = 0; j < s->stats.nr; j++)
		if (in[j])
			cols[nr++] = j;
	if (left_out && !w->said_left_out) {
		tpstat_err("watch %s: %zu column%s left out to fit %u characters (-c chooses columns): %s",
			   w->set, left_out, left_out == 1 ? "" : "s", w->width, out.s);
		w->said_left_out = true;
	}
	tpstat_buf_free(&out);
	tpstat_buf_free(&name);
	free(tried);
	free(in);
	return nr;
}

/* The columns' names in one string, to see them change. */
static char *column_key(const struct tpstat_sample *s, const size_t *cols, size_t nr)
{
	struct tpstat_buf b = { 0 };
	size_t i;

	tpstat_buf_add(&b, "", 0);
	for (i = 0; i < nr; i++)
		tpstat_buf_printf(&b, "%s\n", s->stats.lines[cols[i]].name);
	return b.s;
}

/* A keyed table's row: its key, a line of it, and a rate per column. */
struct row {
	const char *key;
	const struct tpstat_meaning *m;
	struct tpstat_rate *rates;
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
		      const struct tpstat_rate *r)
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
		t->rows[k].m = m;
		t->rows[k].rates = tpstat_alloc(t->nr_cols * sizeof(*r));
		t->nr_rows++;
	}
	t->rows[k].rates[c] = *r;
	t->rows[k].busy |= r->rate > 0 || r->down;
	/* The first column orders the rows; one that went down comes last. */
	if (!c)
		t->rows[k].order = r->down ? -1 : r->rate;
}

/*
 * The busiest @top rows of @t that moved, on one line that fits @width:
 * "by comm, slices: nginx 900K  postgres 500K (2 of 6)", each row its keys
 * joined by '/' and the rate of the table's first column, which orders
 * them. A key a row lacks (an optional part of its name) is "-"; keys
 * none of the rows shown has are left out. Returns how many rows.
 */
static size_t table_print(struct table *t, unsigned int top, unsigned int width)
{
	bool used[TPSTAT_LABELS_MAX] = { false };
	struct tpstat_buf line = { 0 }, entry = { 0 };
	size_t i, busy = 0, shown = 0;
	unsigned int l;
	char buf[32], tail[64];

	qsort(t->rows, t->nr_rows, sizeof(*t->rows), cmp_row);
	for (i = 0; i < t->nr_rows; i++) {
		if (!t->rows[i].busy)
			continue;
		for (l = 0; busy < top && l < t->rows[i].m->nr_labels; l++)
			used[l] |= !!t->rows[i].m->labels[l].value;
		busy++;
	}
	if (!busy)
		return 0;
	/* "slices by comm, slices:": the table's name, its keys, its column. */
	tpstat_buf_printf(&line, "  %.*s by", (int)strcspn(t->first->table, " "),
			  t->first->table);
	for (l = 0, i = 0; l < t->first->nr_labels; l++)
		if (used[l])
			tpstat_buf_printf(&line, "%s%s", i++ ? "/" : " ",
					  t->first->labels[l].name);
	tpstat_buf_printf(&line, ", %s:", t->cols[0]);
	for (i = 0; i < t->nr_rows && shown < top; i++) {
		const struct tpstat_meaning *m = t->rows[i].m;
		const char *sep = shown ? "  " : " ";

		if (!t->rows[i].busy)
			continue;
		entry.len = 0;
		tpstat_buf_add(&entry, sep, strlen(sep));
		for (l = 0; l < m->nr_labels; l++) {
			if (!used[l])
				continue;
			tpstat_buf_printf(&entry, "%s%s", sep ? "" : "/",
					  m->labels[l].value ? m->labels[l].value : "-");
			sep = NULL;
		}
		tpstat_format_rate(buf, sizeof(buf), &t->rows[i].rates[0]);
		tpstat_buf_printf(&entry, " %s", buf);
		snprintf(tail, sizeof(tail), " (%zu of %zu)", shown + 1, t->nr_rows);
		/* The first row always; the others while the line fits. */
		if (shown && line.len + entry.len + strlen(tail) > width)
			break;
		tpstat_buf_add(&line, entry.s, entry.len);
		shown++;
	}
	printf("%s (%zu of %zu)\n", line.s, shown, t->nr_rows);
	tpstat_buf_free(&line);
	tpstat_buf_free(&entry);
	return shown;
}

/*
 * The table whose first line of @s is line @t, into @table, its lines
 * marked in @done; false if line @t is no table's first.
 */
static bool table_gather(struct table *table, const struct tpstat_sample *s,
			 const struct tpstat_rate *r, size_t t, bool *done)
{
	size_t i;

	if (done[t] || !s->m[t].keyed || !tpstat_has_rate(&s->m[t]))
		return false;
	for (i = t; i < s->stats.nr; i++) {
		if (!s->m[i].keyed || !tpstat_has_rate(&s->m[i]) ||
		    strcmp(s->m[i].table, s->m[t].table))
			continue;
		done[i] = true;
		table_add(table, &s->m[i], &r[i]);
	}
	return true;
}

static void table_free(struct table *table)
{
	size_t i;

	for (i = 0; i < table->nr_rows; i++)
		free(table->rows[i].rates);
	free(table->rows);
	free(table->cols);
}

/* Each keyed table of @s, busiest rows first; @r has each line's rate. */
static size_t print_tables(const struct watch *w, const struct tpstat_sample *s,
			   const struct tpstat_rate *r)
{
	bool *done = tpstat_alloc(s->stats.nr + 1);
	size_t t, printed = 0;

	for (t = 0; t < s->stats.nr; t++) {
		struct table table = { .first = &s->m[t] };

		if (!table_gather(&table, s, r, t, done))
			continue;
		printed += table_print(&table, w->top, w->width);
		table_free(&table);
	}
	free(done);
	return printed;
}

/* The local time a line is printed at, HH:MM:SS. */
static void time_of_day(char *buf, size_t size)
{
	time_t now = time(NULL);
	struct tm tm;

	if (!localtime_r(&now, &tm) || !strftime(buf, size, "%H:%M:%S", &tm))
		snprintf(buf, size, "?");
}

/*
 * A value of a record: the rate per second, a histogram's mean or p99 in
 * its unit (nanoseconds), unscaled; @none for a counter that went down.
 */
static void record_value(char *buf, size_t size, const struct tpstat_rate *r,
			 const char *none)
{
	if (r->down)
		snprintf(buf, size, "%s", none);
	else if (r->p99)
		snprintf(buf, size, "%.0f", r->rate);
	else
		snprintf(buf, size, "%.3f", r->rate);
}

/* A CSV field, quoted when it holds a comma, a quote or a line break. */
static void csv_field(const char *s)
{
	if (!s[strcspn(s, ",\"\r\n")]) {
		fputs(s, stdout);
		return;
	}
	putchar('"');
	for (; *s; s++) {
		if (*s == '"')
			putchar('"');
		putchar(*s);
	}
	putchar('"');
}

/*
 * --json's tables: each keyed table by its name, an array of its -t
 * busiest rows that moved, as the screen's table lines have them, each an
 * object of the row's keys (null for one it lacks) and its columns' values.
 */
static void print_json_tables(const struct watch *w, const struct tpstat_sample *s,
			      const struct tpstat_rate *r)
{
	bool *done = tpstat_alloc(s->stats.nr + 1);
	struct tpstat_buf name = { 0 };
	size_t t, c, k, shown, nr_tables = 0;
	unsigned int l;
	char buf[64];

	for (t = 0; t < s->stats.nr; t++) {
		struct table table = { .first = &s->m[t] };

		if (!table_gather(&table, s, r, t, done))
			continue;
		qsort(table.rows, table.nr_rows, sizeof(*table.rows), cmp_row);
		name.len = 0;
		tpstat_buf_printf(&name, "%.*s", (int)strcspn(table.first->table, " "),
				  table.first->table);
		fputs(nr_tables++ ? ", " : ", \"tables\": {", stdout);
		tpstat_json_string(stdout, name.s);
		fputs(": [", stdout);
		for (k = 0, shown = 0; k < table.nr_rows && shown < w->top; k++) {
			const struct tpstat_meaning *m = table.rows[k].m;

			if (!table.rows[k].busy)
				continue;
			fputs(shown++ ? ", {" : "{", stdout);
			for (l = 0; l < m->nr_labels; l++) {
				fputs(l ? ", " : "", stdout);
				tpstat_json_string(stdout, m->labels[l].name);
				fputs(": ", stdout);
				if (m->labels[l].value)
					tpstat_json_string(stdout, m->labels[l].value);
				else
					fputs("null", stdout);
			}
			for (c = 0; c < table.nr_cols; c++) {
				fputs(l || c ? ", " : "", stdout);
				tpstat_json_string(stdout, table.cols[c]);
				record_value(buf, sizeof(buf), &table.rows[k].rates[c], "null");
				printf(": %s", buf);
			}
			putchar('}');
		}
		putchar(']');
		table_free(&table);
	}
	if (nr_tables)
		putchar('}');
	tpstat_buf_free(&name);
	free(done);
}

/*
 * --json: the interval as one object on a line, as perf stat -j: with -T
 * its "time", then "set", the "seconds" its rates are over, whether the
 * set was "reset" in it, and each column by its -c name; a counter that
 * went down is null.
 */
static void print_json(const struct watch *w, const struct tpstat_sample *s,
		       const struct tpstat_rate *r, const size_t *cols, size_t nr,
		       double dt, bool reset)
{
	struct tpstat_buf name = { 0 };
	char buf[64];
	size_t i;

	putchar('{');
	if (w->timestamp) {
		time_of_day(buf, sizeof(buf));
		printf("\"time\": \"%s\", ", buf);
	}
	fputs("\"set\": ", stdout);
	tpstat_json_string(stdout, w->set);
	printf(", \"seconds\": %.3f, \"reset\": %s", dt, reset ? "true" : "false");
	for (i = 0; i < nr; i++) {
		column_name(&s->m[cols[i]], &name);
		fputs(", ", stdout);
		tpstat_json_string(stdout, name.s);
		record_value(buf, sizeof(buf), &r[cols[i]], "null");
		printf(": %s", buf);
	}
	if (w->top)
		print_json_tables(w, s, r);
	printf("}\n");
	tpstat_buf_free(&name);
}

/*
 * --csv: a header line first, [time,]seconds,reset and the columns by
 * their -c names; then a line per interval. The columns are the first
 * interval's: a line gone from the stats since leaves its field empty, as
 * does a counter that went down.
 */
static void print_csv(struct watch *w, const struct tpstat_sample *s,
		      const struct tpstat_rate *r, const size_t *cols, size_t nr,
		      double dt, bool reset)
{
	const struct tpstat_line *l;
	struct tpstat_buf name = { 0 };
	char buf[64];
	size_t i;

	if (!w->csv_lines) {
		w->csv_lines = tpstat_alloc((nr + 1) * sizeof(*w->csv_lines));
		fputs(w->timestamp ? "time,seconds,reset" : "seconds,reset", stdout);
		for (i = 0; i < nr; i++) {
			w->csv_lines[i] = tpstat_strdup(s->stats.lines[cols[i]].name);
			column_name(&s->m[cols[i]], &name);
			putchar(',');
			csv_field(name.s);
		}
		w->nr_csv = nr;
		putchar('\n');
	}
	if (w->timestamp) {
		time_of_day(buf, sizeof(buf));
		printf("%s,", buf);
	}
	printf("%.3f,%d", dt, reset);
	for (i = 0; i < w->nr_csv; i++) {
		l = tpstat_sample_line(s, w->csv_lines[i]);
		buf[0] = '\0';
		if (l)
			record_value(buf, sizeof(buf), &r[l - s->stats.lines], "");
		printf(",%s", buf);
	}
	putchar('\n');
	tpstat_buf_free(&name);
}

/* The bar of a histogram's bucket, as the kernel's files draw it. */
#define HIST_BAR	40

/* A histogram's row, as core/hist.c prints it in the set's own file. */
static void print_bucket(unsigned long long low, unsigned long long high,
			 unsigned long long n, unsigned long long peak)
{
	int stars = (__uint128_t)n * HIST_BAR / peak;

	printf("%10llu -> %-10llu : %-9llu |%-*.*s|\n", low, high, n, HIST_BAR, stars,
	       "****************************************");
}

/*
 * --hist's histogram in @cur, by its count line, into *@m (NULL when the
 * stats have none now). Returns -1 after a usage error: at the first
 * sample, a set without it.
 */
static int find_hist(const struct watch *w, const struct tpstat_sample *cur,
		     bool first, const struct tpstat_meaning **m)
{
	size_t i, len = strlen(w->hist);
	struct tpstat_buf all = { 0 };

	*m = NULL;
	for (i = 0; i < cur->stats.nr && !*m; i++)
		if (cur->m[i].kind == TPSTAT_HIST && cur->m[i].part == TPSTAT_HIST_COUNT &&
		    cur->m[i].prefix_len == len &&
		    !strncmp(cur->stats.lines[i].name, w->hist, len))
			*m = &cur->m[i];
	if (*m || !first)
		return 0;
	for (i = 0; i < cur->stats.nr; i++)
		if (cur->m[i].kind == TPSTAT_HIST && cur->m[i].part == TPSTAT_HIST_COUNT)
			tpstat_buf_printf(&all, "%s%.*s", all.len ? " " : "",
					  (int)cur->m[i].prefix_len, cur->stats.lines[i].name);
	tpstat_usage_error(w->cmd, "--hist: %s has no histogram '%s' (its histograms: %s)",
			   w->set, w->hist, all.s ? all.s : "none");
	tpstat_buf_free(&all);
	return -1;
}

/*
 * --hist: the interval's histogram, from its buckets' growth, as BCC's
 * runqlat 1 prints one per interval: a line saying how many events in how
 * long, then the power-of-two buckets from the first that grew to the
 * last, each with its count and a bar of stars. Returns -1 after a usage
 * error: the set has no such histogram.
 */
static int print_hist(struct watch *w, const struct tpstat_sample *prev,
		      const struct tpstat_sample *cur, double dt, bool reset,
		      bool first)
{
	size_t k, nr, len = strlen(w->hist), from = 0, to = 0;
	unsigned long long total = 0, peak = 0, low;
	const struct tpstat_meaning *m;
	struct tpstat_bucket *b;
	char now[16];
	bool down;

	if (find_hist(w, cur, first, &m))
		return -1;
	printf("\n");
	if (w->timestamp) {
		time_of_day(now, sizeof(now));
		printf("%s ", now);
	}
	if (!m) {
		printf("%s: not in %s/stats now\n", w->hist, w->set);
		return 0;
	}
	nr = tpstat_bucket_deltas(prev, cur, w->hist, len, reset, &b, &down);
	for (k = 0; k < nr; k++) {
		if (b[k].delta && !total)
			from = k;
		if (b[k].delta)
			to = k;
		total += b[k].delta;
		if (b[k].delta > peak)
			peak = b[k].delta;
	}
	if (down) {
		printf("%s: a bucket went down without a reset: no histogram for this interval\n",
		       w->hist);
		free(b);
		return 0;
	}
	printf("%s: %llu event%s in %.3f s%s\n", w->hist, total, total == 1 ? "" : "s",
	       dt, reset ? ", since a reset of the set" : "");
	if (total)
		printf("%24s : %-9s distribution\n",
		       m->unit == TPSTAT_UNIT_NS ? "nsecs" : "value", "count");
	for (k = from; total && k <= to; k++) {
		print_bucket(b[k].low, b[k].high, b[k].delta, peak);
		/* The empty power-of-two buckets up to the next, as the file has them. */
		for (low = b[k].high + 1; k < to && low && low < b[k + 1].low;
		     low = 2 * low)
			print_bucket(low, 2 * low - 1 < b[k + 1].low ? 2 * low - 1 :
				     b[k + 1].low - 1, 0, peak);
	}
	free(b);
	return 0;
}

/* A cell of the heat map: the power-of-two bucket @v falls in, 0 for 0. */
static int heat_cell(unsigned long long v)
{
	int k = 0;

	for (; v; v >>= 1)
		k++;
	return k;
}

/* The shades of a cell, from none to the busiest's, as UTF-8 or ASCII. */
static const char * const heat_utf8[] = {
	" ", "\u2591", "\u2592", "\u2593", "\u2588",
};

static const char * const heat_ascii[] = { " ", ".", ":", "*", "#" };
#define HEAT_SHADES	4

/*
 * A value of the heat map's header, in the histogram's unit: a bucket's
 * low bound (1.02us) or the interval's events per second, scaled.
 */
static void heat_format(char *buf, size_t size, double v, bool bound,
			enum tpstat_unit unit)
{
	struct tpstat_rate r = { .rate = v, .p99 = bound, .unit = unit };

	tpstat_format_rate(buf, size, &r);
}

/*
 * The heat map's header: each labelled cell's low bound over it, as many
 * as fit a label's width apart, after the count's column.
 */
/* The low bound of cell @k. */
static unsigned long long heat_low(int k)
{
	return k ? 1ULL << (k - 1) : 0;
}

static void heat_header(struct watch *w, enum tpstat_unit unit)
{
	int n = w->heat_hi - w->heat_lo + 1, every, i, at = 0, len, longest = 0;
	struct tpstat_buf line = { 0 };
	char buf[32];

	for (i = 0; i < n; i++) {
		heat_format(buf, sizeof(buf), heat_low(w->heat_lo + i), true, unit);
		len = strlen(buf);
		if (len > longest)
			longest = len;
	}
	every = (longest + w->heat_width) / w->heat_width;
	tpstat_buf_printf(&line, "%s%6s  ", w->timestamp ? "    time " : "", "count");
	for (i = 0; i < n; i += every) {
		heat_format(buf, sizeof(buf), heat_low(w->heat_lo + i), true, unit);
		len = strlen(buf);
		/* Within the cells and their closing bar. */
		if (i * w->heat_width + len > n * w->heat_width + 1)
			break;
		tpstat_buf_printf(&line, "%*s%s", i * w->heat_width - at, "", buf);
		at = i * w->heat_width + len;
	}
	printf("%s\n", line.s);
	tpstat_buf_free(&line);
	w->lines = 0;
}

/*
 * --hist NAME --heatmap: the interval's histogram as one line of cells,
 * a power-of-two bucket each from the lowest the histogram has had to the
 * highest, each shaded by its growth in the interval against the busiest
 * bucket's, after the interval's events per second; a header of the
 * buckets' low bounds over them, again every screenful and when a bucket
 * beyond them appears. UTF-8 block shades, else ASCII ones.
 */
static int print_heat(struct watch *w, const struct tpstat_sample *prev,
		      const struct tpstat_sample *cur, double dt, bool reset,
		      bool first)
{
	const char * const *shade = w->utf8 ? heat_utf8 : heat_ascii;
	unsigned long long total = 0, peak = 0, *cells;
	int n, lo, hi, k, c, level, prefix;
	const struct tpstat_meaning *m;
	struct tpstat_bucket *b;
	char buf[32];
	size_t i, nr;
	bool down;

	if (find_hist(w, cur, first, &m))
		return -1;
	if (!m) {
		printf("# %s: not in %s/stats now\n", w->hist, w->set);
		return 0;
	}
	nr = tpstat_bucket_deltas(prev, cur, w->hist, strlen(w->hist), reset, &b, &down);
	lo = w->heat_lo;
	hi = w->heat_hi;
	for (i = 0; i < nr; i++) {
		if (lo < 0 || heat_cell(b[i].low) < lo)
			lo = heat_cell(b[i].low);
		if (heat_cell(b[i].low) > hi)
			hi = heat_cell(b[i].low);
	}
	if (first) {
		printf("%s, a cell per bucket by its growth against the busiest's:\n",
		       w->hist);
		printf("  %s to 1/4  %s to 1/2  %s to 3/4  %s more\n", shade[1],
		       shade[2], shade[3], shade[4]);
	}
	n = lo < 0 ? 0 : hi - lo + 1;
	cells = tpstat_alloc((n + 1) * sizeof(*cells));
	for (i = 0; i < nr; i++) {
		cells[heat_cell(b[i].low) - lo] += b[i].delta;
		total += b[i].delta;
	}
	for (k = 0; k < n; k++)
		if (cells[k] > peak)
			peak = cells[k];
	if (n && (lo != w->heat_lo || hi != w->heat_hi || w->lines >= w->height)) {
		w->heat_lo = lo;
		w->heat_hi = hi;
		prefix = (w->timestamp ? 9 : 0) + 8;
		w->heat_width = (unsigned int)(prefix + 2 * n + 1) <= w->width ? 2 : 1;
		heat_header(w, m->unit);
	}
	if (w->timestamp) {
		time_of_day(buf, sizeof(buf));
		printf("%8s ", buf);
	}
	if (down)
		snprintf(buf, sizeof(buf), "-");
	else
		heat_format(buf, sizeof(buf), dt > 0 ? total / dt : 0, false, m->unit);
	printf("%6s |", buf);
	for (k = 0; k < n; k++) {
		/* The share of the busiest, rounded up: any growth shows. */
		level = down || !cells[k] ? 0 :
			(int)(((__uint128_t)cells[k] * HEAT_SHADES + peak - 1) / peak);
		for (c = 0; c < w->heat_width; c++)
			fputs(shade[level], stdout);
	}
	printf("|\n");
	w->lines++;
	if (reset)
		printf("# %s was reset %.3f s before this line: this row is over that time\n",
		       w->set, dt);
	if (down)
		printf("# a bucket of %s went down without a reset: %s\n", w->hist,
		       "nothing to draw for this interval");
	free(cells);
	free(b);
	return 0;
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
		nr = print_heat(w, prev, cur, dt, reset, first);
		goto out;
	}
	if (w->format == WATCH_HIST) {
		nr = print_hist(w, prev, cur, dt, reset, first);
		goto out;
	}
	if (w->nr_want)
		nr = wanted_columns(w, cur, cols, first);
	else
		nr = default_columns(w, cur, cols, widths);
	if (nr < 0)
		goto out;
	if (w->format == WATCH_JSON) {
		print_json(w, cur, r, cols, nr, dt, reset);
		goto out;
	}
	if (w->format == WATCH_CSV) {
		print_csv(w, cur, r, cols, nr, dt, reset);
		goto out;
	}
	layout(cur, cols, nr, widths, &top, &names);
	/* The columns of no group leave blanks at the end of the first line. */
	while (top.len && top.s[top.len - 1] == ' ')
		top.s[--top.len] = '\0';
	columns = column_key(cur, cols, nr);
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
		time_of_day(buf, sizeof(buf));
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
	if (w->top && print_tables(w, cur, r))
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

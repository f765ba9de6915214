// SPDX-License-Identifier: GPL-2.0
/*
 * tpstat watch --json and --csv: a record per interval for a program,
 * the values unscaled.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "watch.h"

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

		if (!watch_table_gather(&table, s, r, t, done))
			continue;
		qsort(table.rows, table.nr_rows, sizeof(*table.rows), watch_cmp_row);
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
		watch_table_free(&table);
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
void watch_print_json(const struct watch *w, const struct tpstat_sample *s,
		      const struct tpstat_rate *r, const size_t *cols, size_t nr,
		      double dt, bool reset)
{
	struct tpstat_buf name = { 0 };
	char buf[64];
	size_t i;

	putchar('{');
	if (w->timestamp) {
		watch_time_of_day(buf, sizeof(buf));
		printf("\"time\": \"%s\", ", buf);
	}
	fputs("\"set\": ", stdout);
	tpstat_json_string(stdout, w->set);
	printf(", \"seconds\": %.3f, \"reset\": %s", dt, reset ? "true" : "false");
	for (i = 0; i < nr; i++) {
		watch_column_name(&s->m[cols[i]], &name);
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
void watch_print_csv(struct watch *w, const struct tpstat_sample *s,
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
			watch_column_name(&s->m[cols[i]], &name);
			putchar(',');
			csv_field(name.s);
		}
		w->nr_csv = nr;
		putchar('\n');
	}
	if (w->timestamp) {
		watch_time_of_day(buf, sizeof(buf));
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

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tpstat watch's parts, shared by its files: the state of one watch
 * (watch.c reads the options and samples), its columns (watch_columns.c),
 * its keyed tables (watch_tables.c), its records for a program
 * (watch_records.c), and --hist's histogram, as stars (watch_hist.c) or a
 * heat map (watch_heat.c).
 */
#ifndef TPSTAT_WATCH_H
#define TPSTAT_WATCH_H

#include <sys/types.h>

#include "tpstat.h"

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

/* watch.c */
void watch_time_of_day(char *buf, size_t size);

/* watch_columns.c */
void watch_layout(const struct tpstat_sample *s, const size_t *cols, size_t nr,
		  int *widths, struct tpstat_buf *top, struct tpstat_buf *names);
void watch_column_name(const struct tpstat_meaning *m, struct tpstat_buf *b);
ssize_t watch_wanted_columns(struct watch *w, const struct tpstat_sample *s,
			     size_t *cols, bool first);
size_t watch_default_columns(struct watch *w, const struct tpstat_sample *s,
			     size_t *cols, int *widths);
char *watch_column_key(const struct tpstat_sample *s, const size_t *cols, size_t nr);

/* watch_tables.c */
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

int watch_cmp_row(const void *a, const void *b);
bool watch_table_gather(struct table *table, const struct tpstat_sample *s,
			const struct tpstat_rate *r, size_t t, bool *done);
void watch_table_free(struct table *table);
size_t watch_print_tables(const struct watch *w, const struct tpstat_sample *s,
			  const struct tpstat_rate *r);

/* watch_records.c */
void watch_print_json(const struct watch *w, const struct tpstat_sample *s,
		      const struct tpstat_rate *r, const size_t *cols, size_t nr,
		      double dt, bool reset);
void watch_print_csv(struct watch *w, const struct tpstat_sample *s,
		     const struct tpstat_rate *r, const size_t *cols, size_t nr,
		     double dt, bool reset);

/* watch_hist.c */
int watch_find_hist(const struct watch *w, const struct tpstat_sample *cur,
		    bool first, const struct tpstat_meaning **m);
int watch_print_hist(struct watch *w, const struct tpstat_sample *prev,
		     const struct tpstat_sample *cur, double dt, bool reset,
		     bool first);

/* watch_heat.c */
int watch_print_heat(struct watch *w, const struct tpstat_sample *prev,
		     const struct tpstat_sample *cur, double dt, bool reset,
		     bool first);

#endif

// SPDX-License-Identifier: GPL-2.0
/*
 * tpstat watch --hist NAME --heatmap: a histogram per interval as one line
 * of shaded cells, a power-of-two bucket each.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "watch.h"

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

/* The low bound of cell @k. */
static unsigned long long heat_low(int k)
{
	return k ? 1ULL << (k - 1) : 0;
}

/*
 * The heat map's header: each labelled cell's low bound over it, as many
 * as fit a label's width apart, after the count's column.
 */
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
int watch_print_heat(struct watch *w, const struct tpstat_sample *prev,
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

	if (watch_find_hist(w, cur, first, &m))
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
		watch_time_of_day(buf, sizeof(buf));
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

// SPDX-License-Identifier: GPL-2.0
/*
 * tpstat watch --hist: a histogram per interval from its buckets'
 * growth, as BCC's runqlat 1 prints one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "watch.h"

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
int watch_find_hist(const struct watch *w, const struct tpstat_sample *cur,
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
int watch_print_hist(struct watch *w, const struct tpstat_sample *prev,
		     const struct tpstat_sample *cur, double dt, bool reset,
		     bool first)
{
	size_t k, nr, len = strlen(w->hist), from = 0, to = 0;
	unsigned long long total = 0, peak = 0, low;
	const struct tpstat_meaning *m;
	struct tpstat_bucket *b;
	char now[16];
	bool down;

	if (watch_find_hist(w, cur, first, &m))
		return -1;
	printf("\n");
	if (w->timestamp) {
		watch_time_of_day(now, sizeof(now));
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

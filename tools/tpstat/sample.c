// SPDX-License-Identifier: GPL-2.0
/*
 * A set's counters at two moments, and how fast each went between them:
 * what watch prints, and what a command counting over intervals needs.
 *
 * The time between two samples is the kernel's: the difference of the
 * stats' since_reset_ns, taken where the counters are folded. A set reset
 * in between shows as since_reset_ns shorter than the time since the last
 * sample; its counters restarted from zero then, so the rates are over the
 * time since the reset. A counter that went down without a reset (a
 * tracepoint counted again, a row given to a new key) has no rate.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tpstat.h"

static const struct tpstat_sample *sort_sample;

static int cmp_line(const void *a, const void *b)
{
	return strcmp(sort_sample->stats.lines[*(const size_t *)a].name,
		      sort_sample->stats.lines[*(const size_t *)b].name);
}

int tpstat_sample(const char *set, struct tpstat_sample *s, unsigned int *warned)
{
	struct tpstat_metrics metrics;
	struct tpstat_probes probes;
	size_t i;
	int err;

	memset(s, 0, sizeof(*s));
	clock_gettime(CLOCK_MONOTONIC, &s->t);
	err = tpstat_read_stats(set, &s->stats);
	if (err == -ENOENT) {
		tpstat_err("%s is not loaded any more", set);
		return -1;
	}
	if (err) {
		struct tpstat_buf rel = { 0 };

		tpstat_buf_printf(&rel, "%s/stats", set);
		tpstat_file_error(rel.s, err);
		tpstat_buf_free(&rel);
		return -1;
	}
	if (s->stats.malformed && !(*warned & TPSTAT_WARNED_MALFORMED)) {
		tpstat_err("%s/stats: %zu line%s not \"name value\", left out",
			   set, s->stats.malformed, s->stats.malformed == 1 ? "" : "s");
		*warned |= TPSTAT_WARNED_MALFORMED;
	}
	/* The probes name the set's tracepoints; without them, no labels. */
	if (tpstat_read_probes(&probes))
		memset(&probes, 0, sizeof(probes));
	err = tpstat_read_metrics(set, &metrics);
	if (err && !(*warned & TPSTAT_WARNED_UNTYPED)) {
		tpstat_say_untyped(set, err);
		*warned |= TPSTAT_WARNED_UNTYPED;
	}
	s->m = tpstat_alloc((s->stats.nr + 1) * sizeof(*s->m));
	tpstat_describe(&s->stats, &probes, &metrics, s->m);
	tpstat_free_metrics(&metrics);
	tpstat_free_probes(&probes);
	if (tpstat_merge_duplicates(&s->stats, s->m) &&
	    !(*warned & TPSTAT_WARNED_DUPLICATE)) {
		tpstat_err("%s/stats: lines of one name that cannot be added: the first is shown",
			   set);
		*warned |= TPSTAT_WARNED_DUPLICATE;
	}
	s->by_name = tpstat_alloc((s->stats.nr + 1) * sizeof(*s->by_name));
	for (i = 0; i < s->stats.nr; i++)
		s->by_name[i] = i;
	sort_sample = s;
	qsort(s->by_name, s->stats.nr, sizeof(*s->by_name), cmp_line);
	return 0;
}

void tpstat_free_sample(struct tpstat_sample *s)
{
	tpstat_free_meanings(s->m, s->stats.nr);
	free(s->m);
	free(s->by_name);
	tpstat_free_stats(&s->stats);
}

const struct tpstat_line *tpstat_sample_line(const struct tpstat_sample *s,
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

/* The time @cur covers, and whether the set was reset in it. */
static double interval_of(const struct tpstat_sample *prev,
			  const struct tpstat_sample *cur, bool *reset)
{
	double mono = tpstat_seconds(&prev->t, &cur->t);

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

/*
 * A histogram's sum per second says little ("a second of waiting per
 * second"): its rate becomes the interval's mean, the sum's rate over the
 * count's, both over the same time.
 */
static void means(const struct tpstat_sample *cur, struct tpstat_rate *r)
{
	struct tpstat_buf name = { 0 };
	const struct tpstat_line *line;
	const struct tpstat_rate *count;
	size_t i;

	for (i = 0; i < cur->stats.nr; i++) {
		const struct tpstat_meaning *m = &cur->m[i];

		if (m->kind != TPSTAT_HIST || m->part != TPSTAT_HIST_SUM)
			continue;
		name.len = 0;
		tpstat_buf_printf(&name, "%.*s.count", (int)m->prefix_len,
				  cur->stats.lines[i].name);
		line = tpstat_sample_line(cur, name.s);
		r[i].mean = true;
		r[i].unit = m->unit;
		if (!line)
			continue;
		count = &r[line - cur->stats.lines];
		r[i].down |= count->down;
		r[i].rate = count->rate > 0 ? r[i].rate / count->rate : 0;
	}
	tpstat_buf_free(&name);
}

static int cmp_bucket(const void *a, const void *b)
{
	const struct tpstat_bucket *x = a, *y = b;

	return (x->low > y->low) - (x->low < y->low);
}

/* The first line of @s whose name is @key or sorts after it. */
static size_t lower_bound(const struct tpstat_sample *s, const char *key)
{
	size_t lo = 0, hi = s->stats.nr;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (strcmp(s->stats.lines[s->by_name[mid]].name, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t tpstat_bucket_deltas(const struct tpstat_sample *prev,
			    const struct tpstat_sample *cur, const char *prefix,
			    size_t prefix_len, bool reset, struct tpstat_bucket **b,
			    bool *down)
{
	struct tpstat_buf key = { 0 };
	size_t k, nr = 0;

	*b = NULL;
	*down = false;
	tpstat_buf_printf(&key, "%.*s.bucket_", (int)prefix_len, prefix);
	for (k = lower_bound(cur, key.s); k < cur->stats.nr; k++) {
		size_t l = cur->by_name[k];
		const struct tpstat_line *line = &cur->stats.lines[l];
		const struct tpstat_line *p;
		unsigned long long before;

		if (strncmp(line->name, key.s, key.len))
			break;
		if (cur->m[l].kind != TPSTAT_HIST ||
		    cur->m[l].part != TPSTAT_HIST_BUCKET ||
		    cur->m[l].prefix_len != prefix_len)
			continue;
		p = reset ? NULL : tpstat_sample_line(prev, line->name);
		before = p ? p->value : 0;
		if (line->value < before)
			*down = true;
		*b = tpstat_realloc(*b, (nr + 1) * sizeof(**b));
		(*b)[nr].low = cur->m[l].bucket_low;
		(*b)[nr].high = cur->m[l].bucket_high;
		(*b)[nr++].delta = line->value < before ? 0 : line->value - before;
	}
	/* A bucket gone from the file without a reset went down too. */
	for (k = reset ? prev->stats.nr : lower_bound(prev, key.s);
	     k < prev->stats.nr; k++) {
		const char *name = prev->stats.lines[prev->by_name[k]].name;

		if (strncmp(name, key.s, key.len))
			break;
		if (!tpstat_sample_line(cur, name))
			*down = true;
	}
	tpstat_buf_free(&key);
	if (nr)
		qsort(*b, nr, sizeof(**b), cmp_bucket);
	return nr;
}

/*
 * The interval's 99th percentile of the histogram whose p99 line is @i:
 * the upper bound of the bucket its 99th event in a hundred fell in,
 * counted from each bucket's growth since @prev (from zero after a reset),
 * as a log2 histogram's bucket says no more than "low -> high". A bucket
 * that went down makes it unknown.
 */
static void interval_p99(const struct tpstat_sample *prev,
			 const struct tpstat_sample *cur, size_t i, bool reset,
			 struct tpstat_rate *r)
{
	const struct tpstat_meaning *m = &cur->m[i];
	unsigned long long total = 0, target, below = 0;
	struct tpstat_bucket *b;
	size_t k, nr;

	r->p99 = true;
	r->unit = m->unit;
	nr = tpstat_bucket_deltas(prev, cur, cur->stats.lines[i].name,
				  m->prefix_len, reset, &b, &r->down);
	for (k = 0; k < nr; k++)
		total += b[k].delta;
	/* The 99th of 100 events: ceil(total * 0.99), and at least one. */
	target = total / 100 * 99 + ((total % 100) * 99 + 99) / 100;
	for (k = 0; total && k < nr; k++) {
		below += b[k].delta;
		if (below >= target) {
			r->rate = b[k].high;
			break;
		}
	}
	free(b);
}

bool tpstat_has_rate(const struct tpstat_meaning *m)
{
	return tpstat_is_counter(m) ||
	       (m->kind == TPSTAT_HIST && m->part == TPSTAT_HIST_P99);
}

size_t tpstat_rates(const struct tpstat_sample *prev,
		    const struct tpstat_sample *cur, struct tpstat_rate *r,
		    double *dt, bool *reset, struct tpstat_buf *down_names)
{
	size_t i, down = 0;

	*dt = interval_of(prev, cur, reset);
	for (i = 0; i < cur->stats.nr; i++) {
		const struct tpstat_line *l = &cur->stats.lines[i];
		const struct tpstat_line *p = *reset ? NULL : tpstat_sample_line(prev, l->name);
		/* A line new since the last sample counted from zero. */
		unsigned long long before = p ? p->value : 0;

		memset(&r[i], 0, sizeof(r[i]));
		if (!tpstat_is_counter(&cur->m[i]))
			continue;
		if (l->value < before) {
			r[i].down = true;
			if (down++ < 3)
				tpstat_buf_printf(down_names, "%s%s", down > 1 ? ", " : "",
						  l->name);
		} else if (*dt > 0) {
			r[i].rate = (l->value - before) / *dt;
		}
	}
	means(cur, r);
	for (i = 0; i < cur->stats.nr; i++)
		if (cur->m[i].kind == TPSTAT_HIST && cur->m[i].part == TPSTAT_HIST_P99)
			interval_p99(prev, cur, i, *reset, &r[i]);
	return down;
}

double tpstat_seconds(const struct timespec *from, const struct timespec *to)
{
	return (to->tv_sec - from->tv_sec) + (to->tv_nsec - from->tv_nsec) / 1e9;
}

/*
 * @v in at most five characters: whole below 100000, else three digits and
 * a power of a thousand (14.9M for 14,880,000), as vmstat -w and top do.
 */
static void format_scaled(char *buf, size_t size, double v)
{
	static const char powers[] = "KMGTPE";
	size_t p = 0;

	if (v < 99999.5) {
		snprintf(buf, size, "%.0f", v);
		return;
	}
	v /= 1000;
	while (v >= 999.5 && p + 1 < sizeof(powers) - 1) {
		v /= 1000;
		p++;
	}
	snprintf(buf, size, v < 9.995 ? "%.2f%c" : v < 99.95 ? "%.1f%c" : "%.0f%c",
		 v, powers[p]);
}

/* A mean time in the unit that reads best: 850ns, 12.5us, 3.20ms, 1.50s. */
static void format_ns(char *buf, size_t size, double ns)
{
	static const char * const units[] = { "ns", "us", "ms", "s" };
	size_t u = 0;

	while (ns >= 999.5 && u + 1 < ARRAY_SIZE(units)) {
		ns /= 1000;
		u++;
	}
	snprintf(buf, size, !u || ns >= 99.95 ? "%.0f%s" : ns >= 9.995 ?
		 "%.1f%s" : "%.2f%s", ns, units[u]);
}

void tpstat_format_rate(char *buf, size_t size, const struct tpstat_rate *r)
{
	if (r->down)
		snprintf(buf, size, "-");
	else if (r->rate == 0)
		snprintf(buf, size, "0");
	else if ((r->mean || r->p99) && r->unit == TPSTAT_UNIT_NS)
		format_ns(buf, size, r->rate);
	else if (r->p99)
		format_scaled(buf, size, r->rate);
	else if (r->rate < 99.95)
		snprintf(buf, size, "%.1f", r->rate);
	else
		format_scaled(buf, size, r->rate);
}

int tpstat_parse_interval(const char *cmd, const char *s, double *interval)
{
	if (tpstat_parse_number(s, interval) && *interval >= 0.01 &&
	    *interval <= 86400)
		return 0;
	return tpstat_usage_error(cmd, "-i takes seconds from 0.01 to 86400, not '%s'",
				  s);
}

void tpstat_sleep_until(struct timespec *next, double interval)
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
	behind = tpstat_seconds(next, &now);
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

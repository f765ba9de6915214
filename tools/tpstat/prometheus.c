// SPDX-License-Identifier: GPL-2.0
/*
 * Every set's stats in Prometheus' text format: a metric family per kind
 * of line (describe.c), tpstat_<set>_<metric>, with the keys of a line's name
 * as labels. Counters end in _total; histograms get cumulative buckets,
 * _sum and _count, and their min, max and percentiles, which a Prometheus
 * histogram cannot hold, come as gauges of their own, named for what they
 * are: since the set's last reset, not over a dashboard's window
 * (_min_since_reset, _max_since_reset, _p50_since_reset, ...). A
 * histogram's le bounds are all the log2 buckets its declaration names,
 * on every scrape, whatever was seen: counts below the first bound are in
 * it, as buckets are cumulative, those above the last in +Inf alone.
 * Nanoseconds are written as seconds and basis points as a ratio from 0
 * to 1, exactly, the units Prometheus names want. Unless the export's
 * flags keep them, what would multiply a fleet's series or renew their
 * identity is left out (tpstat.8, "What the export leaves out"): call
 * sites' offsets, zero counters keyed by a CPU, histograms by CPU (summed),
 * pid, tgid and rank labels (summed; a gauge of such a label left out).
 * Each family's lines are written together, its HELP and TYPE first, as
 * the format requires.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tpstat.h"

struct bucket {
	unsigned long long low, high, n;
};

struct series {
	/* Its labels, as they go between braces: a="x",b="y". */
	char *labels;
	/* A histogram's lines are gathered by the prefix they share. */
	char *prefix;
	unsigned long long value;
	unsigned long long hist[TPSTAT_HIST_P99 + 1];
	struct bucket *buckets;
	size_t nr_buckets;
	/* Keyed by a CPU: a counter left out at 0 but with TPSTAT_EXPORT_ZEROS. */
	bool by_cpu;
	/* A histogram that lost a label: summed with those of its labels. */
	bool folded;
	/* A second line that gives the same series is left out. */
	bool duplicate;
};

struct family {
	char *name;
	char *help;
	enum tpstat_kind kind;
	enum tpstat_unit unit;
	/* A histogram's log2 buckets, its le bounds. */
	unsigned int first_bucket, last_bucket;
	struct series *series;
	size_t nr;
};

struct exposition {
	struct family *f;
	size_t nr;
	/* TPSTAT_EXPORT_*: what the defaults leave out, put back. */
	unsigned int flags;
};

static const char *const tpstat_types[] = {
	[TPSTAT_COUNTER] = "counter",
	[TPSTAT_GAUGE] = "gauge",
	[TPSTAT_HIST] = "histogram",
	[TPSTAT_UNTYPED] = "untyped",
};

#define VALUE_MAX	32

/*
 * @value in its unit, exactly: nanoseconds as decimal seconds, basis
 * points as a ratio (1250 is 0.125).
 */
static const char *format_value(char *buf, unsigned long long value,
				enum tpstat_unit unit)
{
	unsigned long long scale = unit == TPSTAT_UNIT_NS ? 1000000000ULL : 10000;
	int digits = unit == TPSTAT_UNIT_NS ? 9 : 4;
	size_t len;

	if (unit != TPSTAT_UNIT_NS && unit != TPSTAT_UNIT_BP) {
		snprintf(buf, VALUE_MAX, "%llu", value);
		return buf;
	}
	snprintf(buf, VALUE_MAX, "%llu.%0*llu", value / scale, digits,
		 value % scale);
	/* 1.5, not 1.500000000; 2, not 2.000000000. */
	len = strlen(buf);
	while (buf[len - 1] == '0')
		len--;
	if (buf[len - 1] == '.')
		len--;
	buf[len] = '\0';
	return buf;
}

static struct family *find_family(struct exposition *e, const char *name)
{
	size_t i;

	for (i = e->nr; i-- > 0;)
		if (!strcmp(e->f[i].name, name))
			return &e->f[i];
	return NULL;
}

static struct series *add_series(struct family *fam, const char *labels)
{
	struct series *s;

	fam->series = tpstat_realloc(fam->series, (fam->nr + 1) * sizeof(*s));
	s = &fam->series[fam->nr++];
	memset(s, 0, sizeof(*s));
	s->labels = tpstat_strdup(labels);
	return s;
}

/*
 * The family of a line, made on its first line; NULL on a conflict. A set
 * inside another has the outermost one's families.
 */
static struct family *family_of(struct exposition *e, const char *set,
				const char *stat, const struct tpstat_meaning *m)
{
	struct tpstat_buf name = { 0 }, help = { 0 };
	size_t top_len = strlen(set);
	struct family *fam;

	tpstat_nested_label(set, &top_len);
	tpstat_buf_add(&name, "tpstat_", 7);
	tpstat_sanitize(&name, set, top_len);
	tpstat_buf_printf(&name, "_%s%s", m->metric,
			  m->kind == TPSTAT_COUNTER ? "_total" : "");
	fam = find_family(e, name.s);
	if (fam) {
		tpstat_buf_free(&name);
		if (fam->kind == m->kind && fam->unit == m->unit &&
		    (m->kind != TPSTAT_HIST ||
		     (fam->first_bucket == m->first_bucket &&
		      fam->last_bucket == m->last_bucket)))
			return fam;
		tpstat_err("%s/stats: %s would be %s, already a %s%s: left out",
			   set, stat, fam->name, tpstat_types[fam->kind],
			   fam->kind == m->kind ? " of other buckets or unit" : "");
		return NULL;
	}
	e->f = tpstat_realloc(e->f, (e->nr + 1) * sizeof(*e->f));
	fam = &e->f[e->nr++];
	memset(fam, 0, sizeof(*fam));
	fam->name = name.s;
	fam->kind = m->kind;
	fam->unit = m->unit;
	fam->first_bucket = m->first_bucket;
	fam->last_bucket = m->last_bucket;
	if (m->help)
		tpstat_buf_printf(&help, "%s", m->help);
	else if (m->kind == TPSTAT_HIST)
		tpstat_buf_printf(&help, "%s/stats histogram %.*s", set,
				  (int)m->prefix_len, stat);
	else
		tpstat_buf_printf(&help, "%s/stats line %s", set, stat);
	if (m->unit == TPSTAT_UNIT_NS)
		tpstat_buf_printf(&help, ", in seconds");
	else if (m->unit == TPSTAT_UNIT_BYTES)
		tpstat_buf_printf(&help, ", in bytes");
	else if (m->unit == TPSTAT_UNIT_BP)
		tpstat_buf_printf(&help, ", from 0 to 1");
	fam->help = help.s;
	return fam;
}

void tpstat_prometheus_label(struct tpstat_buf *b, const char *name,
			     const char *value)
{
	tpstat_buf_printf(b, "%s%s=\"", b->len ? "," : "", name);
	tpstat_escape(b, value, TPSTAT_ESCAPE_LABEL);
	tpstat_buf_add(b, "\"", 1);
}

/* Skips the hexadecimal digits at @p, at least one; NULL if none. */
static const char *skip_hex(const char *p)
{
	if (!isxdigit((unsigned char)*p))
		return NULL;
	while (isxdigit((unsigned char)*p))
		p++;
	return p;
}

/*
 * A call site's function, and its module: "foo.isra.0+0x1c/0x80_[m]"
 * (as the stats word prints "foo.isra.0+0x1c/0x80 [m]") is "foo.isra.0 [m]".
 * The offset and size change with every build of the kernel, and would
 * make each build's series new ones. False for a value of another shape.
 */
static bool call_site_function(const char *v, struct tpstat_buf *out)
{
	const char *plus = strstr(v, "+0x"), *p;
	size_t rest;

	if (!plus || plus == v)
		return false;
	p = skip_hex(plus + 3);
	if (!p || strncmp(p, "/0x", 3))
		return false;
	p = skip_hex(p + 3);
	if (!p)
		return false;
	rest = strlen(p);
	if (rest && (rest < 4 || (p[0] != '_' && p[0] != ' ') || p[1] != '[' ||
		     p[rest - 1] != ']'))
		return false;
	tpstat_buf_add(out, v, plus - v);
	if (rest) {
		tpstat_buf_add(out, " ", 1);
		tpstat_buf_add(out, p + 1, rest - 1);
	}
	return true;
}

/* A label that holds a CPU's number: cpu, from_cpu, to_cpu. */
static bool is_cpu_label(const char *name)
{
	size_t n = strlen(name);

	return !strcmp(name, "cpu") || (n > 4 && !strcmp(name + n - 4, "_cpu"));
}

/* A label that names a task or a place in a ranking, not a lasting thing. */
static bool is_id_label(const char *name)
{
	return !strcmp(name, "pid") || !strcmp(name, "tgid") ||
	       !strcmp(name, "rank");
}

/* What render_labels() did to a line's keys. */
struct rendered {
	/* Lines of other keys may share the labels: their sum is the series. */
	bool merged;
	/* A pid, tgid or rank label was left out. */
	bool lost_id;
	/* A label holds a CPU. */
	bool by_cpu;
};

/*
 * 'a="x",b="y"', escaped: a set inside another's path first (the stack
 * set's entry, tracepoint="kmalloc"), unless the line names it itself (an
 * entry's tracepoint's hits), then the keys the line holds, but for those
 * e->flags does not keep: a call site's offset (its function is the label),
 * pid, tgid and rank labels, and a histogram's CPU.
 */
static char *render_labels(const struct exposition *e, const char *set,
			   const struct tpstat_meaning *m, struct rendered *r)
{
	const char *nested;
	struct tpstat_buf b = { 0 };
	size_t top_len;
	unsigned int i;

	memset(r, 0, sizeof(*r));
	tpstat_buf_add(&b, "", 0);
	nested = tpstat_nested_label(set, &top_len);
	for (i = 0; nested && i < m->nr_labels; i++)
		if (m->labels[i].value && !strcmp(m->labels[i].name, nested))
			nested = NULL;
	if (nested)
		tpstat_prometheus_label(&b, nested, set + top_len + 1);
	for (i = 0; i < m->nr_labels; i++) {
		struct tpstat_buf fn = { 0 };
		const char *name = m->labels[i].name, *v = m->labels[i].value;

		if (!v)
			continue;
		if (!(e->flags & TPSTAT_EXPORT_PID) && is_id_label(name)) {
			r->merged = true;
			r->lost_id = true;
			continue;
		}
		if (is_cpu_label(name)) {
			if (m->kind == TPSTAT_HIST && !(e->flags & TPSTAT_EXPORT_CPU)) {
				r->merged = true;
				continue;
			}
			r->by_cpu = true;
		}
		if (!(e->flags & TPSTAT_EXPORT_OFFSETS) && call_site_function(v, &fn)) {
			v = fn.s;
			r->merged = true;
		}
		tpstat_prometheus_label(&b, name, v);
		tpstat_buf_free(&fn);
	}
	return b.s;
}

static void add_line(struct exposition *e, const char *set,
		     const struct tpstat_line *l, const struct tpstat_meaning *m)
{
	struct family *fam = family_of(e, set, l->name, m);
	struct series *s = NULL;
	struct rendered r;
	char *labels;
	size_t i;

	if (!fam)
		return;
	labels = render_labels(e, set, m, &r);
	/* A gauge of a task or a rank is no count to add: a maximum, a state. */
	if (r.lost_id && m->kind == TPSTAT_GAUGE) {
		free(labels);
		return;
	}
	if (m->kind != TPSTAT_HIST) {
		/* Call sites of one function, pids of one command: their sum. */
		for (i = 0; r.merged && i < fam->nr; i++)
			if (!strcmp(fam->series[i].labels, labels))
				break;
		if (r.merged && i < fam->nr) {
			fam->series[i].value += l->value;
		} else {
			s = add_series(fam, labels);
			s->value = l->value;
			s->by_cpu = r.by_cpu;
		}
		free(labels);
		return;
	}
	/*
	 * A histogram's lines come together: its series is the last one of
	 * its prefix and labels (sets inside one set share its families).
	 * Those of one labels but another prefix are summed at the output.
	 */
	for (i = fam->nr; i-- > 0;) {
		const char *p = fam->series[i].prefix;

		if (strlen(p) == m->prefix_len && !strncmp(p, l->name, m->prefix_len) &&
		    !strcmp(fam->series[i].labels, labels)) {
			s = &fam->series[i];
			break;
		}
	}
	if (!s) {
		s = add_series(fam, labels);
		s->prefix = tpstat_strndup(l->name, m->prefix_len);
		s->folded = r.merged;
	}
	free(labels);
	if (m->part != TPSTAT_HIST_BUCKET) {
		s->hist[m->part] = l->value;
		return;
	}
	s->buckets = tpstat_realloc(s->buckets, (s->nr_buckets + 1) * sizeof(*s->buckets));
	s->buckets[s->nr_buckets].low = m->bucket_low;
	s->buckets[s->nr_buckets].high = m->bucket_high;
	s->buckets[s->nr_buckets++].n = l->value;
}

static int add_set(struct exposition *e, const char *set,
		   const struct tpstat_probes *probes)
{
	struct tpstat_metrics metrics;
	struct tpstat_meaning *m;
	struct tpstat_stats stats;
	size_t i;
	int err;

	err = tpstat_read_stats(set, &stats);
	if (err == -ENOENT) {
		/* Unloaded since the sets were listed: not an error. */
		tpstat_err("%s was unloaded while being read: left out", set);
		return 0;
	}
	if (err) {
		struct tpstat_buf rel = { 0 };

		tpstat_buf_printf(&rel, "%s/stats", set);
		tpstat_file_error(rel.s, err);
		tpstat_buf_free(&rel);
		return -1;
	}
	if (stats.malformed)
		tpstat_err("%s/stats: %zu line%s not \"name value\", left out",
			   set, stats.malformed, stats.malformed == 1 ? "" : "s");
	err = tpstat_read_metrics(set, &metrics);
	if (err)
		tpstat_say_untyped(set, err);
	m = tpstat_alloc((stats.nr + 1) * sizeof(*m));
	tpstat_describe(&stats, probes, &metrics, m);
	tpstat_free_metrics(&metrics);
	if (tpstat_merge_duplicates(&stats, m))
		tpstat_err("%s/stats: lines of one name that cannot be added: the first is kept",
			   set);
	for (i = 0; i < stats.nr; i++)
		add_line(e, set, &stats.lines[i], &m[i]);
	tpstat_free_meanings(m, stats.nr);
	free(m);
	tpstat_free_stats(&stats);
	return 0;
}

static const struct series *sort_series;

static int cmp_labels(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(sort_series[x].labels, sort_series[y].labels);

	return c ? c : (x > y) - (x < y);
}

/* Marks the second and later series with the same labels, and says so. */
static void find_duplicates(struct family *fam)
{
	size_t *order = tpstat_alloc((fam->nr + 1) * sizeof(*order));
	size_t i;

	for (i = 0; i < fam->nr; i++)
		order[i] = i;
	sort_series = fam->series;
	qsort(order, fam->nr, sizeof(*order), cmp_labels);
	for (i = 1; i < fam->nr; i++) {
		struct series *s = &fam->series[order[i]];

		if (strcmp(s->labels, fam->series[order[i - 1]].labels))
			continue;
		s->duplicate = true;
		tpstat_err("two stats lines are %s{%s}: the second is left out",
			   fam->name, s->labels);
	}
	free(order);
}

static int cmp_ull(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a;
	unsigned long long y = *(const unsigned long long *)b;

	return (x > y) - (x < y);
}

static void put_sample(FILE *f, const char *name, const char *suffix,
		       const char *labels, const char *le, unsigned long long value,
		       enum tpstat_unit unit)
{
	char buf[VALUE_MAX];

	fprintf(f, "%s%s", name, suffix);
	if (*labels || le)
		fprintf(f, "{%s%s%s%s%s}", labels, *labels && le ? "," : "",
			le ? "le=\"" : "", le ? le : "", le ? "\"" : "");
	fprintf(f, " %s\n", format_value(buf, value, unit));
}

static void put_family_head(FILE *f, const char *name, const char *suffix,
			    const char *help, const char *help_suffix,
			    const char *type)
{
	struct tpstat_buf b = { 0 };

	tpstat_escape(&b, help, TPSTAT_ESCAPE_HELP);
	fprintf(f, "# HELP %s%s %s%s\n# TYPE %s%s %s\n", name, suffix, b.s,
		help_suffix, name, suffix, type);
	tpstat_buf_free(&b);
}

static void put_histogram(FILE *f, const struct family *fam)
{
	static const struct {
		enum tpstat_hist_part part;
		const char *suffix, *help;
	} gauges[] = {
		{ TPSTAT_HIST_MIN, "_min_since_reset",
		  ": the smallest value since the reset" },
		{ TPSTAT_HIST_MAX, "_max_since_reset",
		  ": the largest value since the reset" },
		{ TPSTAT_HIST_P50, "_p50_since_reset",
		  ": the median since the reset, from the buckets" },
		{ TPSTAT_HIST_P90, "_p90_since_reset",
		  ": the 90th percentile since the reset, from the buckets" },
		{ TPSTAT_HIST_P99, "_p99_since_reset",
		  ": the 99th percentile since the reset, from the buckets" },
	};
	size_t i, j, g;
	unsigned int b;
	char le[VALUE_MAX];

	put_family_head(f, fam->name, "", fam->help, "", "histogram");
	for (i = 0; i < fam->nr; i++) {
		const struct series *s = &fam->series[i];
		unsigned long long below = 0;

		if (s->duplicate)
			continue;
		/* The last bound is below +Inf: never the bucket of 2^64 - 1. */
		for (b = fam->first_bucket, j = 0; b <= fam->last_bucket && b < 64; b++) {
			unsigned long long bound = tpstat_bucket_high(b);

			for (; j < s->nr_buckets && s->buckets[j].high <= bound; j++)
				below += s->buckets[j].n;
			put_sample(f, fam->name, "_bucket", s->labels,
				   format_value(le, bound, fam->unit), below,
				   TPSTAT_UNIT_NONE);
		}
		put_sample(f, fam->name, "_bucket", s->labels, "+Inf",
			   s->hist[TPSTAT_HIST_COUNT], TPSTAT_UNIT_NONE);
		put_sample(f, fam->name, "_sum", s->labels, NULL,
			   s->hist[TPSTAT_HIST_SUM], fam->unit);
		put_sample(f, fam->name, "_count", s->labels, NULL,
			   s->hist[TPSTAT_HIST_COUNT], TPSTAT_UNIT_NONE);
	}
	for (g = 0; g < sizeof(gauges) / sizeof(*gauges); g++) {
		put_family_head(f, fam->name, gauges[g].suffix, fam->help,
				gauges[g].help, "gauge");
		for (i = 0; i < fam->nr; i++)
			if (!fam->series[i].duplicate)
				put_sample(f, fam->name, gauges[g].suffix,
					   fam->series[i].labels, NULL,
					   fam->series[i].hist[gauges[g].part], fam->unit);
	}
}

static int cmp_bucket(const void *a, const void *b)
{
	return cmp_ull(&((const struct bucket *)a)->high,
		       &((const struct bucket *)b)->high);
}

/*
 * A percentile of a histogram summed from others, as the kernel's
 * tpstat_hist_percentile() has it: the value at the rank's place in its
 * bucket, assumed even, within what was seen; @s's buckets sorted.
 */
static unsigned long long summed_percentile(const struct series *s,
					    unsigned int pct)
{
	unsigned long long count = s->hist[TPSTAT_HIST_COUNT], target, below = 0;
	unsigned long long lo = s->hist[TPSTAT_HIST_MIN], hi = s->hist[TPSTAT_HIST_MAX];
	size_t i;

	if (!count)
		return 0;
	target = count / 100 * pct + ((count % 100) * pct + 99) / 100;
	if (!target)
		target = 1;
	for (i = 0; i < s->nr_buckets; i++) {
		const struct bucket *b = &s->buckets[i];
		unsigned long long v;

		if (below + b->n < target) {
			below += b->n;
			continue;
		}
		v = b->low + (unsigned long long)((long double)(b->high - b->low) *
						  (target - below) / b->n);
		return v < lo ? lo : v > hi ? hi : v;
	}
	return hi;
}

/* Adds histogram @from into @into: a count, a sum and buckets. */
static void add_histogram(struct series *into, struct series *from)
{
	unsigned long long *a = into->hist, *b = from->hist;

	if (b[TPSTAT_HIST_COUNT]) {
		if (!a[TPSTAT_HIST_COUNT] || b[TPSTAT_HIST_MIN] < a[TPSTAT_HIST_MIN])
			a[TPSTAT_HIST_MIN] = b[TPSTAT_HIST_MIN];
		if (!a[TPSTAT_HIST_COUNT] || b[TPSTAT_HIST_MAX] > a[TPSTAT_HIST_MAX])
			a[TPSTAT_HIST_MAX] = b[TPSTAT_HIST_MAX];
	}
	a[TPSTAT_HIST_COUNT] += b[TPSTAT_HIST_COUNT];
	a[TPSTAT_HIST_SUM] += b[TPSTAT_HIST_SUM];
	into->buckets = tpstat_realloc(into->buckets, (into->nr_buckets + from->nr_buckets + 1) *
				       sizeof(*into->buckets));
	memcpy(into->buckets + into->nr_buckets, from->buckets,
	       from->nr_buckets * sizeof(*from->buckets));
	into->nr_buckets += from->nr_buckets;
}

/*
 * The histograms that lost a label (a CPU, a pid) summed into one series
 * per labels left, the first; the others are removed.
 */
static void fold_histograms(struct family *fam)
{
	size_t i, j, out;
	bool *added = tpstat_alloc(fam->nr + 1);

	for (i = 0, out = 0; i < fam->nr; i++) {
		struct series *s = &fam->series[i];

		for (j = 0; s->folded && j < out; j++)
			if (fam->series[j].folded &&
			    !strcmp(fam->series[j].labels, s->labels))
				break;
		if (!s->folded || j == out) {
			added[out] = false;
			fam->series[out++] = *s;
			continue;
		}
		add_histogram(&fam->series[j], s);
		added[j] = true;
		free(s->labels);
		free(s->prefix);
		free(s->buckets);
	}
	fam->nr = out;
	for (i = 0; i < fam->nr; i++) {
		struct series *s = &fam->series[i];

		qsort(s->buckets, s->nr_buckets, sizeof(struct bucket), cmp_bucket);
		if (!added[i])
			continue;
		/* One bucket of each bound, as the kernel's sum has. */
		for (j = 0, out = 0; j < s->nr_buckets; j++)
			if (out && s->buckets[out - 1].high == s->buckets[j].high)
				s->buckets[out - 1].n += s->buckets[j].n;
			else
				s->buckets[out++] = s->buckets[j];
		s->nr_buckets = out;
		s->hist[TPSTAT_HIST_P50] = summed_percentile(s, 50);
		s->hist[TPSTAT_HIST_P90] = summed_percentile(s, 90);
		s->hist[TPSTAT_HIST_P99] = summed_percentile(s, 99);
	}
	free(added);
}

/*
 * Left out unless TPSTAT_EXPORT_ZEROS: a counter keyed by a CPU that is 0,
 * a cell of sched's migration matrix (nr_cpu_ids squared of them) or a CPU
 * an IRQ or a tracepoint never ran on, mostly zeros on a large machine.
 */
static bool zero_by_cpu(const struct exposition *e, const struct family *fam,
			const struct series *s)
{
	return !(e->flags & TPSTAT_EXPORT_ZEROS) && fam->kind == TPSTAT_COUNTER &&
	       s->by_cpu && !s->value;
}

/*
 * A family whose every line was left out (stack's ranked rows) is not
 * written: node_exporter serves no metric without a sample.
 */
static void put_family(FILE *f, const struct exposition *e, struct family *fam)
{
	size_t i, kept = 0;

	if (fam->kind == TPSTAT_HIST) {
		fold_histograms(fam);
		find_duplicates(fam);
		if (fam->nr)
			put_histogram(f, fam);
		return;
	}
	find_duplicates(fam);
	for (i = 0; i < fam->nr; i++)
		kept += !fam->series[i].duplicate && !zero_by_cpu(e, fam, &fam->series[i]);
	if (!kept)
		return;
	put_family_head(f, fam->name, "", fam->help, "", tpstat_types[fam->kind]);
	for (i = 0; i < fam->nr; i++)
		if (!fam->series[i].duplicate && !zero_by_cpu(e, fam, &fam->series[i]))
			put_sample(f, fam->name, "", fam->series[i].labels, NULL,
				   fam->series[i].value, fam->unit);
}

static void free_exposition(struct exposition *e)
{
	size_t i, j;

	for (i = 0; i < e->nr; i++) {
		for (j = 0; j < e->f[i].nr; j++) {
			free(e->f[i].series[j].labels);
			free(e->f[i].series[j].prefix);
			free(e->f[i].series[j].buckets);
		}
		free(e->f[i].series);
		free(e->f[i].name);
		free(e->f[i].help);
	}
	free(e->f);
}

int tpstat_export_prometheus(FILE *f, char **sets, size_t nr,
			     unsigned int flags)
{
	struct exposition e = { .flags = flags };
	struct tpstat_probes probes;
	size_t i;
	int ret = 0;

	if (tpstat_read_probes(&probes))
		return -1;
	for (i = 0; i < nr && !ret; i++)
		ret = add_set(&e, sets[i], &probes);
	for (i = 0; i < e.nr && !ret; i++)
		put_family(f, &e, &e.f[i]);
	if (!ret)
		ret = tpstat_export_health(f, &probes, sets, nr);
	free_exposition(&e);
	tpstat_free_probes(&probes);
	return ret;
}

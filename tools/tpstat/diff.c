// SPDX-License-Identifier: GPL-2.0
/*
 * tpstat diff: what changed between two exports (tpstat export --json),
 * for a before and after. Each side's stats lines are described as export
 * describes them (describe.c), by the metrics file each set's export
 * carries, so that a counter, a gauge and the lines of one histogram are
 * told apart without the kernel: counters and gauges
 * as A, B, their difference and its percentage of A; a histogram as its
 * count, mean, p50 and p99 on each side; what only one side has, added
 * or removed.
 *
 * The files are read whole and parsed by json_read.c; anything that is
 * not a tpstat export, or not JSON, is one line naming the file and
 * where, and exit 1.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tpstat.h"

static const char tpstat_diff_usage[] =
	"usage: tpstat diff [--all] A.json B.json\n"
	"\n"
	"What changed from A to B, two exports of tpstat export --json (\"-\"\n"
	"reads one from stdin): per set, each counter and gauge that differs as\n"
	"A, B, B - A and its percentage of A; each histogram that differs as its\n"
	"count, mean (sum / count), p50 and p99 in A and in B; then the metrics\n"
	"only B has (added) and those only A has (removed). The memory lines are\n"
	"the set (memory). Exits 0 whatever changed; 1 when a file cannot be\n"
	"read or is not an export.\n"
	"\n"
	"  -a, --all        every metric, those that did not change too\n";

/* A set's stats, and what each line is. */
struct diff_set {
	struct tpstat_stats stats;
	struct tpstat_meaning *m;
};

/* One export. */
struct diff_side {
	const char *path;
	char *version;
	struct diff_set *sets;
	size_t nr;
};

static void diff_free_side(struct diff_side *d)
{
	size_t i;

	for (i = 0; i < d->nr; i++) {
		/* A set found malformed was not described. */
		if (d->sets[i].m)
			tpstat_free_meanings(d->sets[i].m, d->sets[i].stats.nr);
		free(d->sets[i].m);
		tpstat_free_stats(&d->sets[i].stats);
	}
	free(d->sets);
	free(d->version);
}

static bool __printf(2, 3) diff_not_export(const char *path, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	tpstat_err("%s: not a tpstat export --json: %s", path, what);
	return false;
}

/* A count: a JSON number that is a whole number from 0 to 2^64 - 1. */
static bool diff_count(const struct json *v, unsigned long long *value)
{
	char *end;

	if (!v || v->type != JSON_NUMBER || v->s[0] < '0' || v->s[0] > '9')
		return false;
	errno = 0;
	*value = strtoull(v->s, &end, 10);
	return !*end && !errno;
}

/*
 * @v's "name": count members as @set's stats, described with @probes and
 * @metrics_v, the lines of the set's metrics file (none: lines untyped).
 */
static bool diff_add_set(struct diff_side *d, const char *set, const struct json *v,
			 const struct json *probes_v, const struct json *metrics_v)
{
	struct tpstat_metrics metrics = { 0 };
	struct tpstat_probes probes = { 0 };
	struct tpstat_buf text = { 0 };
	struct diff_set *s;
	size_t i;

	if (!v || v->type != JSON_OBJECT)
		return diff_not_export(d->path, "%s has no stats object", set);
	for (i = 0; probes_v && i < probes_v->nr; i++) {
		const struct json *tp = tpstat_json_member(&probes_v->items[i], "tracepoint");

		if (!tp || tp->type != JSON_STRING) {
			tpstat_free_probes(&probes);
			return diff_not_export(d->path, "a probe of %s has no tracepoint",
					       set);
		}
		probes.p = tpstat_realloc(probes.p, (probes.nr + 1) * sizeof(*probes.p));
		memset(&probes.p[probes.nr], 0, sizeof(*probes.p));
		probes.p[probes.nr].set = tpstat_strdup(set);
		probes.p[probes.nr].tracepoint = tpstat_strdup(tp->s);
		probes.p[probes.nr].state = tpstat_strdup("");
		probes.nr++;
	}
	d->sets = tpstat_realloc(d->sets, (d->nr + 1) * sizeof(*d->sets));
	s = &d->sets[d->nr++];
	memset(s, 0, sizeof(*s));
	s->stats.set = tpstat_strdup(set);
	s->stats.lines = tpstat_alloc((v->nr + 1) * sizeof(*s->stats.lines));
	for (i = 0; i < v->nr; i++) {
		struct tpstat_line *l = &s->stats.lines[s->stats.nr];

		if (!diff_count(&v->items[i], &l->value)) {
			tpstat_free_probes(&probes);
			return diff_not_export(d->path,
					       "%s's \"%s\" is not a count (a whole number from 0 to 2^64 - 1)",
					       set, v->keys[i]);
		}
		l->name = tpstat_strdup(v->keys[i]);
		s->stats.nr++;
	}
	for (i = 0; metrics_v && i < metrics_v->nr; i++)
		tpstat_buf_printf(&text, "%s\n", metrics_v->items[i].s);
	if (text.s)
		tpstat_parse_metrics(text.s, text.len, &metrics);
	tpstat_buf_free(&text);
	s->m = tpstat_alloc((s->stats.nr + 1) * sizeof(*s->m));
	tpstat_describe(&s->stats, &probes, &metrics, s->m);
	tpstat_free_metrics(&metrics);
	tpstat_free_probes(&probes);
	return true;
}

/* The name diff gives the memory lines, which no set's can be. */
#define DIFF_MEMORY	"(memory)"

static bool diff_read_side(struct diff_side *d, const struct json *root)
{
	const struct json *version = tpstat_json_member(root, "version");
	const struct json *sets = tpstat_json_member(root, "sets");
	size_t i;

	if (root->type != JSON_OBJECT)
		return diff_not_export(d->path, "not an object");
	if (!version || version->type != JSON_STRING)
		return diff_not_export(d->path, "no \"version\" string");
	if (!sets || sets->type != JSON_OBJECT)
		return diff_not_export(d->path, "no \"sets\" object");
	d->version = tpstat_strdup(version->s);
	if (tpstat_json_member(root, "memory") &&
	    !diff_add_set(d, DIFF_MEMORY, tpstat_json_member(root, "memory"), NULL,
			  NULL))
		return false;
	for (i = 0; i < sets->nr; i++) {
		const struct json *probes = tpstat_json_member(&sets->items[i], "probes");
		const struct json *metrics = tpstat_json_member(&sets->items[i], "metrics");
		size_t j;

		if (sets->items[i].type != JSON_OBJECT)
			return diff_not_export(d->path, "set %s is not an object",
					       sets->keys[i]);
		if (probes && probes->type != JSON_ARRAY)
			return diff_not_export(d->path, "the probes of %s are not an array",
					       sets->keys[i]);
		for (j = 0; metrics && metrics->type == JSON_ARRAY && j < metrics->nr; j++)
			if (metrics->items[j].type != JSON_STRING)
				break;
		if (metrics && (metrics->type != JSON_ARRAY || j < metrics->nr))
			return diff_not_export(d->path,
					       "the metrics of %s are not an array of strings",
					       sets->keys[i]);
		if (!diff_add_set(d, sets->keys[i],
				  tpstat_json_member(&sets->items[i], "stats"), probes,
				  metrics))
			return false;
	}
	return true;
}

/* Reads @path ("-": stdin) whole. 0, or -1 after saying why. */
static int diff_read_file(const char *path, char **text, size_t *len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "re") : stdin;
	struct tpstat_buf b = { 0 };
	char chunk[65536];
	size_t n;

	if (!f) {
		tpstat_err("%s: %s", path, strerror(errno));
		return -1;
	}
	tpstat_buf_add(&b, "", 0);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		tpstat_buf_add(&b, chunk, n);
	if (ferror(f)) {
		tpstat_err("%s: %s", path, strerror(errno));
		if (f != stdin)
			fclose(f);
		tpstat_buf_free(&b);
		return -1;
	}
	if (f != stdin)
		fclose(f);
	*text = b.s;
	*len = b.len;
	return 0;
}

static int diff_load(struct diff_side *d, const char *path)
{
	struct json root = { 0 };
	char *text;
	size_t len;
	bool ok;

	memset(d, 0, sizeof(*d));
	d->path = path;
	if (diff_read_file(path, &text, &len))
		return -1;
	ok = tpstat_json_read(path, text, len, &root) &&
	     diff_read_side(d, &root);
	tpstat_json_free(&root);
	free(text);
	return ok ? 0 : -1;
}

/* A table: rows of cells, printed with each column as wide as its widest. */
#define DIFF_COLS_MAX	10

struct diff_table {
	char **cells;
	size_t nr_rows, nr_cols;
	/* Right-aligned columns, a bit each. */
	unsigned int right;
};

static void diff_row(struct diff_table *t, const char *const *cells)
{
	size_t i;

	t->cells = tpstat_realloc(t->cells, (t->nr_rows + 1) * t->nr_cols *
				  sizeof(*t->cells));
	for (i = 0; i < t->nr_cols; i++)
		t->cells[t->nr_rows * t->nr_cols + i] = tpstat_strdup(cells[i]);
	t->nr_rows++;
}

/* The columns @s takes on a terminal: a UTF-8 sequence is one. */
static size_t diff_width(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* Prints @t after its @title line, if it has a row but its header. */
static void diff_print_table(struct diff_table *t, const char *title)
{
	size_t width[DIFF_COLS_MAX] = { 0 }, r, c, w;

	if (t->nr_rows > 1) {
		for (r = 0; r < t->nr_rows; r++)
			for (c = 0; c < t->nr_cols; c++) {
				w = diff_width(t->cells[r * t->nr_cols + c]);
				if (w > width[c])
					width[c] = w;
			}
		printf("%s\n", title);
		for (r = 0; r < t->nr_rows; r++) {
			for (c = 0; c < t->nr_cols; c++) {
				const char *s = t->cells[r * t->nr_cols + c];
				int pad = width[c] - diff_width(s);

				if (c + 1 == t->nr_cols && !(t->right & (1U << c)))
					pad = 0;
				printf("%s%*s%s%*s", c ? "  " : "",
				       t->right & (1U << c) ? pad : 0, "", s,
				       t->right & (1U << c) ? 0 : pad, "");
			}
			printf("\n");
		}
	}
	for (r = 0; r < t->nr_rows * t->nr_cols; r++)
		free(t->cells[r]);
	free(t->cells);
	t->cells = NULL;
	t->nr_rows = 0;
}

/* A histogram: the lines of one prefix, found by its count's. */
struct diff_hist {
	unsigned long long count, sum, p50, p99;
};

static const struct tpstat_line *diff_line(const struct diff_set *s, const char *name,
					   size_t *at)
{
	size_t i;

	for (i = 0; s && i < s->stats.nr; i++)
		if (!strcmp(s->stats.lines[i].name, name)) {
			if (at)
				*at = i;
			return &s->stats.lines[i];
		}
	return NULL;
}

static const struct diff_set *diff_find_set(const struct diff_side *d, const char *name)
{
	size_t i;

	for (i = 0; i < d->nr; i++)
		if (!strcmp(d->sets[i].stats.set, name))
			return &d->sets[i];
	return NULL;
}

/* The parts of the histogram of prefix @prefix (@len characters) in @s. */
static void diff_hist_of(const struct diff_set *s, const char *prefix, size_t len,
			 struct diff_hist *h)
{
	static const char *const parts[] = { "count", "sum", "p50", "p99" };
	unsigned long long *v[] = { &h->count, &h->sum, &h->p50, &h->p99 };
	struct tpstat_buf name = { 0 };
	const struct tpstat_line *l;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(parts); i++) {
		name.len = 0;
		tpstat_buf_add(&name, prefix, len);
		tpstat_buf_printf(&name, ".%s", parts[i]);
		l = diff_line(s, name.s, NULL);
		*v[i] = l ? l->value : 0;
	}
	tpstat_buf_free(&name);
}

/* Every line of @a's histogram @prefix is in @b, the same, and no more. */
static bool diff_hist_same(const struct diff_set *a, const struct diff_set *b,
			   const char *prefix, size_t len)
{
	const struct diff_set *sides[2] = { a, b };
	const struct tpstat_line *other;
	size_t i, k;

	for (k = 0; k < 2; k++)
		for (i = 0; i < sides[k]->stats.nr; i++) {
			const struct tpstat_meaning *m = &sides[k]->m[i];
			const char *name = sides[k]->stats.lines[i].name;

			if (m->kind != TPSTAT_HIST || m->prefix_len != len ||
			    strncmp(name, prefix, len))
				continue;
			other = diff_line(sides[!k], name, NULL);
			if (!other || other->value != sides[k]->stats.lines[i].value)
				return false;
		}
	return true;
}

static void diff_grouped(char *buf, size_t size, unsigned long long v)
{
	tpstat_grouped(buf, size, v);
}

/* B - A, signed, grouped: "+500", "-2", "0". */
static void diff_delta(char *buf, size_t size, unsigned long long a,
		       unsigned long long b)
{
	char g[32];

	diff_grouped(g, sizeof(g), b >= a ? b - a : a - b);
	snprintf(buf, size, "%s%s", a == b ? "" : b > a ? "+" : "-", g);
}

/* The difference as a percentage of A: "+50.0%", "-" when A is 0. */
static void diff_percent(char *buf, size_t size, unsigned long long a,
			 unsigned long long b)
{
	double pct;

	if (!a) {
		snprintf(buf, size, "%s", b ? "-" : "0.0%");
		return;
	}
	pct = ((double)b - (double)a) * 100 / (double)a;
	snprintf(buf, size, "%+.1f%%", pct);
	if (a == b)
		snprintf(buf, size, "0.0%%");
}

static void diff_mean(char *buf, size_t size, const struct diff_hist *h)
{
	unsigned __int128 tenths;
	char g[32];

	if (!h->count) {
		snprintf(buf, size, "-");
		return;
	}
	/* Rounded to a tenth, exact whatever the sum. */
	tenths = ((unsigned __int128)h->sum * 10 + h->count / 2) / h->count;
	diff_grouped(g, sizeof(g), (unsigned long long)(tenths / 10));
	snprintf(buf, size, "%s.%u", g, (unsigned int)(tenths % 10));
}

static const char *diff_kind(const struct tpstat_meaning *m, bool memory)
{
	if (memory || m->kind == TPSTAT_GAUGE)
		return "gauge";
	return m->kind == TPSTAT_COUNTER ? "counter" : "untyped";
}

/* The name of a histogram: its prefix. */
static char *diff_hist_name(const struct tpstat_line *l, const struct tpstat_meaning *m)
{
	return tpstat_strndup(l->name, m->prefix_len);
}

/* Line @i of @s is the first of its histogram's lines in @s. */
static bool diff_hist_first(const struct diff_set *s, size_t i)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (s->m[j].kind == TPSTAT_HIST &&
		    s->m[j].prefix_len == s->m[i].prefix_len &&
		    !strncmp(s->stats.lines[j].name, s->stats.lines[i].name,
			     s->m[i].prefix_len))
			return false;
	return true;
}

struct diff_tables {
	struct diff_table scalars, hists, added, removed;
};

/* A histogram's prefix has a count line in @s. */
static bool diff_has_hist(const struct diff_set *s, const char *prefix, size_t len)
{
	size_t i;

	for (i = 0; s && i < s->stats.nr; i++)
		if (s->m[i].kind == TPSTAT_HIST && s->m[i].prefix_len == len &&
		    !strncmp(s->stats.lines[i].name, prefix, len))
			return true;
	return false;
}

/*
 * Line @i of @s (of side @from, 0 for A) against @other's, the other
 * side's set (NULL if it has none); lines both have are compared once,
 * from A.
 */
static void diff_compare_line(struct diff_tables *t, const struct diff_set *s,
			      size_t i, const struct diff_set *other, int from,
			      bool all)
{
	const struct tpstat_line *l = &s->stats.lines[i], *o;
	const struct tpstat_meaning *m = &s->m[i];
	const char *set = s->stats.set;
	bool memory = !strcmp(set, DIFF_MEMORY);
	char va[48], vb[32], delta[48], pct[32];

	if (m->kind == TPSTAT_HIST) {
		struct diff_hist ha, hb;
		char ca[32], cb[32], ma[48], mb[48], p50a[32], p50b[32], p99a[32], p99b[32];
		char *name;

		if (!diff_hist_first(s, i))
			return;
		name = diff_hist_name(l, m);
		if (diff_has_hist(other, name, m->prefix_len)) {
			if (from == 1 || (!all && diff_hist_same(s, other, name, m->prefix_len))) {
				free(name);
				return;
			}
			diff_hist_of(s, name, m->prefix_len, &ha);
			diff_hist_of(other, name, m->prefix_len, &hb);
			diff_grouped(ca, sizeof(ca), ha.count);
			diff_grouped(cb, sizeof(cb), hb.count);
			diff_mean(ma, sizeof(ma), &ha);
			diff_mean(mb, sizeof(mb), &hb);
			diff_grouped(p50a, sizeof(p50a), ha.p50);
			diff_grouped(p50b, sizeof(p50b), hb.p50);
			diff_grouped(p99a, sizeof(p99a), ha.p99);
			diff_grouped(p99b, sizeof(p99b), hb.p99);
			diff_row(&t->hists, (const char *const[]){ set, name, ca, cb, ma, mb,
				 p50a, p50b, p99a, p99b });
		} else {
			diff_hist_of(s, name, m->prefix_len, &ha);
			diff_grouped(ca, sizeof(ca), ha.count);
			snprintf(va, sizeof(va), "count %s", ca);
			diff_row(from ? &t->added : &t->removed,
				 (const char *const[]){ set, name, "histogram", va });
		}
		free(name);
		return;
	}
	o = diff_line(other, l->name, NULL);
	diff_grouped(va, sizeof(va), l->value);
	if (!o) {
		diff_row(from ? &t->added : &t->removed,
			 (const char *const[]){ set, l->name, diff_kind(m, memory), va });
		return;
	}
	if (from == 1 || (!all && o->value == l->value))
		return;
	diff_grouped(vb, sizeof(vb), o->value);
	diff_delta(delta, sizeof(delta), l->value, o->value);
	diff_percent(pct, sizeof(pct), l->value, o->value);
	diff_row(&t->scalars, (const char *const[]){ set, l->name, diff_kind(m, memory),
		 va, vb, delta, pct });
}

/* The sets of both sides, by name, each once: A's order, then B's new ones. */
static void diff_compare(const struct diff_side *a, const struct diff_side *b,
			 bool all)
{
	struct diff_tables t = {
		.scalars = { .nr_cols = 7, .right = 0x78 },
		.hists = { .nr_cols = 10, .right = 0x3fc },
		.added = { .nr_cols = 4, .right = 0x8 },
		.removed = { .nr_cols = 4, .right = 0x8 },
	};
	const struct diff_side *sides[2] = { a, b };
	size_t k, i, l;

	diff_row(&t.scalars, (const char *const[]){ "SET", "STAT", "KIND", "A", "B",
		 "DELTA", "%" });
	diff_row(&t.hists, (const char *const[]){ "SET", "HISTOGRAM", "COUNT A", "COUNT B",
		 "AVG A", "AVG B", "P50 A", "P50 B", "P99 A", "P99 B" });
	diff_row(&t.added, (const char *const[]){ "SET", "STAT", "KIND", "B" });
	diff_row(&t.removed, (const char *const[]){ "SET", "STAT", "KIND", "A" });
	for (k = 0; k < 2; k++)
		for (i = 0; i < sides[k]->nr; i++) {
			const struct diff_set *s = &sides[k]->sets[i];
			const struct diff_set *other = diff_find_set(sides[!k], s->stats.set);

			for (l = 0; l < s->stats.nr; l++)
				diff_compare_line(&t, s, l, other, k, all);
		}
	printf("A: %s (tpstat %s)\nB: %s (tpstat %s)\n", a->path, a->version,
	       b->path, b->version);
	if (t.scalars.nr_rows + t.hists.nr_rows + t.added.nr_rows +
	    t.removed.nr_rows == 4)
		printf("\nno change%s\n", all ? "" : " (--all lists what is there)");
	diff_print_table(&t.scalars, all ? "\ncounters and gauges:" :
			 "\ncounters and gauges that changed:");
	diff_print_table(&t.hists, all ? "\nhistograms:" : "\nhistograms that changed:");
	diff_print_table(&t.added, "\nadded (only in B):");
	diff_print_table(&t.removed, "\nremoved (only in A):");
}

int tpstat_diff(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "all", no_argument, NULL, 'a' },
		{ NULL, 0, NULL, 0 },
	};
	struct diff_side a, b;
	bool all = false;
	int c, ret = 1;

	while ((c = tpstat_getopt(argc, argv, tpstat_diff_usage, ":ha", longopts)) != -1)
		if (c == 'a')
			all = true;
	if (argc - optind != 2)
		return tpstat_usage_error(argv[0], "takes two files, A and B, not %d",
					  argc - optind);
	if (!strcmp(argv[optind], "-") && !strcmp(argv[optind + 1], "-"))
		return tpstat_usage_error(argv[0], "reads one file from stdin, not both");
	if (diff_load(&a, argv[optind]))
		goto out_a;
	if (diff_load(&b, argv[optind + 1]))
		goto out_b;
	diff_compare(&a, &b, all);
	ret = 0;
out_b:
	diff_free_side(&b);
out_a:
	diff_free_side(&a);
	return ret;
}

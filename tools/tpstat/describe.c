// SPDX-License-Identifier: GPL-2.0
/*
 * What each line of a set's stats file is: a counter, a gauge or a part of
 * a histogram, which of its name's parts are keys (a command, a call site,
 * an IRQ, a CPU) and what metric it belongs to. The stats format carries
 * none of this: each set says it in its metrics file, one pattern per kind
 * of line, the set's own first, then the core's, which every set has.
 * This command knows no set by name. Any histogram is found by the lines
 * it prints. A line no pattern describes still goes out, untyped, under
 * its own name, as every line of a set without a metrics file does.
 *
 * A metrics file: its first line "# tpstat metrics 2", the format's
 * version (a file without it, or version 1's line, is no metrics file
 * this command reads); lines starting with '#' are comments; each other
 * line is
 *   KIND UNIT PATTERN METRIC BUCKETS HELP...
 * separated by single spaces: KIND counter, gauge or hist; UNIT none, ns,
 * bytes or bp; METRIC the name after tpstat_<set>_; BUCKETS, for a
 * histogram, "LOW..HIGH", the lowest value of the first log2 bucket its
 * export writes and the highest of the last (0 or a power of two, and
 * one less than a power of two), "-" for a counter or a gauge; HELP the
 * rest of the line. Version 1 had no BUCKETS: its histograms get their
 * unit's buckets, as the kernel gives one declared without a range, and
 * so does a histogram no declaration describes. A line that does not fit
 * that, or whose pattern does not parse, is left out and the others kept:
 * one bad declaration costs its own lines their types, not the set's.
 *
 * In a pattern, components are separated by dots, as in the names:
 *   word      itself
 *   {label}   a key of one component
 *   {label+}  a key of one or more components: labels may hold dots
 *             (sym.isra.0+0x1/0x2, python3.11); at most one per pattern,
 *             and the components around it are matched from both ends
 *   cpu{cpu}  the word, then a decimal number; keys among words in one
 *             component ({ifindex}@{netns}) are each a decimal number
 *   [...]     an optional part, which may hold others: a line's name
 *             has it or not, and the label of a key it lacks is absent.
 *             A name is matched against the forms with the most keys
 *             first. When every optional part starts with a word that
 *             tags the key after it ("[.comm.{comm+}]"), a set prints
 *             all lines of the pattern with the same parts, and the forms
 *             every such line of the set fits are tried before the others.
 * A key named tracepoint must be one of the set's probes.
 *
 * Sets inside sets are named by their path, and each has its own metrics
 * file. Their metrics are the outermost set's, with the rest of the path
 * as a label (tpstat_nested_label()).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tpstat.h"

#define TPSTAT_METRICS_VERSION	"# tpstat metrics 2"
#define TPSTAT_METRICS_VERSION_1	"# tpstat metrics 1"

static const char *const tpstat_kind_words[] = {
	[TPSTAT_COUNTER] = "counter",
	[TPSTAT_GAUGE] = "gauge",
	[TPSTAT_HIST] = "hist",
};

static const char *const tpstat_unit_words[] = {
	[TPSTAT_UNIT_NONE] = "none",
	[TPSTAT_UNIT_NS] = "ns",
	[TPSTAT_UNIT_BYTES] = "bytes",
	[TPSTAT_UNIT_BP] = "bp",
};

/* The index of @s, @n bytes, in @words, or -1. */
static int word_index(const char *const *words, size_t nr, const char *s,
		      size_t n)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (strlen(words[i]) == n && !memcmp(words[i], s, n))
			return i;
	return -1;
}

static bool is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/*
 * A pattern the matcher can take: keys "{label}" or "{label+}" whose
 * labels are Prometheus label names, at most one "+"; brackets paired;
 * no empty component.
 */
static bool pattern_ok(const char *p, size_t n)
{
	unsigned int depth = 0, multi = 0;
	size_t i, j;

	if (!n || p[0] == '.' || p[n - 1] == '.')
		return false;
	for (i = 0; i < n; i++) {
		switch (p[i]) {
		case '{':
			for (j = i + 1; j < n && is_name_char(p[j]); j++)
				;
			if (j == i + 1 || (p[i + 1] >= '0' && p[i + 1] <= '9'))
				return false;
			if (j < n && p[j] == '+') {
				multi++;
				j++;
			}
			if (j == n || p[j] != '}')
				return false;
			i = j;
			break;
		case '}':
			return false;
		case '[':
			depth++;
			break;
		case ']':
			if (!depth--)
				return false;
			break;
		case '.':
			if (p[i + 1] == '.')
				return false;
			break;
		}
	}
	return !depth && multi <= 1;
}

/*
 * The buckets the kernel gives a histogram declared without a range
 * (core/hist.c), by unit: a histogram of a version 1 file, or of none.
 */
static const struct {
	unsigned long long low, high;
} tpstat_unit_buckets[] = {
	[TPSTAT_UNIT_NONE] = { 0, 65535 },
	[TPSTAT_UNIT_NS] = { 256, 4294967295ULL },
	[TPSTAT_UNIT_BYTES] = { 8, 16777215 },
	[TPSTAT_UNIT_BP] = { 0, 10000 },
};

/* The log2 bucket that holds @v: 0 for 0, else its highest bit's place + 1. */
static unsigned int bucket_of(unsigned long long v)
{
	return v ? 64 - __builtin_clzll(v) : 0;
}

unsigned long long tpstat_bucket_high(unsigned int i)
{
	return i >= 64 ? ~0ULL : (1ULL << i) - 1;
}

void tpstat_unit_buckets_of(enum tpstat_unit unit, unsigned int *first,
			    unsigned int *last)
{
	*first = bucket_of(tpstat_unit_buckets[unit].low);
	*last = bucket_of(tpstat_unit_buckets[unit].high);
}

/* A decimal number of @n bytes at @s, all digits; false if not. */
static bool parse_ull(const char *s, size_t n, unsigned long long *v)
{
	size_t i;

	*v = 0;
	if (!n || n > 20)
		return false;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9' ||
		    *v > (~0ULL - (s[i] - '0')) / 10)
			return false;
		*v = *v * 10 + (s[i] - '0');
	}
	return true;
}

/*
 * BUCKETS of @n bytes: "-" for a counter or a gauge; a histogram's
 * "LOW..HIGH", a bucket's lowest value and a bucket's highest.
 */
static bool parse_buckets(const char *s, size_t n, struct tpstat_metric *m)
{
	const char *dots = memchr(s, '.', n);
	unsigned long long low, high;

	if (m->kind != TPSTAT_HIST)
		return n == 1 && s[0] == '-';
	if (!dots || dots + 1 >= s + n || dots[1] != '.' ||
	    !parse_ull(s, dots - s, &low) ||
	    !parse_ull(dots + 2, s + n - dots - 2, &high) || low > high ||
	    (low & (low - 1)) || (high != ~0ULL && ((high + 1) & high)))
		return false;
	m->first_bucket = bucket_of(low);
	m->last_bucket = bucket_of(high);
	return true;
}

/*
 * One line "KIND UNIT PATTERN METRIC BUCKETS HELP..." of @n bytes, without
 * BUCKETS in version 1; false if not.
 */
static bool parse_metric(const char *s, size_t n, int version,
			 struct tpstat_metric *m)
{
	const char *end = s + n, *f[5];
	size_t len[5];
	unsigned int i, nr = version == 1 ? 4 : 5;
	int kind, unit;

	for (i = 0; i < nr; i++) {
		const char *sp = memchr(s, ' ', end - s);

		f[i] = s;
		len[i] = (sp ? sp : end) - s;
		if (!len[i] || (i < nr - 1 && !sp))
			return false;
		s = sp ? sp + 1 : end;
	}
	kind = word_index(tpstat_kind_words, ARRAY_SIZE(tpstat_kind_words),
			  f[0], len[0]);
	unit = word_index(tpstat_unit_words, ARRAY_SIZE(tpstat_unit_words),
			  f[1], len[1]);
	if (kind < 0 || unit < 0 || !pattern_ok(f[2], len[2]))
		return false;
	for (i = 0; i < len[3]; i++)
		if (!is_name_char(f[3][i]))
			return false;
	m->kind = kind;
	m->unit = unit;
	tpstat_unit_buckets_of(unit, &m->first_bucket, &m->last_bucket);
	if (version > 1 && !parse_buckets(f[4], len[4], m))
		return false;
	m->pattern = tpstat_strndup(f[2], len[2]);
	m->name = tpstat_strndup(f[3], len[3]);
	m->help = s < end ? tpstat_strndup(s, end - s) : NULL;
	return true;
}

int tpstat_parse_metrics(const char *text, size_t len,
			 struct tpstat_metrics *metrics)
{
	const char *end = text + len, *nl;
	size_t n, vlen = strlen(TPSTAT_METRICS_VERSION);
	int version;

	metrics->m = NULL;
	metrics->nr = 0;
	nl = memchr(text, '\n', len);
	n = (nl ? nl : end) - text;
	if (n == vlen && !memcmp(text, TPSTAT_METRICS_VERSION, vlen))
		version = 2;
	else if (n == vlen && !memcmp(text, TPSTAT_METRICS_VERSION_1, vlen))
		version = 1;
	else
		return -EPROTO;
	while (nl) {
		struct tpstat_metric m;

		text = nl + 1;
		nl = memchr(text, '\n', end - text);
		n = (nl ? nl : end) - text;
		if (!n || text[0] == '#' || memchr(text, '\0', n) ||
		    !parse_metric(text, n, version, &m))
			continue;
		metrics->m = tpstat_realloc(metrics->m,
					    (metrics->nr + 1) * sizeof(*metrics->m));
		metrics->m[metrics->nr++] = m;
	}
	return 0;
}

int tpstat_read_metrics(const char *set, struct tpstat_metrics *metrics)
{
	struct tpstat_buf rel = { 0 };
	char *text;
	size_t len;
	int err;

	metrics->m = NULL;
	metrics->nr = 0;
	tpstat_buf_printf(&rel, "%s/metrics", set);
	err = tpstat_read(rel.s, &text, &len);
	if (!err) {
		err = tpstat_parse_metrics(text, len, metrics);
		free(text);
	}
	tpstat_buf_free(&rel);
	return err;
}

void tpstat_say_untyped(const char *set, int err)
{
	const char *untyped = "its lines are untyped, each under its own name";

	if (err == -ENOENT)
		tpstat_err("%s has no metrics file, as a module older than this tpstat: %s",
			   set, untyped);
	else if (err == -EPROTO)
		tpstat_err("%s/metrics does not start \"%s\" (or 1), as a module of another version: %s",
			   set, TPSTAT_METRICS_VERSION, untyped);
	else
		tpstat_err("%s/metrics: %s: %s", set, strerror(-err), untyped);
}

void tpstat_free_metrics(struct tpstat_metrics *metrics)
{
	size_t i;

	for (i = 0; i < metrics->nr; i++) {
		free(metrics->m[i].pattern);
		free(metrics->m[i].name);
		free(metrics->m[i].help);
	}
	free(metrics->m);
	metrics->m = NULL;
	metrics->nr = 0;
}

#define TPSTAT_COMPS_MAX	64
/* Optional parts a pattern may have: its forms fit a u64's bits. */
#define TPSTAT_GROUPS_MAX	6

/* A component of a name or a pattern. */
struct comp {
	const char *s;
	size_t n;
};

/* Splits @s at dots; returns the number of components, 0 if too many. */
static size_t split(const char *s, size_t len, struct comp *c)
{
	size_t nr = 0;
	const char *end = s + len, *dot;

	for (;;) {
		if (nr == TPSTAT_COMPS_MAX)
			return 0;
		dot = memchr(s, '.', end - s);
		c[nr].s = s;
		c[nr].n = (dot ? dot : end) - s;
		nr++;
		if (!dot)
			return nr;
		s = dot + 1;
	}
}

/* One form of a pattern: each optional part in or out. */
struct form {
	char *text;
	struct comp *c;
	size_t nr;
	unsigned int keys;
};

/*
 * The forms of a pattern the set's lines are matched against, those with
 * the most keys first: a line's keys are taken greedily. For a pattern
 * whose lines have the same keys in a set (same_keys()), @fits has bit i
 * set when form i matches every line of the set that some form matches:
 * so an entry of the stack set by comm reads a row whose command looks
 * like more keys ("x.cpu.1") as its other rows say. All ones for other
 * patterns.
 */
struct forms {
	struct form *f;
	unsigned int nr;
	unsigned long long fits;
};

/*
 * Form @mask of @stat in @b: optional part i (by its '[') left out when
 * bit i is set. False for a mask that leaves out a part inside one left
 * out already: that form is the one with the inner part's bit clear.
 */
static bool form_text(const char *stat, unsigned int mask, struct tpstat_buf *b)
{
	unsigned int group = 0, depth = 0, out = 0;

	for (; *stat; stat++) {
		if (*stat == '[') {
			depth++;
			if (group < TPSTAT_GROUPS_MAX && (mask & (1U << group))) {
				if (out)
					return false;
				out = depth;
			}
			group++;
		} else if (*stat == ']') {
			if (out == depth)
				out = 0;
			depth--;
		} else if (!out) {
			tpstat_buf_add(b, stat, 1);
		}
	}
	return true;
}

static unsigned int count_char(const char *s, char c)
{
	unsigned int n = 0;

	for (; *s; s++)
		n += *s == c;
	return n;
}

static void build_forms(const char *stat, struct forms *fs)
{
	unsigned int groups = count_char(stat, '['), mask, i, j;

	if (groups > TPSTAT_GROUPS_MAX)
		groups = TPSTAT_GROUPS_MAX;
	fs->f = tpstat_alloc((1U << groups) * sizeof(*fs->f));
	fs->fits = ~0ULL;
	for (mask = 0; mask < 1U << groups; mask++) {
		struct tpstat_buf b = { 0 };
		struct comp c[TPSTAT_COMPS_MAX];
		struct form f;

		tpstat_buf_add(&b, "", 0);
		if (!form_text(stat, mask, &b)) {
			tpstat_buf_free(&b);
			continue;
		}
		f.text = b.s;
		f.nr = split(f.text, b.len, c);
		f.c = tpstat_alloc((f.nr + 1) * sizeof(*f.c));
		memcpy(f.c, c, f.nr * sizeof(*c));
		f.keys = count_char(f.text, '{');
		/* After those with as many keys or more: the order is stable. */
		for (i = fs->nr; i > 0 && fs->f[i - 1].keys < f.keys; i--)
			;
		for (j = fs->nr; j > i; j--)
			fs->f[j] = fs->f[j - 1];
		fs->f[i] = f;
		fs->nr++;
	}
}

static void free_forms(struct forms *fs, size_t nr)
{
	size_t i, j;

	for (i = 0; i < nr; i++) {
		for (j = 0; j < fs[i].nr; j++) {
			free(fs[i].f[j].text);
			free(fs[i].f[j].c);
		}
		free(fs[i].f);
	}
	free(fs);
}

/* A key of a pattern: its label. */
struct key {
	const char *label;
	size_t label_len;
};

/* "{label}" or "{label+}" at @open; returns what follows it. */
static const char *parse_key(const char *open, struct key *k)
{
	const char *close = strchr(open, '}');

	k->label = open + 1;
	k->label_len = close - k->label;
	if (k->label_len && k->label[k->label_len - 1] == '+')
		k->label_len--;
	return close + 1;
}

/* A component that is a key of one or more components: "{label+}". */
static bool is_multi(const struct comp *p)
{
	return p->n > 3 && p->s[0] == '{' && p->s[p->n - 2] == '+' &&
	       p->s[p->n - 1] == '}';
}

static bool is_probe(const struct tpstat_probes *probes, const char *set,
		     const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < probes->nr; i++)
		if (!strcmp(probes->p[i].set, set) &&
		    strlen(probes->p[i].tracepoint) == n &&
		    !memcmp(probes->p[i].tracepoint, s, n))
			return true;
	return false;
}

/* Where a pattern matched: the labels, and the name's components they took. */
struct match {
	struct comp value[TPSTAT_LABELS_MAX];
	struct key key[TPSTAT_LABELS_MAX];
	unsigned int nr;
	/* The name's components after the last key. */
	size_t after;
};

static bool add_key(struct match *m, const struct key *k, const char *s,
		    size_t n, const struct tpstat_probes *probes, const char *set)
{
	if (!n || m->nr == TPSTAT_LABELS_MAX)
		return false;
	if (k->label_len == strlen("tracepoint") &&
	    !memcmp(k->label, "tracepoint", k->label_len) &&
	    !is_probe(probes, set, s, n))
		return false;
	m->key[m->nr] = *k;
	m->value[m->nr].s = s;
	m->value[m->nr++].n = n;
	return true;
}

/*
 * Matches one component of a form, @p, against the name's @c: a word is
 * itself; a key alone takes the whole component; keys among words
 * ("cpu{cpu}", "{ifindex}@{netns}") each take a decimal number.
 */
static bool match_comp(const struct comp *p, const struct comp *c,
		       struct match *m, const struct tpstat_probes *probes,
		       const char *set)
{
	const char *ps = p->s, *pe = p->s + p->n, *cs = c->s, *ce = c->s + c->n;
	bool alone = p->n > 1 && ps[0] == '{' && memchr(ps, '}', p->n) == pe - 1;

	if (!c->n)
		return false;
	while (ps < pe) {
		const char *open = memchr(ps, '{', pe - ps), *v;
		size_t word = (open ? open : pe) - ps;
		struct key k;

		if ((size_t)(ce - cs) < word || memcmp(ps, cs, word))
			return false;
		ps += word;
		cs += word;
		if (!open)
			break;
		ps = parse_key(open, &k);
		v = cs;
		if (alone)
			cs = ce;
		while (!alone && cs < ce && *cs >= '0' && *cs <= '9')
			cs++;
		if (!add_key(m, &k, v, cs - v, probes, set))
			return false;
	}
	return cs == ce;
}

/* Matches @name's @n components against form @f of a pattern. */
static bool match_form(const struct form *f, const struct comp *name, size_t n,
		       struct match *m, const struct tpstat_probes *probes,
		       const char *set)
{
	const struct comp *p = f->c;
	size_t i, multi = f->nr, at;

	m->nr = 0;
	m->after = 0;
	for (i = 0; i < f->nr; i++)
		if (is_multi(&p[i]))
			multi = i;
	if (!f->nr || (multi == f->nr ? n != f->nr : n < f->nr))
		return false;
	for (i = 0, at = 0; i < f->nr; i++, at++) {
		if (i == multi) {
			size_t last = at + n - f->nr;
			const char *s = name[at].s;
			struct key k;

			for (; at < last; at++)
				if (!name[at].n)
					return false;
			parse_key(p[i].s, &k);
			if (!name[last].n ||
			    !add_key(m, &k, s, name[last].s + name[last].n - s,
				     probes, set))
				return false;
		} else if (!match_comp(&p[i], &name[at], m, probes, set)) {
			return false;
		}
		if (memchr(p[i].s, '{', p[i].n))
			m->after = at + 1;
	}
	return true;
}

/*
 * Matches @name against @fs: first the forms every line of the set fits,
 * then the rest, each in order. Returns the form that matched, or NULL.
 */
static const struct form *match_forms(const struct forms *fs,
				      const struct comp *name, size_t n,
				      struct match *m,
				      const struct tpstat_probes *probes,
				      const char *set)
{
	unsigned int pass, i;

	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < fs->nr; i++)
			if ((fs->fits >> i & 1) == !pass &&
			    match_form(&fs->f[i], name, n, m, probes, set))
				return &fs->f[i];
	return NULL;
}

static const char *const tpstat_hist_parts[] = {
	[TPSTAT_HIST_COUNT] = "count",
	[TPSTAT_HIST_SUM] = "sum",
	[TPSTAT_HIST_MIN] = "min",
	[TPSTAT_HIST_MAX] = "max",
	[TPSTAT_HIST_P50] = "p50",
	[TPSTAT_HIST_P90] = "p90",
	[TPSTAT_HIST_P99] = "p99",
};

/* The histogram part @s names: "count", ..., "bucket_<low>_<high>". */
static enum tpstat_hist_part hist_part(const char *s, unsigned long long *low,
				       unsigned long long *high)
{
	unsigned int i;
	int end = 0;

	for (i = TPSTAT_HIST_COUNT; i <= TPSTAT_HIST_P99; i++)
		if (!strcmp(s, tpstat_hist_parts[i]))
			return i;
	if (!strncmp(s, "bucket_", 7) && s[7] >= '0' && s[7] <= '9' &&
	    sscanf(s, "bucket_%llu_%llu%n", low, high, &end) == 2 &&
	    !s[end] && *low <= *high)
		return TPSTAT_HIST_BUCKET;
	return TPSTAT_HIST_NONE;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool has_name(char **sorted, size_t nr, const char *prefix,
		     size_t len, const char *part)
{
	struct tpstat_buf b = { 0 };
	bool found;
	char *key;

	tpstat_buf_add(&b, prefix, len);
	tpstat_buf_printf(&b, ".%s", part);
	key = b.s;
	found = bsearch(&key, sorted, nr, sizeof(*sorted), cmp_str);
	tpstat_buf_free(&b);
	return found;
}

void tpstat_sanitize(struct tpstat_buf *b, const char *s, size_t n)
{
	size_t i, start = b->len;

	for (i = 0; i < n; i++) {
		char c = s[i];
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || c == '_';

		tpstat_buf_add(b, ok ? &c : "_", 1);
	}
	if (b->len > start && b->s[start] >= '0' && b->s[start] <= '9') {
		tpstat_buf_add(b, "_", 1);
		memmove(b->s + start + 1, b->s + start, b->len - start - 1);
		b->s[start] = '_';
	}
}

/*
 * A line no pattern describes: its name, sanitized; one ending in "ns"
 * (".ns", "_ns") is taken as nanoseconds, as every tpstat set names them.
 */
static void describe_unknown(struct tpstat_meaning *m, const char *name,
			     size_t len)
{
	struct tpstat_buf b = { 0 };

	if (len > 3 && (!strncmp(name + len - 3, ".ns", 3) ||
			!strncmp(name + len - 3, "_ns", 3))) {
		m->unit = TPSTAT_UNIT_NS;
		tpstat_sanitize(&b, name, len - 2);
		tpstat_buf_add(&b, "seconds", 7);
	} else {
		tpstat_sanitize(&b, name, len);
	}
	m->metric = b.s;
	m->help = NULL;
}

static char *join(const struct comp *c, size_t from, size_t to)
{
	if (from >= to)
		return tpstat_strdup("");
	return tpstat_strndup(c[from].s, c[to - 1].s + c[to - 1].n - c[from].s);
}

/*
 * The table a keyed line is a row of: the pattern's words before its
 * first key or optional part ("dev" of "dev.{device+}[...]"), or the set's
 * name when there are none, then every key the pattern has.
 */
static char *table_of(const struct tpstat_meaning *m, const char *stat,
		      const char *set)
{
	size_t len = strcspn(stat, "{[");
	struct tpstat_buf b = { 0 };
	unsigned int i;

	/* The component a key is part of ("cpu{cpu}") is not a word. */
	if (stat[len] == '{')
		while (len && stat[len - 1] != '.')
			len--;
	while (len && stat[len - 1] == '.')
		len--;
	if (len)
		tpstat_buf_add(&b, stat, len);
	else
		tpstat_buf_add(&b, set, strlen(set));
	tpstat_buf_add(&b, " by", 3);
	for (i = 0; i < m->nr_labels; i++)
		tpstat_buf_printf(&b, " %s", m->labels[i].name);
	return b.s;
}

/* The labels of a match, and where watch shows the line. */
static void describe_match(struct tpstat_meaning *m,
			   const struct tpstat_metric *pat,
			   const struct match *mt, const struct comp *name,
			   size_t n, const char *set)
{
	struct tpstat_buf row = { 0 };
	const char *s = pat->pattern;
	unsigned int i, j;

	m->metric = tpstat_strdup(pat->name);
	m->help = pat->help ? tpstat_strdup(pat->help) : NULL;
	m->kind = pat->kind;
	m->unit = pat->unit;
	m->first_bucket = pat->first_bucket;
	m->last_bucket = pat->last_bucket;
	/* Every key of the pattern, each with the value the name gave it. */
	while ((s = strchr(s, '{')) && m->nr_labels < TPSTAT_LABELS_MAX) {
		struct tpstat_label *l = &m->labels[m->nr_labels++];
		struct key k;

		s = parse_key(s, &k);
		l->name = tpstat_strndup(k.label, k.label_len);
		for (j = 0; j < mt->nr; j++)
			if (mt->key[j].label_len == k.label_len &&
			    !memcmp(mt->key[j].label, k.label, k.label_len))
				l->value = tpstat_strndup(mt->value[j].s,
							  mt->value[j].n);
		if (strcmp(l->name, "tracepoint"))
			m->keyed = true;
	}
	if (!m->keyed)
		return;
	m->table = table_of(m, pat->pattern, set);
	tpstat_buf_add(&row, "", 0);
	for (i = 0; i < m->nr_labels; i++)
		tpstat_buf_printf(&row, "%s%s", i ? "\n" : "",
				  m->labels[i].value ? m->labels[i].value : "");
	m->row = row.s;
	m->column = mt->after < n ? join(name, mt->after, n) :
				    tpstat_strdup(pat->name);
}

/* A histogram's part: its prefix is matched against the patterns. */
static bool describe_hist(struct tpstat_meaning *m, const char *name,
			  char **sorted, size_t nr_sorted,
			  const struct tpstat_metrics *metrics,
			  const struct forms *forms,
			  const struct tpstat_probes *probes, const char *set)
{
	const char *dot = strrchr(name, '.');
	struct comp c[TPSTAT_COMPS_MAX];
	unsigned long long low = 0, high = 0;
	enum tpstat_hist_part part;
	struct tpstat_buf col = { 0 };
	struct match mt;
	size_t i, n, len;

	if (!dot)
		return false;
	part = hist_part(dot + 1, &low, &high);
	len = dot - name;
	/* A histogram prints all of these, buckets only when not empty. */
	if (!part || !has_name(sorted, nr_sorted, name, len, "count") ||
	    !has_name(sorted, nr_sorted, name, len, "sum") ||
	    !has_name(sorted, nr_sorted, name, len, "p99"))
		return false;
	m->part = part;
	m->prefix_len = len;
	m->bucket_low = low;
	m->bucket_high = high;
	n = split(name, len, c);
	for (i = 0; n && i < metrics->nr; i++) {
		const struct tpstat_metric *pat = &metrics->m[i];

		if (pat->kind != TPSTAT_HIST || !forms[i].nr ||
		    !match_forms(&forms[i], c, n, &mt, probes, set))
			continue;
		describe_match(m, pat, &mt, c, n, set);
		if (m->keyed) {
			/* "ns.count" of hardirq's "4.ttyS0.ns.count". */
			if (mt.after < n)
				tpstat_buf_printf(&col, "%s.", m->column);
			tpstat_buf_printf(&col, "%s", dot + 1);
			free(m->column);
			m->column = col.s;
		}
		return true;
	}
	describe_unknown(m, name, len);
	m->kind = TPSTAT_HIST;
	tpstat_unit_buckets_of(m->unit, &m->first_bucket, &m->last_bucket);
	return true;
}

static void describe_line(struct tpstat_meaning *m, const char *name,
			  char **sorted, size_t nr_sorted,
			  const struct tpstat_metrics *metrics,
			  const struct forms *forms,
			  const struct tpstat_probes *probes, const char *set)
{
	struct comp c[TPSTAT_COMPS_MAX];
	struct match mt;
	size_t i, n;

	if (describe_hist(m, name, sorted, nr_sorted, metrics, forms, probes,
			  set))
		return;
	n = split(name, strlen(name), c);
	for (i = 0; n && i < metrics->nr; i++) {
		const struct tpstat_metric *pat = &metrics->m[i];

		if (pat->kind == TPSTAT_HIST || !forms[i].nr ||
		    !match_forms(&forms[i], c, n, &mt, probes, set))
			continue;
		describe_match(m, pat, &mt, c, n, set);
		return;
	}
	describe_unknown(m, name, strlen(name));
	m->kind = TPSTAT_UNTYPED;
}

/*
 * A pattern whose lines all have the same optional parts in a set: one
 * whose every optional part starts with a word naming the key after it
 * ("[.comm.{comm+}]"), as a stack entry's rows, each counted by the same
 * keys. Not one whose parts start with a key ("[.{ifindex}[@{netns}]]"),
 * whose lines have them or not each its own way (net's devices).
 */
static bool same_keys(const struct tpstat_metric *pat)
{
	const char *p = pat->pattern;
	bool tagged = false;

	if (pat->kind == TPSTAT_HIST)
		return false;
	for (; (p = strchr(p, '[')); p++) {
		if (p[1] != '.' || p[2] == '{' || p[2] == '[' || p[2] == '.')
			return false;
		tagged = true;
	}
	return tagged;
}

/*
 * The forms of @stats' set's patterns, and of those whose lines have the
 * same keys, which forms every line they match fits.
 */
static struct forms *set_forms(const struct tpstat_stats *stats,
			       const struct tpstat_probes *probes,
			       const struct tpstat_metrics *metrics)
{
	struct forms *forms = tpstat_alloc((metrics->nr + 1) * sizeof(*forms));
	struct comp c[TPSTAT_COMPS_MAX];
	struct match mt;
	size_t i, l, n;
	unsigned int f;

	for (i = 0; i < metrics->nr; i++)
		build_forms(metrics->m[i].pattern, &forms[i]);
	for (l = 0; l < stats->nr; l++) {
		n = split(stats->lines[l].name, strlen(stats->lines[l].name), c);
		for (i = 0; n && i < metrics->nr; i++) {
			unsigned long long fit = 0;

			if (forms[i].nr < 2 || !same_keys(&metrics->m[i]))
				continue;
			for (f = 0; f < forms[i].nr; f++)
				if (match_form(&forms[i].f[f], c, n, &mt, probes,
					       stats->set))
					fit |= 1ULL << f;
			if (fit)
				forms[i].fits &= fit;
		}
	}
	return forms;
}

void tpstat_describe(const struct tpstat_stats *stats,
		     const struct tpstat_probes *probes,
		     const struct tpstat_metrics *metrics,
		     struct tpstat_meaning *m)
{
	char **sorted = tpstat_alloc((stats->nr + 1) * sizeof(*sorted));
	struct forms *forms = set_forms(stats, probes, metrics);
	size_t l;

	for (l = 0; l < stats->nr; l++)
		sorted[l] = stats->lines[l].name;
	qsort(sorted, stats->nr, sizeof(*sorted), cmp_str);

	for (l = 0; l < stats->nr; l++) {
		const char *name = stats->lines[l].name;
		const char *dot;

		memset(&m[l], 0, sizeof(m[l]));
		describe_line(&m[l], name, sorted, stats->nr, metrics, forms,
			      probes, stats->set);
		if (!m[l].keyed) {
			/* Columns are grouped by what comes before the last dot. */
			dot = m[l].part ? name + m[l].prefix_len : strrchr(name, '.');
			m[l].group = dot ? tpstat_strndup(name, dot - name) :
					   tpstat_strdup("");
			m[l].column = tpstat_strdup(dot ? dot + 1 : name);
		}
		/* watch shows a histogram's sum as its interval's mean. */
		if (m[l].part == TPSTAT_HIST_SUM)
			memcpy(m[l].column + strlen(m[l].column) - 3, "avg", 3);
	}
	free_forms(forms, metrics->nr);
	free(sorted);
}

/*
 * tpstat_stack.ko's entries are sets named by the tracepoint they count:
 * the one set named here, as the metrics format names no label for a
 * set's path.
 */
static const struct {
	const char *set, *label;
} tpstat_nested[] = {
	{ "stack", "tracepoint" },
};

const char *tpstat_nested_label(const char *set, size_t *top_len)
{
	const char *slash = strchr(set, '/');
	size_t i;

	if (!slash)
		return NULL;
	*top_len = slash - set;
	for (i = 0; i < ARRAY_SIZE(tpstat_nested); i++)
		if (strlen(tpstat_nested[i].set) == *top_len &&
		    !strncmp(tpstat_nested[i].set, set, *top_len))
			return tpstat_nested[i].label;
	return "set";
}

void tpstat_free_meanings(struct tpstat_meaning *m, size_t nr)
{
	size_t l;
	unsigned int i;

	for (l = 0; l < nr; l++) {
		for (i = 0; i < m[l].nr_labels; i++) {
			free(m[l].labels[i].name);
			free(m[l].labels[i].value);
		}
		free(m[l].metric);
		free(m[l].help);
		free(m[l].table);
		free(m[l].row);
		free(m[l].column);
		free(m[l].group);
	}
}

static const struct tpstat_stats *sort_stats;

static int cmp_line(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(sort_stats->lines[x].name, sort_stats->lines[y].name);

	return c ? c : (x > y) - (x < y);
}

/* Folds @from, a second line of the same name, into @into. */
static bool merge_line(struct tpstat_line *into, const struct tpstat_line *from,
		       const struct tpstat_meaning *m)
{
	switch (m->kind == TPSTAT_HIST ? m->part : TPSTAT_HIST_NONE) {
	case TPSTAT_HIST_COUNT:
	case TPSTAT_HIST_SUM:
	case TPSTAT_HIST_BUCKET:
		into->value += from->value;
		return true;
	case TPSTAT_HIST_MIN:
		if (from->value < into->value)
			into->value = from->value;
		return true;
	case TPSTAT_HIST_MAX:
		if (from->value > into->value)
			into->value = from->value;
		return true;
	case TPSTAT_HIST_NONE:
		if (m->kind != TPSTAT_COUNTER)
			return false;
		into->value += from->value;
		return true;
	default:
		/* A percentile of two rows is not to be had from theirs. */
		return false;
	}
}

size_t tpstat_merge_duplicates(struct tpstat_stats *stats,
			       struct tpstat_meaning *m)
{
	size_t *order = tpstat_alloc((stats->nr + 1) * sizeof(*order));
	bool *gone = tpstat_alloc(stats->nr + 1);
	size_t i, first = 0, out, kept = 0;

	for (i = 0; i < stats->nr; i++)
		order[i] = i;
	sort_stats = stats;
	qsort(order, stats->nr, sizeof(*order), cmp_line);
	for (i = 1; i < stats->nr; i++) {
		struct tpstat_line *a, *b;

		a = &stats->lines[order[first]];
		b = &stats->lines[order[i]];
		if (strcmp(a->name, b->name)) {
			first = i;
			continue;
		}
		if (!merge_line(a, b, &m[order[i]]))
			kept++;
		gone[order[i]] = true;
	}
	for (i = 0, out = 0; i < stats->nr; i++) {
		if (gone[i]) {
			free(stats->lines[i].name);
			tpstat_free_meanings(&m[i], 1);
			continue;
		}
		stats->lines[out] = stats->lines[i];
		m[out++] = m[i];
	}
	stats->nr = out;
	free(order);
	free(gone);
	return kept;
}

bool tpstat_is_counter(const struct tpstat_meaning *m)
{
	if (m->kind == TPSTAT_HIST)
		return m->part == TPSTAT_HIST_COUNT || m->part == TPSTAT_HIST_SUM;
	return m->kind == TPSTAT_COUNTER || m->kind == TPSTAT_UNTYPED;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tpstat(8): reads the files tpstat's modules keep under
 * /sys/kernel/debug/tpstat/. Each command is a function of its own file,
 * named in main.c's table; what they share is declared here.
 */
#ifndef _TPSTAT_TOOL_H
#define _TPSTAT_TOOL_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define __printf(a, b)	__attribute__((format(printf, a, b)))

/* A command: argv[0] is its name, options follow. Returns the exit status. */
int tpstat_list(int argc, char **argv);
int tpstat_show(int argc, char **argv);
int tpstat_watch(int argc, char **argv);
int tpstat_export(int argc, char **argv);
int tpstat_stat(int argc, char **argv);
/* Whether @set is an instance tpstat stat makes: count/stat_<pid>[_<n>]. */
bool tpstat_is_stat_instance(const char *set);
/* control.c: a line written to a set's enable, reset, control or filter. */
int tpstat_enable(int argc, char **argv);
int tpstat_reset(int argc, char **argv);
int tpstat_add(int argc, char **argv);
int tpstat_remove(int argc, char **argv);
int tpstat_filter(int argc, char **argv);
/* diff.c: what changed between two exports of export --json. */
int tpstat_diff(int argc, char **argv);
/* flame.c: folded stacks drawn as an SVG flame graph. */
int tpstat_flame(int argc, char **argv);

/*
 * getopt_long() for a command, @shortopts starting with ':' (or "+:", for
 * options that end at the first operand): -h and --help print @usage and
 * exit 0, a bad option is one line on stderr and exit TPSTAT_EXIT_USAGE.
 */
int tpstat_getopt(int argc, char **argv, const char *usage,
		  const char *shortopts, const struct option *longopts);

/* "tpstat: " and one line on stderr. */
void tpstat_err(const char *fmt, ...) __printf(1, 2);

/*
 * A command used wrongly exits 2, as getopt's users and perf do, so that a
 * script can tell it from a failure (1).
 */
#define TPSTAT_EXIT_USAGE	2

/*
 * One line on stderr after a bad option or operand, saying where --help is;
 * returns TPSTAT_EXIT_USAGE.
 */
int tpstat_usage_error(const char *cmd, const char *fmt, ...)
	__printf(2, 3);

/*
 * Flushes stdout; false once a write to it has failed (a full disk, a
 * closed pipe), whose cause is kept for tpstat_output_done().
 */
bool tpstat_output_ok(void);

/*
 * A command's exit status, once its output is flushed: after a write error,
 * one line saying why, and 1 unless the status says a failure already.
 */
int tpstat_output_done(int status);

/* @v in decimal, its digits grouped by thousands with commas, as perf stat. */
void tpstat_grouped(char *buf, size_t size, unsigned long long v);

void *tpstat_alloc(size_t size);
void *tpstat_realloc(void *p, size_t size);
char *tpstat_strdup(const char *s);
char *tpstat_strndup(const char *s, size_t n);

/* A growing string. */
struct tpstat_buf {
	char *s;
	size_t len, size;
};

void tpstat_buf_add(struct tpstat_buf *b, const char *s, size_t n);
void tpstat_buf_printf(struct tpstat_buf *b, const char *fmt, ...)
	__printf(2, 3);
void tpstat_buf_free(struct tpstat_buf *b);

/* debugfs.c: where the files are, and what keeps us from reading them. */

/* The debugfs mount: $TPSTAT_DEBUGFS, else /sys/kernel/debug. */
const char *tpstat_debugfs(void);

/*
 * The file that takes the writes lockdown refuses debugfs, "SET/FILE
 * LINE": $TPSTAT_CONTROL, else /sys/kernel/tpstat/control.
 */
const char *tpstat_control_file(void);

/*
 * Checks that tpstat's directory can be read; if not, says why on one line
 * (not root, debugfs not mounted, tpstat not loaded) and returns -1.
 */
int tpstat_check_root(void);

/* tpstat/@rel exists, as root sees it. */
bool tpstat_exists(const char *rel);

/*
 * Reads tpstat/@rel whole into a NUL-terminated buffer. Returns 0, or a
 * negative errno with nothing allocated; tpstat_file_error() says why.
 */
int tpstat_read(const char *rel, char **text, size_t *len);
void tpstat_file_error(const char *rel, int err);

/*
 * The loaded core's version, "0.1.0", from tpstat/version without its
 * newline; as tpstat_read() for what it returns.
 */
int tpstat_read_version(char **version);

/*
 * Writes @line, and a newline, to tpstat/@rel in one write(); when
 * lockdown refuses the file (EPERM), or there is no tpstat/ under debugfs,
 * "@rel @line" to tpstat_control_file() instead, if it is there. Returns
 * 0, or a negative errno: the file's own answer (EINVAL, ENOSPC ...) or
 * why it could not be opened, which tpstat_write_error() says.
 */
int tpstat_write(const char *rel, const char *line);
void tpstat_write_error(const char *rel, int err);

/*
 * The loaded sets' names, sorted, each followed by the sets inside it: a
 * directory under a set's that has a stats file of its own is a set too,
 * named by its path ("stack/kmalloc"). 0, or -1 after saying why.
 */
int tpstat_set_names(char ***names, size_t *nr);
void tpstat_free_names(char **names, size_t nr);
/* @set, a name or a path, is a loaded set. */
bool tpstat_set_exists(const char *set);
/* @set is @name, or a set inside it. */
bool tpstat_set_within(const char *set, const char *name);

/* The files of a set's directory, sorted, each with its mode. */
struct tpstat_file {
	char *name;
	unsigned int mode;
};

int tpstat_set_files(const char *set, struct tpstat_file **files, size_t *nr);
void tpstat_free_files(struct tpstat_file *files, size_t nr);

/* One row of the probes file. */
struct tpstat_probe {
	char *set;
	char *tracepoint;
	char *state;
	unsigned long long hits, dropped;
};

struct tpstat_probes {
	struct tpstat_probe *p;
	size_t nr;
};

int tpstat_read_probes(struct tpstat_probes *probes);
void tpstat_free_probes(struct tpstat_probes *probes);

/* stats.c: a set's stats file, as "name value" lines. */

struct tpstat_line {
	char *name;
	unsigned long long value;
};

struct tpstat_stats {
	char *set;
	struct tpstat_line *lines;
	size_t nr;
	/* The kernel's since_reset_ns line, if the file had one. */
	bool has_since_reset;
	unsigned long long since_reset_ns;
	/* Lines that were not "name value", left out. */
	size_t malformed;
};

/* Reads SET/stats; a negative errno as tpstat_read() does. */
int tpstat_read_stats(const char *set, struct tpstat_stats *stats);
/* Reads any file of "name value" lines, such as memory. */
int tpstat_read_values(const char *rel, struct tpstat_stats *stats);
void tpstat_free_stats(struct tpstat_stats *stats);

/*
 * describe.c: what each stats line is, for watch and export, as the set's
 * metrics file says.
 */

enum tpstat_kind {
	TPSTAT_COUNTER,
	TPSTAT_GAUGE,
	TPSTAT_HIST,
	/* A line no pattern describes: a set without a metrics file. */
	TPSTAT_UNTYPED,
};

enum tpstat_unit {
	TPSTAT_UNIT_NONE,
	/* Nanoseconds in the stats, seconds in Prometheus. */
	TPSTAT_UNIT_NS,
	TPSTAT_UNIT_BYTES,
	/* Basis points in the stats, a ratio from 0 to 1 in Prometheus. */
	TPSTAT_UNIT_BP,
};

/* The parts of a histogram's stats lines, after its prefix. */
enum tpstat_hist_part {
	TPSTAT_HIST_NONE,
	TPSTAT_HIST_COUNT,
	TPSTAT_HIST_SUM,
	TPSTAT_HIST_MIN,
	TPSTAT_HIST_MAX,
	TPSTAT_HIST_P50,
	TPSTAT_HIST_P90,
	TPSTAT_HIST_P99,
	TPSTAT_HIST_BUCKET,
};

#define TPSTAT_LABELS_MAX	8

struct tpstat_label {
	char *name;
	char *value;
};

/* What one stats line is. */
struct tpstat_meaning {
	/* The metric, without tpstat_<set>_ and _total; owned. */
	char *metric;
	/* Owned; NULL when the set's metrics file gives none. */
	char *help;
	enum tpstat_kind kind;
	enum tpstat_unit unit;
	/*
	 * The keys of the line's kind, as labels, in the pattern's order; the
	 * value of one the line's name does not hold (an optional part of its
	 * pattern) is NULL.
	 */
	struct tpstat_label labels[TPSTAT_LABELS_MAX];
	unsigned int nr_labels;
	/* Keys other than the tracepoint: the line is a row of a table. */
	bool keyed;
	/* For TPSTAT_HIST: which part, the prefix, and a bucket's bounds. */
	enum tpstat_hist_part part;
	size_t prefix_len;
	unsigned long long bucket_low, bucket_high;
	/* For TPSTAT_HIST: the log2 buckets its export writes, as struct tpstat_metric's. */
	unsigned int first_bucket, last_bucket;
	/*
	 * For watch: the table a keyed line is a row of ("site by site"),
	 * its row (the values of its labels, one per line, empty for one it
	 * does not hold) and its column; else the column's group and name.
	 */
	char *table, *row, *column, *group;
};

/*
 * A set inside another is exported with the metrics of the outermost
 * ("tpstat_stack_..."), the rest of its path as a label: the name of that
 * label, or NULL for a set that is not inside another. @top_len gets the
 * length of the outermost set's name.
 */
const char *tpstat_nested_label(const char *set, size_t *top_len);

/* A kind of line a set's metrics file declares. */
struct tpstat_metric {
	enum tpstat_kind kind;
	enum tpstat_unit unit;
	/* The pattern its lines' names fit (describe.c's header says how). */
	char *pattern;
	/* Without tpstat_<set>_, its unit's word included. */
	char *name;
	/* NULL when the line has none. */
	char *help;
	/*
	 * A histogram's buckets in an export: log2 buckets by index, 0 the
	 * value 0 and i > 0 from 2^(i-1) to 2^i - 1, from @first_bucket to
	 * @last_bucket, every one on every scrape.
	 */
	unsigned int first_bucket, last_bucket;
};

/* The highest value of log2 bucket @i (struct tpstat_metric's buckets). */
unsigned long long tpstat_bucket_high(unsigned int i);

/* The buckets of a histogram of @unit declared without its own. */
void tpstat_unit_buckets_of(enum tpstat_unit unit, unsigned int *first,
			    unsigned int *last);

/* A set's metrics file: what its stats lines are, in the order tried. */
struct tpstat_metrics {
	struct tpstat_metric *m;
	size_t nr;
};

/*
 * Parses a metrics file's @len bytes at @text into @metrics. Returns 0, or
 * -EPROTO with none when its first line is not the version this tool
 * reads. Free with tpstat_free_metrics().
 */
int tpstat_parse_metrics(const char *text, size_t len,
			 struct tpstat_metrics *metrics);
/*
 * Reads SET/metrics into @metrics. Returns 0, or a negative errno with
 * none: -ENOENT when the set has no such file (a module older than this
 * tool), -EPROTO when it is of another version; its lines are untyped.
 */
int tpstat_read_metrics(const char *set, struct tpstat_metrics *metrics);
/*
 * Says on stderr why @set's lines are untyped, in one line, after
 * tpstat_read_metrics() returned @err: an older module, another version.
 */
void tpstat_say_untyped(const char *set, int err);
void tpstat_free_metrics(struct tpstat_metrics *metrics);

/*
 * Reads the meaning of every line of @stats into @m (an array of
 * stats->nr), as @metrics declares them, with the set's tracepoints from
 * @probes. Free with tpstat_free_meanings().
 */
void tpstat_describe(const struct tpstat_stats *stats,
		     const struct tpstat_probes *probes,
		     const struct tpstat_metrics *metrics,
		     struct tpstat_meaning *m);
void tpstat_free_meanings(struct tpstat_meaning *m, size_t nr);

/*
 * Lines that share a name are one: kmem names a slab cache by its object
 * size, so two caches of one size print the same names. Counters, and a
 * histogram's count, sum and buckets, are added; of a min or a max the
 * least or the most is kept; of anything else the first. Returns how many
 * of those were left out.
 */
size_t tpstat_merge_duplicates(struct tpstat_stats *stats,
			       struct tpstat_meaning *m);

/* Prometheus names: [a-zA-Z_][a-zA-Z0-9_]*; ':' is kept for rules. */
void tpstat_sanitize(struct tpstat_buf *b, const char *s, size_t n);

/* What wants a string escaped: each escapes \\ and newlines, and more. */
enum tpstat_escape {
	/* A JSON string: " too, and control characters as \\u00XX. */
	TPSTAT_ESCAPE_JSON,
	/* A Prometheus label value: " too. */
	TPSTAT_ESCAPE_LABEL,
	/* A Prometheus HELP text. */
	TPSTAT_ESCAPE_HELP,
};

/*
 * Adds @s to @b as @how wants it, without quotes, and valid UTF-8: a byte
 * that is not part of a UTF-8 sequence becomes U+FFFD.
 */
void tpstat_escape(struct tpstat_buf *b, const char *s, enum tpstat_escape how);

/* The length of the UTF-8 sequence at @s, or 0 if it is not one. */
size_t tpstat_utf8_len(const unsigned char *s);

/* Counters, which have rates: the count and sum of a histogram too. */
bool tpstat_is_counter(const struct tpstat_meaning *m);

/* sample.c: a set's counters at two moments, and their rates. */

/* What watch shows of an interval: counters, and a histogram's p99. */
bool tpstat_has_rate(const struct tpstat_meaning *m);

struct tpstat_sample {
	struct tpstat_stats stats;
	/* What each line is. */
	struct tpstat_meaning *m;
	/* CLOCK_MONOTONIC, before the stats were read. */
	struct timespec t;
	/* The lines by name, to find a counter's last value. */
	size_t *by_name;
};

/* What tpstat_sample() said once, not to say it at every sample. */
#define TPSTAT_WARNED_MALFORMED	1
#define TPSTAT_WARNED_DUPLICATE	2
#define TPSTAT_WARNED_UNTYPED	4

/*
 * Reads SET/stats now; 0, or -1 after saying why (the set unloaded,
 * say). Its warnings go out once, as @warned keeps.
 */
int tpstat_sample(const char *set, struct tpstat_sample *s, unsigned int *warned);
void tpstat_free_sample(struct tpstat_sample *s);

/* A counter's rate per second, or that it went down (no rate). */
struct tpstat_rate {
	double rate;
	bool down;
	/* A histogram's sum: @rate is its interval's mean, in @unit. */
	bool mean;
	/* A histogram's p99: @rate is its interval's, a bucket's bound, in @unit. */
	bool p99;
	enum tpstat_unit unit;
};

/*
 * The rate of each counter of @cur (an array of cur->stats.nr), over @dt
 * seconds; with @reset, the set was reset in between and the rates are
 * over the time since. A histogram's sum gets its interval's mean, its p99
 * line the interval's p99. Returns how many counters went down without a
 * reset, the first three named in @down_names.
 */
size_t tpstat_rates(const struct tpstat_sample *prev,
		    const struct tpstat_sample *cur, struct tpstat_rate *r,
		    double *dt, bool *reset, struct tpstat_buf *down_names);

/* A histogram's bucket and its growth in an interval. */
struct tpstat_bucket {
	unsigned long long low, high, delta;
};

/*
 * The buckets of @cur's histogram whose lines start with the @prefix_len
 * characters of @prefix ("runqlat"), sorted by their bounds, each with its
 * growth since @prev (from zero with @reset); @down says that one went
 * down or is gone without a reset. Returns how many, in *@b, to free.
 */
size_t tpstat_bucket_deltas(const struct tpstat_sample *prev,
			    const struct tpstat_sample *cur, const char *prefix,
			    size_t prefix_len, bool reset, struct tpstat_bucket **b,
			    bool *down);

/* A line of @s named @name, or NULL. */
const struct tpstat_line *tpstat_sample_line(const struct tpstat_sample *s,
					     const char *name);

/*
 * A rate as watch prints it, in at most six characters: "-" if it went
 * down, one decimal below 100, whole below 100000, then scaled (14.9M); a
 * histogram's mean or p99 of nanoseconds as a time (12.5us), a p99 of
 * anything else whole or scaled.
 */
void tpstat_format_rate(char *buf, size_t size, const struct tpstat_rate *r);

/* The seconds from @from to @to. */
double tpstat_seconds(const struct timespec *from, const struct timespec *to);

/*
 * @s as -i's value: seconds, from 0.01 to 86400. 0, or the usage error's
 * status after saying it.
 */
int tpstat_parse_interval(const char *cmd, const char *s, double *interval);

/*
 * Sleeps until @next plus @interval seconds, which becomes @next; past
 * deadlines are skipped, so that samples keep to fixed times.
 */
void tpstat_sleep_until(struct timespec *next, double interval);

/* A number, as an option's value; false if it is not one. */
bool tpstat_parse_number(const char *s, double *value);

/* events.c: the tracepoints the running kernel has, and globs of them. */

/* The longest subsystem or tracepoint name, or glob of one, taken. */
#define TPSTAT_EVENT_MAX	127

struct tpstat_tracepoint {
	/* tracefs' events/ directory it is in; NULL when only kallsyms told. */
	char *subsys;
	char *name;
};

struct tpstat_tracepoints {
	/* Sorted by subsystem (those without one last), then name. */
	struct tpstat_tracepoint *tp;
	size_t nr;
	/* From tracefs: each has its subsystem. */
	bool has_subsys;
};

/*
 * tracefs' events directory: $TPSTAT_TRACEFS/events, else
 * /sys/kernel/tracing/events if there is one, else debugfs's
 * tracing/events. /proc/kallsyms ($TPSTAT_KALLSYMS in tests) is read too.
 */
const char *tpstat_tracefs_events(void);

/*
 * The kernel's tracepoints and its loaded modules': those of tracefs'
 * events that kallsyms names as tracepoints, then those kallsyms alone
 * has (no event: DECLARE_TRACE()), without a subsystem; without tracefs,
 * kallsyms' alone, said on stderr. 0, or -1 after saying why neither can
 * be read.
 */
int tpstat_read_tracepoints(struct tpstat_tracepoints *t);
void tpstat_free_tracepoints(struct tpstat_tracepoints *t);

/*
 * An event as perf and bpftrace name it: [SUBSYSTEM:]NAME, each part a C
 * identifier or a glob of one (fnmatch(3): *, ?, [...]).
 */
bool tpstat_event_valid(const char *s, size_t n);
bool tpstat_event_is_glob(const char *s, size_t n);
/* @tp matches @spec, a valid event; an unknown subsystem matches "*" only. */
bool tpstat_event_match(const struct tpstat_tracepoint *tp, const char *spec);
/* Why @spec may have matched nothing: "", or a clause in parentheses. */
const char *tpstat_event_hint(const struct tpstat_tracepoints *t, const char *spec);

/* json_read.c: a JSON document read whole (tpstat diff reads exports). */
enum json_type { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

struct json {
	enum json_type type;
	/* A string's text, or a number's as written. */
	char *s;
	/* An array's items, an object's values with their names in @keys. */
	struct json *items;
	char **keys;
	size_t nr;
};

bool tpstat_json_read(const char *path, const char *text, size_t len,
		      struct json *root);
void tpstat_json_free(struct json *v);
const struct json *tpstat_json_member(const struct json *v, const char *key);

/* @s as a JSON string, quoted and escaped (json.c). */
void tpstat_json_string(FILE *f, const char *s);

/* export.c's two formats. */
/*
 * What the Prometheus export leaves out by default, put back (export's
 * --keep, whose words tpstat.8 explains): call sites' offsets, zero
 * counters keyed by a CPU, histograms by CPU, pid, tgid and rank labels,
 * and tpstat stat's count instances.
 */
#define TPSTAT_EXPORT_OFFSETS	0x1
#define TPSTAT_EXPORT_ZEROS	0x2
#define TPSTAT_EXPORT_CPU	0x4
#define TPSTAT_EXPORT_PID	0x8
#define TPSTAT_EXPORT_STAT	0x10
int tpstat_export_prometheus(FILE *f, char **sets, size_t nr,
			     unsigned int flags);
/* Adds a="x" to a sample's labels in @b, the value escaped. */
void tpstat_prometheus_label(struct tpstat_buf *b, const char *name,
			     const char *value);
/* health.c: probe states, build, memory and time, after the sets' metrics. */
int tpstat_export_health(FILE *f, const struct tpstat_probes *probes,
			 char **sets, size_t nr);
int tpstat_export_json(FILE *f, char **sets, size_t nr);

#endif /* _TPSTAT_TOOL_H */

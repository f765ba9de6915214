// SPDX-License-Identifier: GPL-2.0
/*
 * Every set as JSON, for whatever is not Prometheus: the core's version
 * and memory, and per set its probes, its stats lines as they stand,
 * names unchanged and values exact (a JSON number may have 20 digits;
 * readers that turn them into doubles lose what is past 2^53), and its
 * metrics file's lines, if it has one, for tpstat diff.
 *
 * Lines that share a name are merged as tpstat_merge_duplicates() says.
 *
 *   { "version": "0.1.0", "memory": { "counters": 3264, ... },
 *     "sets": { "count": { "probes": [ { "tracepoint": "kmalloc",
 *       "state": "attached", "hits": 5, "dropped": 0 } ],
 *       "stats": { "since_reset_ns": 727328894, ... },
 *       "metrics": [ "# tpstat metrics 2", ... ] } } }
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tpstat.h"

void tpstat_json_string(FILE *f, const char *s)
{
	struct tpstat_buf b = { 0 };

	tpstat_escape(&b, s, TPSTAT_ESCAPE_JSON);
	fprintf(f, "\"%s\"", b.s);
	tpstat_buf_free(&b);
}

/* An object of "name": value. */
static void put_values(FILE *f, const struct tpstat_stats *v, int indent)
{
	size_t i;

	fputc('{', f);
	for (i = 0; i < v->nr; i++) {
		fprintf(f, "%s\n%*s", i ? "," : "", indent, "");
		tpstat_json_string(f, v->lines[i].name);
		fprintf(f, ": %llu", v->lines[i].value);
	}
	if (v->nr)
		fprintf(f, "\n%*s", indent - 2, "");
	fputc('}', f);
}

/*
 * The set's metrics file, a string per line, so that diff describes the
 * stats as export did, without the kernel.
 */
static void put_metrics(FILE *f, const char *text)
{
	size_t n = 0;

	fprintf(f, ",\n      \"metrics\": [");
	while (*text) {
		size_t len = strcspn(text, "\n");
		struct tpstat_buf line = { 0 };

		tpstat_buf_add(&line, text, len);
		fprintf(f, "%s\n        ", n++ ? "," : "");
		tpstat_json_string(f, line.s);
		tpstat_buf_free(&line);
		text += len + (text[len] == '\n');
	}
	fprintf(f, "%s]", n ? "\n      " : "");
}

static int put_set(FILE *f, const char *set, const struct tpstat_probes *probes,
		   size_t *done)
{
	struct tpstat_metrics metrics = { 0 };
	struct tpstat_buf what = { 0 }, rel = { 0 };
	struct tpstat_stats stats;
	struct tpstat_meaning *m;
	size_t i, n = 0, len;
	char *text;
	int err;

	err = tpstat_read_stats(set, &stats);
	tpstat_buf_printf(&what, "%s/stats", set);
	if (err == -ENOENT) {
		tpstat_err("%s was unloaded while being read: left out", set);
		tpstat_buf_free(&what);
		return 0;
	}
	if (err) {
		tpstat_file_error(what.s, err);
		tpstat_buf_free(&what);
		return -1;
	}
	if (stats.malformed)
		tpstat_err("%s: %zu line%s not \"name value\", left out", what.s,
			   stats.malformed, stats.malformed == 1 ? "" : "s");
	/* JSON names are unique: lines of one name are merged as for Prometheus. */
	tpstat_buf_printf(&rel, "%s/metrics", set);
	err = tpstat_read(rel.s, &text, &len);
	if (err)
		text = NULL;
	else
		err = tpstat_parse_metrics(text, len, &metrics);
	if (err)
		tpstat_say_untyped(set, err);
	m = tpstat_alloc((stats.nr + 1) * sizeof(*m));
	tpstat_describe(&stats, probes, &metrics, m);
	tpstat_free_metrics(&metrics);
	if (tpstat_merge_duplicates(&stats, m))
		tpstat_err("%s: lines of one name that cannot be added: the first is kept",
			   what.s);
	tpstat_free_meanings(m, stats.nr);
	free(m);
	fprintf(f, "%s\n    ", (*done)++ ? "," : "");
	tpstat_json_string(f, set);
	fprintf(f, ": {\n      \"probes\": [");
	for (i = 0; i < probes->nr; i++) {
		const struct tpstat_probe *p = &probes->p[i];

		if (strcmp(p->set, set))
			continue;
		fprintf(f, "%s\n        { \"tracepoint\": ", n++ ? "," : "");
		tpstat_json_string(f, p->tracepoint);
		fprintf(f, ", \"state\": ");
		tpstat_json_string(f, p->state);
		fprintf(f, ", \"hits\": %llu, \"dropped\": %llu }", p->hits, p->dropped);
	}
	fprintf(f, "%s],\n      \"stats\": ", n ? "\n      " : "");
	put_values(f, &stats, 8);
	if (text)
		put_metrics(f, text);
	fprintf(f, "\n    }");
	free(text);
	tpstat_buf_free(&rel);
	tpstat_buf_free(&what);
	tpstat_free_stats(&stats);
	return 0;
}

int tpstat_export_json(FILE *f, char **sets, size_t nr)
{
	struct tpstat_stats memory;
	struct tpstat_probes probes;
	char *version;
	size_t i, done = 0;
	int err, ret = 0;

	err = tpstat_read_version(&version);
	if (err) {
		tpstat_file_error("version", err);
		return -1;
	}
	err = tpstat_read_values("memory", &memory);
	if (err) {
		tpstat_file_error("memory", err);
		free(version);
		return -1;
	}
	if (tpstat_read_probes(&probes)) {
		tpstat_free_stats(&memory);
		free(version);
		return -1;
	}
	fprintf(f, "{\n  \"version\": ");
	tpstat_json_string(f, version);
	fprintf(f, ",\n  \"memory\": ");
	put_values(f, &memory, 4);
	fprintf(f, ",\n  \"sets\": {");
	for (i = 0; i < nr && !ret; i++)
		ret = put_set(f, sets[i], &probes, &done);
	fprintf(f, "%s}\n}\n", done ? "\n  " : "");
	tpstat_free_probes(&probes);
	tpstat_free_stats(&memory);
	free(version);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * tpstat watch's columns: which lines of the stats are columns, those -c
 * names or, without it, those that fit the width, and the two lines of
 * the header over them.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "watch.h"

#define MIN_WIDTH	6

static int column_width(const struct tpstat_meaning *m)
{
	int n = strlen(m->column);

	return n > MIN_WIDTH ? n : MIN_WIDTH;
}

/*
 * The header, two lines as vmstat's: each group's name centred in dashes
 * over its columns ("--tpstat_test_fire--"), then the columns' names. A
 * group's last column widens if its name needs more room; @widths gets
 * the width of each of the @nr columns, lines @cols of @s.
 */
void watch_layout(const struct tpstat_sample *s, const size_t *cols, size_t nr,
		  int *widths, struct tpstat_buf *top, struct tpstat_buf *names)
{
	size_t i, j, end;

	tpstat_buf_add(top, "", 0);
	tpstat_buf_add(names, "", 0);
	for (i = 0; i < nr; i = end) {
		const struct tpstat_meaning *m = &s->m[cols[i]];
		int span = 0, glen = strlen(m->group), left, k, n;

		for (end = i; end < nr && !strcmp(s->m[cols[end]].group, m->group); end++) {
			widths[end] = column_width(&s->m[cols[end]]);
			span += widths[end] + 1;
		}
		n = end - i;
		/* Room for the group's name and a dash either side, shared out. */
		if (glen && glen + 2 > span - 1) {
			int more = glen + 2 - (span - 1);

			for (j = i, k = 0; j < end; j++)
				widths[j] += more / n + (k++ < more % n);
			span = glen + 3;
		}
		left = (span - 1 - glen) / 2;
		tpstat_buf_add(top, " ", 1);
		for (k = 0; k < span - 1; k++) {
			char c = glen ? '-' : ' ';

			if (glen && k >= left && k < left + glen)
				c = m->group[k - left];
			tpstat_buf_add(top, &c, 1);
		}
		for (j = i; j < end; j++)
			tpstat_buf_printf(names, " %*s", widths[j], s->m[cols[j]].column);
	}
}

/* A line watch can show as a column: not a table's, and with a rate. */
static bool watchable(const struct tpstat_meaning *m)
{
	return !m->keyed && tpstat_has_rate(m);
}

/* A column's name, as -c takes it: its group and name, "runqlat.p99". */
void watch_column_name(const struct tpstat_meaning *m, struct tpstat_buf *b)
{
	b->len = 0;
	tpstat_buf_printf(b, "%s%s%s", m->group, *m->group ? "." : "", m->column);
}

/* The width of the line of columns @cols, the time's included. */
static size_t line_width(const struct watch *w, const struct tpstat_sample *s,
			 const size_t *cols, size_t nr, int *widths)
{
	struct tpstat_buf top = { 0 }, names = { 0 };
	size_t len;

	watch_layout(s, cols, nr, widths, &top, &names);
	len = names.len + (w->timestamp ? 8 : 0);
	tpstat_buf_free(&top);
	tpstat_buf_free(&names);
	return len;
}

/*
 * -c's columns, in the order its names and globs were given, each once.
 * Returns the number of columns, or -1 after a usage error when a name
 * matches none (said at the first sample only: a line may come and go).
 */
ssize_t watch_wanted_columns(struct watch *w, const struct tpstat_sample *s,
			     size_t *cols, bool first)
{
	bool *taken = tpstat_alloc(s->stats.nr + 1);
	struct tpstat_buf name = { 0 }, all = { 0 };
	size_t i, p, nr = 0;
	ssize_t ret;

	for (p = 0; p < w->nr_want; p++) {
		bool matched = false;

		for (i = 0; i < s->stats.nr; i++) {
			if (!watchable(&s->m[i]))
				continue;
			watch_column_name(&s->m[i], &name);
			if (fnmatch(w->want[p], name.s, 0))
				continue;
			matched = true;
			if (!taken[i])
				cols[nr++] = i;
			taken[i] = true;
		}
		if (matched || !first)
			continue;
		for (i = 0; i < s->stats.nr; i++) {
			if (!watchable(&s->m[i]))
				continue;
			watch_column_name(&s->m[i], &name);
			tpstat_buf_printf(&all, "%s%s", all.len ? " " : "", name.s);
		}
		tpstat_usage_error(w->cmd, "-c: %s has no column '%s' (its columns: %s)",
				   w->set, w->want[p], all.s ? all.s : "none");
		nr = 0;
		break;
	}
	ret = p < w->nr_want ? -1 : (ssize_t)nr;
	tpstat_buf_free(&name);
	tpstat_buf_free(&all);
	free(taken);
	return ret;
}

/*
 * How much a column is worth to the default: each histogram's count, avg
 * and p99 first, then the set's own counters, then each tracepoint's hits
 * and dropped (list -v has them too).
 */
static int column_rank(const struct tpstat_meaning *m)
{
	unsigned int l;

	if (m->kind == TPSTAT_HIST)
		return 0;
	for (l = 0; l < m->nr_labels; l++)
		if (!strcmp(m->labels[l].name, "tracepoint"))
			return 2;
	return 1;
}

/*
 * The columns the default left out, on one line of stderr within the
 * width: their number, then as many of their @names as fit before
 * "and N more" (sched's 28 names would take 700 characters).
 */
static void say_left_out(const struct watch *w, char **names, size_t nr)
{
	struct tpstat_buf line = { 0 };
	size_t i, shown = 0, len;
	char tail[48];

	tpstat_buf_printf(&line, "tpstat: watch %s: %zu column%s left out (-c)", w->set,
			  nr, nr == 1 ? "" : "s");
	len = line.len;
	for (i = 0; i < nr; i++) {
		tail[0] = '\0';
		if (i + 1 < nr)
			snprintf(tail, sizeof(tail), " and %zu more", nr - i - 1);
		/* ": a" for the first, ", b" after it. */
		if (len + 2 + strlen(names[i]) + strlen(tail) > w->width)
			break;
		len += 2 + strlen(names[i]);
		shown++;
	}
	for (i = 0; i < shown; i++)
		tpstat_buf_printf(&line, "%s%s", i ? ", " : ": ", names[i]);
	if (shown && shown < nr)
		tpstat_buf_printf(&line, " and %zu more", nr - shown);
	fprintf(stderr, "%s\n", line.s);
	tpstat_buf_free(&line);
}

/*
 * The default columns: every one, in the stats file's order, as long as
 * the line fits w->width; else the most worth keeping that fit, by
 * column_rank(), a histogram's three together or not at all. Those left
 * out are said once on stderr.
 */
size_t watch_default_columns(struct watch *w, const struct tpstat_sample *s,
			     size_t *cols, int *widths)
{
	bool *in = tpstat_alloc(s->stats.nr + 1);
	/* Taken or left out already: a histogram's parts are tried once. */
	bool *tried = tpstat_alloc(s->stats.nr + 1);
	struct tpstat_buf name = { 0 };
	char **out = NULL;
	size_t i, j, nr, left_out = 0;
	int rank;

	for (rank = 0; rank < 3; rank++) {
		for (i = 0; i < s->stats.nr; i++) {
			const struct tpstat_meaning *m = &s->m[i];

			if (!watchable(m) || tried[i] || column_rank(m) != rank)
				continue;
			/* A histogram's parts, its group, are one. */
			for (j = i; j < s->stats.nr; j++) {
				bool part = watchable(&s->m[j]) && (j == i ||
					    (m->kind == TPSTAT_HIST &&
					     s->m[j].kind == TPSTAT_HIST &&
					     !strcmp(s->m[j].group, m->group)));

				in[j] |= part;
				tried[j] |= part;
			}
			for (j = 0, nr = 0; j < s->stats.nr; j++)
				if (in[j])
					cols[nr++] = j;
			if (line_width(w, s, cols, nr, widths) <= w->width)
				continue;
			for (j = i; j < s->stats.nr; j++) {
				if (!in[j] || (j != i && (m->kind != TPSTAT_HIST ||
							  s->m[j].kind != TPSTAT_HIST ||
							  strcmp(s->m[j].group, m->group))))
					continue;
				in[j] = false;
				watch_column_name(&s->m[j], &name);
				out = tpstat_realloc(out, (left_out + 1) * sizeof(*out));
				out[left_out++] = tpstat_strdup(name.s);
			}
		}
	}
	for (j = 0, nr = 0; j < s->stats.nr; j++)
		if (in[j])
			cols[nr++] = j;
	if (left_out && !w->said_left_out) {
		say_left_out(w, out, left_out);
		w->said_left_out = true;
	}
	for (j = 0; j < left_out; j++)
		free(out[j]);
	free(out);
	tpstat_buf_free(&name);
	free(tried);
	free(in);
	return nr;
}

/* The columns' names in one string, to see them change. */
char *watch_column_key(const struct tpstat_sample *s, const size_t *cols, size_t nr)
{
	struct tpstat_buf b = { 0 };
	size_t i;

	tpstat_buf_add(&b, "", 0);
	for (i = 0; i < nr; i++)
		tpstat_buf_printf(&b, "%s\n", s->stats.lines[cols[i]].name);
	return b.s;
}

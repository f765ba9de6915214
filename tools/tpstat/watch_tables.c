// SPDX-License-Identifier: GPL-2.0
/*
 * tpstat watch's keyed tables: the rows of each table in the stats (call
 * sites, commands, IRQs ...), their busiest on a line under the counters.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "watch.h"

int watch_cmp_row(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->order != y->order)
		return x->order < y->order ? 1 : -1;
	return strcmp(x->key, y->key);
}

/* Puts line @m's rate @r in its row and column of @t. */
static void table_add(struct table *t, const struct tpstat_meaning *m,
		      const struct tpstat_rate *r)
{
	size_t c, k;

	for (c = 0; c < t->nr_cols && strcmp(t->cols[c], m->column); c++)
		;
	if (c == t->nr_cols) {
		t->cols = tpstat_realloc(t->cols, (c + 1) * sizeof(*t->cols));
		t->cols[t->nr_cols++] = m->column;
		for (k = 0; k < t->nr_rows; k++) {
			t->rows[k].rates = tpstat_realloc(t->rows[k].rates,
							  t->nr_cols * sizeof(*r));
			memset(&t->rows[k].rates[c], 0, sizeof(*r));
		}
	}
	for (k = 0; k < t->nr_rows && strcmp(t->rows[k].key, m->row); k++)
		;
	if (k == t->nr_rows) {
		t->rows = tpstat_realloc(t->rows, (k + 1) * sizeof(*t->rows));
		memset(&t->rows[k], 0, sizeof(t->rows[k]));
		t->rows[k].key = m->row;
		t->rows[k].m = m;
		t->rows[k].rates = tpstat_alloc(t->nr_cols * sizeof(*r));
		t->nr_rows++;
	}
	t->rows[k].rates[c] = *r;
	t->rows[k].busy |= r->rate > 0 || r->down;
	/* The first column orders the rows; one that went down comes last. */
	if (!c)
		t->rows[k].order = r->down ? -1 : r->rate;
}

/*
 * The busiest @top rows of @t that moved, on one line that fits @width:
 * "by comm, slices: nginx 900K  postgres 500K (2 of 6)", each row its keys
 * joined by '/' and the rate of the table's first column, which orders
 * them. A key a row lacks (an optional part of its name) is "-"; keys
 * none of the rows shown has are left out. Returns how many rows.
 */
static size_t table_print(struct table *t, unsigned int top, unsigned int width)
{
	bool used[TPSTAT_LABELS_MAX] = { false };
	struct tpstat_buf line = { 0 }, entry = { 0 };
	size_t i, busy = 0, shown = 0;
	unsigned int l;
	char buf[32], tail[64];

	qsort(t->rows, t->nr_rows, sizeof(*t->rows), watch_cmp_row);
	for (i = 0; i < t->nr_rows; i++) {
		if (!t->rows[i].busy)
			continue;
		for (l = 0; busy < top && l < t->rows[i].m->nr_labels; l++)
			used[l] |= !!t->rows[i].m->labels[l].value;
		busy++;
	}
	if (!busy)
		return 0;
	/* "slices by comm, slices:": the table's name, its keys, its column. */
	tpstat_buf_printf(&line, "  %.*s by", (int)strcspn(t->first->table, " "),
			  t->first->table);
	for (l = 0, i = 0; l < t->first->nr_labels; l++)
		if (used[l])
			tpstat_buf_printf(&line, "%s%s", i++ ? "/" : " ",
					  t->first->labels[l].name);
	tpstat_buf_printf(&line, ", %s:", t->cols[0]);
	for (i = 0; i < t->nr_rows && shown < top; i++) {
		const struct tpstat_meaning *m = t->rows[i].m;
		const char *sep = shown ? "  " : " ";

		if (!t->rows[i].busy)
			continue;
		entry.len = 0;
		tpstat_buf_add(&entry, sep, strlen(sep));
		for (l = 0; l < m->nr_labels; l++) {
			if (!used[l])
				continue;
			tpstat_buf_printf(&entry, "%s%s", sep ? "" : "/",
					  m->labels[l].value ? m->labels[l].value : "-");
			sep = NULL;
		}
		tpstat_format_rate(buf, sizeof(buf), &t->rows[i].rates[0]);
		tpstat_buf_printf(&entry, " %s", buf);
		snprintf(tail, sizeof(tail), " (%zu of %zu)", shown + 1, t->nr_rows);
		/* The first row always; the others while the line fits. */
		if (shown && line.len + entry.len + strlen(tail) > width)
			break;
		tpstat_buf_add(&line, entry.s, entry.len);
		shown++;
	}
	printf("%s (%zu of %zu)\n", line.s, shown, t->nr_rows);
	tpstat_buf_free(&line);
	tpstat_buf_free(&entry);
	return shown;
}

/*
 * The table whose first line of @s is line @t, into @table, its lines
 * marked in @done; false if line @t is no table's first.
 */
bool watch_table_gather(struct table *table, const struct tpstat_sample *s,
			const struct tpstat_rate *r, size_t t, bool *done)
{
	size_t i;

	if (done[t] || !s->m[t].keyed || !tpstat_has_rate(&s->m[t]))
		return false;
	for (i = t; i < s->stats.nr; i++) {
		if (!s->m[i].keyed || !tpstat_has_rate(&s->m[i]) ||
		    strcmp(s->m[i].table, s->m[t].table))
			continue;
		done[i] = true;
		table_add(table, &s->m[i], &r[i]);
	}
	return true;
}

void watch_table_free(struct table *table)
{
	size_t i;

	for (i = 0; i < table->nr_rows; i++)
		free(table->rows[i].rates);
	free(table->rows);
	free(table->cols);
}

/* Each keyed table of @s, busiest rows first; @r has each line's rate. */
size_t watch_print_tables(const struct watch *w, const struct tpstat_sample *s,
			  const struct tpstat_rate *r)
{
	bool *done = tpstat_alloc(s->stats.nr + 1);
	size_t t, printed = 0;

	for (t = 0; t < s->stats.nr; t++) {
		struct table table = { .first = &s->m[t] };

		if (!watch_table_gather(&table, s, r, t, done))
			continue;
		printed += table_print(&table, w->top, w->width);
		watch_table_free(&table);
	}
	free(done);
	return printed;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Filters: the data kind that holds a set's program, and its file. The
 * parser and compiler are filter_parse.c's.
 */
#include <linux/ctype.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "internal.h"

/* What a log line shows of a token the user wrote. */
#define TPSTAT_FILTER_SHOWN	32

static struct tpstat_filter *to_filter(const struct tpstat_data *d)
{
	return container_of(d, struct tpstat_filter, data);
}

/* Fields are the author's: names a filter can spell, one slot each. */
static int tpstat_filter_check(const struct tpstat_data *d, const char *set)
{
	const struct tpstat_filter *f = to_filter(d);
	unsigned int i, j;

	for (i = 0; i < f->nr_fields; i++) {
		const struct tpstat_field *field = &f->fields[i];

		if (!tpstat_name_valid(field->name) ||
		    field->slot + 1 >= TPSTAT_FILTER_SLOTS)
			goto bad;
		for (j = 0; j < i; j++)
			if (!strcmp(f->fields[j].name, field->name))
				goto bad;
	}
	if (f->nr_fields)
		return 0;
bad:
	pr_err("tpstat: %s: a filter's fields need names of their own and slots below %d\n",
	       set, TPSTAT_FILTER_SLOTS - 1);
	return -EINVAL;
}

/* The program outlives generations; the rejected count is in them. */
static void tpstat_filter_teardown(struct tpstat_data *d)
{
	struct tpstat_filter *f = to_filter(d);

	kfree(f->prog);
	f->prog = NULL;
}

TPSTAT_STATS_GEN_OPS(tpstat_filter, tpstat_filter);

const struct tpstat_data_ops tpstat_filter_ops = {
	.kind = TPSTAT_MEM_COUNTERS,
	.check = tpstat_filter_check,
	.teardown = tpstat_filter_teardown,
	.alloc = tpstat_filter_alloc,
	.free = tpstat_filter_free,
	.clear = tpstat_filter_clear,
	.publish = tpstat_filter_publish,
	.bytes = tpstat_filter_bytes,
};
EXPORT_SYMBOL_GPL(tpstat_filter_ops);

/* One line: which set, where in the expression, what is wrong there. */
static void tpstat_filter_log(const struct tpstat_filter *f, const char *text,
			      const struct tpstat_filter_error *e)
{
	char shown[TPSTAT_FILTER_SHOWN + 4];
	unsigned int i;

	for (i = 0; i < e->len && i < TPSTAT_FILTER_SHOWN; i++)
		shown[i] = isgraph(text[e->pos + i]) ? text[e->pos + i] : '?';
	strscpy(&shown[i], i < e->len ? "..." : "", sizeof(shown) - i);
	if (e->len)
		pr_err("tpstat: %s: filter, column %u: %s: '%s'\n",
		       f->data.set->path, e->pos + 1, e->what, shown);
	else
		pr_err("tpstat: %s: filter, column %u: %s, at the end\n",
		       f->data.set->path, e->pos + 1, e->what);
}

int tpstat_filter_set(struct tpstat_filter *f, const char *text)
{
	struct tpstat_filter_prog *prog = NULL, *old;
	struct tpstat_set *set = f->data.set;
	struct tpstat_filter_error e;
	size_t len;
	int err;

	text = skip_spaces(text);
	len = strlen(text);
	while (len && isspace(text[len - 1]))
		len--;
	if (len && (len != 1 || text[0] != '0')) {
		err = tpstat_filter_compile(text, len, f->fields, f->nr_fields,
					    &prog, &e);
		if (err == -EINVAL)
			tpstat_filter_log(f, text, &e);
		if (err)
			return err;
	}

	/* Readers of the filter file print the old one until it is gone. */
	mutex_lock(&set->lock);
	old = f->prog;
	tpstat_data_publish(f->prog, prog);
	if (old)
		tracepoint_synchronize_unregister();
	mutex_unlock(&set->lock);
	kfree(old);
	return 0;
}
EXPORT_SYMBOL_GPL(tpstat_filter_set);

int tpstat_filter_show(struct seq_file *m, struct tpstat_set *set)
{
	const struct tpstat_filter *f = tpstat_file_priv(m);

	seq_printf(m, "%s\n", f->prog ? f->prog->text : "none");
	return 0;
}
EXPORT_SYMBOL_GPL(tpstat_filter_show);

int tpstat_filter_write(struct tpstat_set *set, const struct tpstat_file *file,
			char *line)
{
	return tpstat_filter_set(file->priv, line);
}
EXPORT_SYMBOL_GPL(tpstat_filter_write);

void tpstat_filter_print_stats(struct seq_file *m, const struct tpstat_filter *f,
			       const char *prefix)
{
	seq_printf(m, "%s.rejected %llu\n", prefix, tpstat_counter_sum(&f->stats));
}
EXPORT_SYMBOL_GPL(tpstat_filter_print_stats);

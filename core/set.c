// SPDX-License-Identifier: GPL-2.0
/*
 * Probe sets: registering them, adding and removing probes, enable and reset.
 */
#include <linux/ctype.h>
#include <linux/module.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/wait_bit.h>

#include "internal.h"

/* Guards the sets, their probes and the modules list; order in internal.h. */
DEFINE_MUTEX(tpstat_mutex);
LIST_HEAD(tpstat_sets);

/* The kernel's isalpha() takes Latin-1 letters too; names are ASCII. */
static bool tpstat_name_char(char c, bool first)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       (!first && c >= '0' && c <= '9');
}

bool tpstat_name_valid(const char *name)
{
	size_t i;

	if (!name || !name[0])
		return false;
	for (i = 0; name[i]; i++)
		if (i >= TPSTAT_NAME_MAX || !tpstat_name_char(name[i], i == 0))
			return false;
	return true;
}
EXPORT_SYMBOL_GPL(tpstat_name_valid);

/* A word of a metrics file's line: there, fields are separated by spaces. */
static bool tpstat_metric_word(const char *s)
{
	return s && s[0] && !strpbrk(s, " \t\n");
}

/*
 * A histogram's range: its unit's (both 0), or its own from @low up;
 * none for a counter or a gauge.
 */
static bool tpstat_metric_range_ok(const struct tpstat_metric *mt)
{
	if (mt->kind != TPSTAT_METRIC_HIST || !mt->high)
		return !mt->low && !mt->high;
	return mt->low <= mt->high;
}

/* The first of @set's metrics that is malformed, or -1 if none is. */
static int tpstat_metrics_check(const struct tpstat_set *set)
{
	const struct tpstat_metric *mt;
	unsigned int i;

	if (set->nr_metrics && !set->metrics)
		return 0;
	for (i = 0; i < set->nr_metrics; i++) {
		mt = &set->metrics[i];
		if (mt->kind > TPSTAT_METRIC_HIST ||
		    mt->unit > TPSTAT_METRIC_BP ||
		    !tpstat_metric_word(mt->pattern) ||
		    !tpstat_metric_word(mt->name) ||
		    !mt->help || strchr(mt->help, '\n') ||
		    !tpstat_metric_range_ok(mt))
			return i;
	}
	return -1;
}

/*
 * @set or one of its lists lives on the caller's stack, as TPSTAT_PROBES()
 * and the rest do written inside a function: gone before the set would be.
 */
static bool tpstat_set_on_stack(const struct tpstat_set *set)
{
	return object_is_on_stack(set) || object_is_on_stack(set->probes) ||
	       object_is_on_stack(set->files) || object_is_on_stack(set->data) ||
	       object_is_on_stack(set->metrics);
}

static size_t tpstat_data_bytes(const struct tpstat_data *d)
{
	const struct tpstat_data_ops *ops = d->ops;

	return (ops->bytes ? ops->bytes(d) : 0) +
	       (ops->shared_bytes ? ops->shared_bytes(d) : 0);
}

/*
 * Generations: each helper does nothing for a kind that has none.
 * Allocates generation @gen of @d, empty; frees what it got on failure.
 */
static int tpstat_data_gen_alloc(struct tpstat_data *d, unsigned int gen)
{
	int err;

	if (!d->ops->alloc)
		return 0;
	err = d->ops->alloc(d, gen);
	if (err) {
		d->ops->free(d, gen);
		return err;
	}
	d->ops->clear(d, gen);
	return 0;
}

static void tpstat_data_gen_free(struct tpstat_data *d, unsigned int gen)
{
	if (d->ops->free)
		d->ops->free(d, gen);
}

static void tpstat_data_gen_publish(struct tpstat_data *d, unsigned int gen)
{
	if (d->ops->publish)
		d->ops->publish(d, gen);
}

/* Frees everything @d holds; it may be partly allocated. */
static void tpstat_data_free(struct tpstat_data *d)
{
	unsigned int gen;

	for (gen = 0; gen < TPSTAT_GENERATIONS; gen++)
		tpstat_data_gen_free(d, gen);
	if (d->ops->teardown)
		d->ops->teardown(d);
}

/*
 * Allocates @d with its live generation, empty, publishes it and adds @d
 * to the set's data; the set's lock is held or the set is not yet seen.
 */
static int tpstat_data_init(struct tpstat_set *set, struct tpstat_data *d)
{
	const struct tpstat_data_ops *ops = d->ops;
	int err;

	if (ops->check) {
		err = ops->check(d, set->path);
		if (err)
			return err;
	}
	d->set = set;
	err = ops->setup ? ops->setup(d) : 0;
	if (!err)
		err = tpstat_data_gen_alloc(d, set->live_gen);
	if (err) {
		tpstat_data_free(d);
		return err;
	}
	tpstat_data_gen_publish(d, set->live_gen);
	d->bytes = tpstat_data_bytes(d);
	tpstat_memory_account(set, ops->kind, d->bytes);
	list_add_tail(&d->node, &set->data_list);
	d->ready = true;
	return 0;
}

/* No probe may be using @d any more. */
static void tpstat_data_destroy(struct tpstat_data *d)
{
	if (!d->ready)
		return;
	list_del(&d->node);
	tpstat_memory_account(d->set, d->ops->kind, -(s64)d->bytes);
	tpstat_data_free(d);
	d->ready = false;
}

static int tpstat_probe_init(struct tpstat_probe *probe, struct tpstat_set *set)
{
	int err;

	probe->set = set;
	probe->hits = (struct tpstat_counter)TPSTAT_COUNTER();
	probe->dropped = (struct tpstat_counter)TPSTAT_COUNTER();
	err = tpstat_data_init(set, &probe->hits.data);
	if (err)
		return err;
	err = tpstat_data_init(set, &probe->dropped.data);
	if (err)
		tpstat_data_destroy(&probe->hits.data);
	return err;
}

static void tpstat_probe_free(struct tpstat_probe *probe)
{
	tpstat_data_destroy(&probe->hits.data);
	tpstat_data_destroy(&probe->dropped.data);
	if (probe->dynamic) {
		kfree(probe->name);
		kfree(probe);
	}
}

/*
 * Detaches every probe of @set, waits until none runs, then frees them and
 * every piece of the set's data.
 */
static void tpstat_set_free(struct tpstat_set *set)
{
	struct tpstat_probe *probe, *next;
	struct tpstat_data *d, *next_d;

	mutex_lock(&tpstat_mutex);
	list_for_each_entry(probe, &set->probe_list, node)
		tpstat_probe_detach(probe);
	mutex_unlock(&tpstat_mutex);

	tracepoint_synchronize_unregister();

	list_for_each_entry_safe(probe, next, &set->probe_list, node) {
		list_del(&probe->node);
		tpstat_probe_free(probe);
	}
	list_for_each_entry_safe(d, next_d, &set->data_list, node)
		tpstat_data_destroy(d);
	mutex_destroy(&set->lock);
	kfree(set->path);
	set->path = NULL;
}

/* A registered set of @set's name beside it, under the same parent. */
static bool tpstat_set_taken(const struct tpstat_set *set)
{
	struct tpstat_set *other;

	list_for_each_entry(other, &tpstat_sets, node)
		if (other->parent == set->parent && !strcmp(other->name, set->name))
			return true;
	return false;
}

static struct tpstat_probe *tpstat_probe_find(struct tpstat_set *set,
					      const char *name)
{
	struct tpstat_probe *probe;

	tpstat_for_each_probe(probe, set)
		if (!strcmp(probe->name, name))
			return probe;
	return NULL;
}

int __tpstat_set_register(struct tpstat_set *set, struct module *owner)
{
	struct tpstat_probe *probe;
	unsigned int i;
	int err, bad;

	if (!tpstat_name_valid(set->name)) {
		pr_err("tpstat: probe set name is not an identifier\n");
		return -EINVAL;
	}
	if (tpstat_set_on_stack(set)) {
		pr_err("tpstat: %s: the set or a list of it is on the stack; declare it outside any function\n",
		       set->name);
		return -EINVAL;
	}
	bad = tpstat_metrics_check(set);
	if (bad >= 0) {
		pr_err("tpstat: %s: metric %d is malformed (an unknown kind or unit, a NULL field, a blank in its pattern or name, or a bad range)\n",
		       set->name, bad);
		return -EINVAL;
	}
	INIT_LIST_HEAD(&set->probe_list);
	INIT_LIST_HEAD(&set->data_list);
	atomic64_set(&set->memory, 0);
	mutex_init(&set->lock);
	set->live_gen = 0;
	set->nr_children = 0;
	set->files_up = false;
	atomic_set(&set->control_writers, 0);
	set->owner = owner;
	set->path = set->parent ?
		kasprintf(GFP_KERNEL, "%s/%s", set->parent->path, set->name) :
		kstrdup(set->name, GFP_KERNEL);
	err = -ENOMEM;
	if (!set->path)
		goto free_probes;
	for (i = 0; i < set->nr_data; i++) {
		err = tpstat_data_init(set, set->data[i]);
		if (err)
			goto free_probes;
	}
	for (i = 0; i < set->nr_probes; i++) {
		probe = &set->probes[i];
		if (!tpstat_name_valid(probe->name)) {
			pr_err("tpstat: %s: probe %u has a malformed tracepoint name\n",
			       set->path, i);
			err = -EINVAL;
			goto free_probes;
		}
		err = tpstat_probe_init(probe, set);
		if (err)
			goto free_probes;
		list_add_tail(&probe->node, &set->probe_list);
	}
	/* Then those the data needs, shown among the set's. */
	for (i = 0; i < set->nr_data; i++) {
		if (!set->data[i]->ops->probe)
			continue;
		probe = set->data[i]->ops->probe(set->data[i]);
		err = tpstat_probe_init(probe, set);
		if (err)
			goto free_probes;
		list_add_tail(&probe->node, &set->probe_list);
	}
	set->enabled = true;
	set->reset_ns = ktime_get_ns();

	mutex_lock(&tpstat_mutex);
	if (tpstat_set_taken(set)) {
		mutex_unlock(&tpstat_mutex);
		pr_err("tpstat: a probe set named %s is loaded already\n", set->path);
		err = -EEXIST;
		goto free_probes;
	}
	list_add_tail(&set->node, &tpstat_sets);
	if (set->parent)
		set->parent->nr_children++;
	tpstat_for_each_probe(probe, set) {
		tpstat_probe_lookup(probe);
		tpstat_probe_update(probe);
	}
	mutex_unlock(&tpstat_mutex);

	err = tpstat_debugfs_add_set(set);
	if (err) {
		tpstat_set_unregister(set);
		return err;
	}
	mutex_lock(&tpstat_mutex);
	set->files_up = true;
	mutex_unlock(&tpstat_mutex);
	return 0;

free_probes:
	tpstat_set_free(set);
	return err;
}
EXPORT_SYMBOL_GPL(__tpstat_set_register);

void tpstat_set_unregister(struct tpstat_set *set)
{
	/* Its directory goes, with whatever a child left in it. */
	WARN_ON_ONCE(set->nr_children);
	/*
	 * The control file finds its files no more; the writes it let in
	 * leave, as debugfs's own writers do before its removal returns.
	 */
	mutex_lock(&tpstat_mutex);
	set->files_up = false;
	mutex_unlock(&tpstat_mutex);
	wait_var_event(&set->control_writers,
		       !atomic_read(&set->control_writers));
	tpstat_debugfs_remove_set(set);

	mutex_lock(&tpstat_mutex);
	list_del(&set->node);
	if (set->parent)
		set->parent->nr_children--;
	mutex_unlock(&tpstat_mutex);

	tpstat_set_free(set);
}
EXPORT_SYMBOL_GPL(tpstat_set_unregister);

/* What a log line may show of a name a user wrote: printable, and short. */
#define TPSTAT_SHOWN_NAME	48

static int tpstat_check_name(struct tpstat_set *set, const char *name)
{
	char shown[TPSTAT_SHOWN_NAME + 4];
	size_t i;

	if (tpstat_name_valid(name))
		return 0;
	for (i = 0; i < TPSTAT_SHOWN_NAME && name[i]; i++)
		shown[i] = isgraph(name[i]) ? name[i] : '?';
	strscpy(&shown[i], name[i] ? "..." : "", sizeof(shown) - i);
	pr_err("tpstat: %s: '%s' is not a tracepoint name (an identifier of at most %d characters)\n",
	       set->path, shown, TPSTAT_NAME_MAX);
	return -EINVAL;
}

int tpstat_set_add_probe(struct tpstat_set *set, const char *name, void *func)
{
	struct tpstat_probe *probe;
	int err;

	err = tpstat_check_name(set, name);
	if (err)
		return err;
	err = -ENOMEM;
	probe = kzalloc(sizeof(*probe), GFP_KERNEL);
	if (!probe)
		return -ENOMEM;
	probe->name = kstrdup(name, GFP_KERNEL);
	if (!probe->name)
		goto free_probe;
	probe->func = func;
	probe->in_module = true;
	probe->dynamic = true;

	mutex_lock(&set->lock);
	if (tpstat_probe_find(set, name)) {
		err = -EEXIST;
		goto unlock;
	}
	err = tpstat_probe_init(probe, set);
	if (err)
		goto unlock;
	mutex_lock(&tpstat_mutex);
	list_add_tail(&probe->node, &set->probe_list);
	tpstat_probe_lookup(probe);
	tpstat_probe_update(probe);
	mutex_unlock(&tpstat_mutex);
	mutex_unlock(&set->lock);
	return 0;

unlock:
	mutex_unlock(&set->lock);
	kfree(probe->name);
free_probe:
	kfree(probe);
	return err;
}
EXPORT_SYMBOL_GPL(tpstat_set_add_probe);

int tpstat_set_remove_probe(struct tpstat_set *set, const char *name)
{
	struct tpstat_probe *probe;
	int err;

	err = tpstat_check_name(set, name);
	if (err)
		return err;
	mutex_lock(&set->lock);
	probe = tpstat_probe_find(set, name);
	if (!probe || !probe->dynamic) {
		mutex_unlock(&set->lock);
		return -ENOENT;
	}
	mutex_lock(&tpstat_mutex);
	tpstat_probe_detach(probe);
	list_del(&probe->node);
	mutex_unlock(&tpstat_mutex);

	/* Only the set's lock is held across the wait, never the core's. */
	tracepoint_synchronize_unregister();
	tpstat_probe_free(probe);
	mutex_unlock(&set->lock);
	return 0;
}
EXPORT_SYMBOL_GPL(tpstat_set_remove_probe);

void tpstat_set_enable(struct tpstat_set *set, bool enable)
{
	struct tpstat_probe *probe;

	mutex_lock(&tpstat_mutex);
	set->enabled = enable;
	tpstat_for_each_probe(probe, set)
		tpstat_probe_update(probe);
	mutex_unlock(&tpstat_mutex);
}

/*
 * Probes go on counting into the live generation while a new, empty one is
 * published in its place; once no probe can still be in the old one it is
 * freed. An event that fires after this returns is counted, one that fired
 * before is not; one that fires during it may land in either generation,
 * or partly in each. Only the set's lock is held across the wait, so module
 * loads, which need the core's mutex, never wait for a reset. If the new
 * generation cannot be allocated, nothing changes.
 */
int tpstat_set_reset(struct tpstat_set *set)
{
	unsigned int old, next;
	struct tpstat_data *d;
	int err = 0;

	mutex_lock(&set->lock);
	old = set->live_gen;
	next = (old + 1) % TPSTAT_GENERATIONS;
	list_for_each_entry(d, &set->data_list, node) {
		err = tpstat_data_gen_alloc(d, next);
		if (err)
			goto free_next;
	}
	list_for_each_entry(d, &set->data_list, node) {
		size_t bytes;

		tpstat_data_gen_publish(d, next);
		/* kvmalloc() may have given the new one vmalloc's pages. */
		bytes = tpstat_data_bytes(d);
		tpstat_memory_account(set, d->ops->kind,
				      (s64)bytes - (s64)d->bytes);
		d->bytes = bytes;
	}
	set->live_gen = next;
	WRITE_ONCE(set->reset_ns, ktime_get_ns());
	tracepoint_synchronize_unregister();
	list_for_each_entry(d, &set->data_list, node)
		tpstat_data_gen_free(d, old);
	mutex_unlock(&set->lock);
	return 0;

free_next:
	list_for_each_entry(d, &set->data_list, node)
		tpstat_data_gen_free(d, next);
	mutex_unlock(&set->lock);
	return err;
}

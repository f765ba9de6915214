// SPDX-License-Identifier: GPL-2.0
/*
 * Probe sets: registering them, adding and removing probes, enable and reset.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

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

static int tpstat_probe_init(struct tpstat_probe *probe, struct tpstat_set *set)
{
	int err;

	probe->set = set;
	err = tpstat_counter_init(&probe->hits);
	if (err)
		return err;
	err = tpstat_counter_init(&probe->dropped);
	if (err)
		tpstat_counter_destroy(&probe->hits);
	return err;
}

static void tpstat_probe_free(struct tpstat_probe *probe)
{
	tpstat_counter_destroy(&probe->hits);
	tpstat_counter_destroy(&probe->dropped);
	if (probe->dynamic) {
		kfree(probe->name);
		kfree(probe);
	}
}

/* Detaches every probe of @set, waits until none runs, then frees them. */
static void tpstat_set_free_probes(struct tpstat_set *set)
{
	struct tpstat_probe *probe, *next;

	mutex_lock(&tpstat_mutex);
	list_for_each_entry(probe, &set->probe_list, node)
		tpstat_probe_detach(probe);
	mutex_unlock(&tpstat_mutex);

	tracepoint_synchronize_unregister();

	list_for_each_entry_safe(probe, next, &set->probe_list, node) {
		list_del(&probe->node);
		tpstat_probe_free(probe);
	}
}

static struct tpstat_set *tpstat_set_find(const char *name)
{
	struct tpstat_set *set;

	list_for_each_entry(set, &tpstat_sets, node)
		if (!strcmp(set->name, name))
			return set;
	return NULL;
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

int tpstat_set_register(struct tpstat_set *set)
{
	struct tpstat_probe *probe;
	unsigned int i;
	int err;

	if (!tpstat_name_valid(set->name)) {
		pr_err("tpstat: probe set name is not an identifier\n");
		return -EINVAL;
	}
	INIT_LIST_HEAD(&set->probe_list);
	for (i = 0; i < set->nr_probes; i++) {
		probe = &set->probes[i];
		if (!tpstat_name_valid(probe->name)) {
			pr_err("tpstat: %s: probe %u has a malformed tracepoint name\n",
			       set->name, i);
			err = -EINVAL;
			goto free_probes;
		}
		err = tpstat_probe_init(probe, set);
		if (err)
			goto free_probes;
		list_add_tail(&probe->node, &set->probe_list);
	}
	set->enabled = true;
	set->reset_ns = ktime_get_ns();

	mutex_lock(&tpstat_mutex);
	if (tpstat_set_find(set->name)) {
		mutex_unlock(&tpstat_mutex);
		pr_err("tpstat: a probe set named %s is loaded already\n", set->name);
		err = -EEXIST;
		goto free_probes;
	}
	list_add_tail(&set->node, &tpstat_sets);
	tpstat_for_each_probe(probe, set) {
		tpstat_probe_lookup(probe);
		tpstat_probe_update(probe);
	}
	mutex_unlock(&tpstat_mutex);

	err = tpstat_debugfs_add_set(set);
	if (err)
		tpstat_set_unregister(set);
	return err;

free_probes:
	tpstat_set_free_probes(set);
	return err;
}
EXPORT_SYMBOL_GPL(tpstat_set_register);

void tpstat_set_unregister(struct tpstat_set *set)
{
	tpstat_debugfs_remove_set(set);

	mutex_lock(&tpstat_mutex);
	list_del(&set->node);
	mutex_unlock(&tpstat_mutex);

	tpstat_set_free_probes(set);
}
EXPORT_SYMBOL_GPL(tpstat_set_unregister);

static int tpstat_check_name(struct tpstat_set *set, const char *name)
{
	if (tpstat_name_valid(name))
		return 0;
	pr_err("tpstat: %s: a tracepoint name is an identifier of at most %d characters\n",
	       set->name, TPSTAT_NAME_MAX);
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
	err = tpstat_probe_init(probe, set);
	if (err)
		goto free_name;

	mutex_lock(&tpstat_mutex);
	if (tpstat_probe_find(set, name)) {
		mutex_unlock(&tpstat_mutex);
		tpstat_probe_free(probe);
		return -EEXIST;
	}
	list_add_tail(&probe->node, &set->probe_list);
	tpstat_probe_lookup(probe);
	tpstat_probe_update(probe);
	mutex_unlock(&tpstat_mutex);
	return 0;

free_name:
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
	mutex_lock(&tpstat_mutex);
	probe = tpstat_probe_find(set, name);
	if (!probe || !probe->dynamic) {
		mutex_unlock(&tpstat_mutex);
		return -ENOENT;
	}
	tpstat_probe_detach(probe);
	list_del(&probe->node);
	mutex_unlock(&tpstat_mutex);

	tracepoint_synchronize_unregister();
	tpstat_probe_free(probe);
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
 * Zeroing per-CPU data under a probe that is writing it could leave a table
 * slot half reset, so the probes are detached first and come back after.
 * Events in between are not counted, as if the set were disabled that long.
 */
void tpstat_set_reset(struct tpstat_set *set)
{
	struct tpstat_probe *probe;

	mutex_lock(&tpstat_mutex);
	tpstat_for_each_probe(probe, set)
		tpstat_probe_detach(probe);
	tracepoint_synchronize_unregister();

	tpstat_for_each_probe(probe, set) {
		tpstat_counter_reset(&probe->hits);
		tpstat_counter_reset(&probe->dropped);
	}
	if (set->reset)
		set->reset(set);
	set->reset_ns = ktime_get_ns();

	tpstat_for_each_probe(probe, set)
		tpstat_probe_update(probe);
	mutex_unlock(&tpstat_mutex);
}

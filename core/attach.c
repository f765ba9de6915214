// SPDX-License-Identifier: GPL-2.0
/*
 * Finding tracepoints by name, in the kernel image and in modules that come
 * and go, and registering probes on them.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "internal.h"

/* A loaded module with tracepoints, as the tracepoint notifier told us. */
struct tpstat_tp_module {
	struct list_head node;
	struct module *mod;
};

static LIST_HEAD(tpstat_tp_modules);

struct tpstat_lookup {
	const char *name;
	struct tracepoint *tp;
};

static void tpstat_match_tracepoint(struct tracepoint *tp, void *priv)
{
	struct tpstat_lookup *lookup = priv;

	if (!lookup->tp && !strcmp(tp->name, lookup->name))
		lookup->tp = tp;
}

static struct tracepoint *tpstat_module_tracepoint(struct module *mod,
						   const char *name)
{
	unsigned int i;

	for (i = 0; i < mod->num_tracepoints; i++) {
		struct tracepoint *tp;

		tp = tracepoint_ptr_deref(&mod->tracepoints_ptrs[i]);
		if (!strcmp(tp->name, name))
			return tp;
	}
	return NULL;
}

/* Finds @probe's tracepoint in the kernel image, else in a loaded module. */
void tpstat_probe_lookup(struct tpstat_probe *probe)
{
	struct tpstat_lookup lookup = { .name = probe->name };
	struct tpstat_tp_module *m;

	lockdep_assert_held(&tpstat_mutex);

	for_each_kernel_tracepoint(tpstat_match_tracepoint, &lookup);
	if (lookup.tp) {
		probe->tp = lookup.tp;
		probe->tp_owner = NULL;
		return;
	}
	list_for_each_entry(m, &tpstat_tp_modules, node) {
		struct tracepoint *tp = tpstat_module_tracepoint(m->mod, probe->name);

		if (tp) {
			probe->tp = tp;
			probe->tp_owner = m->mod;
			return;
		}
	}
}

/*
 * The caller runs tracepoint_synchronize_unregister() before freeing anything
 * the probe touches: until then it may still be running on another CPU.
 */
void tpstat_probe_detach(struct tpstat_probe *probe)
{
	lockdep_assert_held(&tpstat_mutex);

	if (!probe->attached)
		return;
	/* Only fails for a probe that is not registered, which we track. */
	WARN_ON_ONCE(tracepoint_probe_unregister(probe->tp, probe->func, probe));
	probe->attached = false;
}

/* Attaches @probe if its set is enabled and its tracepoint exists. */
void tpstat_probe_update(struct tpstat_probe *probe)
{
	int err;

	lockdep_assert_held(&tpstat_mutex);

	if (!probe->set->enabled || !probe->tp) {
		tpstat_probe_detach(probe);
		return;
	}
	if (probe->attached)
		return;
	/* Before the probe can run, so it sees the new epoch (tpstat.h). */
	WRITE_ONCE(probe->set->epoch, probe->set->epoch + 1);
	probe->iter = (unsigned long)probe->tp->iterator;
	probe->iter_size = tpstat_symbol_size(probe->tp->iterator);
	err = tracepoint_probe_register(probe->tp, probe->func, probe);
	probe->error = err;
	probe->attached = !err;
	if (err)
		pr_warn("tpstat: %s: cannot attach to %s: %d\n",
			probe->set->path, probe->name, err);
}

const char *tpstat_probe_state(const struct tpstat_probe *probe)
{
	if (!probe->tp && !probe->in_module)
		return "missing";
	if (!probe->set->enabled)
		return "disabled";
	if (!probe->tp)
		return "waiting";
	return probe->attached ? "attached" : "failed";
}
EXPORT_SYMBOL_GPL(tpstat_probe_state);

static void tpstat_module_coming(struct module *mod)
{
	struct tpstat_tp_module *m;
	struct tpstat_probe *probe;
	struct tpstat_set *set;

	m = kmalloc(sizeof(*m), GFP_KERNEL);
	if (m) {
		m->mod = mod;
		list_add_tail(&m->node, &tpstat_tp_modules);
	} else {
		pr_warn("tpstat: out of memory: probes added later will not find %s's tracepoints\n",
			mod->name);
	}

	list_for_each_entry(set, &tpstat_sets, node) {
		tpstat_for_each_probe(probe, set) {
			if (probe->tp)
				continue;
			probe->tp = tpstat_module_tracepoint(mod, probe->name);
			if (!probe->tp)
				continue;
			probe->tp_owner = mod;
			tpstat_probe_update(probe);
		}
	}
}

/* Back to waiting: the module's tracepoints are about to be freed. */
static void tpstat_module_going(struct module *mod)
{
	struct tpstat_tp_module *m, *next;
	struct tpstat_probe *probe;
	struct tpstat_set *set;

	list_for_each_entry(set, &tpstat_sets, node) {
		tpstat_for_each_probe(probe, set) {
			if (!probe->tp || probe->tp_owner != mod)
				continue;
			tpstat_probe_detach(probe);
			/*
			 * The probe may still be running on another CPU: it
			 * reads what attach saved (the iterator), never @tp.
			 */
			probe->tp = NULL;
			probe->tp_owner = NULL;
		}
	}

	list_for_each_entry_safe(m, next, &tpstat_tp_modules, node) {
		if (m->mod == mod) {
			list_del(&m->node);
			kfree(m);
		}
	}
}

static int tpstat_tp_module_notify(struct notifier_block *nb,
				   unsigned long state, void *data)
{
	struct tp_module *tp_mod = data;

	mutex_lock(&tpstat_mutex);
	if (state == MODULE_STATE_COMING)
		tpstat_module_coming(tp_mod->mod);
	else if (state == MODULE_STATE_GOING)
		tpstat_module_going(tp_mod->mod);
	mutex_unlock(&tpstat_mutex);
	return NOTIFY_OK;
}

static struct notifier_block tpstat_tp_module_nb = {
	.notifier_call = tpstat_tp_module_notify,
};

/* Registering replays every loaded module with tracepoints as coming. */
int tpstat_attach_init(void)
{
	return register_tracepoint_module_notifier(&tpstat_tp_module_nb);
}

void tpstat_attach_exit(void)
{
	struct tpstat_tp_module *m, *next;

	unregister_tracepoint_module_notifier(&tpstat_tp_module_nb);
	mutex_lock(&tpstat_mutex);
	list_for_each_entry_safe(m, next, &tpstat_tp_modules, node) {
		list_del(&m->node);
		kfree(m);
	}
	mutex_unlock(&tpstat_mutex);
}

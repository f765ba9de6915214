// SPDX-License-Identifier: GPL-2.0
/*
 * Per-key time histograms for IRQ handlers and tasklet functions, each key
 * named by a registry when first seen. All of it is allocated at load.
 */
#include <linux/slab.h>

#include "irq.h"

void tpstat_irq_named_destroy(struct tpstat_irq_named *n)
{
	unsigned int i;

	if (n->ns)
		for (i = 0; i < n->keys.capacity; i++)
			tpstat_hist_destroy(&n->ns[i]);
	kfree(n->ns);
	n->ns = NULL;
	tpstat_keys_destroy(&n->keys);
	tpstat_counter_destroy(&n->dropped);
	tpstat_counter_destroy(&n->unpaired);
}

int tpstat_irq_named_init(struct tpstat_irq_named *n, unsigned int capacity)
{
	unsigned int i;
	int err;

	err = tpstat_keys_init(&n->keys, capacity);
	if (err)
		return err;
	err = -ENOMEM;
	n->ns = kcalloc(capacity, sizeof(*n->ns), GFP_KERNEL);
	if (!n->ns)
		goto destroy;
	for (i = 0; i < capacity; i++)
		if (tpstat_hist_init(&n->ns[i], "nsecs"))
			goto destroy;
	if (tpstat_counter_init(&n->dropped) ||
	    tpstat_counter_init(&n->unpaired))
		goto destroy;
	return 0;

destroy:
	tpstat_irq_named_destroy(n);
	return err;
}

void tpstat_irq_named_reset(struct tpstat_irq_named *n)
{
	unsigned int i;

	for (i = 0; i < n->keys.capacity; i++)
		tpstat_hist_reset(&n->ns[i]);
	tpstat_keys_reset(&n->keys);
	tpstat_counter_reset(&n->dropped);
	tpstat_counter_reset(&n->unpaired);
}

/* Records @ns for the key of @id, or a drop if the key did not fit. */
void tpstat_irq_named_add(struct tpstat_irq_named *n, void *data, int id,
			  u64 ns)
{
	if (id < 0) {
		tpstat_counter_inc(&n->dropped);
		tpstat_probe_drop(data);
		return;
	}
	tpstat_hist_add(&n->ns[id], ns);
}

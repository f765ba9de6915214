// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU scratch state: one area per CPU, allocated with the set and kept
 * until it goes, with no generations since a reset leaves it alone.
 */
#include <linux/module.h>
#include <linux/percpu.h>

#include "internal.h"

static struct tpstat_scratch *to_scratch(const struct tpstat_data *d)
{
	return container_of(d, struct tpstat_scratch, data);
}

static int tpstat_scratch_check(const struct tpstat_data *d, const char *set)
{
	const struct tpstat_scratch *s = to_scratch(d);

	if (s->size && s->size <= PCPU_MIN_UNIT_SIZE / 4 && is_power_of_2(s->align))
		return 0;
	pr_err("tpstat: %s: scratch state of %zu bytes aligned to %zu does not fit a per-CPU area\n",
	       set, s->size, s->align);
	return -EINVAL;
}

/* The attach count, then the state at its alignment. */
static int tpstat_scratch_setup(struct tpstat_data *d)
{
	struct tpstat_scratch *s = to_scratch(d);
	size_t align = max_t(size_t, s->align, __alignof__(unsigned int));

	s->offset = ALIGN(sizeof(unsigned int), align);
	s->epoch = &d->set->epoch;
	s->pcpu = tpstat_percpu_alloc(1, s->offset + s->size, align);
	return s->pcpu ? 0 : -ENOMEM;
}

static void tpstat_scratch_teardown(struct tpstat_data *d)
{
	struct tpstat_scratch *s = to_scratch(d);

	free_percpu(s->pcpu);
	s->pcpu = NULL;
}

static size_t tpstat_scratch_bytes(const struct tpstat_data *d)
{
	const struct tpstat_scratch *s = to_scratch(d);

	return tpstat_percpu_bytes(1, s->offset + s->size);
}

const struct tpstat_data_ops tpstat_scratch_ops = {
	.kind = TPSTAT_MEM_SCRATCH,
	.check = tpstat_scratch_check,
	.setup = tpstat_scratch_setup,
	.teardown = tpstat_scratch_teardown,
	.shared_bytes = tpstat_scratch_bytes,
};
EXPORT_SYMBOL_GPL(tpstat_scratch_ops);

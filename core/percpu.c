// SPDX-License-Identifier: GPL-2.0
/*
 * The storage of the per-CPU kinds of data (counters, histograms, worst
 * cases): @nr elements per CPU in each generation. Their ops are made by
 * TPSTAT_PERCPU_OPS() in internal.h from these.
 */
#include <linux/error-injection.h>
#include <linux/percpu.h>
#include <linux/string.h>

#include "internal.h"

/*
 * Every per-CPU allocation of the core comes here. failslab never fails
 * alloc_percpu(), so this is where fail_function makes one fail on demand
 * (the debug kernel's fault injection test): kept out of line for that.
 */
noinline void __percpu *tpstat_percpu_alloc(unsigned int nr, size_t size,
					    size_t align)
{
	return __alloc_percpu(nr * size, align);
}
ALLOW_ERROR_INJECTION(tpstat_percpu_alloc, NULL);

void tpstat_percpu_clear(void __percpu *gen, unsigned int nr, size_t size,
			 void (*init)(void *elem))
{
	unsigned int i;
	int cpu;

	for_each_possible_cpu(cpu) {
		void *area = per_cpu_ptr(gen, cpu);

		memset(area, 0, nr * size);
		for (i = 0; init && i < nr; i++)
			init(area + i * size);
	}
}

/*
 * The percpu allocator hands out whole PCPU_MIN_ALLOC_SIZE units, in an
 * area for every possible CPU, online or not.
 */
size_t tpstat_percpu_bytes(unsigned int nr, size_t size)
{
	return ALIGN((size_t)nr * size, PCPU_MIN_ALLOC_SIZE) *
	       num_possible_cpus();
}

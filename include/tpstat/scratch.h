/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-CPU scratch state: what a set's probes keep between the events that
 * begin and end something on one CPU (an IRQ handler's entry time, a stack
 * of nested frames). It is not shown and not reset; the core empties it
 * when the set's probes are attached again, since a start saved before may
 * have lost its end.
 */
#ifndef _TPSTAT_SCRATCH_H
#define _TPSTAT_SCRATCH_H

#include <linux/percpu.h>
#include <linux/string.h>
#include <linux/types.h>
#include <tpstat/data.h>

/**
 * struct tpstat_scratch - a struct of scratch state per CPU
 * @size: bytes of the state
 * @align: its alignment
 * @pcpu: private: per CPU, the attach the state belongs to, then the state
 * @offset: private: where the state starts in each CPU's area
 * @epoch: private: the set's count of attaches
 * @data: private: what the core handles
 *
 * Declare it with TPSTAT_SCRATCH(type) and list it in the set's data.
 */
struct tpstat_scratch {
	size_t size;
	size_t align;
	/* private: */
	void __percpu *pcpu;
	size_t offset;
	const unsigned int *epoch;
	struct tpstat_data data;
};

extern const struct tpstat_data_ops tpstat_scratch_ops;

#define TPSTAT_SCRATCH(type)						\
	{ .size = sizeof(type), .align = __alignof__(type),		\
	  .data.ops = &tpstat_scratch_ops }

/**
 * tpstat_scratch_this_cpu() - this CPU's state, empty if the set's probes
 *                             were attached since it was last used
 * @s: the scratch state
 *
 * For probes that run with preemption off (every tracepoint but the
 * faultable system call ones); the probes that share the state keep it
 * consistent between themselves, as for any per-CPU data: with interrupts
 * off, or by touching it only from one context.
 *
 * Return: this CPU's state, zeroed at first use and after a re-attach.
 */
static inline void *tpstat_scratch_this_cpu(struct tpstat_scratch *s)
{
	unsigned int *attach = this_cpu_ptr(s->pcpu);
	unsigned int now = READ_ONCE(*s->epoch);
	void *state = (void *)attach + s->offset;

	if (unlikely(*attach != now)) {
		memset(state, 0, s->size);
		*attach = now;
	}
	return state;
}

#endif /* _TPSTAT_SCRATCH_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * The probe every entry attaches: untyped, so that any tracepoint can be
 * counted by stack without its prototype (refused on kCFI kernels, as the
 * generic counter is), keyed by what the task and CPU say; the keys are
 * the offcpu entry's too.
 */
#include <linux/sched.h>
#include <linux/smp.h>

#include "stack.h"

/*
 * notrace: the function graph tracer would put its own return address in
 * place of the probe's, from which tpstat_stacks_add() starts the walk.
 */
notrace void tpstat_stack_probe(void *data)
{
	struct stack_entry *e = tpstat_probe_priv(data);
	struct tpstat_key key;

	tpstat_probe_hit(data);
	tpstat_stack_key(e, &key);
	/* A stack that does not fit counts in "other", which is shown. */
	tpstat_stacks_add(&e->stacks, data, &key, e->by & STACK_BY_STACK);
}

notrace void tpstat_stack_key(const struct stack_entry *e, struct tpstat_key *key)
{
	*key = (struct tpstat_key){ };
	if (e->by & STACK_BY_COMM) {
		struct tpstat_key comm = tpstat_key_comm(current->comm);

		key->w[STACK_WORD_COMM] = comm.w[0];
		key->w[STACK_WORD_COMM + 1] = comm.w[1];
	}
	if (e->by & STACK_BY_PID)
		key->w[STACK_WORD_IDS] |= (u32)current->pid;
	if (e->by & STACK_BY_TGID)
		key->w[STACK_WORD_IDS] |= (u64)(u32)current->tgid << 32;
	if (e->by & STACK_BY_CPU)
		key->w[STACK_WORD_CPU] = raw_smp_processor_id();
}

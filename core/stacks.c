// SPDX-License-Identifier: GPL-2.0
/*
 * Stack counts: entries of a stack's frames, a small key and a count, in
 * one allocation per generation, found through the index of index.h by a
 * hash of all of it, and compared whole.
 */
#include <linux/hash.h>
#include <linux/kallsyms.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/stacktrace.h>
#include <linux/string.h>

#include "index.h"
#include "internal.h"

/*
 * Frames saved beyond the depth kept: the probe's, the core's and the
 * tracepoint iterator's, which are left out.
 */
#define TPSTAT_STACK_SLACK	6

struct tpstat_stack_entry {
	atomic64_t count;
	atomic64_t sum;
	u32 hash;
	u32 nr;
	struct tpstat_key key;
	unsigned long frames[];
};

/*
 * One generation, in one allocation: the index, then capacity + 1 entries;
 * @seq tells a row's handle (tpstat_stacks_hold()) which one it is in.
 */
struct tpstat_stacks_gen {
	atomic_t used;
	u32 seq;
	u32 *index;
	void *entries;
};

/* An event's stack and key, as looked up. */
struct tpstat_stack_want {
	u32 hash;
	u32 nr;
	const struct tpstat_key *key;
	const unsigned long *frames;
};

/* Where an entry is: the table gives its size, the generation its place. */
struct tpstat_stacks_at {
	const struct tpstat_stacks *s;
	struct tpstat_stacks_gen *g;
};

static struct tpstat_stacks *to_stacks(const struct tpstat_data *d)
{
	return container_of(d, struct tpstat_stacks, data);
}

static struct tpstat_stack_entry *
tpstat_stack_entry(const struct tpstat_stacks *s, struct tpstat_stacks_gen *g,
		   unsigned int id)
{
	return g->entries + (size_t)id * s->entry_size;
}

static size_t tpstat_stacks_index_bytes(const struct tpstat_stacks *s)
{
	return ALIGN(((size_t)s->mask + 1) * sizeof(u32), SMP_CACHE_BYTES);
}

/* What a generation asks tpstat_kvmalloc() for. */
static size_t tpstat_stacks_size(const struct tpstat_stacks *s)
{
	return ALIGN(sizeof(struct tpstat_stacks_gen), SMP_CACHE_BYTES) +
	       tpstat_stacks_index_bytes(s) +
	       ((size_t)s->capacity + 1) * s->entry_size;
}

static size_t tpstat_stacks_bytes(const struct tpstat_data *d)
{
	const struct tpstat_stacks *s = to_stacks(d);

	return tpstat_kv_bytes(s->live, tpstat_stacks_size(s));
}

static int tpstat_stacks_check(const struct tpstat_data *d, const char *set)
{
	const struct tpstat_stacks *s = to_stacks(d);

	if (s->capacity && s->capacity <= TPSTAT_STACKS_MAX && s->depth &&
	    s->depth <= TPSTAT_STACK_MAX_DEPTH)
		return 0;
	pr_err("tpstat: %s: stack counts hold 1 to %d stacks of 1 to %d frames, not %u of %u\n",
	       set, TPSTAT_STACKS_MAX, TPSTAT_STACK_MAX_DEPTH, s->capacity,
	       s->depth);
	return -EINVAL;
}

static int tpstat_stacks_alloc(struct tpstat_data *d, unsigned int gen)
{
	struct tpstat_stacks *s = to_stacks(d);
	struct tpstat_stacks_gen *g;
	size_t head;

	s->mask = roundup_pow_of_two(2 * s->capacity) - 1;
	s->bits = ilog2(s->mask + 1);
	s->entry_size = ALIGN(sizeof(struct tpstat_stack_entry) +
			      s->depth * sizeof(unsigned long), sizeof(u64));
	g = tpstat_kvmalloc(1, tpstat_stacks_size(s), GFP_KERNEL);
	if (!g)
		return -ENOMEM;
	head = ALIGN(sizeof(*g), SMP_CACHE_BYTES);
	g->index = (void *)g + head;
	g->entries = (void *)g->index + tpstat_stacks_index_bytes(s);
	s->gen[gen] = g;
	return 0;
}

static void tpstat_stacks_free(struct tpstat_data *d, unsigned int gen)
{
	struct tpstat_stacks *s = to_stacks(d);

	kvfree(s->gen[gen]);
	s->gen[gen] = NULL;
}

static void tpstat_stacks_clear(struct tpstat_data *d, unsigned int gen)
{
	struct tpstat_stacks *s = to_stacks(d);
	struct tpstat_stacks_gen *g = s->gen[gen];

	atomic_set(&g->used, 0);
	g->seq = ++s->seq;
	memset(g->index, 0, tpstat_stacks_size(s) - ((void *)g->index - (void *)g));
}

static void tpstat_stacks_publish(struct tpstat_data *d, unsigned int gen)
{
	struct tpstat_stacks *s = to_stacks(d);

	tpstat_data_publish(s->live, s->gen[gen]);
}

const struct tpstat_data_ops tpstat_stacks_ops = {
	.kind = TPSTAT_MEM_TABLES,
	.check = tpstat_stacks_check,
	.alloc = tpstat_stacks_alloc,
	.free = tpstat_stacks_free,
	.clear = tpstat_stacks_clear,
	.publish = tpstat_stacks_publish,
	.bytes = tpstat_stacks_bytes,
};
EXPORT_SYMBOL_GPL(tpstat_stacks_ops);

static __always_inline bool tpstat_stack_equal(const void *owner,
					       unsigned int id, const void *arg)
{
	const struct tpstat_stacks_at *at = owner;
	const struct tpstat_stack_want *w = arg;
	const struct tpstat_stack_entry *e = tpstat_stack_entry(at->s, at->g, id);

	return e->hash == w->hash && e->nr == w->nr &&
	       tpstat_key_equal(&e->key, w->key) &&
	       !memcmp(e->frames, w->frames, w->nr * sizeof(w->frames[0]));
}

static void tpstat_stack_fill(void *owner, unsigned int id, const void *arg)
{
	const struct tpstat_stacks_at *at = owner;
	const struct tpstat_stack_want *w = arg;
	struct tpstat_stack_entry *e = tpstat_stack_entry(at->s, at->g, id);

	e->hash = w->hash;
	e->nr = w->nr;
	e->key = *w->key;
	memcpy(e->frames, w->frames, w->nr * sizeof(w->frames[0]));
}

static u32 tpstat_stack_hash(const struct tpstat_key *key,
			     const unsigned long *frames, unsigned int nr)
{
	u64 h = key->w[0];
	unsigned int i;

	h = tpstat_key_mix(h, key->w[1], 1);
	h = tpstat_key_mix(h, key->w[2], 2);
	h = tpstat_key_mix(h, key->w[3], 3);
	for (i = 0; i < nr; i++)
		h = (h ^ frames[i]) * GOLDEN_RATIO_64 + i;
	return h ^ (h >> 32);
}

static bool tpstat_stack_ours(const struct tpstat_probe *probe,
			      unsigned long addr)
{
	return within_module(addr, THIS_MODULE) ||
	       within_module(addr, probe->set->owner);
}

/* The tracepoint's iterator: the one saved at attach (tpstat.h). */
static bool tpstat_stack_iter(const struct tpstat_probe *probe,
			      unsigned long addr)
{
	return addr - probe->iter < probe->iter_size;
}

#if defined(CONFIG_X86_64) && \
	(defined(CONFIG_UNWINDER_ORC) || defined(CONFIG_UNWINDER_FRAME_POINTER))
#include <asm/unwind.h>

/* A frame left out at the top of a stack: a probe's, or the iterator's. */
static bool tpstat_stack_left_out(const struct tpstat_probe *probe,
				  unsigned long addr)
{
	return tpstat_stack_ours(probe, addr) || tpstat_stack_iter(probe, addr);
}

/*
 * Walks from the probe's caller, whose registers at the probe's return
 * @frame gives: @frame is the probe's frame address, where it saved its
 * caller's frame pointer, below the return address. Either unwinder takes
 * registers as exact, which they are at that return address, and moves to
 * the next frame at once; the frames before it (the core's, the walk's,
 * the probe's) cost nothing. What is left out is only at the top: a probe
 * frame when tpstat_stacks_add() was called from a function the probe
 * called, and the iterator when the tracepoint has more than one probe.
 * The unwinder crosses IRQ, exception and NMI stacks as stack_trace_save()
 * does, from the same state.
 */
static unsigned int tpstat_stack_walk(const struct tpstat_probe *probe,
				      const unsigned long *frame,
				      unsigned long *f, unsigned int depth)
{
	struct pt_regs regs = {
		.bp = frame[0],
		.ip = frame[1],
		.sp = (unsigned long)&frame[2],
		.cs = __KERNEL_CS,
	};
	struct unwind_state state;
	unsigned long addr = regs.ip;
	unsigned int nr = 0;

	if (!tpstat_stack_left_out(probe, addr))
		f[nr++] = addr;
	for (unwind_start(&state, current, &regs, NULL);
	     nr < depth && !unwind_done(&state); unwind_next_frame(&state)) {
		addr = unwind_get_return_address(&state);
		if (!addr)
			break;
		if (nr || !tpstat_stack_left_out(probe, addr))
			f[nr++] = addr;
	}
	return nr;
}
#else
/*
 * Saves the whole stack, then leaves out the frames at its top: any the
 * stack walk kept of its own, the core's and the probe's, and the
 * tracepoint iterator's.
 */
static unsigned int tpstat_stack_walk(const struct tpstat_probe *probe,
				      const unsigned long *frame,
				      unsigned long *f, unsigned int depth)
{
	unsigned int i = 0, nr;

	nr = stack_trace_save(f, depth + TPSTAT_STACK_SLACK, 0);
	while (i < nr && !tpstat_stack_ours(probe, f[i]))
		i++;
	if (i == nr)
		return min(nr, depth);
	while (i < nr && tpstat_stack_ours(probe, f[i]))
		i++;
	if (i < nr && tpstat_stack_iter(probe, f[i]))
		i++;
	nr = min(nr - i, depth);
	memmove(f, f + i, nr * sizeof(*f));
	return nr;
}
#endif

/*
 * The row of an event's stack and key in the live generation, which @gen
 * is set to, stored if new; @capacity, the "other" row, if it is not there
 * and cannot be: the table is full, or the event is in NMI. Preemption is
 * off, so that the generation stays until the caller enables it.
 */
static unsigned int tpstat_stacks_row_id(struct tpstat_stacks *s,
					 struct tpstat_stacks_gen **gen,
					 void *data, const struct tpstat_key *key,
					 const unsigned long *frame)
{
	unsigned long frames[TPSTAT_STACK_MAX_DEPTH + TPSTAT_STACK_SLACK];
	struct tpstat_stacks_gen *g = READ_ONCE(s->live);
	struct tpstat_stack_want want = { .key = key, .frames = frames };
	struct tpstat_stacks_at at = { .s = s, .g = g };
	unsigned long flags;
	unsigned int id;

	*gen = g;

	if (frame)
		want.nr = tpstat_stack_walk(data, frame, frames, s->depth);
	if (!s->collide)
		want.hash = tpstat_stack_hash(key, want.frames, want.nr);

	id = tpstat_index_find(g->index, s->mask, hash_32(want.hash, s->bits),
			       s->capacity, tpstat_stack_equal, &at, &want);
	if (id == s->capacity && !in_nmi() &&
	    atomic_read(&g->used) < s->capacity) {
		local_irq_save(flags);
		id = tpstat_index_claim(g->index, s->mask,
					hash_32(want.hash, s->bits), &g->used,
					s->capacity, tpstat_stack_equal,
					tpstat_stack_fill, &at, &want);
		local_irq_restore(flags);
	}
	return id;
}

/*
 * The row's id and, through @seq, its generation's; the event counted in
 * it if @count, else only held.
 */
static unsigned int tpstat_stacks_row(struct tpstat_stacks *s, void *data,
				      const struct tpstat_key *key,
				      const unsigned long *frame, bool count,
				      u32 *seq)
{
	struct tpstat_stacks_gen *g;
	unsigned int id;

	preempt_disable_notrace();
	id = tpstat_stacks_row_id(s, &g, data, key, frame);
	if (count)
		atomic64_inc(&tpstat_stack_entry(s, g, id)->count);
	*seq = g->seq;
	preempt_enable_notrace();
	return id;
}

bool __tpstat_stacks_add(struct tpstat_stacks *s, void *data,
			 const struct tpstat_key *key,
			 const unsigned long *frame)
{
	u32 seq;

	return tpstat_stacks_row(s, data, key, frame, true, &seq) < s->capacity;
}
EXPORT_SYMBOL_GPL(__tpstat_stacks_add);

u64 __tpstat_stacks_hold(struct tpstat_stacks *s, void *data,
			 const struct tpstat_key *key,
			 const unsigned long *frame)
{
	unsigned int id;
	u32 seq;

	id = tpstat_stacks_row(s, data, key, frame, false, &seq);
	/* A handle is the generation's seq above its row's id. */
	return (u64)seq << 32 | id;
}
EXPORT_SYMBOL_GPL(__tpstat_stacks_hold);

bool tpstat_stacks_add_value(struct tpstat_stacks *s, u64 handle, u64 value)
{
	struct tpstat_stack_entry *e;
	struct tpstat_stacks_gen *g;
	unsigned int id = (u32)handle;

	preempt_disable_notrace();
	g = READ_ONCE(s->live);
	/* Held in a generation a reset has dropped since: "other". */
	if (handle >> 32 != g->seq || id > s->capacity)
		id = s->capacity;
	e = tpstat_stack_entry(s, g, id);
	atomic64_inc(&e->count);
	atomic64_add(value, &e->sum);
	preempt_enable_notrace();
	return id < s->capacity;
}
EXPORT_SYMBOL_GPL(tpstat_stacks_add_value);

static void tpstat_stack_row(const struct tpstat_stacks *s,
			     struct tpstat_stacks_gen *g, unsigned int id,
			     struct tpstat_stack_row *row)
{
	const struct tpstat_stack_entry *e = tpstat_stack_entry(s, g, id);

	row->count = atomic64_read(&e->count);
	row->sum = atomic64_read(&e->sum);
	row->handle = (u64)g->seq << 32 | id;
	row->key = e->key;
	row->nr = e->nr;
	row->frames = e->frames;
}

static int tpstat_stack_row_cmp(const void *a, const void *b)
{
	const struct tpstat_stack_row *x = a, *y = b;

	if (x->sum != y->sum)
		return x->sum > y->sum ? -1 : 1;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return memcmp(&x->key, &y->key, sizeof(x->key));
}

struct tpstat_stack_row *tpstat_stacks_rows(const struct tpstat_stacks *s,
					    unsigned int *nr)
{
	struct tpstat_stacks_gen *g = READ_ONCE(s->live);
	struct tpstat_stack_row *rows;
	unsigned int i, n, room;

	*nr = 0;
again:
	room = min_t(unsigned int, atomic_read(&g->used), s->capacity);
	rows = kvmalloc_array(room + 1, sizeof(*rows), GFP_KERNEL);
	if (!rows)
		return NULL;
	for (i = 0, n = 0; i <= s->mask; i++) {
		int id = tpstat_index_read(g->index, i);

		if (id < 0)
			continue;
		/* Published since @used was read: as tpstat_keyed_rows_at(). */
		if (n == room) {
			kvfree(rows);
			goto again;
		}
		tpstat_stack_row(s, g, id, &rows[n++]);
		if (!(n & 0xff))
			cond_resched();
	}
	sort(rows, n, sizeof(*rows), tpstat_stack_row_cmp, NULL);
	tpstat_stack_row(s, g, s->capacity, &rows[n]);
	*nr = n;
	return rows;
}
EXPORT_SYMBOL_GPL(tpstat_stacks_rows);

u32 tpstat_stacks_generation(const struct tpstat_stacks *s)
{
	return READ_ONCE(s->live)->seq;
}
EXPORT_SYMBOL_GPL(tpstat_stacks_generation);

void tpstat_stacks_print_frames(struct seq_file *m,
				const struct tpstat_stack_row *row,
				const char *indent)
{
	char name[KSYM_SYMBOL_LEN];
	unsigned int i;

	for (i = 0; i < row->nr; i++) {
		tpstat_symbol_site(name, sizeof(name), (void *)row->frames[i]);
		seq_printf(m, "%s%s\n", indent, name);
	}
}
EXPORT_SYMBOL_GPL(tpstat_stacks_print_frames);

void tpstat_stacks_print_folded(struct seq_file *m,
				const struct tpstat_stack_row *row, bool after)
{
	const char *sep = after ? ";" : "";
	char name[KSYM_SYMBOL_LEN];
	unsigned int f;

	for (f = row->nr; f > 0; f--) {
		tpstat_symbol_name(name, sizeof(name), (void *)row->frames[f - 1]);
		seq_printf(m, "%s%s", sep, name);
		sep = ";";
	}
	if (!*sep)
		seq_puts(m, "[no frames]");
}
EXPORT_SYMBOL_GPL(tpstat_stacks_print_folded);

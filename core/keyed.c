// SPDX-License-Identifier: GPL-2.0
/*
 * Keyed data: ids handed out in order, found through the index of index.h,
 * and per id a histogram and counters shared by all CPUs (atomics: a key
 * is hot on one CPU at a time far more often than on many) and a count
 * per CPU.
 */
#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>

#include "index.h"
#include "internal.h"

static struct tpstat_keyed *to_keyed(struct tpstat_data *d)
{
	return container_of(d, struct tpstat_keyed, data);
}

static size_t tpstat_keyed_ids(const struct tpstat_keyed *k)
{
	return (size_t)k->capacity + 1;
}

static unsigned int tpstat_keyed_nr_hists(const struct tpstat_keyed *k)
{
	return k->nr_hists ?: 1;
}

/* The offsets of a generation's arrays, and its size. */
struct tpstat_keyed_layout {
	size_t index, entries, hists, counters, cpu_counts, bytes;
};

static void tpstat_keyed_layout(const struct tpstat_keyed *k,
				struct tpstat_keyed_layout *l)
{
	size_t ids = tpstat_keyed_ids(k);

	l->hists = ALIGN(sizeof(struct tpstat_keyed_gen), SMP_CACHE_BYTES);
	l->counters = l->hists + ids * tpstat_keyed_nr_hists(k) *
				 sizeof(struct tpstat_atomic_hist);
	l->cpu_counts = l->counters + ids * k->nr_counters * sizeof(atomic64_t);
	l->entries = l->cpu_counts +
		     (k->per_cpu ? ids * nr_cpu_ids * sizeof(local64_t) : 0);
	l->index = l->entries + ids * sizeof(struct tpstat_keyed_entry);
	l->bytes = l->index + ((size_t)k->mask + 1) * sizeof(u32);
}

static size_t tpstat_keyed_bytes(const struct tpstat_data *d)
{
	const struct tpstat_keyed *k = container_of(d, struct tpstat_keyed, data);
	struct tpstat_keyed_layout l;

	tpstat_keyed_layout(k, &l);
	return tpstat_kv_bytes(k->live, l.bytes);
}

static int tpstat_keyed_check(const struct tpstat_data *d, const char *set)
{
	const struct tpstat_keyed *k = container_of(d, struct tpstat_keyed, data);

	if (!k->capacity || k->capacity > TPSTAT_KEYED_MAX) {
		pr_err("tpstat: %s: keyed data holds 1 to %d keys, not %u\n", set,
		       TPSTAT_KEYED_MAX, k->capacity);
		return -EINVAL;
	}
	if (k->nr_counters > TPSTAT_KEYED_MAX_COUNTERS) {
		pr_err("tpstat: %s: keyed data has at most %d counters per key\n",
		       set, TPSTAT_KEYED_MAX_COUNTERS);
		return -EINVAL;
	}
	if (k->nr_hists > TPSTAT_KEYED_MAX_HISTS) {
		pr_err("tpstat: %s: keyed data has at most %d histograms per key\n",
		       set, TPSTAT_KEYED_MAX_HISTS);
		return -EINVAL;
	}
	return 0;
}

static int tpstat_keyed_alloc(struct tpstat_data *d, unsigned int gen)
{
	struct tpstat_keyed *k = to_keyed(d);
	struct tpstat_keyed_layout l;
	struct tpstat_keyed_gen *g;
	void *base;

	k->mask = roundup_pow_of_two(2 * k->capacity) - 1;
	k->bits = ilog2(k->mask + 1);
	tpstat_keyed_layout(k, &l);
	base = tpstat_kvmalloc(1, l.bytes, GFP_KERNEL);
	if (!base)
		return -ENOMEM;
	g = base;
	g->index = base + l.index;
	g->entries = base + l.entries;
	g->hists = base + l.hists;
	g->counters = base + l.counters;
	g->cpu_counts = k->per_cpu ? base + l.cpu_counts : NULL;
	k->gen[gen] = g;
	return 0;
}

static void tpstat_keyed_free(struct tpstat_data *d, unsigned int gen)
{
	struct tpstat_keyed *k = to_keyed(d);

	kvfree(k->gen[gen]);
	k->gen[gen] = NULL;
}

static void tpstat_keyed_clear(struct tpstat_data *d, unsigned int gen)
{
	struct tpstat_keyed *k = to_keyed(d);
	struct tpstat_keyed_gen *g = k->gen[gen];
	struct tpstat_keyed_layout l;
	size_t id;

	tpstat_keyed_layout(k, &l);
	memset((void *)g + l.hists, 0, l.bytes - l.hists);
	atomic_set(&g->used, 0);
	/* Never 0, which no hint holds. */
	g->seq = ++k->seq ?: ++k->seq;
	g->nr_hists = tpstat_keyed_nr_hists(k);
	g->nr_counters = k->nr_counters;
	for (id = 0; id < tpstat_keyed_ids(k) * g->nr_hists; id++) {
		tpstat_atomic_hist_clear(&g->hists[id]);
		if (!(id & 0xff))
			cond_resched();
	}
	/* The "other" row has no key of its own. */
	strscpy(g->entries[k->capacity].label, "other",
		sizeof(g->entries[k->capacity].label));
}

static void tpstat_keyed_publish(struct tpstat_data *d, unsigned int gen)
{
	struct tpstat_keyed *k = to_keyed(d);

	tpstat_data_publish(k->live, k->gen[gen]);
}

const struct tpstat_data_ops tpstat_keyed_ops = {
	.kind = TPSTAT_MEM_TABLES,
	.alloc = tpstat_keyed_alloc,
	.free = tpstat_keyed_free,
	.clear = tpstat_keyed_clear,
	.publish = tpstat_keyed_publish,
	.bytes = tpstat_keyed_bytes,
	.check = tpstat_keyed_check,
};
EXPORT_SYMBOL_GPL(tpstat_keyed_ops);

/* A key and, when it is new, its label. */
struct tpstat_keyed_new {
	const struct tpstat_key *key;
	const char *label;
};

static __always_inline bool tpstat_keyed_equal(const void *owner,
					       unsigned int id, const void *arg)
{
	const struct tpstat_keyed_gen *g = owner;
	const struct tpstat_keyed_new *new = arg;

	return tpstat_key_equal(&g->entries[id].key, new->key);
}

static void tpstat_keyed_fill(void *owner, unsigned int id, const void *arg)
{
	struct tpstat_keyed_gen *g = owner;
	const struct tpstat_keyed_new *new = arg;

	g->entries[id].key = *new->key;
	strscpy(g->entries[id].label, new->label, sizeof(g->entries[id].label));
}

/* The id of @key, or the capacity if it is not there. */
static __always_inline unsigned int
tpstat_keyed_find(const struct tpstat_keyed *k, struct tpstat_keyed_gen *g,
		  const struct tpstat_key *key)
{
	struct tpstat_keyed_new find = { .key = key };

	return tpstat_index_find(g->index, k->mask, tpstat_key_hash(key, k->bits),
				 k->capacity, tpstat_keyed_equal, g, &find);
}

/*
 * Finds @key in the live generation, preemption off. True if it is new
 * and may be registered: the caller then makes its label and calls
 * tpstat_keyed_register().
 */
static __always_inline bool
tpstat_keyed_lookup(struct tpstat_keyed *k, const struct tpstat_key *key,
		    struct tpstat_key_ref *ref)
{
	ref->gen = READ_ONCE(k->live);
	ref->id = tpstat_keyed_find(k, ref->gen, key);
	return ref->id == k->capacity && !in_nmi() &&
	       atomic_read(&ref->gen->used) < k->capacity;
}

static void tpstat_keyed_register(struct tpstat_keyed *k,
				  const struct tpstat_key *key,
				  const char *label, struct tpstat_key_ref *ref)
{
	struct tpstat_keyed_new new = { .key = key, .label = label };
	unsigned long flags;

	local_irq_save(flags);
	ref->id = tpstat_index_claim(ref->gen->index, k->mask,
				     tpstat_key_hash(key, k->bits), &ref->gen->used,
				     k->capacity, tpstat_keyed_equal,
				     tpstat_keyed_fill, ref->gen, &new);
	local_irq_restore(flags);
}

/* Histogram @i of the key, if any, and its count on this CPU. */
static __always_inline void
tpstat_keyed_record(struct tpstat_keyed *k, struct tpstat_key_ref ref,
		    unsigned int i, u64 value)
{
	if (i == TPSTAT_KEYED_NO_HIST)
		return;
	tpstat_atomic_hist_add(&ref.gen->hists[ref.id * ref.gen->nr_hists + i],
			       value);
	if (ref.gen->cpu_counts)
		local64_inc(&ref.gen->cpu_counts[smp_processor_id() *
						 tpstat_keyed_ids(k) + ref.id]);
}

static __always_inline bool
tpstat_keyed_add_known(struct tpstat_keyed *k, const struct tpstat_key *key,
		       u64 *hint, unsigned int i, u64 value,
		       struct tpstat_key_ref *ref)
{
	preempt_disable_notrace();
	if (!hint || !__tpstat_keyed_hinted(k, key, *hint, ref)) {
		if (tpstat_keyed_lookup(k, key, ref)) {
			preempt_enable_notrace();
			return false;
		}
		if (hint && ref->id < k->capacity)
			*hint = __tpstat_keyed_hint(*ref);
	}
	tpstat_keyed_record(k, *ref, i, value);
	preempt_enable_notrace();
	return true;
}

struct tpstat_key_ref __tpstat_keyed_add_known(struct tpstat_keyed *k,
					       struct tpstat_key key, u64 *hint,
					       unsigned int i, u64 value)
{
	struct tpstat_key_ref ref;

	if (!tpstat_keyed_add_known(k, &key, hint, i, value, &ref))
		ref.gen = NULL;
	return ref;
}
EXPORT_SYMBOL_GPL(__tpstat_keyed_add_known);

/* The same for a u64 key: inlined, the zero words fold away. */
bool __tpstat_keyed_add_known_u64(struct tpstat_keyed *k, u64 key, u64 value,
				  struct tpstat_key_ref *ref)
{
	struct tpstat_key wide = tpstat_key_u64(key);

	return tpstat_keyed_add_known(k, &wide, NULL, 0, value, ref);
}
EXPORT_SYMBOL_GPL(__tpstat_keyed_add_known_u64);

struct tpstat_key_ref __tpstat_keyed_add_new(struct tpstat_keyed *k,
					     struct tpstat_key key, u64 *hint,
					     unsigned int i, u64 value,
					     const char *fmt, ...)
{
	char label[TPSTAT_KEYED_LABEL_MAX];
	struct tpstat_key_ref ref;
	va_list args;

	preempt_disable_notrace();
	if (tpstat_keyed_lookup(k, &key, &ref)) {
		va_start(args, fmt);
		vsnprintf(label, sizeof(label), fmt, args);
		va_end(args);
		tpstat_keyed_register(k, &key, label, &ref);
	}
	if (hint && ref.id < k->capacity)
		*hint = __tpstat_keyed_hint(ref);
	tpstat_keyed_record(k, ref, i, value);
	preempt_enable_notrace();
	return ref;
}
EXPORT_SYMBOL_GPL(__tpstat_keyed_add_new);

struct tpstat_key_ref __tpstat_keyed_add_code(struct tpstat_keyed *k,
					      const void *addr, bool site,
					      u64 *hint, unsigned int i,
					      u64 value)
{
	struct tpstat_key key = tpstat_key_u64((unsigned long)addr);
	char label[TPSTAT_KEYED_LABEL_MAX];
	struct tpstat_key_ref ref;

	preempt_disable_notrace();
	if (tpstat_keyed_lookup(k, &key, &ref)) {
		if (site)
			tpstat_symbol_site(label, sizeof(label), addr);
		else
			tpstat_symbol_name(label, sizeof(label), addr);
		tpstat_keyed_register(k, &key, label, &ref);
	}
	if (hint && ref.id < k->capacity)
		*hint = __tpstat_keyed_hint(ref);
	tpstat_keyed_record(k, ref, i, value);
	preempt_enable_notrace();
	return ref;
}
EXPORT_SYMBOL_GPL(__tpstat_keyed_add_code);

static void tpstat_keyed_fold(const struct tpstat_keyed *k,
			      struct tpstat_keyed_gen *g, unsigned int id,
			      unsigned int hist, struct tpstat_keyed_row *row)
{
	unsigned int b;

	memset(row, 0, sizeof(*row));
	row->id = id;
	row->key = g->entries[id].key;
	row->label = g->entries[id].label;
	tpstat_hist_summary_init(&row->hist);
	tpstat_atomic_hist_merge(&g->hists[id * g->nr_hists + hist], &row->hist);
	tpstat_hist_settle(&row->hist);
	for (b = 0; b < g->nr_counters; b++)
		row->counters[b] = atomic64_read(&g->counters[id * g->nr_counters + b]);
}

static int tpstat_keyed_row_cmp_count(const void *a, const void *b)
{
	const struct tpstat_keyed_row *x = a, *y = b;

	if (x->hist.count != y->hist.count)
		return x->hist.count > y->hist.count ? -1 : 1;
	return strcmp(x->label, y->label);
}

struct tpstat_keyed_row *tpstat_keyed_rows_at(const struct tpstat_keyed *k,
					      unsigned int hist, cmp_func_t cmp,
					      unsigned int *nr)
{
	struct tpstat_keyed_gen *g = READ_ONCE(k->live);
	struct tpstat_keyed_row *rows;
	unsigned int i, n, room;

	*nr = 0;
	/* A histogram the data was not declared with is a bug of its set's. */
	if (WARN_ON_ONCE(hist >= g->nr_hists))
		return NULL;
again:
	room = min_t(unsigned int, atomic_read(&g->used), k->capacity);
	rows = kvmalloc_array(room + 1, sizeof(*rows), GFP_KERNEL);
	if (!rows)
		return NULL;
	/* Ids are published in the index once their entry is whole. */
	for (i = 0, n = 0; i <= k->mask; i++) {
		int id = tpstat_index_read(g->index, i);

		if (id < 0)
			continue;
		/*
		 * Published since @used was read: filling the rows up would
		 * leave a row of some earlier key out. Sized anew, as an id
		 * is taken before it is published; at most @capacity times.
		 */
		if (n == room) {
			kvfree(rows);
			goto again;
		}
		tpstat_keyed_fold(k, g, id, hist, &rows[n++]);
		if (!(n & 0xff))
			cond_resched();
	}
	sort(rows, n, sizeof(*rows), cmp ?: tpstat_keyed_row_cmp_count, NULL);
	tpstat_keyed_fold(k, g, k->capacity, hist, &rows[n]);
	*nr = n;
	return rows;
}
EXPORT_SYMBOL_GPL(tpstat_keyed_rows_at);

void tpstat_keyed_row_hist(const struct tpstat_keyed *k,
			   const struct tpstat_keyed_row *row, unsigned int hist,
			   struct tpstat_hist_summary *s)
{
	struct tpstat_keyed_gen *g = READ_ONCE(k->live);

	tpstat_hist_summary_init(s);
	if (!WARN_ON_ONCE(hist >= g->nr_hists))
		tpstat_atomic_hist_merge(&g->hists[row->id * g->nr_hists + hist], s);
	tpstat_hist_settle(s);
}
EXPORT_SYMBOL_GPL(tpstat_keyed_row_hist);

u64 tpstat_keyed_cpu_count(const struct tpstat_keyed *k, int cpu,
			   unsigned int id)
{
	struct tpstat_keyed_gen *g = READ_ONCE(k->live);

	if (!g->cpu_counts)
		return 0;
	return local64_read(&g->cpu_counts[cpu * tpstat_keyed_ids(k) + id]);
}
EXPORT_SYMBOL_GPL(tpstat_keyed_cpu_count);

void tpstat_keyed_print_cpu_counts(struct seq_file *m,
				   const struct tpstat_keyed *k,
				   const struct tpstat_keyed_row *row, int width)
{
	int cpu;

	tpstat_for_each_shown_cpu(cpu)
		seq_printf(m, " %*llu", width, tpstat_keyed_cpu_count(k, cpu, row->id));
	seq_putc(m, '\n');
}
EXPORT_SYMBOL_GPL(tpstat_keyed_print_cpu_counts);

void tpstat_keyed_print_hist(struct seq_file *m, const struct tpstat_keyed *k,
			     const struct tpstat_keyed_row *row)
{
	tpstat_hist_summary_print(m, &row->hist, k->unit);
}
EXPORT_SYMBOL_GPL(tpstat_keyed_print_hist);

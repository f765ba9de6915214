/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Keyed data shared by all CPUs: a registry that gives each key (a u64, or
 * up to 32 bytes: a command name, an interface name) a dense id
 * and a label when first seen, and per key a log2 histogram, a few counters
 * and a count per CPU. For what a probe sees a handful of (IRQ handlers,
 * tasklet functions, call sites, pids) and wants named after it is gone.
 * Keys beyond the capacity share one "other" row, shown, never lost.
 */
#ifndef _TPSTAT_KEYED_H
#define _TPSTAT_KEYED_H

#include <linux/atomic.h>
#include <linux/compiler_attributes.h>
#include <linux/limits.h>
#include <linux/preempt.h>
#include <linux/smp.h>
#include <asm/local64.h>
#include <linux/seq_file.h>
#include <linux/types.h>
#include <tpstat/data.h>
#include <tpstat/hist.h>
#include <tpstat/key.h>

/* Bytes of a label, with its NUL; longer labels are cut. */
#define TPSTAT_KEYED_LABEL_MAX	64

/* Keys a registry may be created with; keeps a typo from eating memory. */
#define TPSTAT_KEYED_MAX	65536

/* Counters per key beside its histograms. */
#define TPSTAT_KEYED_MAX_COUNTERS	4

/* Histograms per key. */
#define TPSTAT_KEYED_MAX_HISTS	4

/* The histogram tpstat_keyed_ref() records into: none. */
#define TPSTAT_KEYED_NO_HIST	UINT_MAX

/* private: a key and its label, as a generation keeps them */
struct tpstat_keyed_entry {
	struct tpstat_key key;
	char label[TPSTAT_KEYED_LABEL_MAX];
};

/*
 * private: one generation, in one allocation; every array has capacity + 1
 * ids. Here only for the inline paths below.
 */
struct tpstat_keyed_gen {
	atomic_t used;			/* ids handed out */
	u32 seq;			/* which generation: hints carry it */
	unsigned int nr_hists;
	unsigned int nr_counters;
	u32 *index;			/* 0 free, id + 1, or busy */
	struct tpstat_keyed_entry *entries;
	struct tpstat_atomic_hist *hists;	/* nr_hists per id */
	atomic64_t *counters;		/* nr_counters per id */
	local64_t *cpu_counts;		/* per CPU, one per id; or NULL */
};

/**
 * struct tpstat_keyed - keyed histograms and counters
 * @live: the generation probes update
 * @capacity: keys it may hold; events of further keys go to "other"
 * @unit: the histograms' unit ("nsecs")
 * @nr_counters: counters per key, up to %TPSTAT_KEYED_MAX_COUNTERS
 * @nr_hists: histograms per key, up to %TPSTAT_KEYED_MAX_HISTS; 0 for one
 * @per_cpu: keep each key's count per CPU too, for CPU columns
 *           (tpstat_keyed_cpu_count()): a u64 per key and possible CPU,
 *           counting the events recorded in any of its histograms
 * @gen: private: the live generation, and during a reset the next
 * @seq: private: generations made, so that a hint knows its own
 * @mask: private: hash slots - 1
 * @bits: private: log2 of hash slots
 * @data: private: what the core handles
 *
 * Declare it with TPSTAT_KEYED(capacity, unit, counters), or with
 * TPSTAT_KEYED_PER_CPU() for CPU columns, and list it in the set's data; a
 * module parameter may change @capacity before the set is registered.
 */
struct tpstat_keyed {
	struct tpstat_keyed_gen *live;
	unsigned int capacity;
	const char *unit;
	unsigned int nr_counters;
	unsigned int nr_hists;
	bool per_cpu;
	/* private: */
	struct tpstat_keyed_gen *gen[TPSTAT_GENERATIONS];
	u32 seq;
	unsigned int mask;
	unsigned int bits;
	struct tpstat_data data;
};

extern const struct tpstat_data_ops tpstat_keyed_ops;

#define TPSTAT_KEYED(cap, u, counters)					\
	{ .capacity = (cap), .unit = (u), .nr_counters = (counters),	\
	  .data.ops = &tpstat_keyed_ops }
#define TPSTAT_KEYED_PER_CPU(cap, u, counters)				\
	{ .capacity = (cap), .unit = (u), .nr_counters = (counters),	\
	  .per_cpu = true, .data.ops = &tpstat_keyed_ops }
/* With @hists histograms per key, for tpstat_keyed_add_hinted(). */
#define TPSTAT_KEYED_HISTS(cap, u, hists, counters)			\
	{ .capacity = (cap), .unit = (u), .nr_counters = (counters),	\
	  .nr_hists = (hists), .data.ops = &tpstat_keyed_ops }
#define TPSTAT_KEYED_HISTS_PER_CPU(cap, u, hists, counters)		\
	{ .capacity = (cap), .unit = (u), .nr_counters = (counters),	\
	  .nr_hists = (hists), .per_cpu = true,				\
	  .data.ops = &tpstat_keyed_ops }

/**
 * struct tpstat_key_ref - a key's data in one generation
 * @gen: the generation the key was found in
 * @id: the key's id there; the capacity for "other"
 *
 * A probe keeps the ref for the rest of its event, so that what it adds
 * lands in the generation it found the key in, even if a reset comes
 * in between.
 */
struct tpstat_key_ref {
	struct tpstat_keyed_gen *gen;
	unsigned int id;
};

/*
 * The out-of-line paths take the key by value and return the ref, so that
 * a probe's key stays in registers, and its frame needs no canary.
 *
 * Records @value in histogram @i of @key if it is known (or cannot be
 * added), trying *@hint first if @hint is not NULL; a ref with no
 * generation if it is new.
 */
struct tpstat_key_ref __tpstat_keyed_add_known(struct tpstat_keyed *k,
					       struct tpstat_key key, u64 *hint,
					       unsigned int i, u64 value);
bool __tpstat_keyed_add_known_u64(struct tpstat_keyed *k, u64 key, u64 value,
				  struct tpstat_key_ref *ref);

/* Registers @key, labelled by @fmt, and records @value in histogram @i. */
__printf(6, 7)
struct tpstat_key_ref __tpstat_keyed_add_new(struct tpstat_keyed *k,
					     struct tpstat_key key, u64 *hint,
					     unsigned int i, u64 value,
					     const char *fmt, ...);

/* Whether @hint still names @key in the live generation: then *@ref is it. */
static __always_inline bool
__tpstat_keyed_hinted(struct tpstat_keyed *k, const struct tpstat_key *key,
		      u64 hint, struct tpstat_key_ref *ref)
{
	struct tpstat_keyed_gen *g = READ_ONCE(k->live);
	u32 id = (u32)hint - 1;

	if ((u32)(hint >> 32) != g->seq || id >= k->capacity ||
	    !tpstat_key_equal(&g->entries[id].key, key))
		return false;
	ref->gen = g;
	ref->id = id;
	return true;
}

/*
 * Whether @key sits in its home slot of the live generation's index, as
 * most keys of an index at most half full do: then *@ref is it, found
 * inline. A slot never changes once it holds an id.
 */
static __always_inline bool
__tpstat_keyed_at_home(struct tpstat_keyed *k, const struct tpstat_key *key,
		       struct tpstat_key_ref *ref)
{
	struct tpstat_keyed_gen *g = READ_ONCE(k->live);
	/* 0 (free) and busy slots make ids at or past the capacity. */
	u32 id = smp_load_acquire(&g->index[tpstat_key_hash(key, k->bits)]) - 1;

	if (id >= k->capacity || !tpstat_key_equal(&g->entries[id].key, key))
		return false;
	ref->gen = g;
	ref->id = id;
	return true;
}

/* The hint that names where @ref is, for __tpstat_keyed_hinted(). */
static __always_inline u64 __tpstat_keyed_hint(struct tpstat_key_ref ref)
{
	return (u64)ref.gen->seq << 32 | (ref.id + 1);
}

/*
 * @key found inline, through *@hint if @hint is not NULL and still names
 * it, else at its home slot, and @value recorded in its histogram @i, and
 * counted on this CPU if the data counts per CPU (with the CPU pinned for
 * the add: faultable tracepoints call probes preemptible); *@hint then
 * names it.
 */
static __always_inline bool
__tpstat_keyed_add_inline(struct tpstat_keyed *k, const struct tpstat_key *key,
			  u64 *hint, unsigned int i, u64 value,
			  struct tpstat_key_ref *ref)
{
	if (!((hint && __tpstat_keyed_hinted(k, key, *hint, ref)) ||
	      __tpstat_keyed_at_home(k, key, ref)))
		return false;
	if (i != TPSTAT_KEYED_NO_HIST) {
		tpstat_atomic_hist_add(&ref->gen->hists[ref->id * ref->gen->nr_hists + i],
				       value);
		if (ref->gen->cpu_counts) {
			preempt_disable_notrace();
			local64_inc(&ref->gen->cpu_counts[raw_smp_processor_id() *
							  (k->capacity + 1) + ref->id]);
			preempt_enable_notrace();
		}
	}
	if (hint)
		*hint = __tpstat_keyed_hint(*ref);
	return true;
}

#define __tpstat_keyed_add(k, key, hint, i, value, fmt, ...)		\
({									\
	struct tpstat_keyed *__tpstat_k = (k);				\
	struct tpstat_key __tpstat_kv = *(key);				\
	u64 *__tpstat_hint = (hint);					\
	unsigned int __tpstat_i = (i);					\
	u64 __tpstat_v = (value);					\
	struct tpstat_key_ref __tpstat_ref;				\
									\
	if (!__tpstat_keyed_add_inline(__tpstat_k, &__tpstat_kv,	\
				       __tpstat_hint, __tpstat_i,	\
				       __tpstat_v, &__tpstat_ref)) {	\
		__tpstat_ref = __tpstat_keyed_add_known(__tpstat_k,	\
							__tpstat_kv,	\
							__tpstat_hint,	\
							__tpstat_i,	\
							__tpstat_v);	\
		if (!__tpstat_ref.gen)					\
			__tpstat_ref =					\
				__tpstat_keyed_add_new(__tpstat_k,	\
						       __tpstat_kv,	\
						       __tpstat_hint,	\
						       __tpstat_i,	\
						       __tpstat_v, fmt,	\
						       ##__VA_ARGS__);	\
	}								\
	__tpstat_ref;							\
})

/**
 * tpstat_keyed_add_key() - record @value for @key, registering it at first sight
 * @k: the keyed data
 * @key: a const struct tpstat_key *, made with tpstat_key_string(),
 *       tpstat_key_pair(), ...
 * @value: into the key's histogram
 * @fmt: printf format of the label, and its arguments, used only when
 *       @key is new: a known key costs no formatting
 *
 * Safe in any context and on all CPUs at once. A new key gets one id
 * however many CPUs meet it together. In NMI a new key is not registered
 * (a label may need kallsyms): its event goes to "other".
 *
 * Return: a struct tpstat_key_ref, where the event went, for
 * tpstat_keyed_count().
 */
#define tpstat_keyed_add_key(k, key, value, fmt, ...)			\
	__tpstat_keyed_add(k, key, NULL, 0, value, fmt, ##__VA_ARGS__)

/**
 * tpstat_keyed_add_hinted() - tpstat_keyed_add_key() into histogram @i,
 *                             with a hint where the key was last found
 * @k: the keyed data
 * @key: a const struct tpstat_key *
 * @hint: a u64 *, kept by the caller for one object whose key seldom
 *        changes (a task's command); zero at first. The key is still
 *        compared whole: a stale hint only costs the lookup it saves.
 * @i: the histogram, below the data's nr_hists
 * @value: into it
 * @fmt: printf format of the label, and its arguments, used only when
 *       @key is new
 *
 * Return: where the event went, for tpstat_keyed_count().
 */
#define tpstat_keyed_add_hinted(k, key, hint, i, value, fmt, ...)	\
	__tpstat_keyed_add(k, key, hint, i, value, fmt, ##__VA_ARGS__)

/**
 * tpstat_keyed_ref() - find @key, registering it at first sight, for its
 *                      counters alone: no histogram records anything
 * @k: the keyed data
 * @key: a const struct tpstat_key *
 * @fmt: printf format of the label, and its arguments, used only when
 *       @key is new
 *
 * Return: where the key's events go, for tpstat_keyed_count().
 */
#define tpstat_keyed_ref(k, key, fmt, ...)				\
	__tpstat_keyed_add(k, key, NULL, TPSTAT_KEYED_NO_HIST, 0, fmt,	\
			   ##__VA_ARGS__)

/**
 * tpstat_keyed_add() - tpstat_keyed_add_key() for a u64 key
 * @k: the keyed data
 * @key: any u64
 * @value: into the key's histogram
 * @fmt: printf format of the label, and its arguments, used only when
 *       @key is new
 *
 * Return: where the event went, for tpstat_keyed_count().
 */
#define tpstat_keyed_add(k, key, value, fmt, ...)			\
({									\
	struct tpstat_keyed *__tpstat_k = (k);				\
	struct tpstat_key __tpstat_key = tpstat_key_u64(key);		\
	u64 __tpstat_v = (value);					\
	struct tpstat_key_ref __tpstat_ref;				\
									\
	if (!__tpstat_keyed_add_inline(__tpstat_k, &__tpstat_key, NULL,	\
				       0, __tpstat_v, &__tpstat_ref) &&	\
	    !__tpstat_keyed_add_known_u64(__tpstat_k, __tpstat_key.w[0],	\
					  __tpstat_v, &__tpstat_ref))	\
		__tpstat_ref = __tpstat_keyed_add_new(__tpstat_k,	\
						      __tpstat_key,	\
						      NULL, 0,		\
						      __tpstat_v, fmt,	\
						      ##__VA_ARGS__);	\
	__tpstat_ref;							\
})

/*
 * Registers a code address, labelled by kallsyms, and records @value; sets
 * *@hint, if @hint is not NULL, to where the key is.
 */
struct tpstat_key_ref __tpstat_keyed_add_code(struct tpstat_keyed *k,
					      const void *addr, bool site,
					      u64 *hint, unsigned int i,
					      u64 value);

/* The same for a code address, out of line when it is not found inline. */
static __always_inline struct tpstat_key_ref
__tpstat_keyed_add_code_inline(struct tpstat_keyed *k, const void *addr,
			       bool site, u64 *hint, unsigned int i, u64 value)
{
	struct tpstat_key key = tpstat_key_u64((unsigned long)addr);
	struct tpstat_key_ref ref;

	if (__tpstat_keyed_add_inline(k, &key, hint, i, value, &ref))
		return ref;
	return __tpstat_keyed_add_code(k, addr, site, hint, i, value);
}

/**
 * tpstat_keyed_add_symbol() - tpstat_keyed_add() keyed by a code address
 * @k: the keyed data
 * @addr: a function or call site, labelled "function [module]" when first
 *        seen, while its module is surely loaded; "unknown" if kallsyms
 *        cannot name it, never the address
 * @value: into the key's histogram
 *
 * Return: where the event went, for tpstat_keyed_count().
 */
static __always_inline struct tpstat_key_ref
tpstat_keyed_add_symbol(struct tpstat_keyed *k, const void *addr, u64 value)
{
	return __tpstat_keyed_add_code_inline(k, addr, false, NULL, 0, value);
}

/**
 * tpstat_keyed_add_site() - tpstat_keyed_add_symbol() for a call site,
 *                           labelled "function+0xoff/0xsize [module]"
 * @k: the keyed data
 * @addr: the call site
 * @hint: a u64 * or NULL: set to where the site is, for a later
 *        tpstat_keyed_ref_site() of the same site (an object's free after
 *        its allocation) to find it without a lookup
 * @value: into the key's histogram
 *
 * Return: where the event went, for tpstat_keyed_count().
 */
static __always_inline struct tpstat_key_ref
tpstat_keyed_add_site(struct tpstat_keyed *k, const void *addr, u64 *hint,
		      u64 value)
{
	return __tpstat_keyed_add_code_inline(k, addr, true, hint, 0, value);
}

/**
 * tpstat_keyed_ref_site() - the row of a call site already added, for the
 *                           key's counters alone (an object's free after
 *                           its allocation): no histogram records anything
 * @k: the keyed data
 * @addr: the call site
 * @hint: a u64 * or NULL: where the site was last found, tried first
 *        inline (the key is still compared whole), and updated
 *
 * Never adds the site: naming it looks its address up in kallsyms, and by
 * now the code there may be gone (init code discarded, a module unloaded)
 * or another's. A site with no row in this generation (added before the
 * last reset) counts in "other", which needs no name.
 *
 * Return: where the key's events go, for tpstat_keyed_count().
 */
static __always_inline struct tpstat_key_ref
tpstat_keyed_ref_site(struct tpstat_keyed *k, const void *addr, u64 *hint)
{
	struct tpstat_key key = tpstat_key_u64((unsigned long)addr);
	struct tpstat_key_ref ref;

	if (!__tpstat_keyed_add_inline(k, &key, hint, TPSTAT_KEYED_NO_HIST, 0,
				       &ref))
		ref = __tpstat_keyed_add_known(k, key, hint,
					       TPSTAT_KEYED_NO_HIST, 0);
	if (!ref.gen) {
		ref.gen = READ_ONCE(k->live);
		ref.id = k->capacity;
	}
	return ref;
}

/**
 * tpstat_keyed_count_add() - add @n to counter @i of a key
 * @ref: what tpstat_keyed_add() returned for the event
 * @i: the counter, below the data's nr_counters
 * @n: how much
 */
static inline void tpstat_keyed_count_add(struct tpstat_key_ref ref,
					  unsigned int i, u64 n)
{
	atomic64_add(n, &ref.gen->counters[ref.id * ref.gen->nr_counters + i]);
}

/**
 * tpstat_keyed_count() - count one event in counter @i of a key
 * @ref: what tpstat_keyed_add() returned for the event
 * @i: the counter, below the data's nr_counters
 */
static inline void tpstat_keyed_count(struct tpstat_key_ref ref, unsigned int i)
{
	tpstat_keyed_count_add(ref, i, 1);
}

/**
 * struct tpstat_keyed_row - one key, as read
 * @id: its id; the capacity for "other"
 * @key: the key; a u64 key is @key.w[0]
 * @label: its label
 * @hist: its histogram folded (the one asked for)
 * @counters: its counters
 */
struct tpstat_keyed_row {
	unsigned int id;
	struct tpstat_key key;
	const char *label;
	struct tpstat_hist_summary hist;
	u64 counters[TPSTAT_KEYED_MAX_COUNTERS];
};

/**
 * tpstat_keyed_rows_at() - every key in use, folded, sorted by @cmp
 * @k: the keyed data
 * @hist: which of each key's histograms goes in the rows' @hist
 * @cmp: order of the rows; NULL sorts by that histogram's count, highest
 *       first
 * @nr: set to the number of rows of keys
 *
 * Return: the rows, and after them, at [*@nr], the "other" row: events of
 * keys that did not fit. To kvfree(); NULL with *@nr == 0 on -ENOMEM, the
 * only failure.
 */
struct tpstat_keyed_row *tpstat_keyed_rows_at(const struct tpstat_keyed *k,
					      unsigned int hist, cmp_func_t cmp,
					      unsigned int *nr);

/* The rows, with each key's first histogram. */
static inline struct tpstat_keyed_row *
tpstat_keyed_rows(const struct tpstat_keyed *k, cmp_func_t cmp, unsigned int *nr)
{
	return tpstat_keyed_rows_at(k, 0, cmp, nr);
}

/**
 * tpstat_keyed_row_hist() - another of a row's histograms, folded
 * @k: the keyed data the row was read from, in the same show or stats
 *     callback (so that no reset came in between)
 * @row: the row
 * @hist: which of its histograms
 * @s: where it goes
 */
void tpstat_keyed_row_hist(const struct tpstat_keyed *k,
			   const struct tpstat_keyed_row *row, unsigned int hist,
			   struct tpstat_hist_summary *s);

/**
 * tpstat_keyed_cpu_count() - events of a key on one CPU
 * @k: keyed data declared with TPSTAT_KEYED_PER_CPU()
 * @cpu: the CPU
 * @id: a row's id
 *
 * Return: the count; 0 for keyed data that keeps no count per CPU.
 */
u64 tpstat_keyed_cpu_count(const struct tpstat_keyed *k, int cpu,
			   unsigned int id);

/**
 * tpstat_keyed_print_cpu_counts() - a row's count on each shown CPU, " %*llu"
 *                                   each, then a newline
 * @m: the file
 * @k: keyed data declared with TPSTAT_KEYED_PER_CPU()
 * @row: the row
 * @width: of each column, as tpstat_print_cpu_columns() titles it
 */
void tpstat_keyed_print_cpu_counts(struct seq_file *m,
				   const struct tpstat_keyed *k,
				   const struct tpstat_keyed_row *row, int width);

/**
 * tpstat_keyed_print_hist() - a row's histogram, as tpstat_hist_print()
 * @m: the file
 * @k: the keyed data
 * @row: the row
 */
void tpstat_keyed_print_hist(struct seq_file *m, const struct tpstat_keyed *k,
			     const struct tpstat_keyed_row *row);

#endif /* _TPSTAT_KEYED_H */

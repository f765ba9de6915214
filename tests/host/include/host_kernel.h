/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The few kernel primitives the lock-free tables (core/pairs.c,
 * core/tasks.c, core/index.h) use, for building those same files on the
 * host: atomics are the compiler's __atomic builtins, with the ordering the
 * kernel's own give; a CPU is a thread (smp_processor_id() its number,
 * this_cpu_*() an atomic add on the one shared copy); in_nmi() is a flag
 * each thread sets while it plays an NMI; interrupts never come, so
 * local_irq_save() does nothing. The linux/ and asm/ headers the tables
 * include are each this one.
 */
#ifndef _HOST_KERNEL_H
#define _HOST_KERNEL_H

#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/types.h>

#define __percpu
/* glibc's <sys/cdefs.h> has __always_inline. */
#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)

#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
/* The kernel's acquire and release, as C11's. */
#define smp_load_acquire(p)	__atomic_load_n((p), __ATOMIC_ACQUIRE)
/* The kernel's acquire and release, as C11's. */
#define smp_store_release(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELEASE)

/* The value *@ptr had; @n replaced it if that was @o. */
#define __host_cmpxchg(ptr, o, n, order) ({				\
	__auto_type __ptr = (ptr);					\
	__typeof__(*__ptr) __old = (o);					\
	__atomic_compare_exchange_n(__ptr, &__old, (n), false, (order),	\
				    __ATOMIC_RELAXED);			\
	__old;								\
})
#define cmpxchg(ptr, o, n)	 __host_cmpxchg(ptr, o, n, __ATOMIC_SEQ_CST)
#define cmpxchg_acquire(ptr, o, n) __host_cmpxchg(ptr, o, n, __ATOMIC_ACQUIRE)

struct host_atomic {
	int counter;
};

#define atomic_t		struct host_atomic

#define atomic_read(v)		__atomic_load_n(&(v)->counter, __ATOMIC_RELAXED)
#define atomic_read_acquire(v)	__atomic_load_n(&(v)->counter, __ATOMIC_ACQUIRE)
#define atomic_set(v, i)	__atomic_store_n(&(v)->counter, (i), __ATOMIC_RELAXED)
#define atomic_set_release(v, i) __atomic_store_n(&(v)->counter, (i), __ATOMIC_RELEASE)
#define atomic_inc(v)		((void)__atomic_fetch_add(&(v)->counter, 1, __ATOMIC_RELAXED))
#define atomic_dec(v)		((void)__atomic_fetch_sub(&(v)->counter, 1, __ATOMIC_RELAXED))
#define atomic_cmpxchg(v, o, n)	cmpxchg(&(v)->counter, o, n)
#define atomic_cmpxchg_acquire(v, o, n) cmpxchg_acquire(&(v)->counter, o, n)

static inline int atomic_fetch_add_unless(atomic_t *v, int a, int u)
{
	int c = atomic_read(v);

	while (c != u && !__atomic_compare_exchange_n(&v->counter, &c, c + a,
						      false, __ATOMIC_SEQ_CST,
						      __ATOMIC_RELAXED))
		;
	return c;
}

struct host_atomic64 {
	s64 counter;
};

#define atomic64_t		struct host_atomic64

#define atomic64_read(v)	__atomic_load_n(&(v)->counter, __ATOMIC_RELAXED)
#define atomic64_inc(v)		((void)__atomic_fetch_add(&(v)->counter, 1, __ATOMIC_RELAXED))

/* One shared copy of every per-CPU variable, added to atomically. */
#define per_cpu_ptr(p, cpu)	((void)(cpu), (p))
#define this_cpu_add(x, n)	((void)__atomic_fetch_add(&(x), (n), __ATOMIC_RELAXED))
#define this_cpu_inc(x)		this_cpu_add(x, 1)

/* The CPU a thread plays, and whether it plays an NMI now. */
extern __thread int host_cpu;
extern __thread int host_nmi;

#define smp_processor_id()	host_cpu
#define raw_smp_processor_id()	host_cpu
#define in_nmi()		host_nmi
#define local_irq_save(flags)	((flags) = 0)
#define local_irq_restore(flags) ((void)(flags))
/* A waiter gives its turn to the thread it waits for: the test's. */
void host_cpu_relax(void);
#define cpu_relax()		host_cpu_relax()
#define cond_resched()		do { } while (0)

#define container_of(ptr, type, member)					\
	((type *)((char *)(ptr) - offsetof(type, member)))
#define min_t(type, a, b) ({						\
	type __a = (a);							\
	type __b = (b);							\
	__a < __b ? __a : __b;						\
})

#define GOLDEN_RATIO_32		0x61C88647U
#define GOLDEN_RATIO_64		0x61C8864680B583EBULL

static inline u32 hash_32(u32 val, unsigned int bits)
{
	return (val * GOLDEN_RATIO_32) >> (32 - bits);
}

static inline u32 hash_64(u64 val, unsigned int bits)
{
	return (u32)((val * GOLDEN_RATIO_64) >> (64 - bits));
}

#define hash_ptr(p, bits)	hash_64((unsigned long)(p), bits)

static inline unsigned int ilog2(unsigned long n)
{
	return 63 - __builtin_clzl(n);
}

static inline unsigned long roundup_pow_of_two(unsigned long n)
{
	return n < 2 ? 1 : 1UL << (ilog2(n - 1) + 1);
}

/* Messages go to stderr; an export declares nothing anyone uses. */
#define pr_err(...)		fprintf(stderr, __VA_ARGS__)
#define host_export(sym)	extern int __host_exported_##sym
#define EXPORT_SYMBOL_GPL	host_export

struct list_head {
	struct list_head *next, *prev;
};

struct seq_file;

static inline void seq_printf(struct seq_file *m, const char *fmt, ...)
{
	(void)m;
	(void)fmt;
}

/* Aligned as a long, so a pointer's low bit is free, as the kernel's. */
struct task_struct {
	long pid;
};

static inline void *kvcalloc(size_t n, size_t size, int gfp)
{
	return kzalloc(n * size, gfp);
}

static inline void kvfree(const void *p)
{
	kfree(p);
}

static inline void *kmemdup(const void *src, size_t len, int gfp)
{
	void *p = kzalloc(len, gfp);

	if (p)
		memcpy(p, src, len);
	return p;
}

#endif
